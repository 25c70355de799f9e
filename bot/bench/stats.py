"""Benchmark (not a test): /top and /stats queries over 10,000 hands in one chat.

``python -m bot.bench.stats [--hands N]`` fills a fresh database with ``hand_players``
rows (8 regulars, 3 to 6 of them per hand), then times the leaderboard, the player's
figures and the chart series. The indexes ``hand_players_by_chat`` (chat_id, user_id, net,
won, pot: /top reads the index alone) and ``hand_players_by_user`` (user_id, hand_id:
/stats walks one player's rows in hand order) make these fast.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.charts import chips_chart
from bot.store.sql import Conn
from bot.store.store import Store

CHAT = -1001


async def _fill(store: Store, hands: int, rng: random.Random) -> None:
    async def work(conn: Conn) -> None:
        await conn.execute("INSERT INTO chats (id, created_at, updated_at) VALUES (?, 0, 0)",
                           (CHAT,))
        for u in range(1, 9):
            await conn.execute("INSERT INTO users (id, name, created_at, updated_at)"
                               " VALUES (?, ?, 0, 0)", (u, f"Player {u}"))
        await conn.execute("INSERT INTO tables (id, chat_id, creator, rules, created_at)"
                           " VALUES (1, ?, 1, '{}', 0)", (CHAT,))
        rows = []
        for h in range(1, hands + 1):
            await conn.execute("INSERT INTO hands (id, table_id, number, start, commitment,"
                               " started_at, status) VALUES (?, 1, ?, '{}', '', ?, 'settled')",
                               (h, h, h * 60))
            players = rng.sample(range(1, 9), rng.randint(3, 6))
            pot = 10 * len(players) + rng.randint(0, 400)
            winner = players[0]
            for p in players:
                net = pot if p == winner else -rng.randint(10, 100)
                rows.append((h, p, CHAT, net, int(p == winner), 0, 0, rng.randint(10, 34),
                             pot, h * 60))
        await conn.executemany(
            "INSERT INTO hand_players (hand_id, user_id, chat_id, net, won, svara, svara_won,"
            " points, pot, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)

    await store.db.write(work)


async def _time(label: str, job: Callable[[], Awaitable[object]], runs: int = 20) -> None:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        await job()
        best = min(best, time.perf_counter() - start)
    print(f"{label:<28} best of {runs}: {best * 1000:7.2f} ms")


async def main(hands: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        try:
            await _fill(store, hands, random.Random(1))
            history = store.history
            await _time(f"/top ({hands} hands)", lambda: history.leaderboard(CHAT, 3))
            await _time("/top all", lambda: history.leaderboard(None, 3))
            await _time("/stats figures", lambda: history.player(3, CHAT))
            await _time("/stats chart series", lambda: history.chips_over_time(3, CHAT))
            series = await history.chips_over_time(3, CHAT)
            start = time.perf_counter()
            png = await asyncio.to_thread(chips_chart, series, "Player 3", "Bench", "Net chips")
            print(f"{'/stats chart PNG':<28} one run: {(time.perf_counter() - start) * 1000:7.2f}"
                  f" ms, {len(series)} points, {len(png)} bytes")
        finally:
            await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=10_000)
    asyncio.run(main(parser.parse_args().hands))
