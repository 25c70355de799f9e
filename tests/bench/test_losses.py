"""What became of the messages a call failed to deliver, told from a transcript."""

from __future__ import annotations

from typing import Any

from bot.bench.losses import Losses, count_losses
from bot.bench.screens import sent_in, table_screens
from bot.sandbox.transcript import Call


def call(method: str, chat: int, status: int = 200, **params: Any) -> Call:
    ok = status == 200
    return Call(0, method, params, chat, 0.0, ok=ok, status=status,
                result={"message_id": params.get("message_id", 1)} if ok else None)


def test_a_429_then_the_same_send_is_a_retry_and_a_send_never_repeated_is_lost() -> None:
    calls = [
        call("sendMessage", 5, 429, text="your cards"),
        call("sendMessage", 5, text="your cards"),
        call("sendMessage", 6, 429, text="your cards"),  # another chat: never delivered
        call("sendMessage", 6, 0, text="your cards"),  # the same message, once lost
    ]
    assert count_losses(calls) == Losses(lost=1, retried=1, superseded=0)


def test_an_edit_replaced_by_a_later_edit_is_superseded_and_a_last_one_is_lost() -> None:
    calls = [
        call("editMessageText", -1, 429, message_id=7, text="turn 1"),
        call("editMessageText", -1, message_id=7, text="turn 2"),
        call("editMessageText", -1, 429, message_id=8, text="turn 9"),
        call("pinChatMessage", -1, 429, message_id=8),
    ]
    assert count_losses(calls) == Losses(lost=2, retried=0, superseded=1)


def test_refusals_that_are_not_cut_offs_and_calls_in_flight_lose_nothing() -> None:
    calls = [
        call("sendMessage", 5, 400, text="bad html"),
        call("sendMessage", 5, 403, text="blocked"),
        call("answerCallbackQuery", 5, 429),
        Call(0, "sendMessage", {"text": "in flight"}, 5, 0.0),
    ]
    assert count_losses(calls) == Losses(lost=0, retried=0, superseded=0)


def test_a_members_own_message_with_buttons_is_not_the_table_screen() -> None:
    buttons = {"inline_keyboard": [[{"text": "Call 10", "callback_data": "v1:3:7:2:call"}]]}
    later = {"inline_keyboard": [[{"text": "Fold", "callback_data": "v1:3:7:3:fold"}]]}
    calls = [
        Call(1, "sendMessage", {"reply_markup": buttons}, -5, 1.0,
             result={"message_id": 40}),
        # "My cards": his cards and his buttons, shown to him alone.
        Call(2, "sendMessage", {"reply_markup": buttons}, -5, 2.0,
             result={"message_id": 0, "ephemeral_message_id": 1}),
        Call(3, "editMessageText", {"reply_markup": later}, -5, 3.0,
             result={"message_id": 40}),
    ]
    assert table_screens(sent_in(calls, -5)) == [(1.0, (7, 2)), (3.0, (7, 3))]
