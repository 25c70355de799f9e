"""The sandbox page in a real browser: chips given by replying to a message (its ↩) and
by the /give menu's buttons, as a player clicks them.

Needs Debian's ``chromium`` and ``chromium-driver``, as `tests.webui.test_browser`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.webui.run import Running
from tests.webui.background import WAIT, Background, chromium, need_a_browser, running

need_a_browser()

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[tuple[Background, Running]]:
    with running(tmp_path / "sandbox.sqlite3", players=3, names=("Ana", "Boris", "Vera"),
                 seed=b"give by clicking") as started:
        yield started


def _until(driver: Any, check: Any) -> Any:
    return WebDriverWait(driver, WAIT, ignored_exceptions=[StaleElementReferenceException]) \
        .until(check)


def _newest(driver: Any, start: str) -> WebElement | None:
    """The newest group message whose text starts with `start`."""
    found = [m for m in driver.find_elements(By.CSS_SELECTOR, "#group-messages .msg")
             if m.find_element(By.CSS_SELECTOR, ".text").text.startswith(start)]
    return found[-1] if found else None


def _idle(driver: Any) -> None:
    _until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-busy")
           == "0")


def _press(driver: Any, start: str, label: str) -> None:
    """Click the button `label` of the newest message that starts with `start`."""
    def click(d: Any) -> bool:
        message = _newest(d, start)
        for button in [] if message is None else message.find_elements(
                By.CSS_SELECTOR, ".keyboard button"):
            if button.get_attribute("data-label") == label:
                button.click()
                return True
        return False

    _until(driver, click)
    _idle(driver)


def _type(driver: Any, text: str) -> None:
    driver.find_element(By.ID, "group-input").send_keys(text)
    driver.find_element(By.CSS_SELECTOR, "#group-form button").click()
    _idle(driver)


def _seat(driver: Any, name: str) -> None:
    def pick(d: Any) -> bool:
        for seat in d.find_elements(By.CSS_SELECTOR, "#seat-list .seat-name"):
            if seat.text == name:
                seat.click()
                return True
        return False

    _until(driver, pick)


def test_giving_by_reply_and_by_buttons_by_clicking(sandbox: tuple[Background, Running]
                                                     ) -> None:
    bg, started = sandbox
    with chromium("--window-size=1100,820") as driver:
        driver.get(started.url)
        _until(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".seat")) == 3)
        _type(driver, "/newgame")
        for name in ("Boris", "Vera"):
            _seat(driver, name)
            _press(driver, "🃏", "Join")
        _type(driver, "hello")  # Vera writes

        _seat(driver, "Ana")

        def answer_hello(d: Any) -> bool:
            hello = _newest(d, "hello")
            if hello is None:
                return False
            hello.find_element(By.CSS_SELECTOR, ".reply").click()
            return True

        _until(driver, answer_hello)
        bar = driver.find_element(By.ID, "group-reply")
        assert bar.is_displayed() and "Vera" in bar.text
        _type(driver, "/give 50")
        _until(driver, lambda d: _newest(d, "Vera gets 50 chips from Ana.") is not None)
        assert not driver.find_element(By.ID, "group-reply").is_displayed()
        shown = _newest(driver, "/give 50")
        assert shown is not None
        assert shown.find_element(By.CSS_SELECTOR, ".quote").text == "↩ Vera: hello"

        _type(driver, "/give")
        _press(driver, "🎁 Ana: give chips to whom?", "Boris")
        _press(driver, "🎁 Ana: how many chips for Boris?", "100")
        _until(driver, lambda d: _newest(d, "Boris gets 100 chips from Ana.") is not None)
    users = started.services.store.users
    assert [bg.call(users.balance(s.id)) for s in started.seats] == [850, 100, 50]
