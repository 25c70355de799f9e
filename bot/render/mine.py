"""What one member sees in the group for his eyes only (an ephemeral message): his cards
and points, and on his turn the prompt and his own buttons."""

from __future__ import annotations

from bot.i18n import Translator
from bot.render.table import action_rows, turn_prompt
from bot.render.views import Screen, TableView, cards_text
from engine import Phase


def my_cards(view: TableView, tr: Translator, seat: int) -> Screen | None:
    """The member's message for the hand in `view` (None: he holds no cards in it now)."""
    hand = view.hand
    if hand is None or hand.is_over or not 0 <= seat < len(hand.seats):
        return None
    cards, points = hand.cards(seat), hand.points(seat)
    if not cards or points is None:
        return None
    lines: list[str] = [tr.format("Your cards: {cards} ({points})", cards=cards_text(cards),
                                  points=tr.points(points))]
    mine = seat in hand.pending if hand.phase is Phase.SVARA_JOIN else seat == hand.to_act
    if not mine:
        return Screen("\n".join(lines))
    lines += ["", turn_prompt(view, tr, hand)]
    return Screen("\n".join(lines), action_rows(view, tr, hand))
