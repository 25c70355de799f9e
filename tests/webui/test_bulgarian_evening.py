"""The sandbox played in Bulgarian (or Russian) speaks no English: every text the bot showed in the
group and in private during whole hands, every button and every note over the chat, the
/settings menu included, is read for English words of the catalogue, for the words an admin
types after /settings, and for the pot's word ("банка", "банк") said of the house."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from babel.messages.pofile import read_po

from bot.table_settings import SETTING_NAMES
from bot.webui.run import Running, launch
from tests.webui.test_api import Page

POT = Path(__file__).parents[2] / "bot" / "locales" / "messages.pot"
WORD = re.compile(r"[A-Za-z]{3,}")
KEPT = {"svara", "seed"}
"""English words a Bulgarian text may hold: the game's name and the /seed command."""


def english_words() -> set[str]:
    """Every word of three letters or more in the English source texts."""
    with POT.open("rb") as f:
        catalog = read_po(f)
    words: set[str] = set()
    for message in catalog:
        for text in (message.id,) if isinstance(message.id, str) else message.id:
            # Fields ({name}) and markup (<b>) are not words a player reads.
            words |= {w.lower() for w in WORD.findall(re.sub(r"\{[^}]*\}|<[^>]*>", " ", text))}
    return words




@dataclass(frozen=True)
class Evening:
    """What a player presses and reads in one language, from its glossary."""

    join: str
    start: str
    second_hand: str
    rebuy: str
    saved: str
    house: str
    pot: str
    house_as_pot: re.Pattern[str]
    """The pot's word said of the house, which pays rebuys and gifts."""


EVENINGS = {
    "bg": Evening(join="Сядам", start="Старт", second_hand="ръка 2", rebuy="Ребай от касата",
                  saved="Записано. Ребай от касата: 500 чипа.", house="касата", pot="Банка: ",
                  house_as_pot=re.compile(r"(от|из) банката|банката (може|дава|да даде)"
                                          r"|(ребай|подар\w*) от банк", re.IGNORECASE)),
    "ru": Evening(join="Сесть", start="Старт", second_hand="раздача 2", rebuy="Ребай из казны",
                  saved="Сохранено. Ребай из казны: 500 фишек.", house="казны", pot="Банк: ",
                  house_as_pot=re.compile(r"(из|от) банка|банк (может|даёт|дать)"
                                          r"|(ребай|подар\w*) из банк", re.IGNORECASE)),
}


def readable(text: str, names: set[str]) -> list[str]:
    """The Latin words a player reads in `text`, past commands, codes, names and hashes."""
    # A command with its typed words ("/notify off", "/settings tie split") is typed as it is.
    text = re.sub(r"/\w+(?: [a-z]+\b){0,2}|<code>.*?</code>|https?://\S+|\b[0-9a-f]{12,}\b",
                  " ", text)
    return [w for w in WORD.findall(text) if w.lower() not in names]


def untyped(text: str | None, entities: list[Any]) -> str:
    """The text without its code spans: the words shown there are meant to be typed (the
    word for each setting in /settings, the command examples), the rest is read."""
    units = (text or "").encode("utf-16-le")
    for entity in sorted(entities, key=lambda e: -int(e["offset"])):
        if entity["type"] in ("code", "pre"):
            start = 2 * int(entity["offset"])
            end = start + 2 * int(entity["length"])
            units = units[:start] + " ".encode("utf-16-le") + units[end:]
    return units.decode("utf-16-le")


async def _settings_menu(page: Page, running: Running, admin: int,
                         evening: Evening) -> tuple[int, list[str]]:
    """The group's admin opens /settings and sets a rebuy with its buttons: every text,
    button and note over the chat that the menu showed on the way, and the menu's id."""
    group = running.group
    assert (await page.post("api/send", user=admin, chat=group.id, text="/settings"))[0] == 200
    await running.idle()
    menu = next(m for m in reversed(group.messages) if m.sender.is_bot and m.labels)
    shown: list[str] = []

    async def press(start: str) -> None:
        label = next(label for label in menu.labels if label.startswith(start))
        status, answer = await page.post("api/press", user=admin, chat=group.id,
                                         message=menu.id, data=menu.button(label)["callback_data"])
        assert status == 200 and not answer["gone"], answer
        await running.idle()
        shown.extend([*menu.labels, untyped(menu.text, menu.entities), answer["text"] or ""])

    shown += [*menu.labels, untyped(menu.text, menu.entities)]
    await press(evening.rebuy)
    await press("500")
    await press("«")
    assert evening.saved in shown, shown
    return menu.id, shown


@pytest.mark.parametrize("language", sorted(EVENINGS))
async def test_an_evening_in_the_sandbox_shows_no_english_word(tmp_path: Path,
                                                               language: str) -> None:
    """Bulgarian, and Russian: the two languages whose pot is the bank."""
    evening = EVENINGS[language]
    english = english_words() - KEPT
    async with launch(players=3, db=tmp_path / "evening.sqlite3", speed=20.0,
                      robot_delay=0.05, language=language) as running, \
            aiohttp.ClientSession() as http:
        page = Page(running, http)
        seats = [s.id for s in running.seats]
        for seat in seats[1:]:
            assert await page.post("api/auto", user=seat, on=True) == (200, {"auto": True})
        group = running.group.id
        menu, pressed = await _settings_menu(page, running, seats[0], evening)
        assert (await page.post("api/send", user=seats[0], chat=group, text="/newgame"))[0] \
            == 200

        def seated() -> bool:
            live = running.services.games.at(group, None)
            return live is not None and all(live.table.seat(s) is not None for s in seats[1:])

        await running.tg.world.wait_for(seated, timeout=20, what="the computers to join")
        await page.press(seats[0], evening.join)
        await page.press(seats[0], evening.start)
        assert await page.post("api/auto", user=seats[0], on=True) == (200, {"auto": True})

        buttons: set[str] = set()

        def two_hands() -> bool:
            # Polled while the hands are played: the buttons each turn shows are kept.
            buttons.update(label for m in running.group.messages[-3:] for label in m.labels)
            return sum(1 for m in running.group.messages if m.sender.is_bot and m.text
                       and evening.second_hand in m.text) > 0

        await running.tg.world.wait_for(two_hands, timeout=60, what="two hands")
        for command in ("/help", "/rules", "/hand 1", "/seed"):
            assert (await page.post("api/send", user=seats[0], chat=group, text=command))[0] \
                == 200
        await running.idle()
        names = {w.lower() for s in running.seats for w in WORD.findall(s.name)}
        # The group's own title is its members' words, not the bot's.
        names |= {w.lower() for w in WORD.findall(running.group.title or "")}
        # Every version of every message the bot wrote (edits keep the earlier texts), the
        # buttons it shows now, and what the settings menu showed and said on the way.
        bots = [m for chat in running.tg.world.chats.values() for m in chat.messages
                if m.sender.is_bot]
        shown = [text for m in bots for text in (untyped(m.text, m.entities), *m.labels,
                                                  *(m.history if m.id != menu else ())) if text]
        shown += [*pressed, *buttons]
        assert "Пас" in buttons, buttons  # the buttons of a turn were read
        assert len(shown) > 10
        found = {w for text in shown for w in readable(text, names) if w.lower() in english}
        assert not found, sorted(found)
        typed = {w for text in shown for w in readable(text, names) if w.lower() in SETTING_NAMES}
        assert not typed, sorted(typed)
        house = [text for text in shown if evening.house_as_pot.search(text)]
        assert not house, house
        assert any(evening.house in text for text in shown)
        assert any(evening.pot in text for text in shown)
