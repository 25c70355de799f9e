"""The store bench writes what the bot writes, and counts commits and units apart."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.bench.store import MIXES, bench_store, make_scripts


async def test_one_table_commits_each_unit_and_the_bot_mix_writes_waits_and_cards(
        tmp_path: Path) -> None:
    scripts = make_scripts(3)
    run = await bench_store(tmp_path / "one.sqlite3", scripts, 1, MIXES["bot"])
    # Per hand: the start, a record per action but the last, and the settle with it.
    assert run.units == sum(1 + len(s.steps) for s in scripts)
    assert run.transactions == run.units  # one table alone: nothing comes together
    with sqlite3.connect(tmp_path / "one.sqlite3") as conn:
        assert [r[0] for r in conn.execute("SELECT cards_sent FROM hands")] == [1, 1, 1]
        (wait,) = conn.execute("SELECT wait FROM tables").fetchone()
    assert '"kind":"turn"' in wait


async def test_tables_playing_at_once_share_commits_and_bare_writes_only_the_hand(
        tmp_path: Path) -> None:
    scripts = make_scripts(2)
    run = await bench_store(tmp_path / "four.sqlite3", scripts, 4, MIXES["bare"])
    assert run.units == 4 * sum(1 + len(s.steps) for s in scripts)
    assert run.transactions < run.units
    with sqlite3.connect(tmp_path / "four.sqlite3") as conn:
        assert {r[0] for r in conn.execute("SELECT cards_sent FROM hands")} == {0}
        assert {r[0] for r in conn.execute("SELECT wait FROM tables")} == {None}
