"""The outbox the Mini App puts between `Games` and the chat: each time a table is shown,
its pages are told too."""

from __future__ import annotations

from collections.abc import Callable

from bot.games import Live, Outbox
from bot.render import PrivateHand


class _Showing:
    """The table's outbox, also telling the Mini App each time a table is shown (under the
    table's lock, as `Games` shows it: every move, and a /endgame or a language change too)."""

    def __init__(self, outbox: Outbox, shown: Callable[[Live], None]) -> None:
        self.outbox = outbox
        self.shown = shown

    def show(self, live: Live) -> None:
        self.outbox.show(live)
        self.shown(live)

    def send_cards(self, live: Live, hands: list[tuple[PrivateHand, str | None]], *,
                   hand_id: int, rounds: int) -> None:
        self.outbox.send_cards(live, hands, hand_id=hand_id, rounds=rounds)

    def remind(self, live: Live, player: int, language: str | None, left: int) -> None:
        self.outbox.remind(live, player, language, left)

    def moved(self, live: Live) -> None:
        self.outbox.moved(live)

    def evicted(self, live: Live, players: list[tuple[int, str | None]]) -> None:
        self.outbox.evicted(live, players)

    def resume(self, live: Live, *, message_id: int | None, shown: str | None) -> None:
        self.outbox.resume(live, message_id=message_id, shown=shown)

    def results_again(self, live: Live) -> None:
        self.outbox.results_again(live)

