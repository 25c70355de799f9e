"""What fair dealing keeps: table secrets, player seeds, hand proofs and per-chat numbers."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import io
import random
from pathlib import Path

import aiosqlite
import pytest

from bot.fairness import next_deal
from bot.ops.restore import restore
from bot.store import Store
from bot.store.cli import backup
from bot.store.errors import BadInput, StorageFailure
from bot.store.fairness import table_secret
from bot.store.journal import journal_path
from bot.store.migrations import MIGRATIONS, migrate
from engine import Hand, SeatIn
from tests.store.conftest import RULES, play_hand, play_out, seated_table, start_hand

NOW = 1_700_000_000


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


async def test_hands_count_per_chat_whichever_table_dealt_them(store: Store) -> None:
    rng = random.Random(3)
    first = await seated_table(store, chat_id=-7, first_user=1)
    await play_hand(store, first, rng)
    await store.tables.close(first.id)
    other = await seated_table(store, chat_id=-8, first_user=11)
    await play_hand(store, other, rng)
    second = await seated_table(store, chat_id=-7, first_user=21)
    hand_id, _ = await start_hand(store, second, rng)
    assert (await store.hands.get(hand_id)).number == 2  # the chat's second hand
    assert await store.hands.count(second.id) == 1  # the table's first
    played = await store.history.chat_hand(-8, 1)
    assert played is not None and played.chat_id == -8
    assert await store.history.chat_hand(-8, 2) is None


async def test_a_table_secret_is_drawn_once_and_committed_to(store: Store) -> None:
    table = await seated_table(store)
    secret = await store.fairness.table(table.id)
    assert len(secret.secret) == 64 and secret.commitment == sha(secret.secret)
    commits = store.db.commits
    assert await store.fairness.table(table.id) == secret
    assert store.db.commits == commits  # read, not drawn again: nothing written
    other = await store.fairness.table((await seated_table(store, chat_id=-9,
                                                           first_user=9)).id)
    assert other.secret != secret.secret and not secret.revealed
    await store.tables.close(table.id, reveal=True)
    assert (await store.fairness.table(table.id)).revealed


async def test_a_seat_without_a_seed_gets_the_default_the_secret_fixes(store: Store) -> None:
    table = await seated_table(store, players=2)
    given = await store.fairness.deal_inputs(table.id, [1, 2])
    secret = given.secret.secret
    # Computed here from FAIRNESS.md: SHA-256 of "svara-default|SECRET|USER", 32 digits.
    defaults = [sha(f"svara-default|{secret}|{u}")[:32] for u in (1, 2)]
    assert given.nonce == 1
    assert [s.hash for s in given.seats] == [sha(d) for d in defaults]
    assert [(s.default, s.deal) for s in given.seats] == [(1, 1), (2, 1)]
    commits = store.db.commits
    again = await store.fairness.deal_inputs(table.id, [1, 2])
    assert again.seats == given.seats and again.nonce == 2
    assert store.db.commits == commits  # nothing new to fix: nothing written
    for bad in ("", "x" * 65, "tab\there"):
        with pytest.raises(BadInput):
            await store.fairness.set_seed(1, bad)
    assert await store.fairness.seed(1) is None
    for good in ("x", "y" * 64):  # one character to 64
        await store.fairness.set_seed(1, good)
        assert await store.fairness.seed(1) == good


async def test_a_seed_set_between_hands_does_not_change_the_table_it_sits_at(
        store: Store) -> None:
    table = await seated_table(store, players=3)
    first = await store.fairness.deal_inputs(table.id, [1, 2])
    await store.fairness.set_seed(1, "my own words")
    await store.fairness.set_seed(3, "a latecomer's")
    # Ana has been dealt here: her new seed counts at later tables; the latecomer's here.
    assert await store.fairness.fixed(table.id, 1)
    assert not await store.fairness.fixed(table.id, 3)
    later = await store.fairness.deal_inputs(table.id, [1, 2, 3])
    assert later.seats[:2] == first.seats
    assert await store.fairness.fixed(table.id, 3)
    # The latecomer's own seed counts from his first deal, and says which one that was.
    assert (later.seats[2].hash, later.seats[2].default, later.seats[2].deal) == (
        sha("a latecomer's"), None, 2)
    await store.tables.close(table.id)
    other = await seated_table(store, chat_id=-9, players=2)
    seats = (await store.fairness.deal_inputs(other.id, [1, 2])).seats
    assert seats[0].hash == sha("my own words") and seats[0].default is None


async def test_the_nonce_counts_the_tables_deals_and_the_proof_is_kept(store: Store) -> None:
    rng = random.Random(5)
    table = await seated_table(store, players=2)
    await play_hand(store, table, rng)
    given = await store.fairness.deal_inputs(table.id, [1, 2])
    assert given.nonce == 2
    hand_id, _ = await start_hand(store, table, rng)
    assert await store.fairness.proof(hand_id) is None  # dealt without a proof
    hashes = [s.hash for s in given.seats]
    await store.hands.abort(hand_id, "test")
    seats = await store.tables.seats(table.id)
    again = Hand.start(RULES, [SeatIn(s.user_id, s.stack) for s in seats], 0, b"k" * 32)
    with_proof = await store.hands.open(table.id, again, (3, hashes))
    proof = await store.fairness.proof(with_proof)
    assert proof is not None and proof.nonce == 3 and proof.seeds == tuple(hashes)
    assert proof.secret is None and not proof.closed  # not before the table closes
    # Kept without where each seed came from: the first version of the scheme.
    assert (proof.version, proof.defaults, proof.fixed) == (1, (), ())
    await store.hands.abort(with_proof, "test")
    await store.tables.close(table.id, reveal=True)
    proof = await store.fairness.proof(with_proof)
    assert proof is not None and proof.secret is not None
    assert sha(proof.secret) == proof.table_commitment


async def test_the_migration_numbers_existing_hands_per_chat(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await migrate(conn, path=str(path), target=12)
        await conn.execute(f"INSERT INTO users (id, name, created_at, updated_at)"
                           f" VALUES (7, 'Ana', {NOW}, {NOW})")
        # Two tables of one chat and one of another, their hands numbered per table.
        for chat, status in ((-5, "closed"), (-6, "lobby"), (-5, "lobby")):
            await conn.execute(f"INSERT INTO tables (chat_id, creator, rules, created_at, status)"
                               f" VALUES ({chat}, 7, '{{}}', {NOW}, '{status}')")
        for table, number in ((1, 1), (2, 1), (1, 2), (3, 1), (3, 2), (2, 2)):
            await conn.execute(
                "INSERT INTO hands (table_id, number, start, commitment, started_at, status)"
                f" VALUES ({table}, {number}, '{{}}', '', {NOW}, 'aborted')")
    store = await Store.open(path)
    try:
        rows = await store.db.fetchall("SELECT id, number FROM hands ORDER BY id")
        # Chat -5 dealt hands 1, 3, 4, 5 (tables 1 and 3); chat -6 hands 2 and 6.
        assert [(int(r[0]), int(r[1])) for r in rows] == [
            (1, 1), (2, 1), (3, 2), (4, 3), (5, 4), (6, 2)]
        assert MIGRATIONS[12].version == 13
    finally:
        await store.close()


async def _deal_and_play(store: Store, table_id: int, rng: random.Random) -> tuple[bytes, str]:
    """One hand dealt as the bot deals it (key, proof), played out; its key and the
    commitment of its first deck."""
    seats = await store.tables.seats(table_id)
    deal = await next_deal(store, table_id, [s.user_id for s in seats])
    hand = Hand.start(RULES, [SeatIn(s.user_id, s.stack) for s in seats], 0, deal.key)
    hand_id, _ = await store.hands.open_numbered(table_id, hand, (deal.nonce, deal.seeds),
                                                 seats=deal.seats)
    commitment = hand.commitment
    await play_out(store, hand_id, hand, rng)
    return deal.key, commitment


async def test_a_restored_backup_never_deals_a_seen_deck(tmp_path: Path) -> None:
    path, copy = tmp_path / "svara.sqlite3", tmp_path / "earlier.sqlite3"
    rng = random.Random(8)
    store = await Store.open(path)
    table = await seated_table(store, players=2)
    await _deal_and_play(store, table.id, rng)
    await store.close()
    assert await asyncio.to_thread(backup, path, copy) == 0  # taken after hand 1
    store = await Store.open(path)
    seen = [await _deal_and_play(store, table.id, rng) for _ in range(2)]
    await store.close()
    out, err = io.StringIO(), io.StringIO()
    assert await asyncio.to_thread(lambda: restore(copy, path, out=out, err=err)) == 0, err
    store = await Store.open(path)
    try:
        assert await store.hands.count(table.id) == 1  # the restore took hands 2 and 3 away
        key, commitment = await _deal_and_play(store, table.id, rng)
        assert key not in {k for k, _ in seen}
        assert commitment not in {c for _, c in seen}
        last = await store.hands.last(table.id)
        assert last is not None
        proof = await store.fairness.proof(last.id)
        # The numbers the lost hands had are skipped, and the proof shows the gap.
        assert proof is not None and proof.nonce == 4 and proof.missing == (2, 3)
        assert (await store.audit()).ok
    finally:
        await store.close()


async def test_a_deal_journal_that_cannot_be_written_deals_nothing(tmp_path: Path) -> None:
    path = tmp_path / "svara.sqlite3"
    store = await Store.open(path)
    try:
        table = await seated_table(store, players=2)
        await store.fairness.table(table.id)
        store.fairness.journal.close()
        journal_path(path).unlink(missing_ok=True)
        journal_path(path).mkdir()  # where the file should be: nothing can be written
        with pytest.raises(StorageFailure):
            await next_deal(store, table.id, [1, 2])
    finally:
        await store.close()


async def test_the_proof_says_whose_seed_is_his_own_and_whose_follows_from_the_secret(
        store: Store) -> None:
    rng = random.Random(4)
    table = await seated_table(store, players=2)
    await store.fairness.set_seed(1, "Ana's words")
    await _deal_and_play(store, table.id, rng)
    await _deal_and_play(store, table.id, rng)  # the seeds fixed at the first deal, read back
    for number in (1, 2):
        hand = await store.history.chat_hand(-1001, number)
        assert hand is not None
        proof = await store.fairness.proof(hand.row.id)
        assert proof is not None and proof.version == 2
        # Ana's seed is her own; Bo's is his default, both fixed at the first deal.
        assert (proof.defaults, proof.fixed) == ((None, 2), (1, 1))


async def test_a_deal_whose_hand_was_never_stored_shows_as_missing(store: Store) -> None:
    table = await seated_table(store, players=2)
    lost = await store.fairness.deal_inputs(table.id, [1, 2])  # the process stopped here
    assert lost.nonce == 1
    await _deal_and_play(store, table.id, random.Random(6))
    last = await store.hands.last(table.id)
    assert last is not None
    proof = await store.fairness.proof(last.id)
    assert proof is not None and proof.nonce == 2 and proof.missing == (1,)


async def test_a_table_that_opened_keeping_its_secret_keeps_it_at_its_close(
        store: Store) -> None:
    for user in (1, 2):
        await store.users.ensure(user, f"player {user}", starting_chips=1000)
    table = await store.tables.open(-1001, creator=1, rules={**RULES.to_json(), "reveal": False},
                                    draw=store.fairness.draw)
    for user in (1, 2):
        await store.tables.join(table.id, user, 500)
    await _deal_and_play(store, table.id, random.Random(7))
    # The close asks for the secret to come out: the table's own choice holds.
    await store.tables.close(table.id, reveal=True)
    last = await store.hands.last(table.id)
    assert last is not None
    proof = await store.fairness.proof(last.id)
    assert proof is not None and proof.secret is None and proof.closed


async def test_a_table_secret_is_drawn_once_and_only_as_64_lowercase_hex_digits(
        store: Store) -> None:
    table = await seated_table(store, players=2)
    for bad in ("X" * 64, "a" * 63, "A" * 64):
        with pytest.raises(BadInput):
            await store.db.write(functools.partial(table_secret, table_id=table.id,
                                                   draw=functools.partial(str, bad)))
    first = await store.db.write(lambda conn: table_secret(conn, table.id, lambda: "a" * 64))
    # Asked again (two first deals at once): the secret drawn first holds.
    again = await store.db.write(lambda conn: table_secret(conn, table.id, lambda: "b" * 64))
    assert first.secret == again.secret == "a" * 64
    assert (await store.fairness.table(table.id)).secret == "a" * 64
