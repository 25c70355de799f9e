"""Chats: settings as a JSON object the bot validates, and the chat language."""

from __future__ import annotations

import json

import pytest

from bot.store import BadInput, Store
from tests.store.conftest import seated_table


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


async def test_an_unknown_chat_is_named_by_its_own_id(store: Store) -> None:
    assert (await store.chats.get(-100)).id == -100


async def test_the_same_settings_are_kept_as_the_same_compact_text(store: Store) -> None:
    # In whatever order and spacing they come, equal settings read back as equal text.
    await store.chats.set_settings(-100, {"turn_seconds": 45, "ante": 20})
    await store.chats.set_settings(-200, '{ "ante" : 20 , "turn_seconds" : 45 }')
    for chat_id in (-100, -200):
        assert (await store.chats.get(chat_id)).settings == '{"ante":20,"turn_seconds":45}'


@pytest.mark.parametrize(("bad", "said"), [
    ("not json", "chat settings are not JSON: Expecting value: line 1 column 1 (char 0)"),
    ("[1, 2]", "chat settings must be a JSON object"),
])
async def test_settings_refused_say_why(store: Store, bad: str, said: str) -> None:
    with pytest.raises(BadInput) as refused:
        await store.chats.set_settings(-100, bad)
    assert str(refused.value) == said


def _settings_of_length(length: int) -> dict[str, str]:
    # '{"n":"' + filler + '"}' is the compact text: 8 characters around the filler.
    return {"n": "x" * (length - 8)}


async def test_settings_up_to_16384_characters_are_kept_and_longer_ones_refused(
        store: Store) -> None:
    largest = _settings_of_length(16_384)
    assert len((await store.chats.set_settings(-100, largest)).settings) == 16_384
    with pytest.raises(BadInput) as refused:
        await store.chats.set_settings(-100, _settings_of_length(16_385))
    assert str(refused.value) == "chat settings are too large (16385 characters)"
    assert (await store.chats.get(-100)).settings_dict() == largest


@pytest.mark.parametrize("code", ["x", "sr-Latn-RS-x-abc"])  # 1 and 16 characters
async def test_a_language_code_of_one_to_sixteen_characters_is_kept(
        store: Store, code: str) -> None:
    assert (await store.chats.set_language(-100, code)).language == code


async def test_a_language_code_longer_than_sixteen_characters_is_refused(
        store: Store) -> None:
    await store.chats.set_language(-100, "bg")
    with pytest.raises(BadInput) as refused:
        await store.chats.set_language(-100, "sr-Latn-RS-x-abcd")
    assert str(refused.value) == "not a language code: 'sr-Latn-RS-x-abcd'"
    assert (await store.chats.get(-100)).language == "bg"


async def test_a_chat_id_that_is_not_a_whole_number_is_refused(store: Store) -> None:
    with pytest.raises(BadInput) as refused:
        await store.chats.set_language("-100", "bg")  # type: ignore[arg-type]
    assert str(refused.value) == "a chat id is a whole number, not '-100'"


@pytest.mark.parametrize(("old", "new"), [(-100, "-200"), ("-100", -200), (-100, -100),
                                          (True, -200)])
async def test_a_chat_moves_only_between_two_different_whole_ids(
        store: Store, old: object, new: object) -> None:
    await store.chats.set_language(-100, "bg")
    with pytest.raises(BadInput) as refused:
        await store.chats.migrate(old, new)  # type: ignore[arg-type]
    assert str(refused.value) == (
        f"a chat moves to another chat id, not {old!r} to {new!r}")
    assert (await store.chats.get(-100)).language == "bg"


async def test_a_group_moving_to_a_supergroup_says_how_many_tables_went_with_it(
        store: Store) -> None:
    assert await store.chats.migrate(-100, -100_200) == 0  # the bot never saw the group
    await store.tables.close((await seated_table(store, 2, chat_id=-100)).id)
    await seated_table(store, 2, chat_id=-100, first_user=3)
    await store.chats.set_language(-100, "bg")
    assert await store.chats.migrate(-100, -100_200) == 2
    assert await store.chats.migrate(-100, -100_200) == 0  # told twice: moved already
    assert (await store.chats.get(-100_200)).language == "bg"


async def test_the_topics_a_group_keeps_the_bot_to_read_back_once_each_in_order(
        store: Store) -> None:
    chat = await store.chats.set_topics(-100, (7, 0, 7, 2**53 - 1))
    assert chat.topics == (0, 7, 2**53 - 1)  # 0 is the General topic
    assert (await store.chats.get(-100)).topics == (0, 7, 2**53 - 1)
    assert (await store.chats.set_topics(-100, None)).topics is None  # every topic again


@pytest.mark.parametrize("bad", [(-1,), (2**53,), (3, "4"), (1.0,)])
async def test_topics_that_are_not_topic_ids_are_refused(
        store: Store, bad: tuple[int, ...]) -> None:
    await store.chats.set_topics(-100, (3,))
    with pytest.raises(BadInput) as refused:
        await store.chats.set_topics(-100, bad)
    assert str(refused.value) == f"not topic ids: {bad!r}"
    assert (await store.chats.get(-100)).topics == (3,)
