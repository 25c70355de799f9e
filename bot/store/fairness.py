"""What fair dealing keeps: each table's secret, each seat's seed, each hand's inputs.

A table deals from a secret of its own, drawn when the table opens and published only as
its SHA-256 (the table's commitment) until the table closes; whether it is revealed then
is fixed when it is drawn (the table's ``reveal`` at its opening). A player's seed is his
own text (/seed TEXT); at a table, the seed of each seat is fixed at his first deal there
(`table_seeds`) and never changes while the table lasts: his /seed then, or, if he never
set one, a default that follows from the table secret (`engine.default_seed`), so the
commitment covers it. A hand's key is derived from the secret, the deal's number at its
table and the seats' seed hashes (`engine.deck.hand_key`); the number comes from the deal
journal (`bot.store.journal`), which no restore rewinds, so no key is dealt twice.
`hand_proofs` keeps the number, the hashes and where each seed came from, written in the
same transaction as the hand (see `Hands.open_numbered`). docs/FAIRNESS.md tells the scheme.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.records import HandProof as HandProof
from bot.store.db import Database
from bot.store.errors import BadInput
from bot.store.journal import DealJournal
from bot.store.sql import Conn, execute, fetchall, fetchone
from engine import PROOF_VERSION, default_seed, secret_commitment, seed_hash

SEED_LENGTH = 64
"""The longest seed a player may set, in characters."""


@dataclass(frozen=True, slots=True)
class TableSecret:
    secret: str
    """64 hex digits; never shown while the table plays."""
    commitment: str
    """SHA-256 of the secret's hex text: published before the table's first decision."""
    revealed: bool
    reveal: bool | None = None
    """Whether the table reveals its secret when it closes, fixed when it was drawn (None
    for a table drawn before that was kept: its close decides)."""


@dataclass(frozen=True, slots=True)
class SeatSeed:
    """A seat's seed at one table, fixed at his first deal there."""

    hash: str
    """SHA-256 of the seed, as the proof shows it."""
    default: int | None
    """The user id whose default seed (`engine.default_seed`) it is; None for his own."""
    deal: int
    """The number of the table's deal at which it was fixed (his first deal there)."""


@dataclass(frozen=True, slots=True)
class DealInputs:
    secret: TableSecret
    nonce: int
    seats: tuple[SeatSeed, ...]
    """Each player's seed at the table, in the order the deal gave the players."""


def valid_seed(text: str) -> bool:
    """A seed a player may set: 1 to 64 printable characters."""
    return 0 < len(text) <= SEED_LENGTH and text.isprintable()


async def _stored_secret(conn: Conn, table_id: int) -> TableSecret | None:
    row = await fetchone(conn, "SELECT secret, commitment, revealed, reveal FROM table_secrets"
                               " WHERE table_id = ?", (table_id,))
    if row is None:
        return None
    return TableSecret(str(row[0]), str(row[1]), bool(row[2]),
                       None if row[3] is None else bool(row[3]))


async def _next_number(conn: Conn, table_id: int) -> int:
    """The deal number the database would give the table's next hand."""
    row = await fetchone(
        conn, "SELECT count(*), ifnull(max(p.nonce), 0) FROM hands h"
              " LEFT JOIN hand_proofs p ON p.hand_id = h.id WHERE h.table_id = ?", (table_id,))
    return max(int(row[0]), int(row[1])) + 1 if row else 1


async def table_secret(conn: Conn, table_id: int, draw: Callable[[], str],
                       reveal: bool | None = None) -> TableSecret:
    """The table's secret, drawn the first time it is asked for; ``reveal`` is kept
    with it (`Tables.open` gives the table's setting)."""
    found = await _stored_secret(conn, table_id)
    if found is None:
        secret = draw()
        if len(secret) != 64 or any(c not in "0123456789abcdef" for c in secret):
            raise BadInput("a table secret is 64 lowercase hex digits")
        commitment = secret_commitment(secret)
        await execute(conn, "INSERT INTO table_secrets (table_id, secret, commitment, reveal)"
                            " VALUES (?, ?, ?, ?)",
                      (table_id, secret, commitment, None if reveal is None else int(reveal)))
        return TableSecret(secret, commitment, False, reveal)
    return found


async def stored_seeds(conn: Conn, user_ids: Sequence[int]) -> dict[int, str]:
    """The seeds the players have set (one who has none is left out)."""
    rows = await fetchall(
        conn, f"SELECT user_id, seed FROM player_seeds WHERE user_id IN"
              f" ({', '.join('?' * len(user_ids))})", tuple(user_ids))
    return {int(r[0]): str(r[1]) for r in rows}


async def _table_seeds(conn: Conn, table_id: int) -> dict[int, SeatSeed]:
    rows = await fetchall(conn, "SELECT user_id, seed_hash, own, deal FROM table_seeds"
                                " WHERE table_id = ?", (table_id,))
    return {int(r[0]): SeatSeed(str(r[1]), None if r[2] else int(r[0]), int(r[3]))
            for r in rows}


async def fix_seeds(conn: Conn, table_id: int, secret: TableSecret, user_ids: Sequence[int],
                    deal: int, at: int) -> dict[int, SeatSeed]:
    """Each player's seed at the table; one seen here for the first time has his fixed
    now, at deal number ``deal``: his /seed or else his default one, kept for as long as
    the table lasts."""
    fixed = await _table_seeds(conn, table_id)
    new = [u for u in dict.fromkeys(user_ids) if u not in fixed]
    if new:
        own = await stored_seeds(conn, new)
        for user_id in new:
            text = own.get(user_id)
            seat = SeatSeed(seed_hash(text if text is not None
                                      else default_seed(secret.secret, user_id)),
                            None if text is not None else user_id, deal)
            await execute(conn, "INSERT INTO table_seeds (table_id, user_id, seed_hash, own,"
                                " deal, fixed_at) VALUES (?, ?, ?, ?, ?, ?)",
                          (table_id, user_id, seat.hash, int(text is not None), deal, at))
            fixed[user_id] = seat
    return fixed


async def record_proof(conn: Conn, hand_id: int, nonce: int, seeds: Sequence[str],
                       seats: Sequence[SeatSeed] | None = None) -> None:
    """Keep a hand's inputs; with ``seats`` (where each seed came from) as this version."""
    about = None if seats is None else json.dumps(
        [{"d": s.default, "f": s.deal} for s in seats], separators=(",", ":"))
    await execute(conn, "INSERT INTO hand_proofs (hand_id, nonce, seeds, version, seats)"
                        " VALUES (?, ?, ?, ?, ?)",
                  (hand_id, nonce, json.dumps(list(seeds)),
                   1 if seats is None else PROOF_VERSION, about))


def _gaps(numbers: set[int], below: int) -> tuple[int, ...]:
    return tuple(n for n in range(1, below) if n not in numbers)


async def read_proof(conn: Conn, hand_id: int) -> HandProof | None:
    """A hand's inputs, with the table secret if it has been revealed (None for a hand
    dealt without them: before this scheme, or from a test's fixed seed)."""
    row = await fetchone(
        conn,
        "SELECT p.nonce, p.seeds, s.commitment, s.secret, s.revealed, t.status, p.version,"
        " p.seats, h.table_id FROM hand_proofs p"
        " JOIN hands h ON h.id = p.hand_id JOIN table_secrets s ON s.table_id = h.table_id"
        " JOIN tables t ON t.id = h.table_id WHERE p.hand_id = ?", (hand_id,))
    if row is None:
        return None
    nonce = int(row[0])
    dealt = await fetchall(conn, "SELECT p.nonce FROM hand_proofs p JOIN hands h"
                                 " ON h.id = p.hand_id WHERE h.table_id = ? AND p.nonce < ?",
                           (int(row[8]), nonce))
    seats: list[dict[str, Any]] = json.loads(row[7]) if row[7] else []
    return HandProof(nonce, tuple(json.loads(row[1])), str(row[2]),
                     str(row[3]) if row[4] else None, row[5] == "closed", int(row[6]),
                     tuple(s.get("d") for s in seats), tuple(int(s["f"]) for s in seats),
                     _gaps({int(d[0]) for d in dealt}, nonce))


class Fairness:
    """Table secrets, player seeds and hand proofs. Each method is one transaction, or only
    a read when what it needs is there already."""

    def __init__(self, db: Database, clock: Callable[[], float],
                 draw: Callable[[], str] | None = None,
                 journal: DealJournal | None = None) -> None:
        self._db = db
        self._clock = clock
        self.draw: Callable[[], str] = draw or (lambda: secrets.token_hex(32))
        """Draws a table secret (64 hex digits); `Tables.open` takes it to draw the new
        table's secret in the table's own transaction."""
        self.journal = journal or DealJournal(None)
        """Hands out deal numbers that no restore of the database rewinds."""

    async def table(self, table_id: int) -> TableSecret:
        """The table's secret and commitment (drawn now if the table has none yet: only
        then is anything written)."""
        found = await self._db.read(lambda conn: _stored_secret(conn, table_id))
        if found is not None:
            return found
        return await self._db.write(lambda conn: table_secret(conn, table_id, self.draw))

    async def deal_inputs(self, table_id: int, players: Sequence[int]) -> DealInputs:
        """What the next hand of a table is derived from: the secret, the deal number
        (the database's count plus one, or past every number the journal handed out) and
        each player's seed at the table, in the order given."""
        at = int(self._clock())

        async def look(conn: Conn) -> tuple[TableSecret | None, int, dict[int, SeatSeed]]:
            return (await _stored_secret(conn, table_id), await _next_number(conn, table_id),
                    await _table_seeds(conn, table_id))

        # Read first: a write is needed only for a secret drawn or a seed fixed now.
        secret, number, fixed = await self._db.read(look)
        if secret is None:
            secret = await self._db.write(lambda conn: table_secret(conn, table_id, self.draw))
        # The number is taken before any seed is fixed at it: no restore repeats either.
        nonce = await self.journal.take(secret.commitment, number)
        if any(p not in fixed for p in players):
            known = secret
            fixed = await self._db.write(
                lambda conn: fix_seeds(conn, table_id, known, players, nonce, at))
        return DealInputs(secret, nonce, tuple(fixed[p] for p in players))

    async def set_seed(self, user_id: int, seed: str) -> None:
        """/seed TEXT: the player's seed at every table where he has not been dealt yet."""
        if not valid_seed(seed):
            raise BadInput("a seed is 1 to 64 printable characters")
        at = int(self._clock())
        await self._db.write(lambda conn: execute(
            conn, "INSERT INTO player_seeds (user_id, seed, set_at) VALUES (?, ?, ?)"
                  " ON CONFLICT (user_id) DO UPDATE SET seed = excluded.seed,"
                  " set_at = excluded.set_at", (user_id, seed, at)))

    async def fixed(self, table_id: int, user_id: int) -> bool:
        """Whether the player's seed at the table is fixed already (he has been dealt
        there): a /seed now counts only at later tables."""
        row = await self._db.fetchone("SELECT 1 FROM table_seeds WHERE table_id = ? AND"
                                      " user_id = ?", (table_id, user_id))
        return row is not None

    async def seed(self, user_id: int) -> str | None:
        row = await self._db.fetchone("SELECT seed FROM player_seeds WHERE user_id = ?",
                                      (user_id,))
        return None if row is None else str(row[0])

    async def proof(self, hand_id: int) -> HandProof | None:
        """A hand's inputs, with the table secret if it has been revealed."""
        return await self._db.read(lambda conn: read_proof(conn, hand_id))
