"""The `Store`: the database and its repositories, opened once and handed to the bot."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Unpack

from bot.store.achievements import Achievements
from bot.store.audit import AuditReport, run_audit
from bot.store.chats import Chats
from bot.store.db import Database, OpenOptions
from bot.store.fairness import Fairness
from bot.store.gifts import Gifts
from bot.store.hands import Hands
from bot.store.history import History
from bot.store.journal import DealJournal, journal_path
from bot.store.recovery import Recovery, Replay, recover
from bot.store.seasons import Seasons
from bot.store.tables import Tables
from bot.store.tournaments import Tournaments
from bot.store.users import Users


class Store:
    """Users, chats, tables, hands, gifts and the ledger, over one `Database`."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time,
                 journal: DealJournal | None = None) -> None:
        self.db = db
        self.clock = clock
        self.users = Users(db, clock)
        self.chats = Chats(db, clock)
        self.tables = Tables(db, clock)
        self.hands = Hands(db, clock)
        self.history = History(db)
        self.achievements = Achievements(db)
        self.fairness = Fairness(db, clock, journal=journal)
        self.gifts = Gifts(db, clock)
        self.seasons = Seasons(db, clock)
        self.tournaments = Tournaments(db, clock)

    @classmethod
    async def open(cls, path: str | Path, *, clock: Callable[[], float] = time.time,
                   **options: Unpack[OpenOptions]) -> Store:
        """Open (create, migrate) the database at ``path``; `options` as `Database.open`
        takes them."""
        db = await Database.open(path, **options)
        journal = None if str(path) == ":memory:" else DealJournal(journal_path(Path(path)))
        return cls(db, clock, journal)

    async def close(self) -> None:
        await self.db.close()
        self.fairness.journal.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def recover(self, replay: Replay | None = None) -> list[Recovery]:
        """Resume or refund every unfinished hand (call once at start-up, before play)."""
        if replay is None:
            return await recover(self.db, clock=self.clock)
        return await recover(self.db, replay=replay, clock=self.clock)

    async def audit(self) -> AuditReport:
        """Run the audit on a consistent snapshot."""
        return await self.db.read(run_audit)
