"""The /give menu's callback data: at most 64 bytes, signed for one chat, and nothing
it did not write decodes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.callback_data import MAX_AMOUNT, MAX_BYTES, MAX_ID
from bot.give_menu import MAX_MESSAGE, BadGiveData, GivePress, amounts

SECRET = b"s" * 32
CHAT = -1001234567890

presses = st.builds(GivePress, st.integers(1, MAX_ID), st.integers(1, MAX_MESSAGE),
                    st.integers(1, MAX_ID), st.none() | st.integers(1, MAX_AMOUNT))


@given(presses)
def test_every_press_fits_and_comes_back(press: GivePress) -> None:
    data = press.encode(SECRET, CHAT)
    assert len(data.encode()) <= MAX_BYTES
    assert GivePress.decode(data, SECRET, CHAT) == press


def test_the_largest_press_fits() -> None:
    press = GivePress(MAX_ID, MAX_MESSAGE, MAX_ID, MAX_AMOUNT)
    assert len(press.encode(SECRET, -(10**13)).encode()) <= MAX_BYTES


@given(presses, st.integers(0, 59), st.characters(codec="ascii"))
def test_a_changed_character_never_decodes_to_another_press(press: GivePress, at: int,
                                                            char: str) -> None:
    data = press.encode(SECRET, CHAT)
    changed = data[:at] + char + data[at + 1:]
    if changed == data:
        return
    with pytest.raises(BadGiveData):
        GivePress.decode(changed, SECRET, CHAT)


def test_a_press_is_signed_for_its_chat_and_its_bot() -> None:
    data = GivePress(5, 7, 9, 100).encode(SECRET, CHAT)
    with pytest.raises(BadGiveData):
        GivePress.decode(data, SECRET, CHAT - 1)
    with pytest.raises(BadGiveData):
        GivePress.decode(data, b"t" * 32, CHAT)
    for garbage in ("", "g1:", "g1:5:7:9:2s", "g1:5:7:9:2s:" + "A" * 11, "x" * 65):
        with pytest.raises(BadGiveData):
            GivePress.decode(garbage, SECRET, CHAT)


def test_the_amounts_offered_are_what_the_giver_may_give() -> None:
    assert amounts(10, 10_000) == [100, 200, 500, 1000]
    assert amounts(10, 825) == [100, 200, 500]
    assert amounts(10, 40) == [40]
    assert amounts(10, 0) == []
