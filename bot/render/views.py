"""What the renderers draw from: plain values, built by the table (bot.live) and read by
every screen; nothing here formats."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.records import TableStatus
from bot.table_settings import TableSettings
from engine import Card, Hand, format_hand

MAX_NAME = 24
"""Names are cut to this many characters so ten long names still fit one message."""


@dataclass(frozen=True, slots=True)
class SeatView:
    player: int
    name: str
    stack: int
    sitting_out: bool = False
    badges: tuple[str, ...] = ()
    """The codes of the badges he holds (`bot.achievements`), in the order he earned them."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the last hand ended, shown until the next one is dealt."""

    shown: tuple[tuple[int, tuple[Card, ...], int], ...]
    """(player, cards, points) of everyone who showed."""
    won: tuple[tuple[tuple[int, ...], int, int | None], ...]
    """(winners, amount, points or None) per pot paid."""
    proof: bool = False
    """The hand is over: point to its proof (/hand N)."""
    badges: tuple[tuple[int, str], ...] = ()
    """(player, badge code) of every badge the hand earned, announced one line each."""


@dataclass(frozen=True, slots=True)
class TournamentView:
    """What a tournament's table shows of it: its level, the next rise, its places."""

    buy_in: int
    pool: int
    entrants: int
    level: int
    """1 the first level."""
    ante: int
    hands_to_next: int | None = None
    """With levels by hands: hands until the next level (None: by minutes, or the last)."""
    next_at: int | None = None
    """With levels by minutes: when the next level begins (seconds since the epoch)."""
    next_in: int = 0
    """Seconds from the view's drawing to `next_at`."""
    places: tuple[tuple[int, int, int], ...] = ()
    """(place, player, prize) of everyone out so far, and at its end of everyone."""


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything the table message shows."""

    table_id: int
    status: TableStatus
    settings: TableSettings
    seats: tuple[SeatView, ...]
    names: dict[int, str] = field(default_factory=dict)
    """Display names of every player the view mentions (seated or not)."""
    hand: Hand | None = None
    hand_id: int = 0
    hand_no: int = 0
    wait_seconds: int | None = None
    outcome: Outcome | None = None
    note: str | None = None
    """A message id (marked with N_) shown under the table: why it closed, a refund."""
    autostart_seconds: int | None = None
    """The lobby deals by itself this long after it filled (the autostart setting)."""
    closing: bool = False
    """/endgame was sent during the hand: the table closes when it ends."""
    deadline: float | None = None
    """When the table's current wait runs out (seconds since the epoch); `wait_seconds`
    and `autostart_seconds` are what is left of it when the view was taken."""
    private: bool = False
    """A practice table in a private chat: a new one is opened with /practice."""
    table_commitment: str = ""
    """SHA-256 of the table's secret, shown before its first decision (docs/FAIRNESS.md)."""
    table_secret: str | None = None
    """The table's secret, shown once the table has closed (if its settings reveal it)."""
    waiting_for: tuple[int, ...] = ()
    """Broke players the table waits for before it closes (the grace of a rebuy)."""
    last: Outcome | None = None
    """How the hand before the one in play ended: one line until this hand's first action."""
    last_id: int = 0
    """That hand's number in its chat, as /hand takes it."""
    tournament: TournamentView | None = None
    """At a tournament's table: its level and places."""


@dataclass(frozen=True, slots=True)
class Screen:
    text: str
    buttons: tuple[tuple[tuple[str, str], ...], ...] = ()
    """Rows of (label, callback data)."""


def short_name(name: str) -> str:
    name = " ".join(name.split()) or "?"
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"


def cards_text(cards: tuple[Card, ...]) -> str:
    return format_hand(cards)


@dataclass(frozen=True, slots=True)
class PrivateHand:
    """What one player is sent privately at a deal (taken when dealt, sent a moment later)."""

    player: int
    hand_no: int
    cards: tuple[Card, ...]
    points: int
    commitment: str
    openings: tuple[tuple[int, str, str], ...] = ()
    """(deck position, card, salt) of each of his cards: his part of the fairness proof."""
    round_no: int = 1
    """1 for the first deal of the hand, 2 for its first svara, and so on."""
    seeds: tuple[str, ...] = ()
    """The seats' seed hashes the hand was dealt from, in seat order (none: a hand dealt
    without them)."""


@dataclass(frozen=True, slots=True)
class Results:
    """A closed table's session, from the ledger: what it shows in its results message."""

    hands: int
    nets: tuple[tuple[int, int], ...]
    """(player, chips taken home minus chips brought), in the order they sat down."""
    biggest: tuple[int, int, int] | None = None
    """(hand number, player, chips won) of the biggest pot, if a hand paid one."""
    rebuys: tuple[tuple[int, int], ...] = ()
    """(player, how many rebuys he took from the house): their chips count as not his."""
