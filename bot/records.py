"""What the bot's record holds, as plain values: a table's status, a played hand and its
proof, leaderboard lines, figures and the chip statement.

The store reads them (bot.store) and the renderers draw them (bot.render); neither side's
code is needed to understand them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from engine import Hand


class TableStatus(StrEnum):
    """Where a table is in its life; the value is what the ``tables.status`` column holds."""

    LOBBY = "lobby"
    """Open, waiting for Start: players join and leave."""
    PLAYING = "playing"
    """Dealt at least once: hands follow each other until it closes."""
    CLOSED = "closed"
    """Over: every stack went back."""


HandStatus = Literal["open", "settled", "aborted"]


@dataclass(frozen=True, slots=True)
class HandRow:
    id: int
    table_id: int
    number: int
    start: dict[str, Any]
    """The engine start JSON (rules, seats, dealer, seed): ``Hand.replay`` takes it."""
    commitment: str
    reveal: list[dict[str, Any]] | None
    """Per round: the commitment, the 32 position hashes and the opened positions (settled
    hands only)."""
    started_at: int
    ended_at: int | None
    pot: int
    status: HandStatus
    result: dict[str, Any] | None
    """The engine's result of a settled hand (``Hand.result``, JSON keys as text)."""
    abort_reason: str | None
    cards_sent: int = 0
    """Rounds of the hand whose cards went out privately."""


@dataclass(frozen=True, slots=True)
class HandProof:
    """What a hand's key came from besides the table secret."""

    nonce: int
    seeds: tuple[str, ...]
    """SHA-256 of each seated player's seed, in seat order."""
    table_commitment: str
    secret: str | None
    """The table secret once revealed (the table closed and its settings allow it)."""
    closed: bool = False
    """The table has closed (with ``secret`` None: it keeps its secret for good)."""
    version: int = 1
    """The scheme the hand was dealt with (`engine.PROOF_VERSION` now)."""
    defaults: tuple[int | None, ...] = ()
    """Per seat: the user id whose default seed it is, None for a seed of his own
    (version 2 on)."""
    fixed: tuple[int, ...] = ()
    """Per seat: the deal number at which the table fixed his seed (version 2 on)."""
    missing: tuple[int, ...] = field(default=())
    """Deal numbers below this hand's that the table has no hand for (a deal whose hand
    was never stored, or numbers skipped after the database was restored)."""


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A settled hand with what is needed to tell it: its row, chat and replayed engine."""

    row: HandRow
    chat_id: int
    hand: Hand
    proof: HandProof | None = None
    """What its key came from (None for a hand dealt before the table secrets)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a leaderboard."""

    rank: int
    user_id: int
    name: str
    net: int
    played: int
    won: int
    biggest: int
    """The biggest pot he won."""


@dataclass(frozen=True, slots=True)
class PlayerStats:
    played: int
    won: int
    net: int
    biggest: int
    svaras: int
    svaras_won: int
    best: int | None
    streak: int
    """The longest run of hands won in a row."""


@dataclass(frozen=True, slots=True)
class NetLine:
    """One player's running net in a chat since some time, after each hand he played."""

    user_id: int
    name: str
    series: list[tuple[int, int]]
    """(time, net since the window opened), oldest first."""


@dataclass(frozen=True, slots=True)
class AtTable:
    """Chips on a table where the player sits."""

    table_id: int
    title: str | None
    stack: int


@dataclass(slots=True)
class Entry:
    """One line of the statement."""

    kind: str
    """``stay`` for a stay at a table, else the ledger kind (``bonus``, ``grant``...)."""
    at: int
    """When it began."""
    title: str | None
    table_id: int | None = None
    delta: int = 0
    """The change of the balance; for a stay, its net as the table's results count it:
    what he cashed out minus his buy-ins, top-ups and rebuys."""
    brought: int = 0
    """A stay's buy-ins."""
    topped: int = 0
    """A stay's top-ups from the balance."""
    rebuys: int = 0
    """How many rebuys he took from the house at the table."""
    rebought: int = 0
    """The chips of those rebuys."""
    back: int = 0
    """What his cash-outs returned to the balance (0 for a stack lost to the last chip)."""
    playing: bool = False
    """He holds a seat at the table now (a closed table has no seats)."""

    @property
    def open(self) -> bool:
        return self.kind == "stay" and self.playing


@dataclass(frozen=True, slots=True)
class Statement:
    balance: int
    tables: tuple[AtTable, ...]
    entries: tuple[Entry, ...]
    """Newest first."""
