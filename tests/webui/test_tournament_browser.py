"""The sandbox page in a real browser: computer seats play a whole tournament.

Every seat is ticked "computer" on the page; the seat played types /tournament in the
group (small stacks, a level every hand, so the antes soon outgrow them). The computers
register with Join, the one that opened the table presses Start, and they play until the
table message shows the places, the winner first. The chips' audit holds afterwards.

Needs Debian's ``chromium`` and ``chromium-driver``, as `tests.webui.test_browser`.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store
from bot.webui.run import Running
from tests.webui.background import WAIT, Background, chromium, need_a_browser, running

NAMES = ("Ana", "Boris", "Vera", "Georgi")
OVER = "The tournament is over: the pool was paid out by place."
END = 100.0
"""Seconds the tournament may take at most: a level every hand reaches an ante of 300
(more than all four stacks of 100 but one can pay) at the 9th hand."""

need_a_browser()

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium("--window-size=1100,820") as driver:
        yield driver


def _until(driver: Any, check: Any, timeout: float = WAIT) -> Any:
    return WebDriverWait(driver, timeout, poll_frequency=0.25,
                         ignored_exceptions=[StaleElementReferenceException]).until(check)


def _type(bg: Background, running: Running, driver: Any, text: str) -> None:
    """Type `text` in the group as the seat played, and wait until the bot has answered."""
    driver.find_element(By.ID, "group-input").send_keys(text)
    driver.find_element(By.CSS_SELECTOR, "#group-form button").click()
    _until(driver, lambda d: d.find_element(By.ID, "group-input").get_attribute("value") == "")
    bg.call(running.idle())


def _the_end(driver: Any) -> str | None:
    """The text of the group's table message once it says the tournament is over."""
    for message in reversed(driver.find_elements(By.CSS_SELECTOR, "#group-messages .msg")):
        text = str(message.find_element(By.CSS_SELECTOR, ".text").text)
        if text.startswith("🃏"):
            return text if OVER in text else None
    return None


async def _audit(db: Path) -> None:
    store = await Store.open(db)
    try:
        report = await store.audit()
        assert report.ok, report
        assert report.pools == 0 and report.tournament_issued == 0, report
        assert report.hands.get("settled", 0) >= 2, report
    finally:
        await store.close()


def test_computer_seats_play_a_tournament_to_its_winner(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "sandbox.sqlite3"
    # Deals drawn as in production: the computers play whatever comes.
    with running(db, players=len(NAMES), names=NAMES, seed=None) as (bg, sandbox):
        _play(bg, sandbox, browser)
    # The sandbox has stopped: its database proves every chip, real and tournament's.
    asyncio.run(_audit(db))


def _play(bg: Background, running: Running, driver: Any) -> None:
    driver.get(running.url)
    _until(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#seat-list .seat"))
           == len(NAMES))

    # Every seat to the computer, clicked on the page as a person ticks them.
    for number in range(len(NAMES)):
        def tick(d: Any, number: int = number) -> bool:
            box = d.find_elements(By.CSS_SELECTOR, "#seat-list .seat input.auto")[number]
            if not box.is_selected():
                box.click()
            return bool(d.find_elements(By.CSS_SELECTOR, "#seat-list .seat input.auto")[number]
                        .is_selected())
        _until(driver, tick)
    _until(driver, lambda d: all(running.robots.playing(s.id) for s in running.seats))

    # Ana, the group's admin, shortens the pause between hands, then opens the
    # tournament: buy-in 10, a stack of 100, the level rising every hand.
    _type(bg, running, driver, "/settings pause 1")
    _type(bg, running, driver, "/tournament 10 100 1")

    text = _until(driver, _the_end, timeout=END)
    lines = text.splitlines()
    places = next(line for line in lines if line.startswith("Places: "))
    found = re.fullmatch(r"Places: 1\. (\w+): (\d+) chips · 2\. (\w+): (\d+) chips"
                         r" · 3\. (\w+) · 4\. (\w+)", places)
    assert found, places
    winner, first, second, _, third, fourth = found.groups()
    assert sorted([winner, second, third, fourth]) == sorted(NAMES), places
    # The pool of 40 pays 65/35.
    assert (int(first), int(found[4])) == (26, 14), places
    assert f"🏅 {winner} earns 🏆 Tournament won" in lines, text
    # The page shows what the stand-in holds.
    record = next(m for m in reversed(running.group.messages)
                  if m.sender.is_bot and (m.text or "").startswith("🃏"))
    assert places in (record.text or "")
    assert running.tg.unexpected() == []

