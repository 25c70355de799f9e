"""Benchmark: settled hands per second against raw SQLite commits on the same disk.

Run ``python -m bot.store.bench [--dir DIR] [--hands N] [--tables T]``. Hands are played
by the engine beforehand (so only storage is timed) and then persisted exactly as the
bot does: `Hands.open` (start + antes), `Hands.record` per action, and `Hands.settle`
with the last action. Each figure is compared with raw ``sqlite3`` single-row inserts,
one commit each, in WAL mode at the same ``synchronous`` level, giving how many raw
commits one settled hand costs.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.store.db import Synchronous
from bot.store.store import Store
from engine import Act, Action, Event, Hand, Rules, SeatIn
from engine.simulate import random_action

RULES = Rules(ante=10)
PLAYERS = (1, 2, 3, 4)
STACK = 1_000_000


@dataclass(frozen=True, slots=True)
class Script:
    """One hand as the bot would persist it: the start, the steps, the end."""

    started: Hand
    steps: tuple[tuple[Action, tuple[Event, ...]], ...]
    final: Hand


def _calm(hand: Hand, rng: random.Random) -> Action:
    # Small bets and nobody leaving, so stacks never run dry and seats never change.
    for _ in range(100):
        action = random_action(hand, rng)
        if action.act not in (Act.LEAVE, Act.TIMEOUT, Act.ALL_IN):
            break
    legal = hand.legal(action.seat) if action.seat is not None else None
    if action.act is Act.RAISE and legal is not None and legal.raise_to is not None:
        return Action(Act.RAISE, action.seat, legal.raise_to[0])
    if action.act is Act.BLIND and legal is not None and legal.blind is not None:
        return Action(Act.BLIND, action.seat, legal.blind[0])
    return action


def make_scripts(count: int, seed: int = 7) -> list[Script]:
    """``count`` consecutive hands at one table of four, played by the engine."""
    rng = random.Random(seed)
    stacks = {p: STACK for p in PLAYERS}
    scripts = []
    for n in range(count):
        seats = [SeatIn(p, stacks[p]) for p in PLAYERS]
        seed_bytes = rng.randbytes(16)
        started = Hand.start(RULES, seats, n % len(seats), seed_bytes)
        hand = Hand.start(RULES, seats, n % len(seats), seed_bytes)
        steps = []
        while not hand.is_over:
            action = _calm(hand, rng)
            steps.append((action, hand.apply(action)))
        stacks = dict(hand.stacks)
        scripts.append(Script(started, tuple(steps), hand))
    return scripts


async def _play_table(store: Store, table_id: int, scripts: Sequence[Script]) -> None:
    for s in scripts:
        hand_id = await store.hands.open(table_id, s.started)
        for action, events in s.steps[:-1]:
            await store.hands.record(hand_id, action, events)
        last_action, last_events = s.steps[-1]
        await store.hands.settle(hand_id, s.final, action=last_action, events=last_events)


async def bench_store(
    path: Path,
    scripts: Sequence[Script],
    tables: int,
    synchronous: Synchronous,
    step_synchronous: Synchronous | None,
) -> tuple[float, int, int]:
    """Settled hands per second; also the commits and units of work it took."""
    store = await Store.open(path, synchronous=synchronous, step_synchronous=step_synchronous)
    try:
        ids = []
        for p in PLAYERS:
            await store.users.ensure(p, f"bench {p}", starting_chips=STACK * tables)
        for t in range(tables):
            table = await store.tables.open(-1000 - t, creator=PLAYERS[0], rules=RULES.to_json())
            for p in PLAYERS:
                await store.tables.join(table.id, p, STACK)
            ids.append(table.id)
        commits, units = store.db.stats.commits, store.db.stats.units
        started = time.perf_counter()
        await asyncio.gather(*(_play_table(store, t, scripts) for t in ids))
        elapsed = time.perf_counter() - started
        report = await store.audit()
        if not report.ok:
            raise SystemExit(f"bench database failed its audit: {report.violations[:3]}")
        return (tables * len(scripts) / elapsed, store.db.stats.commits - commits,
                store.db.stats.units - units)
    finally:
        await store.close()


def bench_raw(path: Path, synchronous: Synchronous, seconds: float) -> float:
    """Raw sqlite3: single-row inserts per second, one commit each, WAL."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute(f"PRAGMA synchronous = {synchronous}")
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
        n, started = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - started) < seconds:
            for _ in range(50):
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("INSERT INTO t (v) VALUES (?)", ("x" * 40,))
                conn.execute("COMMIT")
            n += 50
        return n / elapsed
    finally:
        conn.close()


def _fresh(workdir: Path, name: str) -> Path:
    path = workdir / name
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return path


async def run(workdir: Path, hands: int, tables: int, seconds: float) -> None:
    scripts = make_scripts(hands)
    steps = sum(len(s.steps) for s in scripts) / len(scripts)
    print(f"SQLite {sqlite3.sqlite_version}, WAL mode, scratch files in {workdir}")
    print(f"{hands} scripted hands per table, 4 players, {steps:.1f} actions per hand: "
          f"1 start + {steps - 1:.1f} action steps + 1 settle (with the last action)")
    # The disk's speed drifts (other processes share it), so every store figure is put
    # next to a raw figure measured just before it, at the same synchronous level.
    configs: list[tuple[str, Synchronous, Synchronous | None]] = [
        ("synchronous=NORMAL", "NORMAL", None),
        ("synchronous=FULL", "FULL", None),
        ("synchronous=FULL, steps NORMAL", "FULL", "NORMAL"),
    ]
    for count in sorted({1, tables}):
        label = "1 table" if count == 1 else f"{count} tables playing at once"
        print(f"settled hands per second, {label}:")
        for name, level, steps_level in configs:
            raw = bench_raw(_fresh(workdir, f"raw-{count}-{name}.sqlite3"), level, seconds)
            path = _fresh(workdir, f"store-{count}-{level}-{steps_level}.sqlite3")
            rate, commits, units = await bench_store(path, scripts, count, level, steps_level)
            print(f"  {name:<31}: {rate:>7,.0f} hands/s | raw sqlite3 {level:<6} "
                  f"{raw:>7,.0f} commits/s | 1 hand = {raw / rate:6.2f} raw commits "
                  f"| {units / (count * hands):.1f} transactions, "
                  f"{commits / (count * hands):.2f} commits per hand")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.store.bench", description=__doc__)
    parser.add_argument("--dir", type=Path, default=Path.cwd(),
                        help="where to put the scratch databases (default: here)")
    parser.add_argument("--hands", type=int, default=150, help="hands per table")
    parser.add_argument("--tables", type=int, default=8, help="tables playing at once")
    parser.add_argument("--seconds", type=float, default=1.0, help="duration of each raw run")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix=".store-bench-", dir=args.dir))
    try:
        asyncio.run(run(workdir, args.hands, args.tables, args.seconds))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

