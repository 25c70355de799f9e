"""A seed of the player's own in one tap, in a real browser: the Mini App draws it, the bot
deals the player's first hand at the table with it, and the checking page the app links
finds his seat with the seed the app kept.

Skipped, saying why, without Debian's ``chromium`` and ``chromium-driver``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlencode

import pytest

from bot.webui.run import Running
from engine import seed_hash
from tests.webui.background import WAIT, Background, chromium, need_a_browser, running

need_a_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[tuple[Background, Running]]:
    # Dealt as in production: from the table's secret and the seats' seeds.
    with running(tmp_path / "sandbox.sqlite3", players=2, names=("Ana", "Boris"),
                 seed=None) as started:
        yield started


def _until(driver: Any, check: Any) -> Any:
    return WebDriverWait(driver, WAIT).until(check)


def test_one_tap_seeds_his_deals_and_the_checking_page_finds_his_seat(
        sandbox: tuple[Background, Running]) -> None:
    bg, running = sandbox
    ana, boris = running.seats
    group = running.group
    fairness = running.services.store.fairness

    async def open_table() -> str:
        await ana.send(group, "/settings blind off")
        await ana.send(group, "/newgame")
        await running.idle()
        for p in (ana, boris):
            await (await p.press(group.last_bot_message, "Join")).answer()
            await running.idle()
        return str(group.last_bot_message.button("Open the table")["url"])

    link = bg.call(open_table())
    with chromium("--window-size=360,800") as driver:
        driver.get(running.url + "open-app?" + urlencode({"user": boris.id, "link": link}))
        button = _until(driver, lambda d: d.find_element(By.ID, "own-seed"))
        assert button.text == "🔐 My own seed"
        button.click()
        _until(driver, lambda d: d.find_element(By.ID, "error").text.startswith(
            "🔐 Your own seed is set"))
        kept = driver.execute_script("return localStorage.getItem('svara-seed')")
        assert isinstance(kept, str) and len(kept) == 32 and int(kept, 16) >= 0
        assert bg.call(fairness.seed(boris.id)) == kept  # the bot has what the page drew

        async def play_a_hand() -> tuple[str, ...]:
            await (await ana.press(group.last_bot_message, "Start")).answer()
            await running.idle()
            live = running.services.games.at(group.id, None)
            assert live is not None and live.hand is not None
            proof = await fairness.proof(live.hand_id)
            assert proof is not None
            by_id = {ana.id: ana, boris.id: boris}
            while live.hand is not None:
                turn = live.hand.to_act
                assert turn is not None
                acting = by_id[live.hand.seats[turn].player]
                await (await acting.press(group.last_bot_message, "Fold")).answer()
                await running.idle()
            return proof.seeds

        seeds = bg.call(play_a_hand())
        assert seed_hash(kept) in seeds  # his seat's seed is the one the page drew
        # The page links the checking page with the kept seed in the address's fragment.
        proof = _until(driver, lambda d: d.find_element(By.ID, "proof").get_attribute("href"))
        assert proof.startswith(running.url + "verify#") and proof.endswith("&my=" + kept)
        driver.get(proof)
        _until(driver, lambda d: d.find_element(By.ID, "verdict").get_attribute("data-ok"))
        assert driver.find_element(By.ID, "seed").get_attribute("value") == unquote(kept)
        assert "Your seed is Boris's seed" in driver.find_element(By.ID, "seat").text
