"""Benchmark: settled hands per second and the latency of each step, as the bot stores them.

Run ``python -m bot.bench.store [--dir DIR] [--hands N] [--tables T] [--mix bot|bare]``.
Hands are played by the engine beforehand (so only storage is timed) and then persisted
as the bot does, with the bot's durability settings (settles and wallets
``synchronous=FULL``, in-hand steps ``NORMAL``): `Hands.open_numbered` (start, antes and
the first wait), `Hands.record` per action and `Hands.settle` with the last action. With
``--mix bot`` (the default) each write carries what the bot writes with it: the table's
next wait with every step, and the cards sent with the first step after the deal. That
is the bot's whole in-hand mix: the real-limits bench (`python -m bot.bench --limits
real`) counts no other write per hand; the rest are once per table or player (open,
seats, the table message, the close). ``--mix bare`` writes only the hand. One table
plays alone, then ``T`` tables play at once, where the store commits together what comes
together. Transactions (commits) and units of work are counted by the database itself
(`Database.commits`, `Database.writes`). The last line compares the second figure with
what one bot token can carry: Telegram takes about 30 messages a second from a bot and a
hand costs about 19 messages, so at most 1.6 hands a second.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from bot.store.store import Store
from engine import Act, Action, Event, Hand, Rules, SeatIn
from engine.simulate import random_action

T = TypeVar("T")
RULES = Rules(ante=10)
PLAYERS = (1, 2, 3, 4)
STACK = 1_000_000
TOKEN_CEILING = 1.6
"""Hands a second one bot token can show: ~30 messages/s over ~18 messages a hand (2-6
players, reminders and My cards: `python -m bot.bench --limits real` at 60 tables)."""


@dataclass(frozen=True, slots=True)
class Mix:
    """What the bot writes with a hand's own transactions."""

    waits: bool = False
    """The table's next wait, with the start and every step (`bot.clock.Wait`)."""
    cards_sent: bool = False
    """The cards that went out, with the first step after the deal."""


MIXES = {
    "bot": Mix(waits=True, cards_sent=True),
    "bare": Mix(),
}


@dataclass(frozen=True, slots=True)
class Script:
    """One hand as the bot would persist it: the start, the steps, the end."""

    started: Hand
    steps: tuple[tuple[Action, tuple[Event, ...]], ...]
    final: Hand


@dataclass(slots=True)
class Run:
    """What one run measured."""

    hands: int
    seconds: float
    steps: list[float] = field(default_factory=list)
    """The latency of every store call, in seconds."""
    transactions: int = 0
    """Committed, as the database counted them."""
    units: int = 0
    """Units of work committed (several may share one commit)."""

    @property
    def per_hand(self) -> float:
        return self.transactions / self.hands

    @property
    def rate(self) -> float:
        return self.hands / self.seconds

    def p99_ms(self) -> float:
        ordered = sorted(self.steps)
        return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)] * 1000


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


async def _timed(run: Run, call: Awaitable[T]) -> T:
    started = time.perf_counter()
    value = await call
    run.steps.append(time.perf_counter() - started)
    return value


def _wait(mix: Mix, hand_id: int, step: int) -> str | None:
    """A wait as long as the bot's (kind, hand, turn, start, deadline, attempt)."""
    if not mix.waits:
        return None
    return (f'{{"kind":"turn","hand":{hand_id},"turn":{step * 64 + step % 4},'
            f'"started":1767225600.123,"deadline":1767225660.123,"attempt":0}}')


async def _play_table(store: Store, table_id: int, scripts: Sequence[Script], run: Run,
                      mix: Mix) -> None:
    for s in scripts:
        hand_id, _ = await _timed(run, store.hands.open_numbered(
            table_id, s.started, wait=lambda hand_id: _wait(mix, hand_id, 0)))
        for step, (action, events) in enumerate(s.steps[:-1], start=1):
            await _timed(run, store.hands.record(
                hand_id, action, events, wait=_wait(mix, hand_id, step),
                cards_sent=1 if mix.cards_sent and step == 1 else 0))
        last_action, last_events = s.steps[-1]
        await _timed(run, store.hands.settle(hand_id, s.final, action=last_action,
                                             events=last_events,
                                             wait=_wait(mix, hand_id, len(s.steps))))


async def bench_store(path: Path, scripts: Sequence[Script], tables: int,
                      mix: Mix = MIXES["bot"]) -> Run:
    """Play ``scripts`` at ``tables`` tables at once, with the bot's durability settings."""
    store = await Store.open(path, synchronous="FULL", step_synchronous="NORMAL")
    try:
        ids = []
        for p in PLAYERS:
            await store.users.ensure(p, f"bench {p}", starting_chips=STACK * tables)
        for t in range(tables):
            table = await store.tables.open(-1000 - t, creator=PLAYERS[0], rules=RULES.to_json())
            for p in PLAYERS:
                await store.tables.join(table.id, p, STACK)
            ids.append(table.id)
        run = Run(tables * len(scripts), 0.0)
        commits, units = store.db.commits, sum(store.db.writes.values())
        started = time.perf_counter()
        await asyncio.gather(*(_play_table(store, t, scripts, run, mix) for t in ids))
        run.seconds = time.perf_counter() - started
        run.transactions = store.db.commits - commits
        run.units = sum(store.db.writes.values()) - units
        report = await store.audit()
        if not report.ok:
            raise SystemExit(f"bench database failed its audit: {report.violations[:3]}")
        return run
    finally:
        await store.close()


async def run(workdir: Path, hands: int, tables: int, mix_name: str = "bot") -> None:
    mix = MIXES[mix_name]
    scripts = make_scripts(hands)
    steps = sum(len(s.steps) for s in scripts) / len(scripts)
    print(f"SQLite {sqlite3.sqlite_version} over aiosqlite, WAL, settles FULL, steps NORMAL; "
          f"scratch files in {workdir}; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{hands} scripted hands per table, 4 players, {steps:.1f} actions per hand: "
          f"1 start + {steps - 1:.1f} steps + 1 settle, each a unit of work; mix {mix_name}"
          f"{': the next wait with each, the cards sent with the first step' if mix.waits else ''}")
    last = None
    for count in sorted({1, tables}):
        label = "1 table" if count == 1 else f"{count} tables at once"
        last = await bench_store(workdir / f"store-{count}.sqlite3", scripts, count, mix)
        print(f"  {label:<18}: {last.rate:7.1f} settled hands/s, step p99 "
              f"{last.p99_ms():5.1f} ms over {len(last.steps)} steps, "
              f"{last.per_hand:.1f} transactions per hand ({last.units / last.hands:.1f} "
              f"units)")
    assert last is not None
    print(f"store: {last.rate:.0f} hands/s = {last.rate / TOKEN_CEILING:.0f}× one token's "
          f"ceiling ({TOKEN_CEILING} hands/s), step p99 {last.p99_ms():.1f} ms, "
          f"{last.per_hand:.1f} transactions per hand")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench.store", description=__doc__)
    parser.add_argument("--dir", type=Path, default=Path.cwd(),
                        help="where to put the scratch databases (default: here)")
    parser.add_argument("--hands", type=int, default=100, help="hands per table")
    parser.add_argument("--tables", type=int, default=8, help="tables playing at once")
    parser.add_argument("--mix", choices=sorted(MIXES), default="bot",
                        help="bot (default): each write with what the bot writes with "
                             "it (the next wait, the cards sent); bare: the hand's only")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix=".store-bench-", dir=args.dir))
    try:
        asyncio.run(run(workdir, args.hands, args.tables, args.mix))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
