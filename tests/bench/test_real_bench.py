"""The real-limits bench at a tiny scale, so that what it counts cannot rot unseen.

Two tables, two hands each, the bot in its own process as production starts it, on a
clock eight times faster. The stand-in is told to drop every private message to one
player once his table has dealt; the bench must count those as lost and nothing else.
Nothing here looks at how long anything took.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
from collections import Counter

import pytest

from bot.bench.limits import run_counts
from bot.bench.real import Plan, RealTable
from bot.bench.real_report import RealResult
from bot.sandbox.faults import Fault
from bot.sandbox.transcript import Call

GROUP_LIMITED = frozenset({"sendMessage", "editMessageText", "editMessageReplyMarkup",
                           "pinChatMessage", "unpinChatMessage"})
HEADLINE = re.compile(
    r"real limits: tables (\d+), answer p99 (\d+) ms, screen lag p99 (\d+\.\d) s, "
    r"group calls/min max (\d+), 429s (\d+), lost (\d+), messages/hand (\d+\.\d)")


def busiest_minute(times: list[float]) -> int:
    return max((sum(1 for t in times if end - 60.0 < t <= end) for end in times), default=0)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[RealResult, list[str], int]:
    deaf: list[int] = []

    def drop_his_private_messages(table: RealTable) -> None:
        if table.number == 1:
            chat = table.players[0].dm
            deaf.append(chat.id)
            table.server.faults.fail_next("sendMessage", Fault.drop(), times=10_000,
                                          chat_id=chat.id)

    plan = Plan(scale=8.0, cap=600.0, slow_share=0.0, cards_share=1.0,
                dealt=drop_his_private_messages)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        results = asyncio.run(run_counts([2], 2, 1, tmp_path_factory.mktemp("bench"), plan))
    assert len(deaf) == 1, "table 1 never dealt"
    return results[0], out.getvalue().splitlines(), deaf[0]


def test_the_last_line_is_the_headline_of_the_figures(
        run: tuple[RealResult, list[str], int]) -> None:
    result, lines, _ = run
    found = HEADLINE.fullmatch(lines[-1])
    assert found is not None, lines[-1]
    assert int(found[1]) == 2
    assert (int(found[4]), int(found[5]), int(found[6])) == (
        result.group_max, result.too_many, result.losses.lost)
    assert any("load average" in line for line in lines)
    assert result.bot_exit == 0
    assert result.hands_dealt >= 4


def test_dropped_private_messages_are_counted_lost_and_nothing_else(
        run: tuple[RealResult, list[str], int]) -> None:
    result, _, deaf = run
    calls = result_calls(run)
    dropped = {str(c.params["text"]) for c in calls
               if c.chat_id == deaf and c.method == "sendMessage" and c.fault == "drop"}
    assert dropped, "no private message of the dropped player was sent after the deal"
    assert result.losses.lost == len(dropped)


def test_pins_count_against_the_group_and_only_where_the_bot_is_admin(
        run: tuple[RealResult, list[str], int]) -> None:
    result, _, _ = run
    calls = result_calls(run)
    pinned = {c.chat_id for c in calls if c.method == "pinChatMessage" and c.ok}
    assert len(pinned) == 1 and result.pins["groups"] == 1
    assert result.pins["pinChatMessage"] >= 1
    by_group: dict[int | None, list[float]] = {}
    for c in calls:
        if c.method in GROUP_LIMITED and c.chat_id is not None and c.chat_id < 0:
            by_group.setdefault(c.chat_id, []).append(c.at)
    assert result.group_calls == {g: len(times) for g, times in by_group.items()}
    assert result.group_max == max(busiest_minute(times) for times in by_group.values())


def test_429s_by_method_add_up_and_my_cards_are_pressed(
        run: tuple[RealResult, list[str], int]) -> None:
    result, _, _ = run
    calls = result_calls(run)
    refused = Counter(c.method.lower() for c in calls if c.status == 429)
    assert result.flood_methods == refused
    assert result.too_many == sum(refused.values())
    assert result.cards_presses >= 2


def test_the_bot_tells_its_transactions_when_it_stops(
        run: tuple[RealResult, list[str], int]) -> None:
    result, lines, _ = run
    assert result.log.transactions is not None and result.log.transactions > 0
    assert "Hands.record" in result.log.writers
    assert any(line.startswith("  transactions ") and "per hand" in line for line in lines)


def result_calls(run: tuple[RealResult, list[str], int]) -> list[Call]:
    return run[0].transcript


def test_the_slowest_screens_come_with_the_calls_that_took_their_groups_slots(
        run: tuple[RealResult, list[str], int]) -> None:
    result, lines, _ = run
    slowest = [line.removeprefix("  slowest      ") for line in lines
               if line.startswith("  slowest ")]
    assert len(slowest) == min(3, len(result.lags)) > 0
    assert slowest[0].startswith(f"{max(result.lags):.1f} s at table ")
    # The screen itself is the last call each line names.
    assert all(line.rsplit(", ", 1)[-1].split(" ")[-2] in ("editMessageText", "sendMessage")
               for line in slowest), slowest
