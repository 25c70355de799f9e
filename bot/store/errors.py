"""Errors the store raises on purpose. Each carries a message a player or operator can read.

Every error is raised before anything is written, or inside a transaction that is then
rolled back, so a caller who catches one knows the database did not change.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base of every error the store raises on purpose."""

    @property
    def message(self) -> str:
        return str(self)


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot."""

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(
            f"the database {path} is at schema version {found}, but this bot only knows "
            f"versions up to {known}; run the newer bot or restore a backup made by this one"
        )
        self.found = found
        self.known = known


class StorageFailure(StoreError):
    """SQLite itself failed (disk full, I/O error, locked too long); nothing was committed."""


class IntegrityViolation(StorageFailure):
    """A constraint of the schema refused a write the checks in Python let through."""


class BadAmount(StoreError, ValueError):
    """An amount of chips that is not a whole number in the allowed range."""

    def __init__(self, what: str, amount: object, low: int, high: int) -> None:
        super().__init__(f"{what} must be a whole number from {low} to {high}, not {amount!r}")
        self.amount = amount
        self.high = high

    @property
    def over(self) -> bool:
        """A whole number above the range: too many chips, not a malformed amount."""
        return type(self.amount) is int and self.amount > self.high


class BadInput(StoreError, ValueError):
    """Some other argument is malformed (a JSON text that is not an object, a bad status ...)."""


class UnknownUser(StoreError, LookupError):
    def __init__(self, user_id: int) -> None:
        super().__init__(f"there is no user {user_id}; they must talk to the bot first")
        self.user_id = user_id


class UnknownTable(StoreError, LookupError):
    def __init__(self, table_id: int) -> None:
        super().__init__(f"there is no table {table_id}")
        self.table_id = table_id


class UnknownHand(StoreError, LookupError):
    def __init__(self, hand_id: int) -> None:
        super().__init__(f"there is no hand {hand_id}")
        self.hand_id = hand_id


class InsufficientChips(StoreError):
    """A debit larger than what the account holds."""

    def __init__(self, where: str, have: int, need: int) -> None:
        super().__init__(f"not enough chips in {where}: {have} there, {need} needed")
        self.have = have
        self.need = need


class TableExists(StoreError):
    def __init__(self, table_id: int) -> None:
        super().__init__(f"this chat already has an open table ({table_id}); close it first")
        self.table_id = table_id


class TableClosed(StoreError):
    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} is closed")
        self.table_id = table_id


class TableFull(StoreError):
    def __init__(self, table_id: int, seats: int) -> None:
        super().__init__(f"table {table_id} is full ({seats} seats)")
        self.table_id = table_id


class AlreadySeated(StoreError):
    def __init__(self, table_id: int, user_id: int) -> None:
        super().__init__(f"user {user_id} already sits at table {table_id}")


class NotSeated(StoreError, LookupError):
    def __init__(self, table_id: int, user_id: int) -> None:
        super().__init__(f"user {user_id} does not sit at table {table_id}")
        self.table_id = table_id
        self.user_id = user_id


class HandInProgress(StoreError):
    """The table has an open hand, so its seats' chips cannot move now."""

    def __init__(self, table_id: int, hand_id: int) -> None:
        super().__init__(f"table {table_id} has hand {hand_id} in progress; wait for its end")
        self.table_id = table_id
        self.hand_id = hand_id


class HandNotOpen(StoreError):
    def __init__(self, hand_id: int, status: str) -> None:
        super().__init__(f"hand {hand_id} is {status}, not open")
        self.hand_id = hand_id
        self.status = status


class HandMismatch(StoreError):
    """What the engine says about a hand disagrees with the database (seats, stacks, pot, seq)."""


class BonusNotDue(StoreError):
    def __init__(self, user_id: int, due_at: int) -> None:
        super().__init__(f"the next daily bonus of user {user_id} is due at {due_at} (unix time)")
        self.due_at = due_at


class NoRebuyLeft(StoreError):
    """A broke player asked for a rebuy he may not take: too many taken, or not broke."""

    def __init__(self, table_id: int, user_id: int, why: str) -> None:
        super().__init__(f"user {user_id} may not rebuy at table {table_id}: {why}")
        self.why = why


class HouseDayLimit(StoreError):
    """The house's chips a user would receive (rebuys and gifts, in every chat) are over
    what one user may receive in a day, or a giver's over what one admin may give."""

    def __init__(self, user_id: int, left: int, asked: int, *, giver: bool = False) -> None:
        whose = "give" if giver else "receive"
        super().__init__(f"user {user_id} may {whose} {left} more chips of the house today, "
                         f"not {asked}")
        self.left = left
        self.giver = giver


class AllowanceSpent(StoreError):
    """A chat admin's gift from the house is over what the chat may still give today."""

    def __init__(self, chat_id: int, left: int, asked: int) -> None:
        super().__init__(f"chat {chat_id} may give {left} more chips from the house today, "
                         f"not {asked}")
        self.left = left


class MenuUsed(StoreError):
    """A /give menu whose gift was given already: one menu gives once."""

    def __init__(self, chat_id: int, message_id: int) -> None:
        super().__init__(f"the /give menu of message {message_id} in chat {chat_id} gave already")
        self.chat_id = chat_id
        self.message_id = message_id
