"""The sandbox played in Bulgarian speaks no English: every text the bot showed in the
group and in private during whole hands is read for English words of the catalogue."""

from __future__ import annotations

import re
from pathlib import Path

import aiohttp
from babel.messages.pofile import read_po

from bot.webui.run import launch
from tests.webui.test_api import Page

POT = Path(__file__).parents[2] / "bot" / "locales" / "messages.pot"
WORD = re.compile(r"[A-Za-z]{3,}")
KEPT = {"svara", "sha", "nonce", "seed"}
"""English words a Bulgarian text may hold: the game's name and the fairness proof's terms."""


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


def readable(text: str, names: set[str]) -> list[str]:
    """The Latin words a player reads in `text`, past commands, codes, names and hashes."""
    # A command with its typed word ("/notify off", "/top all") is typed as it is.
    text = re.sub(r"/\w+(?: [a-z]+\b)?|<code>.*?</code>|https?://\S+|\b[0-9a-f]{12,}\b", " ", text)
    return [w for w in WORD.findall(text) if w.lower() not in names]


async def test_the_sandbox_in_bulgarian_shows_no_english_word(tmp_path: Path) -> None:
    english = english_words() - KEPT
    async with launch(players=3, db=tmp_path / "bg.sqlite3", speed=20.0, robot_delay=0.05,
                      language="bg") as running, aiohttp.ClientSession() as http:
        page = Page(running, http)
        seats = [s.id for s in running.seats]
        for seat in seats[1:]:
            assert await page.post("api/auto", user=seat, on=True) == (200, {"auto": True})
        group = running.group.id
        assert (await page.post("api/send", user=seats[0], chat=group, text="/newgame"))[0] \
            == 200

        def seated() -> bool:
            live = running.services.games.at(group, None)
            return live is not None and all(live.table.seat(s) is not None for s in seats[1:])

        await running.tg.world.wait_for(seated, timeout=20, what="the computers to join")
        await page.press(seats[0], "Сядам")
        await page.press(seats[0], "Старт")
        assert await page.post("api/auto", user=seats[0], on=True) == (200, {"auto": True})

        def two_hands() -> bool:
            return sum(1 for m in running.group.messages if m.sender.is_bot and m.text
                       and "ръка 2" in m.text) > 0

        await running.tg.world.wait_for(two_hands, timeout=60, what="two hands")
        names = {w.lower() for s in running.seats for w in WORD.findall(s.name)}
        # Every version of every message the bot wrote (edits keep the earlier texts).
        shown = [text for chat in running.tg.world.chats.values() for m in chat.messages
                 if m.sender.is_bot for text in (*m.history, m.text) if text]
        assert len(shown) > 10
        found = {w for text in shown for w in readable(text, names) if w.lower() in english}
        assert not found, sorted(found)
