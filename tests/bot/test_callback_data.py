"""Callback data: a press names its table, hand and turn, and garbage never decodes."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.callback_data import (
    MAX_AMOUNT,
    MAX_BYTES,
    MAX_ID,
    MAX_SEQ,
    PATTERN,
    BadCallbackData,
    Button,
    Press,
)

AMOUNT_BUTTONS = [b for b in Button if b.takes_amount]
PLAIN_BUTTONS = [b for b in Button if not b.takes_amount]


def test_wire_format() -> None:
    assert Press(1, 2, 3, Button.FOLD).encode() == "v1:1:2:3:fold"
    assert Press(36, 0, 35, Button.RAISE, 100).encode() == "v1:10:0:z:raise:2s"
    assert Press.decode("v1:10:0:z:raise:2s") == Press(36, 0, 35, Button.RAISE, 100)


def test_codes_are_the_documented_ones() -> None:
    assert {b.value for b in Button} == {
        "join", "leave", "start", "fold", "call", "raise", "allin",
        "blind", "noblind", "svjoin", "svskip", "cards", "back",
    }  # fmt: skip
    assert set(AMOUNT_BUTTONS) == {Button.RAISE, Button.BLIND}


@pytest.mark.parametrize("button", list(Button))
def test_largest_values_fit(button: Button) -> None:
    amount = MAX_AMOUNT if button.takes_amount else None
    press = Press(MAX_ID, MAX_ID, MAX_SEQ, button, amount)
    data = press.encode()
    assert len(data.encode()) <= MAX_BYTES
    assert Press.decode(data) == press


def test_pattern_matches_our_data_only() -> None:
    assert re.match(PATTERN, Press(1, 1, 1, Button.CALL).encode())
    assert not re.match(PATTERN, "v2:1:1:1:call")


@pytest.mark.parametrize(
    "data",
    [
        "",
        "v1",
        "v1:",
        "v2:1:1:1:fold",
        "V1:1:1:1:fold",
        "v1:1:1:1:dance",
        "v1:1:1:1:FOLD",
        "v1:1:1:1",
        "v1:1:1:1:fold:5",  # fold takes no amount
        "v1:1:1:1:raise",  # raise needs one
        "v1:1:1:1:raise:0",  # nothing to raise by
        "v1:1:1:1:raise:5:6",
        "v1:1:1:1:fold:",
        "v1:-1:1:1:fold",
        "v1:+1:1:1:fold",
        "v1: 1:1:1:fold",
        "v1:01:1:1:fold",  # not canonical
        "v1:A:1:1:fold",
        "v1:1_0:1:1:fold",
        "v1::1:1:fold",
        "v1:1:1:gjdgxt:fold",  # seq 10**9 + 1
        "v1:1y2p0ij32e8e8:1:1:fold",  # table 2**63
        "v1:1:1:1:raise:9ugxnorjlt",  # amount 10**15 + 1
        "v1:zzzzzzzzzzzzzz:1:1:fold",
        "v1:١:1:1:fold",  # Arabic-Indic digit one
        "v1:1:1:1:fold\n",
        "v1:1:1:1:fold" + ":" * 60,
    ],
)
def test_garbage_is_refused(data: str) -> None:
    with pytest.raises(BadCallbackData):
        Press.decode(data)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"table": -1},
        {"hand": MAX_ID + 1},
        {"seq": MAX_SEQ + 1},
        {"table": True},
        {"table": 1.0},
        {"amount": 5},  # fold with an amount
        {"button": "fold"},
    ],
)
def test_bad_press_cannot_be_built(kwargs: dict[str, object]) -> None:
    fields: dict[str, object] = {"table": 1, "hand": 1, "seq": 1, "button": Button.FOLD}
    fields.update(kwargs)
    with pytest.raises(BadCallbackData):
        Press(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("amount", [None, 0, -5, MAX_AMOUNT + 1])
def test_amount_buttons_need_a_positive_amount(amount: int | None) -> None:
    with pytest.raises(BadCallbackData):
        Press(1, 1, 1, Button.RAISE, amount)


def test_error_is_a_value_error_with_a_player_message() -> None:
    with pytest.raises(ValueError, match="version"):
        Press.decode("v0:1:1:1:fold")
    assert BadCallbackData.player_message == "This button no longer works."


presses = st.one_of(
    st.builds(
        Press,
        table=st.integers(0, MAX_ID),
        hand=st.integers(0, MAX_ID),
        seq=st.integers(0, MAX_SEQ),
        button=st.sampled_from(PLAIN_BUTTONS),
    ),
    st.builds(
        Press,
        table=st.integers(0, MAX_ID),
        hand=st.integers(0, MAX_ID),
        seq=st.integers(0, MAX_SEQ),
        button=st.sampled_from(AMOUNT_BUTTONS),
        amount=st.integers(1, MAX_AMOUNT),
    ),
)


@given(presses)
def test_round_trip_and_size(press: Press) -> None:
    data = press.encode()
    assert len(data.encode()) <= MAX_BYTES
    assert data.isascii()
    assert Press.decode(data) == press


@given(st.text(max_size=80))
def test_random_text_only_ever_raises_bad_callback_data(data: str) -> None:
    try:
        press = Press.decode(data)
    except BadCallbackData:
        return
    assert press.encode() == data  # whatever decodes is exactly what we would send


near_fields = st.one_of(
    st.text(alphabet="0123456789az-+_ :Aé", max_size=15),
    st.sampled_from([b.value for b in Button]),
)


@given(st.lists(near_fields, min_size=1, max_size=7))
def test_near_misses_only_ever_raise_bad_callback_data(fields: list[str]) -> None:
    data = ":".join(["v1", *fields])
    try:
        press = Press.decode(data)
    except BadCallbackData:
        return
    assert press.encode() == data


@given(presses, st.integers(0, 70), st.characters())
def test_any_edit_of_valid_data_is_refused_or_canonical(press: Press, at: int, char: str) -> None:
    data = press.encode()
    at = min(at, len(data))
    edited = data[:at] + char + data[at:]
    try:
        decoded = Press.decode(edited)
    except BadCallbackData:
        return
    assert decoded.encode() == edited
