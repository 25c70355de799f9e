"""What the store hands back: plain frozen values, read from one committed state."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.achievements import Award
from bot.records import HandRow as HandRow
from bot.records import HandStatus as HandStatus
from bot.records import TableStatus as TableStatus

if TYPE_CHECKING:
    from bot.store.tournament_pool import Tournament


def _decoded(text: str | None) -> Any:
    return None if text is None else json.loads(text)


@dataclass(frozen=True, slots=True)
class User:
    id: int
    name: str
    language: str | None
    """The language of his Telegram client, as last seen."""
    private_chat: bool
    """Whether the user has opened a private chat with the bot (so it may write to him)."""
    balance: int
    last_bonus_at: int | None
    created_at: int
    chosen_language: str | None = None
    """The language he chose with /language in private, over his client's."""

    @classmethod
    def of(cls, row: sqlite3.Row) -> User:
        return cls(row["id"], row["name"], row["language"], bool(row["private_chat"]),
                   row["balance"], row["last_bonus_at"], row["created_at"],
                   row["chosen_language"])

    @property
    def speaks(self) -> str | None:
        """The language to write to him in: his choice, else his client's."""
        return self.chosen_language or self.language


@dataclass(frozen=True, slots=True)
class Chat:
    id: int
    settings: str
    """The chat's table settings as JSON text; the bot validates it with its own model."""
    language: str | None
    topics: tuple[int, ...] | None = None
    """The forum topics its admins keep the bot to (0: General); None: every topic."""

    @classmethod
    def of(cls, row: sqlite3.Row) -> Chat:
        topics = _decoded(row["topics"])
        return cls(row["id"], row["settings"], row["language"],
                   None if topics is None else tuple(int(t) for t in topics))

    def settings_dict(self) -> dict[str, Any]:
        """The settings parsed (always a JSON object)."""
        value = json.loads(self.settings)
        return value if isinstance(value, dict) else {}


@dataclass(frozen=True, slots=True)
class Table:
    id: int
    chat_id: int
    thread_id: int | None
    status: TableStatus
    creator: int
    rules: dict[str, Any]
    """The engine rules JSON this table deals with (``Rules.from_json``)."""
    message_id: int | None
    created_at: int
    closed_at: int | None
    shown: str | None = None
    """A digest of what the table message showed when last sent or edited (None: unknown)."""
    practice: bool = False
    """A practice table: the creator against computer players, on practice chips."""
    closing: bool = False
    """Asked to close (/endgame) while a hand was on: it closes when that hand ends."""
    wait: str | None = None
    """What the table waits for and until when (JSON of `bot.clock.Wait`), as last stored."""

    @classmethod
    def of(cls, row: sqlite3.Row) -> Table:
        return cls(row["id"], row["chat_id"], row["thread_id"], TableStatus(row["status"]),
                   row["creator"],
                   json.loads(row["rules"]), row["message_id"], row["created_at"],
                   row["closed_at"], row["shown"],
                   bool(row["practice"]), bool(row["closing"]), row["wait"])


@dataclass(frozen=True, slots=True)
class Seat:
    table_id: int
    user_id: int
    join_order: int
    stack: int
    sitting_out: bool
    leaving: bool
    """Leaves when the current hand ends (his stack goes back then)."""
    timeouts: int
    sat_ante: int | None = None
    """The table's ante when he sat down (None: not known, a seat from before it was kept)."""
    sat_most: int | None = None
    """The table's largest buy-in when he sat down (None: not known)."""

    @classmethod
    def of(cls, row: sqlite3.Row) -> Seat:
        keys = row.keys()
        return cls(row["table_id"], row["user_id"], row["join_order"], row["stack"],
                   bool(row["sitting_out"]), bool(row["leaving"]), row["timeouts"],
                   row["sat_ante"] if "sat_ante" in keys else None,
                   row["sat_most"] if "sat_most" in keys else None)


@dataclass(frozen=True, slots=True)
class Leave:
    """The outcome of `Tables.leave`."""

    user_id: int
    cashed_out: int
    """Chips moved back to the balance now (0 when deferred)."""
    deferred: bool
    """True when he plays the open hand: he leaves, and is paid out, when it ends."""


@dataclass(frozen=True, slots=True)
class Movement:
    """One ledger row as a user sees it: a change of one of his accounts."""

    id: int
    move: int
    kind: str
    account: str
    delta: int
    table_id: int | None
    hand_id: int | None
    memo: str | None
    at: int

    @classmethod
    def of(cls, row: sqlite3.Row) -> Movement:
        return cls(row["id"], row["move"], row["kind"], row["account"], row["delta"],
                   row["table_id"], row["hand_id"], row["memo"], row["at"])


@dataclass(frozen=True, slots=True)
class TableChips:
    table_id: int
    chat_id: int
    thread_id: int | None
    stack: int


@dataclass(frozen=True, slots=True)
class Holdings:
    """Where a user's chips are: his balance and his stack at each table."""

    user_id: int
    balance: int
    tables: tuple[TableChips, ...]

    @property
    def total(self) -> int:
        return self.balance + sum(t.stack for t in self.tables)


@dataclass(frozen=True, slots=True)
class Settled:
    """The outcome of `Hands.settle`."""

    hand_id: int
    left: dict[int, int]
    """Players who left with the hand's end: user id -> chips moved back to the balance."""
    awards: tuple[Award, ...] = ()
    """The badges the hand earned (`bot.achievements`), written with it."""
    tournament: Tournament | None = None
    """At a tournament's table: the tournament as the hand left it (level, places)."""


def hand_row(row: sqlite3.Row) -> HandRow:
    """A ``hands`` row as the store hands it back."""
    return HandRow(row["id"], row["table_id"], row["number"], json.loads(row["start"]),
                   row["commitment"], _decoded(row["reveal"]), row["started_at"],
                   row["ended_at"], row["pot"], row["status"], _decoded(row["result"]),
                   row["abort_reason"], row["cards_sent"])
