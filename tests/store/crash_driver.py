"""A bot stand-in for the crash test: recovers, then plays random hands until killed.

Run as ``python -m tests.store.crash_driver DB SEED [--die-at N | --recover-only]`` from
the project root. It prints one line per recovered hand (``recovered <hand> <outcome>``),
then ``ready``, then plays forever: every start, action and settlement goes through the
store exactly as the bot would persist it. With ``--die-at N`` the process SIGKILLs
itself as SQLite begins the N-th statement on the writer connection after opening
(trigger programs count too), so the kill lands anywhere -- in recovery, between two
statements of a transaction, inside a ledger insert, before a COMMIT -- and the same
seed and N always land it at the same place.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys

from bot.store import Store, Table
from engine import Hand, Rules, SeatIn
from tests.store.conftest import play_out

RULES = Rules(ante=5)
PLAYERS = range(1, 6)
CHAT = -4242


def say(line: str) -> None:
    print(line, flush=True)


async def finish(store: Store, hand_id: int, hand: Hand, rng: random.Random) -> None:
    """Play a hand to its end, persisting every step."""
    if hand.is_over:
        # Over at the deal (everyone all-in on the ante): nothing to play, only to settle.
        await store.hands.settle(hand_id, hand)
        return
    await play_out(store, hand_id, hand, rng)


async def table_to_play(store: Store) -> Table:
    """The live table with at least two players able to pay the ante, set up if needed."""
    table = await store.tables.live(CHAT)
    if table is None:
        table = await store.tables.open(CHAT, creator=1, rules=RULES.to_json())
    seated = {s.user_id: s for s in await store.tables.seats(table.id)}
    if len(seated) == len(PLAYERS) and sum(s.stack >= RULES.ante for s in seated.values()) > 1:
        return table
    for user in PLAYERS:
        balance = await store.users.balance(user)
        if user not in seated and balance > 0:
            await store.tables.join(table.id, user, min(balance, 400))
    seats = await store.tables.seats(table.id)
    if sum(s.stack >= RULES.ante for s in seats) < 2:
        # Everyone went broke at this table: close it and stake the broke ones again.
        await store.tables.close(table.id)
        for user in PLAYERS:
            if await store.users.balance(user) < RULES.ante:
                await store.users.operator_grant(user, 500, memo="crash test restake")
        return await table_to_play(store)
    return table


async def die_at(store: Store, statements: int) -> None:
    """SIGKILL this process when SQLite begins the ``statements``-th statement from now."""
    count = 0

    def trace(_sql: str) -> None:
        nonlocal count
        count += 1
        if count >= statements:
            os.kill(os.getpid(), signal.SIGKILL)

    writer = store.db._writer  # the connection every unit of work runs on
    assert writer is not None
    await writer.set_trace_callback(trace)


async def main(path: str, seed: int, kill_at: int | None, recover_only: bool) -> None:
    rng = random.Random(seed)
    store = await Store.open(path)
    try:
        if kill_at is not None:
            await die_at(store, kill_at)
        for report in await store.recover():
            say(f"recovered {report.hand_id} {report.outcome} {report.reason or ''}")
            if report.hand is not None and not report.hand.is_over:
                await finish(store, report.hand_id, report.hand, rng)
        say("ready")
        if recover_only:
            return
        for user in PLAYERS:
            await store.users.ensure(user, f"bot {user}", starting_chips=2000)
        number = 0
        while True:
            table = await table_to_play(store)
            seats = await store.tables.seats(table.id)
            hand = Hand.start(RULES, [SeatIn(s.user_id, s.stack) for s in seats],
                              number % len(seats), rng.randbytes(16))
            hand_id = await store.hands.open(table.id, hand)
            await finish(store, hand_id, hand, rng)
            number += 1
    finally:
        await store.close()


if __name__ == "__main__":
    args = sys.argv[3:]
    kill = int(args[args.index("--die-at") + 1]) if "--die-at" in args else None
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), kill, "--recover-only" in args))
