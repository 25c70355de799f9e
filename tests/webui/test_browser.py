"""The sandbox page in a real browser: headless Chromium plays a hand by clicking.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them); without
them the test is skipped and says why. Set SVARA_SANDBOX_SCREENSHOT=docs/sandbox.png to
keep the screenshot the README shows.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.webui.run import Running
from tests.webui.background import WAIT, Background, chromium, need_a_browser, running

HOSTILE = "<b>Eve</b>&amp;<i>"
SEED = b"sandbox browser test"
"""Every deal the same: both players' cards show red and black suits."""

need_a_browser()

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[tuple[Background, Running]]:
    with running(tmp_path / "sandbox.sqlite3", players=2, names=("Ana", HOSTILE),
                 seed=SEED) as started:
        yield started


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium("--window-size=1100,820") as driver:
        yield driver


def _newest_table(driver: Any) -> WebElement | None:
    found = [m for m in driver.find_elements(By.CSS_SELECTOR, "#group-messages .msg")
             if m.find_element(By.CSS_SELECTOR, ".text").text.startswith("🃏")]
    return found[-1] if found else None


class NotDrawn(Exception):
    """The page has not drawn the group's table message (yet): a wait looks again."""


def _table(driver: Any) -> WebElement:
    """The newest table message in the group as the page shows it."""
    element = _newest_table(driver)
    if element is None:
        raise NotDrawn("no table message on the page")
    return element


def _labels(message: WebElement | None) -> list[str]:
    if message is None:
        return []
    return [str(b.get_attribute("data-label"))
            for b in message.find_elements(By.CSS_SELECTOR, ".keyboard button")]


def _until(driver: Any, check: Any) -> Any:
    """Wait for `check(driver)`; the page redraws on every change, so elements go stale."""
    return WebDriverWait(driver, WAIT,
                         ignored_exceptions=[StaleElementReferenceException, NotDrawn]) \
        .until(check)


def _click(driver: Any, label: str) -> None:
    def click(d: Any) -> bool:
        table = _newest_table(d)
        for button in [] if table is None else table.find_elements(
                By.CSS_SELECTOR, ".keyboard button"):
            if button.get_attribute("data-label") == label:
                button.click()
                return True
        return False

    _until(driver, click)
    _until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-busy")
           == "0")


def _seat(driver: Any, name: str) -> None:
    def pick(d: Any) -> bool:
        for seat in d.find_elements(By.CSS_SELECTOR, "#seat-list .seat-name"):
            if seat.text == name:
                seat.click()
                return True
        raise AssertionError(f"no seat {name!r}")

    _until(driver, pick)


def _synced(bg: Background, running: Running, driver: Any) -> None:
    """Wait until the bot is idle and the page has drawn the stand-in's latest state."""
    bg.call(running.idle())
    revision = running.site.world.revision
    _until(driver, lambda d: int(d.find_element(By.TAG_NAME, "body")
                                 .get_attribute("data-revision") or -1) >= revision)


def test_a_hand_by_clicking(sandbox: tuple[Background, Running], browser: Any,
                            tmp_path: Path) -> None:
    bg, running = sandbox
    driver = browser
    driver.get(running.url)
    WebDriverWait(driver, WAIT).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".seat")))

    driver.find_element(By.ID, "group-input").send_keys("/newgame")
    driver.find_element(By.CSS_SELECTOR, "#group-form button").click()
    _click(driver, "Join")
    _seat(driver, HOSTILE)
    _click(driver, "Join")
    _seat(driver, "Ana")
    _click(driver, "Start")

    for _ in range(40):
        _synced(bg, running, driver)
        lines = _until(driver, lambda d: _table(d).find_element(By.CSS_SELECTOR, ".text")
                       .text.splitlines())
        if " is over" in lines[0]:
            break
        turn = next((x for x in lines if " to act" in x or ": blind or not?" in x), "")
        acting = "Ana" if turn.startswith("Ana") else HOSTILE
        _seat(driver, acting)
        labels = _until(driver, lambda d: _labels(_table(d)))
        choice = next((x for x in labels if x in ("No blind", "Skip")), None) \
            or next((x for x in labels if x.startswith(("Call", "Bet"))), None) or "Fold"
        _click(driver, choice)
    else:
        raise AssertionError("the hand did not end")

    # The page shows exactly what the stand-in holds for the table message, and what
    # the bot last wrote into it.
    _synced(bg, running, driver)
    driver.refresh()
    _until(driver, lambda d: " is over" in _table(d).text)

    def read(d: Any) -> tuple[int, str, int, int]:
        """The table message and what it holds, read at one moment (the page may redraw)."""
        table = _table(d)
        text = table.find_element(By.CSS_SELECTOR, ".text")
        eve_bold = len([b for b in text.find_elements(By.TAG_NAME, "b")
                        if b.text.startswith("Eve")])
        return (int(str(table.get_attribute("data-message"))),
                str(text.get_attribute("textContent")), eve_bold,
                len(text.find_elements(By.TAG_NAME, "i")))

    message_id, shown, eve_bold, italics = _until(driver, read)
    record = running.tg.world.find_message(running.group, message_id)
    assert record is not None
    assert shown == record.text
    writes = [c for c in running.tg.transcript.calls
              if c.method in ("sendMessage", "editMessageText") and c.ok
              and (c.result or {}).get("message_id") == message_id
              and c.chat_id == running.group.id]
    assert writes[-1].result["text"] == shown
    # The hostile name is text: no element the name tried to open exists on the page.
    assert HOSTILE in shown
    assert (eve_bold, italics) == (0, 0)
    # Cards are drawn as cards, each suit in its colour.
    cards = driver.find_elements(By.CSS_SELECTOR, ".card")
    assert driver.find_elements(By.CSS_SELECTOR, "#private-messages .card")
    assert {c.text[-1] for c in cards} >= {"♥", "♦", "♠"}  # the seed deals all of these
    for card in cards:
        red = card.text[-1] in "♥♦"
        assert ("red" in str(card.get_attribute("class")).split()) == red, card.text

    # A chart the bot sends shows as a picture, loaded from the page's own address.
    driver.find_element(By.ID, "group-input").send_keys("/stats")
    driver.find_element(By.CSS_SELECTOR, "#group-form button").click()
    _synced(bg, running, driver)
    width = _until(driver, lambda d: d.execute_script(
        "const img = document.querySelector('#group-messages img.photo');"
        "return img && img.complete ? img.naturalWidth : 0;"))
    assert width == 960

    shot = tmp_path / "sandbox.png"
    assert driver.save_screenshot(str(shot))
    keep = os.environ.get("SVARA_SANDBOX_SCREENSHOT")
    if keep:
        shutil.copyfile(shot, keep)
