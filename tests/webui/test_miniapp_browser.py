"""The Mini App in a real browser: headless Chromium opens it for three seats through the
sandbox and plays a whole hand with a svara, while the group's table message tells the
same story.

Skipped, saying why, without Debian's ``chromium`` and ``chromium-driver``. Set
SVARA_MINIAPP_SCREENSHOT=docs/miniapp.png to keep the screenshot the README shows.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from bot.webui.run import Running
from tests.e2e.seeds import best, cards_of, find_seed, points_of, replica
from tests.webui.background import WAIT, Background, chromium, need_a_browser, running

NAMES = ("Ana", "Boris", "Vera")

need_a_browser()

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[tuple[Background, Running]]:
    with running(tmp_path / "sandbox.sqlite3", players=3, names=NAMES,
                 seed=b"mini app browser test") as started:
        yield started


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium("--window-size=360,800", "--force-device-scale-factor=1") as driver:
        yield driver


def _phone(driver: Any) -> None:
    """This tab as a phone 360 pixels wide (a desktop window cannot be made that narrow)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 360, "height": 800, "deviceScaleFactor": 1, "mobile": True})


def _until(driver: Any, check: Any) -> Any:
    return WebDriverWait(driver, WAIT, ignored_exceptions=[StaleElementReferenceException]) \
        .until(check)


def _press(driver: Any, prefix: str) -> None:
    """Click the page's button whose label starts with `prefix`, once it is offered."""
    def click(d: Any) -> bool:
        for button in d.find_elements(By.CSS_SELECTOR,
                                      "#buttons button, #fold button, #tg-bottom-bar button"):
            if button.text.startswith(prefix) and button.is_enabled() \
                    and button.is_displayed():
                rev = d.find_element(By.TAG_NAME, "body").get_attribute("data-rev")
                button.click()
                d.execute_script("document.body.dataset.clicked = arguments[0]", rev)
                return True
        return False

    _until(driver, click)
    # The click is answered and the table moves on: a newer revision is drawn.
    _until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-rev")
           != d.find_element(By.TAG_NAME, "body").get_attribute("data-clicked"))
    assert not driver.find_element(By.ID, "error").text


def test_three_seats_play_a_hand_with_a_svara_in_the_mini_app(
        sandbox: tuple[Background, Running], browser: Any, tmp_path: Path) -> None:
    bg, running = sandbox
    driver = browser
    ana, boris, vera = running.seats
    group = running.group

    async def seat_everyone() -> Any:
        """Everyone sits down in the group; the next deal is planned."""
        await ana.send(group, "/newgame")
        await running.idle()
        for p in (ana, boris, vera):
            table = group.last_bot_message
            await (await p.press(table, "Join")).answer()
            await running.idle()
        live = running.services.games.at(group.id, None)
        assert live is not None
        # Boris and Vera tie; Ana folds, joins the svara and wins it.
        seed, hand = find_seed(replica(live), lambda h: h.dealer == 0
                               and (p := points_of(h))[1] == p[2]
                               and best(points_of(h, 2, (0, 1, 2))) == 0)
        bg.seeds.append(seed)
        return hand

    hand = bg.call(seat_everyone())
    dealt = cards_of(hand)
    table = group.last_bot_message
    link = table.button("Open the table")["url"]
    assert link.startswith(f"https://t.me/{running.tg.world.bot.username}?startapp=t")

    # The sandbox's group page turns that button into the Mini App of the seat played.
    driver.get(running.url)
    href = _until(driver, lambda d: next(
        (a.get_attribute("href") for a in d.find_elements(By.CSS_SELECTOR,
                                                          "#group-messages .keyboard a")
         if a.get_attribute("data-label") == "Open the table"), None))
    assert "/open-app?" in str(href)

    tabs: dict[str, str] = {}
    for p in (ana, boris, vera):
        if tabs:
            driver.switch_to.new_window("tab")
        _phone(driver)
        driver.get(running.url + "open-app?" + urlencode({"user": p.id, "link": link}))
        _until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-rev"))
        tabs[p.name] = driver.current_window_handle
        seats = [e.text.split("\n")[0] for e in driver.find_elements(By.CSS_SELECTOR, ".seat")]
        assert seats == list(NAMES), seats

    def play(name: str, prefix: str) -> None:
        driver.switch_to.window(tabs[name])
        _press(driver, prefix)

    play("Ana", "Start")
    play("Boris", "No blind")
    # Each seat sees its own three cards drawn large, and only its own.
    for i, name in enumerate(NAMES):
        driver.switch_to.window(tabs[name])
        mine = _until(driver, lambda d: [c.get_attribute("aria-label") for c in
                                         d.find_elements(By.CSS_SELECTOR, "#my-cards .card")])
        assert mine == [str(c) for c in dealt[i]], (name, mine)
        # The others' cards lie face down: six backs, no face.
        seats = driver.find_elements(By.CSS_SELECTOR, "#seats .card")
        assert [c.get_attribute("class") for c in seats] == ["card back"] * 6
        assert all(c.text == "" and c.get_attribute("aria-label") is None for c in seats)
    play("Boris", "Bet 10")
    play("Vera", "Call 10")
    play("Ana", "Fold")

    # The svara window: the tie is shown with the tied cards, Ana may join.
    driver.switch_to.window(tabs["Ana"])
    prompt = _until(driver, lambda d: d.find_element(By.ID, "prompt").text)
    assert prompt.startswith("Tie between Boris, Vera: a svara for 50")
    tied = [c.get_attribute("aria-label") for c in
            driver.find_elements(By.CSS_SELECTOR, "#seats .card:not(.back)")]
    assert sorted(tied) == sorted(str(c) for i in (1, 2) for c in dealt[i])
    play("Ana", "Join svara (25)")
    play("Boris", "No blind")
    play("Boris", "Bet 10")
    play("Vera", "Call 10")
    # The svara's cards replaced the hand's in each card message, the page's button kept.
    bg.call(running.idle())
    for p in (ana, boris, vera):
        assert "web_app" in p.last_dm.button("Open the table"), p.name
    # Ana's turn in the svara: her new cards, the tie that led to it, her buttons.
    driver.switch_to.window(tabs["Ana"])
    _until(driver, lambda d: any(b.text.startswith("Call 10") for b in
                                 d.find_elements(By.CSS_SELECTOR, "#buttons button")))
    assert [c.get_attribute("aria-label") for c in
            driver.find_elements(By.CSS_SELECTOR, "#my-cards .card")] == \
        [str(c) for c in cards_of(hand, 2, (0, 1, 2))[0]]
    # Her phone buzzed when the turn came to her (the stand-in keeps what it was asked).
    felt = driver.execute_script("return window.Telegram.WebApp.felt")
    assert "notification:warning" in felt
    shot = tmp_path / "miniapp.png"
    assert driver.save_screenshot(str(shot))
    keep = os.environ.get("SVARA_MINIAPP_SCREENSHOT")
    if keep:
        shutil.copyfile(shot, keep)
    play("Ana", "Call 10")

    driver.switch_to.window(tabs["Ana"])
    _until(driver, lambda d: "is over" in d.find_element(By.ID, "title").text)
    results = [p.text for p in driver.find_elements(By.CSS_SELECTOR, "#results p")]
    bg.call(running.idle())
    message = running.tg.world.find_message(group, table.message_id)
    assert message is not None and message.text is not None
    winning = next(line for line in results if line.startswith("🏆"))
    assert winning.startswith("🏆 Ana wins 105 with")
    # The page's showdown is the group's, line for line.
    assert all(line in message.text.splitlines() or line.strip() in message.text
               for line in results)
    assert message.text.splitlines()[0] == driver.find_element(By.ID, "title").text

    # Telegram's theme colours reach the page: Vera's Telegram is dark.
    def background(d: Any) -> str:
        return str(d.execute_script(
            "return getComputedStyle(document.body).backgroundColor"))

    assert background(driver) == "rgb(255, 255, 255)"
    driver.switch_to.new_window("tab")
    _phone(driver)
    driver.get(running.url + "open-app?" + urlencode({"user": vera.id, "link": link,
                                                      "theme": "dark"}))
    _until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-rev"))
    assert background(driver) == "rgb(23, 33, 43)"
    # Everything fits 360 pixels: nothing scrolls sideways.
    assert driver.execute_script("return document.documentElement.scrollWidth") <= 360
