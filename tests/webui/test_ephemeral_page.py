"""The sandbox page shows a seat's ephemeral messages in the group to that seat only."""

from __future__ import annotations

from pathlib import Path

import aiohttp
from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import ephemeral_api as eph
from bot.webui.run import launch
from tests.webui.test_api import Page


async def test_only_the_receivers_view_of_the_group_has_it(tmp_path: Path) -> None:
    async with launch(players=2, db=tmp_path / "s.sqlite3", speed=20.0,
                      robot_delay=0.05) as running, aiohttp.ClientSession() as http:
        page = Page(running, http)
        ana, eve = running.seats
        group = running.group
        group.bot_status = "administrator"
        status, _ = await page.post("api/send", user=ana.id, chat=group.id, text="/top")
        assert status == 200
        await running.idle()
        newest = group.messages[-1].message_id
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Peek", callback_data="x")]])
        async with running.tg.bot() as bot:
            sent = await eph.send_text(bot, group.id, ana.id, "A♠ K♠ Q♠", reply_markup=keyboard)
        state = await page.state()
        seats = {seat["id"]: seat for seat in state["seats"]}
        (mine,) = seats[ana.id]["group_ephemeral"]
        assert (mine["text"], mine["ephemeral"], mine["after"], mine["replaces"]) == (
            "A♠ K♠ Q♠", sent.ephemeral_message_id, newest, None)
        assert [[b["text"] for b in row] for row in mine["buttons"]] == [["Peek"]]
        assert seats[eve.id]["group_ephemeral"] == []
        assert all("A♠ K♠ Q♠" not in m["text"] for m in state["group"]["messages"])
        assert all("A♠ K♠ Q♠" not in m["text"] for s in seats.values()
                   for m in s["chat"]["messages"])

        status, refused = await page.post("api/press", user=eve.id, chat=group.id, message=0,
                                          data="x", ephemeral=sent.ephemeral_message_id)
        assert status == 400, refused
        status, answer = await page.post("api/press", user=ana.id, chat=group.id, message=0,
                                         data="x", ephemeral=sent.ephemeral_message_id)
        assert status == 200 and answer["gone"] is False, answer
        (press,) = [q for q in running.tg.world.queries.values() if q.data == "x"]
        assert (press.user, press.message.message_id) == (ana.record, 0)
