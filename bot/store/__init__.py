"""Storage: SQLite over aiosqlite with one owner of transactions, an append-only
double-entry ledger, hands persisted step by step, and start-up recovery.

Open it once with ``store = await Store.open(path)``, run ``await store.recover()``
before dealing, and use ``store.users``, ``store.chats``, ``store.tables`` and
``store.hands``. ``python -m bot audit`` and ``python -m bot backup`` are in `cli`.
"""

from bot.store.audit import AuditReport
from bot.store.db import Database
from bot.store.errors import (
    AlreadySeated,
    BadAmount,
    BadInput,
    BonusNotDue,
    HandInProgress,
    HandMismatch,
    HandNotOpen,
    InsufficientChips,
    IntegrityViolation,
    NotSeated,
    SchemaTooNew,
    StorageFailure,
    StoreError,
    TableClosed,
    TableExists,
    TableFull,
    UnknownHand,
    UnknownTable,
    UnknownUser,
)
from bot.store.models import (
    Chat,
    HandRow,
    Holdings,
    Leave,
    Movement,
    Seat,
    Settled,
    Table,
    TableChips,
    TableStatus,
    User,
)
from bot.store.recovery import Recovery
from bot.store.store import Store

__all__ = [
    "AlreadySeated", "AuditReport", "BadAmount", "BadInput", "BonusNotDue", "Chat",
    "Database", "HandInProgress", "HandMismatch", "HandNotOpen", "HandRow", "Holdings",
    "InsufficientChips", "IntegrityViolation", "Leave", "Movement", "NotSeated", "Recovery",
    "SchemaTooNew", "Seat", "Settled", "StorageFailure", "Store", "StoreError", "Table",
    "TableChips", "TableClosed", "TableExists", "TableFull", "TableStatus",
    "UnknownHand", "UnknownTable", "UnknownUser", "User",
]
