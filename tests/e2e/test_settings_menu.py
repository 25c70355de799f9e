"""/settings as a menu of buttons for chat admins, edited in place; read-only for others."""

from __future__ import annotations

import pytest

from bot.settings_menu import BadMenuData, MenuPress
from engine import TieRule
from tests.e2e.bed import Bed
from tests.e2e.test_history import steady_clock


async def test_an_admin_clicks_a_setting_and_a_value_and_others_only_read(bed: Bed) -> None:
    ana, boris = bed.players("Ana", "Boris")
    group = bed.group(ana, boris, admins=(ana,))
    steady_clock(bed)
    await ana.send(group, "/settings")
    await bed.idle()
    menu = group.last_bot_message
    assert "Table settings of this chat" in (menu.text or "")
    labels = [label for row in menu.buttons for label in row]
    assert labels[:4] == ["Ante: 10 chips", "Blind bets: on", "Largest blind: ten antes",
                          "Betting limit: no limit"]
    assert "A tie: a svara" in labels and len(labels) == 30

    answer = await (await ana.press(menu, "A tie: a svara")).answer()
    assert answer.text is None and not answer.show_alert
    await bed.idle()
    assert menu.buttons == [["✅ a svara", "the pot is split"], ["« All settings"]]
    # The values' menu says which setting they change, what it is now, and how it is typed.
    assert "A tie: a svara · tie\nTyped: svara, split" in (menu.text or "")

    # Others read the settings, and cannot press the admin's buttons.
    await boris.send(group, "/settings")
    await bed.idle()
    assert group.last_bot_message.buttons == []
    assert "Table settings of this chat" in (group.last_bot_message.text or "")
    refused = await (await boris.press(menu, "the pot is split")).answer()
    assert refused.show_alert and refused.text == "Only chat admins can change the settings."
    assert (await bed.games.chat_settings(group.id)).tie is TieRule.SVARA

    saved = await (await ana.press(menu, "the pot is split")).answer()
    assert saved.text == "Saved. A tie: the pot is split." and not saved.show_alert
    await bed.idle()
    assert menu.buttons == [["a svara", "✅ the pot is split"], ["« All settings"]]
    assert "A tie: the pot is split · tie" in (menu.text or "")
    assert (await bed.games.chat_settings(group.id)).tie is TieRule.SPLIT

    await (await ana.press(menu, "« All settings")).answer()
    await bed.idle()
    assert "A tie: the pot is split" in [label for row in menu.buttons for label in row]
    await (await ana.press(menu, "Seats: 10")).answer()
    await bed.idle()
    assert menu.buttons[0] == ["2", "3", "4", "5"] and "✅ 10" in menu.buttons[2]
    assert await (await ana.press(menu, "4")).answer() is not None
    assert (await bed.games.chat_settings(group.id)).max_seats == 4

    # Forged data: refused, nothing changed.
    before = await bed.games.chat_settings(group.id)
    for data in ("s1:v:ante:999", "s1:v:tie:split:x", "s1:o:nope", "s1:v:ante:1e3",
                 "s1:v:tie:SPLIT", "s1:o:ante:", "s1:m:", "s1:v:seats:04", "s1:" + "m" * 70):
        answer = await (await ana.press_data(menu, data)).answer()
        assert answer.show_alert and answer.text == "This button has expired.", data
    assert await bed.games.chat_settings(group.id) == before


def test_menu_data_round_trips_and_stays_within_64_bytes() -> None:
    from bot.settings_menu import choices
    from bot.table_settings import DECLARED

    for d in DECLARED:
        for press in (MenuPress(d.setting.word), *(MenuPress(d.setting.word, v)
                                                  for v in choices(d))):
            data = press.encode()
            assert len(data.encode()) <= 64 and MenuPress.decode(data) == press
    assert MenuPress.decode("s1:m") == MenuPress()
    for forged in ("s1:v:limit:no", "s1:v:ante:7", "v1:m", "s1:o:tié", "s1:o:ante\n",
                   "s1:v:ante:-10", "s1:x:ante", "s1:"):
        with pytest.raises(BadMenuData):
            MenuPress.decode(forged)
