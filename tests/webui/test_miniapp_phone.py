"""The Mini App on a phone, in real headless Chromium through the sandbox: ten seats fit
the narrowest windows, the lobby is played from the page, and the page uses Telegram's
own buttons, gestures, colours and sharing where its script is (the stand-in here).

Skipped, saying why, without Debian's ``chromium`` and ``chromium-driver``. Set
SVARA_MINIAPP_SCREENSHOTS=docs to keep the README's screenshots (360 pixels wide).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from bot.webui.run import Running
from tests.webui.background import WAIT, Background, chromium, need_a_browser, running

TEN = ("Ana", "Boris", "Vera", "Georgi", "Maria", "Nikolai", "Elena", "Stoyan",
       "Yordanka", "Hristofor")
PHONES = ((320, 640), (360, 740), (390, 844), (740, 360))
"""Three phones upright, and the smallest of them turned on its side."""

need_a_browser()

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium("--window-size=400,900", "--force-device-scale-factor=1") as driver:
        yield driver


def _phone(driver: Any, width: int, height: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})


def _until(driver: Any, check: Any) -> Any:
    return WebDriverWait(driver, WAIT, ignored_exceptions=[StaleElementReferenceException]) \
        .until(check)


def _open(driver: Any, running: Running, player: Any, link: str, **query: str) -> None:
    driver.get(running.url + "open-app?" + urlencode({"user": player.id, "link": link,
                                                      **query}))
    _until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-rev"))


def _rev(driver: Any) -> str:
    return str(driver.find_element(By.TAG_NAME, "body").get_attribute("data-rev"))


def _click_and_wait(driver: Any, css: str, text: str | None = None) -> None:
    """Click the button at `css` (with `text`, if given) and wait for the table to move."""
    def find(d: Any) -> Any:
        for b in d.find_elements(By.CSS_SELECTOR, css):
            if b.is_displayed() and b.is_enabled() and (text is None or b.text == text):
                return b
        return False

    target = _until(driver, find)
    before = _rev(driver)
    target.click()
    _until(driver, lambda d: _rev(d) != before)
    assert not driver.find_element(By.ID, "error").text


def _boxes(driver: Any) -> list[dict[str, Any]]:
    return list(driver.execute_script("""
        return Array.from(document.querySelectorAll('#seats .seat')).map((s) => {
          const r = s.getBoundingClientRect();
          const n = s.querySelector('.name').getBoundingClientRect();
          return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
                  nameLeft: n.left, nameRight: n.right, nameBottom: n.bottom,
                  name: s.querySelector('.name').textContent,
                  me: s.classList.contains('me')};
        });"""))


def _keep(driver: Any, name: str) -> None:
    folder = os.environ.get("SVARA_MINIAPP_SCREENSHOTS")
    if folder:
        assert driver.save_screenshot(str(Path(folder) / name))


def _table(bg: Background, running: Running, players: list[Any], *,
           start: bool, settings: str | None = None) -> str:
    """A table in the group with `players` seated (the first opened it); its app link."""
    first = players[0]
    group = running.group

    async def seat() -> str:
        if settings:
            await first.send(group, settings)
            await running.idle()
        await first.send(group, "/newgame")
        await running.idle()
        for p in players:
            await (await p.press(group.last_bot_message, "Join")).answer()
            await running.idle()
        table = group.last_bot_message
        if start:
            await (await first.press(table, "Start")).answer()
            await running.idle()
        return str(table.button("Open the table")["url"])

    return str(bg.call(seat()))


def test_ten_seats_fit_phones_from_320_pixels_without_overlap(
        tmp_path: Path, browser: Any) -> None:
    with running(tmp_path / "s.sqlite3", players=10, names=TEN,
                 seed=b"ten seats on a phone") as (bg, run):
        link = _table(bg, run, run.seats, start=True)
        driver = browser
        viewer = run.seats[4]
        for width, height in PHONES:
            _phone(driver, width, height)
            _open(driver, run, viewer, link)
            _until(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#seats .card")) >= 27)
            boxes = _boxes(driver)
            assert sorted(b["name"].rstrip("D") for b in boxes) == sorted(TEN), boxes
            size = (width, height)
            for i, a in enumerate(boxes):
                # Inside the window, and its name inside the box.
                assert a["left"] >= 0 and a["right"] <= width, (size, a)
                assert a["top"] >= 0 and a["bottom"] <= height, (size, a)
                assert a["left"] <= a["nameLeft"] and a["nameRight"] <= a["right"], (size, a)
                assert a["nameBottom"] <= a["bottom"], (size, a)
                for b in boxes[i + 1:]:
                    apart = (a["right"] <= b["left"] or b["right"] <= a["left"]
                             or a["bottom"] <= b["top"] or b["bottom"] <= a["top"])
                    assert apart, (size, a, b)
            # His own seat at the bottom, below every other.
            mine = next(b for b in boxes if b["me"])
            assert mine["name"] == "Maria"
            assert all(mine["top"] >= b["bottom"] for b in boxes if b is not mine)
            assert driver.execute_script(
                "return document.documentElement.scrollWidth") <= width
            if width == 360:
                _keep(driver, "miniapp-10-seats.png")


def test_the_lobby_seats_a_player_and_the_creator_starts_from_the_app(
        tmp_path: Path, browser: Any) -> None:
    with running(tmp_path / "s.sqlite3", players=3, names=TEN[:3],
                 seed=b"lobby in the app") as (bg, run):
        ana, boris, vera = run.seats
        link = _table(bg, run, [ana, boris], start=False)
        driver = browser
        _phone(driver, 360, 740)
        _open(driver, run, vera, link)
        lobby = driver.find_element(By.ID, "lobby")
        assert lobby.is_displayed()
        rules = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#rules li")]
        assert rules and any("ante" in line.lower() for line in rules)
        players = [li.text.split("\n")[0] for li in
                   driver.find_elements(By.CSS_SELECTOR, "#players li")]
        assert players == ["Ana", "Boris"]
        assert driver.find_element(By.ID, "players-heading").text == "Players (2/10):"
        # Vera sits down with Telegram's main button (the stand-in draws it).
        _click_and_wait(driver, "#tg-main-button", "Join")
        _until(driver, lambda d: [li.text.split("\n")[0] for li in
                                  d.find_elements(By.CSS_SELECTOR, "#players li")]
               == ["Ana", "Boris", "Vera"])
        message = run.tg.world.find_message(run.group, run.group.last_bot_message.message_id)
        assert message is not None and "Vera" in (message.text or "")
        # Her main button is now Leave (the secondary one; Start is the creator's).
        assert driver.find_element(By.ID, "tg-secondary-button").text == "Leave"
        _keep(driver, "miniapp-lobby.png")
        # Ana, the creator, starts the table from her page.
        driver.switch_to.new_window("tab")
        _phone(driver, 360, 740)
        _open(driver, run, ana, link)
        _click_and_wait(driver, "#tg-main-button", "Start")
        _until(driver, lambda d: d.find_element(By.TAG_NAME, "body")
               .get_attribute("data-status") == "playing")
        bg.call(run.idle())
        live = run.services.games.at(run.group.id, None)
        assert live is not None and live.hand is not None
        assert [s.player for s in live.hand.seats] == [ana.id, boris.id, vera.id]


def test_the_page_uses_telegrams_buttons_gestures_colours_and_sharing(
        tmp_path: Path, browser: Any) -> None:
    with running(tmp_path / "s.sqlite3", players=2, names=TEN[:2],
                 seed=b"telegram features") as (bg, run):
        ana, boris = run.seats
        link = _table(bg, run, [ana, boris], start=False, settings="/settings blind off")
        driver = browser
        _phone(driver, 360, 740)
        _open(driver, run, ana, link)

        def calls() -> list[str]:
            return [c[0] for c in driver.execute_script(
                "return window.Telegram.WebApp.calls")]

        made = calls()
        for name in ("ready", "expand", "setHeaderColor", "setBackgroundColor",
                     "setBottomBarColor", "MainButton.onClick", "SecondaryButton.onClick",
                     "BackButton.onClick", "MainButton.setParams",
                     "SecondaryButton.setParams"):
            assert name in made, (name, made)
        assert "disableVerticalSwipes" not in made  # not in a hand yet
        assert driver.execute_script("return document.documentElement.dataset.theme") \
            == "light"
        # Safe areas: what Telegram's script sets moves the page in.
        driver.execute_script("document.documentElement.style.setProperty("
                              "'--tg-safe-area-inset-top', '24px');"
                              "document.documentElement.style.setProperty("
                              "'--tg-content-safe-area-inset-top', '46px');")
        title = driver.find_element(By.ID, "title")
        assert title.rect["y"] >= 70
        # Fullscreen on request.
        driver.find_element(By.ID, "full").click()
        assert "requestFullscreen" in calls()
        # Start: seated in a hand, a swipe cannot close the app and closing asks first.
        _click_and_wait(driver, "#tg-main-button", "Start")
        _until(driver, lambda d: "disableVerticalSwipes" in calls())
        assert "enableClosingConfirmation" in calls()
        assert not driver.execute_script("return window.Telegram.WebApp.MainButton.isVisible")
        # The table's sub-screen has Telegram's back button.
        driver.find_element(By.ID, "info").click()
        assert driver.find_element(By.ID, "lobby").is_displayed()
        assert not driver.find_element(By.ID, "table").is_displayed()
        assert calls()[-1] == "BackButton.show"
        driver.execute_script("window.Telegram.WebApp.BackButton.press()")
        assert driver.find_element(By.ID, "table").is_displayed()
        assert "BackButton.hide" in calls()
        # Whoever is to act folds: Fold stands apart from the bets, in another colour.
        tabs = {ana.id: driver.current_window_handle}
        driver.switch_to.new_window("tab")
        _phone(driver, 360, 740)
        _open(driver, run, boris, link)
        tabs[boris.id] = driver.current_window_handle
        live = run.services.games.at(run.group.id, None)
        assert live is not None and live.hand is not None
        to_act = live.hand.to_act
        assert to_act is not None
        acting = live.hand.seats[to_act].player
        driver.switch_to.window(tabs[acting])
        _until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#fold button.fold"))
        fold = driver.find_element(By.CSS_SELECTOR, "#fold button.fold")
        bet = driver.find_element(By.CSS_SELECTOR, "#buttons button")
        assert fold.rect["y"] > bet.rect["y"] + bet.rect["height"] + 8
        assert fold.value_of_css_property("background-color") != \
            bet.value_of_css_property("background-color")
        assert "notification:warning" in driver.execute_script(
            "return window.Telegram.WebApp.felt")
        _click_and_wait(driver, "#fold button.fold")
        # Between hands: the clock says what it counts to; the hand can be shared.
        other = boris.id if acting == ana.id else ana.id
        driver.switch_to.window(tabs[other])
        _until(driver, lambda d: d.find_element(By.ID, "clock").text.startswith("Next hand in"))
        assert "disableClosingConfirmation" in calls()
        _click_and_wait_share(driver)
        shared = [c for c in driver.execute_script("return window.Telegram.WebApp.calls")
                  if c[0] == "shareMessage"]
        assert len(shared) == 1
        prepared = run.tg.world.prepared[shared[0][1]]
        assert prepared.user_id == other and "🏆" in prepared.result.text
        # Telegram's dark scheme, not the phone's, picks the page's colours.
        driver.switch_to.new_window("tab")
        _phone(driver, 360, 740)
        _open(driver, run, boris, link, theme="dark")
        assert driver.execute_script("return document.documentElement.dataset.theme") == "dark"
        assert driver.execute_script(
            "return getComputedStyle(document.body).backgroundColor") == "rgb(23, 33, 43)"
        _keep(driver, "miniapp-dark.png")


def _click_and_wait_share(driver: Any) -> None:
    button = _until(driver, lambda d: next(
        (b for b in d.find_elements(By.ID, "tg-main-button")
         if b.is_displayed() and b.text == "Share the hand"), False))
    button.click()
    _until(driver, lambda d: any(c[0] == "shareMessage" for c in d.execute_script(
        "return window.Telegram.WebApp.calls")))


def test_the_page_works_where_telegrams_script_cannot_load(
        tmp_path: Path, browser: Any) -> None:
    with running(tmp_path / "s.sqlite3", players=2, names=TEN[:2],
                 seed=b"no telegram script") as (bg, run):
        ana, boris = run.seats
        link = _table(bg, run, [ana], start=False)
        driver = browser
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*telegram-web-app.js"]})
        _phone(driver, 360, 740)
        _open(driver, run, boris, link)
        assert driver.execute_script("return window.Telegram === undefined")
        # The page draws its own buttons: Boris sits down with its Join.
        assert not driver.find_elements(By.ID, "tg-main-button")
        _click_and_wait(driver, "#buttons button", "Join")
        live = run.services.games.at(run.group.id, None)
        assert live is not None and [s.player for s in live.table.seats] == [ana.id, boris.id]
