"""What a table is while the bot holds it: who pressed, the live table, what it shows,
and the protocols of the messenger it talks to. What a table does is in `bot.games`."""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Protocol

from bot.achievements import Award
from bot.clock import Wait, WaitKind, Want
from bot.i18n import N_
from bot.names import distinct
from bot.records import TableStatus
from bot.render.cards import outcome_of
from bot.render.views import (
    Outcome,
    PrivateHand,
    Results,
    SeatView,
    TableView,
    TournamentView,
)
from bot.store.tournament_pool import Tournament
from bot.table_settings import TableSettings
from engine import Act, Hand, Phase
from engine.events import RoundStarted, SvaraOpened
from engine.table import Table

log = logging.getLogger(__name__)

LOBBY_IDLE = 30 * 60.0
"""Seconds a lobby waits for Start before it closes by itself."""

REBUY_GRACE = 30.0
"""Seconds a table that cannot deal waits for a seated broke player before it closes."""


EVICTED = N_("The bot can no longer write to this group: the table closed, a hand in "
              "play was refunded, and every chip went back.")
"""Why a table closed when the bot was removed from its group or lost the right to write."""

CLOSED_NOW = N_("The table was closed; every chip went back.")
"""The note of a table closed by /endgame between hands (and the answer, when no results
message follows)."""

CLOSED_AS_ASKED = N_("The table closed after the hand, as asked; every stack went back.")
"""The note of a table closed by /endgame once the hand it came during had ended."""

@dataclass(frozen=True, slots=True)
class Player:
    """Who pressed or typed: a Telegram user as the bot needs him."""

    id: int
    name: str
    language: str | None = None
    username: str | None = None
    """His @name without the @, if he has one (so `/give @name` finds him)."""


@dataclass(eq=False)
class Live:
    """A table that is not closed, as the bot holds it between database writes."""

    id: int
    chat_id: int
    thread_id: int | None
    creator: int
    settings: TableSettings
    table: Table
    status: TableStatus = TableStatus.LOBBY
    language: str | None = None
    names: dict[int, str] = field(default_factory=dict)
    hand: Hand | None = None
    hand_id: int = 0
    hand_no: int = 0
    outcome: Outcome | None = None
    last: Outcome | None = None
    """How the hand before the one in play ended (its line stays until the first action)."""
    last_id: int = 0
    """That hand's id, as /hand takes it."""
    note: str | None = None
    wait: Wait | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    next_settings: TableSettings | None = None
    """Settings an admin changed during a hand; they apply from the next deal."""
    closing: bool = False
    """/endgame came during a hand: the table closes when that hand ends."""
    shown: str | None = None
    """A digest of what the table message shows, as the outbox last reported it."""
    results: tuple[Results, dict[int, str]] | None = None
    """A closed table's results message, with the names it mentions (None: no hand played)."""
    stored_wait: Wait | None = None
    """The wait as the store holds it (written when it changes, not on every redraw)."""
    played: int = 0
    """Hands dealt at this table (`hand_no` is the chat's number of the last one)."""
    table_commitment: str = ""
    table_secret: str | None = None
    """Revealed when the table closes (see bot.fairness)."""
    seeds: tuple[str, ...] = ()
    """The seats' seed hashes the hand in play was dealt from, in seat order: each card
    message lists them, so the seeds are on record before the hand is played."""
    told_out: set[int] = field(default_factory=set)
    """Players told privately that their stack is below the ante (told once, until they
    have the ante again)."""
    badges: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """The badges each seated player holds (`bot.achievements`), as the store has them."""
    cards_due: int = 0
    """Rounds of the hand in play whose cards went out but are not yet written as sent:
    written with the hand's next step (or at a clean stop). After a crash in between they
    are sent again: a card message twice, never none."""
    tournament: Tournament | None = None
    """The tournament played at this table, as the store last had it (None: a plain
    table)."""

    def name(self, player: int, name: str) -> None:
        """Remember how `player` is called here, told apart from everyone else seated."""
        others = [self.names[s.player] for s in self.table.seats
                  if s.player != player and s.player in self.names]
        self.names[player] = distinct(name, others)

    def view(self, now: float) -> TableView:
        """What the table message shows at `now` (the wait's time left counts down)."""
        seats = tuple(SeatView(s.player, self.names.get(s.player, "?"), s.stack, s.sitting_out,
                               self.badges.get(s.player, ()))
                      for s in self.table.seats)
        wait = None if self.wait is None or not self.wait.kind.shown else self.wait
        left = None if wait is None else math.ceil(wait.left(now))
        autostart = wait is not None and wait.kind is WaitKind.AUTOSTART
        grace = wait is not None and wait.kind is WaitKind.GRACE
        return TableView(
            table_id=self.id, status=self.status, settings=self.settings, seats=seats,
            names=self.names, hand=self.hand, hand_id=self.hand_id, hand_no=self.hand_no,
            wait_seconds=None if autostart else left,
            outcome=self.outcome, note=self.note, last=self.last, last_id=self.last_id,
            autostart_seconds=left if autostart else None,
            closing=self.closing,
            private=self.chat_id > 0,  # private chats have positive ids, groups negative
            deadline=None if wait is None else wait.deadline,
            table_commitment=self.table_commitment, table_secret=self.table_secret,
            waiting_for=tuple(comeback(self)) if grace else (),
            tournament=self._tournament_view(now),
        )

    def _tournament_view(self, now: float) -> TournamentView | None:
        t = self.tournament
        if t is None:
            return None
        last = t.level >= len(t.schedule.antes) - 1
        next_at = None if last or t.status != "running" else t.level_ends
        return TournamentView(
            t.schedule.buy_in, t.pool, t.entrants, t.level + 1, t.ante,
            hands_to_next=t.hands_to_next(), next_at=next_at,
            next_in=0 if next_at is None else max(0, math.ceil(next_at - now)),
            places=tuple((p.place, p.user_id, p.prize) for p in t.places))


def comeback(live: Live) -> list[int]:
    """The broke players a table that cannot deal its next hand waits for: seated, with
    a stack below the ante, who may still rebuy or be given chips (none at a practice
    table, or one asked to close)."""
    if live.chat_id > 0 or live.closing or live.table.can_deal():
        return []
    ante = live.settings.ante
    return [s.player for s in live.table.seats if s.player > 0 and s.stack < ante]


def takes_part(hand: Hand, seat: int) -> bool:
    """The seat has a stake in the hand: dealt into this round, or it may join the svara."""
    return hand.seats[seat].in_round or seat in hand.pending


def dealt_in(hand: Hand, seat: int) -> bool:
    """The seat was dealt into the hand's first round (it paid the ante)."""
    first = next(e for e in hand.events if isinstance(e, RoundStarted))
    return seat in first.seats


class Outbox(Protocol):
    """What a table needs from the messenger."""

    def show(self, live: Live) -> None:
        """Make the table message show `live` as it is now (written soon, outside the lock)."""

    def send_cards(self, live: Live, hands: list[tuple[PrivateHand, str | None]], *,
                   hand_id: int, rounds: int) -> None:
        """Send each player his cards privately, each in his language (without holding up
        the table), then tell `Told.cards_sent`."""

    def remind(self, live: Live, player: int, language: str | None, left: int) -> None:
        """Tell `player` privately that the table waits for him (`left` seconds remain)."""

    def moved(self, live: Live) -> None:
        """The table's chat has a new id: its next screen is a new message there."""

    def evicted(self, live: Live, players: list[tuple[int, str | None]]) -> None:
        """Tell each player (with his language) privately that the bot can no longer write
        to the table's group, so the table closed and his chips went home."""

    def resume(self, live: Live, *, message_id: int | None, shown: str | None) -> None:
        """After a restart: the table's message and a digest of what it showed, as last
        stored, so a table that did not change is not edited again."""

    def results_again(self, live: Live) -> None:
        """After a restart: the results message of a table closed before it that had not
        reached its chat."""


class Told(Protocol):
    """What the messenger reports back: what reached the chats (kept in the store)."""

    async def message_sent(self, live: Live, message_id: int) -> None:
        """A new table message was posted."""

    async def shown(self, live: Live, digest: str) -> None:
        """The table message shows the screen of this digest now."""

    async def cards_sent(self, live: Live, hand_id: int, rounds: int) -> None:
        """The cards of the hand's first `rounds` rounds went out privately."""

    async def blocked(self, player: int) -> None:
        """The player cannot be written to privately (blocked the bot, never started it)."""

    async def chat_moved(self, old: int, new: int) -> None:
        """Telegram answered that the chat is now a supergroup with a new id."""

    async def chat_gone(self, chat_id: int) -> None:
        """Telegram answered that the bot may not write to the chat any more."""

    async def results_sent(self, live: Live) -> None:
        """A closed table's results message reached its chat (or never can)."""


def hand_outcome(hand: Hand, awards: Iterable[Award] = ()) -> Outcome:
    """How a finished hand ended, as its last round showed it, with the badges it earned."""
    last_round = max(i for i, e in enumerate(hand.events) if isinstance(e, RoundStarted))
    outcome = outcome_of(hand, since=last_round)
    return replace(outcome, badges=tuple((a.player, a.badge) for a in awards))


def add_badges(live: Live, awards: Iterable[Award]) -> None:
    """Remember badges the store has just written for players at the table."""
    for a in awards:
        held = live.badges.get(a.player, ())
        if a.badge not in held:
            live.badges[a.player] = (*held, a.badge)


def lobby_want(s: TableSettings, seated: int, ready: int) -> Want:
    """What a lobby with `seated` players, `ready` of them able to pay the ante, waits for."""
    if s.autostart and ready >= 2:
        return Want(WaitKind.AUTOSTART, 0, 0, s.autostart)
    # No wait is forever: a lobby nobody starts closes, and the buy-ins go back.
    return Want(WaitKind.IDLE, 0, seated, LOBBY_IDLE)


def hand_want(s: TableSettings, hand: Hand | None, hand_id: int) -> Want:
    """What a playing table waits for with `hand` (None or over: the pause before the next)."""
    if hand is None or hand.is_over:
        return Want(WaitKind.NEXT, hand_id, 0, s.next_hand_delay)
    if hand.phase is Phase.SVARA_JOIN:
        svaras = sum(1 for e in hand.events if isinstance(e, SvaraOpened))
        return Want(WaitKind.SVARA, hand_id, svaras, s.svara_join_timeout)
    # A turn is the player to act and the steps taken before him; another player's leave is
    # not a step of the game, so it moves nobody's clock.
    steps = sum(1 for a in hand.actions if a.act is not Act.LEAVE)
    turn = steps * 64 + (hand.to_act or 0)
    if hand.phase is Phase.BLIND:
        return Want(WaitKind.BLIND, hand_id, turn, s.blind_timeout)
    return Want(WaitKind.TURN, hand_id, turn, s.turn_timeout)
