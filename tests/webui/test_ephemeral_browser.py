"""In a real browser: a seat's ephemeral message shows in its own view of the group only,
where it was sent, and its buttons press through the stand-in.

Needs Debian's ``chromium`` and ``chromium-driver``; without them the test is skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import ephemeral_api as eph
from bot.webui.run import Running
from tests.webui.background import WAIT, Background, chromium, need_a_browser, running

need_a_browser()

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[tuple[Background, Running]]:
    with running(tmp_path / "sandbox.sqlite3", players=2, names=("Ana", "Boris"),
                 seed=b"ephemeral") as started:
        yield started


def _until(driver: Any, check: Any) -> Any:
    return WebDriverWait(driver, WAIT, ignored_exceptions=[StaleElementReferenceException]) \
        .until(check)


def _group(driver: Any) -> list[tuple[str, bool]]:
    """The group as the page shows it now: each message's text, and whether ephemeral."""
    return [(m.find_element(By.CSS_SELECTOR, ".text").text,
             "ephemeral" in str(m.get_attribute("class")))
            for m in driver.find_elements(By.CSS_SELECTOR, "#group-messages .msg")]


def _seat(driver: Any, name: str) -> None:
    for seat in driver.find_elements(By.CSS_SELECTOR, "#seat-list .seat-name"):
        if seat.text == name:
            seat.click()
            return
    raise AssertionError(f"no seat {name!r}")


def test_the_receivers_view_alone_shows_it(sandbox: tuple[Background, Running]) -> None:
    bg, run = sandbox
    ana = run.seats[0]
    run.group.bot_status = "administrator"
    with chromium("--window-size=1100,820") as driver:
        driver.get(run.url + f"#seat-{ana.id}")
        _until(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".seat")))
        driver.find_element(By.ID, "group-input").send_keys("/top")
        driver.find_element(By.CSS_SELECTOR, "#group-form button").click()
        bg.call(run.idle())
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Peek", callback_data="x")]])

        async def whisper() -> None:
            async with run.tg.bot() as bot:
                await eph.send_text(bot, run.group.id, ana.id, "only Ana", reply_markup=keyboard)

        bg.call(whisper())
        shown = _until(driver, lambda d: ("only Ana", True) in _group(d) and _group(d))
        assert shown[-1] == ("only Ana", True)  # after what the group had when it was sent
        assert [text for text, ephemeral in shown if ephemeral] == ["only Ana"]
        _seat(driver, "Boris")
        _until(driver, lambda d: ("only Ana", True) not in _group(d))
        assert all(not ephemeral for _, ephemeral in _group(driver))
        _seat(driver, "Ana")
        button = _until(driver, lambda d: d.find_element(
            By.CSS_SELECTOR, "#group-messages .msg.ephemeral .keyboard button"))
        button.click()
        _until(driver, lambda d: any(q.data == "x" and q.user is ana.record
                                     for q in run.tg.world.queries.values()))
        _until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-busy")
               == "0")
        if driver.find_element(By.ID, "popup").is_displayed():  # the bot's answer to the press
            driver.find_element(By.ID, "popup-ok").click()
        driver.find_element(By.ID, "group-input").send_keys("later")
        driver.find_element(By.CSS_SELECTOR, "#group-form button").click()
        texts = _until(driver, lambda d: "later" in (t := [x for x, _ in _group(d)]) and t)
        assert texts.index("only Ana") < texts.index("later")  # it stays where it was sent
