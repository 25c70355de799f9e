"""Chats: settings as a JSON object the bot validates, and the chat language."""

from __future__ import annotations

import json

import pytest

from bot.store import BadInput, Store


async def test_unknown_chat_has_default_settings(store: Store) -> None:
    chat = await store.chats.get(-100)
    assert chat.settings == "{}" and chat.language is None


async def test_settings_round_trip_as_text_or_mapping(store: Store) -> None:
    await store.chats.set_settings(-100, {"ante": 20, "turn_seconds": 45})
    chat = await store.chats.get(-100)
    assert json.loads(chat.settings) == {"ante": 20, "turn_seconds": 45}
    await store.chats.set_settings(-100, '{"ante": 5}')
    assert (await store.chats.get(-100)).settings_dict() == {"ante": 5}


@pytest.mark.parametrize("bad", ["[1, 2]", "not json", "3", '"text"'])
async def test_settings_must_be_a_json_object(store: Store, bad: str) -> None:
    with pytest.raises(BadInput):
        await store.chats.set_settings(-100, bad)
    assert (await store.chats.get(-100)).settings == "{}"


async def test_language(store: Store) -> None:
    chat = await store.chats.set_language(-100, "bg")
    assert chat.language == "bg"
    await store.chats.set_settings(-100, {"ante": 1})
    assert (await store.chats.get(-100)).language == "bg"
    with pytest.raises(BadInput):
        await store.chats.set_language(-100, "")
