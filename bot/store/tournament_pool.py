"""A tournament's row and its pool, as the seats need them: what a tournament is and how far
it is, and the withdrawal of a seat's tournament chips (see `bot.store.tournaments`)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.store import ledger
from bot.store.models import Seat
from bot.store.sql import Conn, fetchall, fetchone
from bot.tournament import LevelClock, Schedule


@dataclass(frozen=True, slots=True)
class Place:
    user_id: int
    place: int
    prize: int


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament's row with its places, best first."""

    table_id: int
    schedule: Schedule
    status: str
    level: int
    level_ends: int | None
    hands: int
    entrants: int
    pool: int
    places: tuple[Place, ...] = ()

    @property
    def ante(self) -> int:
        return self.schedule.ante(self.level)

    @property
    def registering(self) -> bool:
        """Entries are taken: before the start, or during its late registration."""
        return self.status == "registering" or (
            self.status == "running" and self.level < self.schedule.late_levels)

    def hands_to_next(self) -> int | None:
        """With levels by hands: hands until the level rises (None: by minutes, or none
        is left)."""
        if self.schedule.clock is not LevelClock.HANDS \
                or self.level >= len(self.schedule.antes) - 1:
            return None
        return (self.level + 1) * self.schedule.every - self.hands


async def tournament_of(conn: Conn, table_id: int) -> Tournament | None:
    """The tournament played at a table, or None (a plain table)."""
    row = await fetchone(conn, "SELECT * FROM tournaments WHERE table_id = ?", (table_id,))
    if row is None:
        return None
    pool = await fetchone(
        conn, "SELECT ifnull(sum(delta), 0), (SELECT count(*) FROM (SELECT 1 FROM ledger"
              " WHERE account = 'pool' AND table_id = ?1 AND kind IN ('entry', 'entry_refund')"
              " GROUP BY user_id HAVING sum(delta) > 0)) FROM ledger WHERE account = 'pool'"
              " AND table_id = ?1", (table_id,))
    assert pool is not None
    places = await fetchall(conn, "SELECT user_id, place, prize FROM tournament_places"
                                  " WHERE table_id = ? ORDER BY place", (table_id,))
    return Tournament(table_id, Schedule.from_json(json.loads(row["schedule"])),
                      str(row["status"]), int(row["level"]), row["level_ends"],
                      int(row["hands"]), int(pool[1]), int(pool[0]),
                      tuple(Place(int(p[0]), int(p[1]), int(p[2])) for p in places))


async def refund_entries(conn: Conn, table_id: int, user_id: int | None, *, at: int) -> None:
    """Give back the buy-in still in the pool of one entrant (or of every one)."""
    rows = await fetchall(conn, "SELECT user_id, sum(delta) FROM ledger WHERE account = 'pool'"
                                " AND table_id = ? AND ifnull(user_id = ?, 1) GROUP BY user_id"
                                " HAVING sum(delta) > 0 ORDER BY min(id)", (table_id, user_id))
    await ledger.post(conn, [ledger.Transfer("entry_refund", int(r[1]), ledger.pool(table_id),
                                             ledger.balance(int(r[0])))
                             for r in rows], at=at)


async def withdraw(conn: Conn, seat: Seat, t: Tournament, *, at: int) -> None:
    """A seat at a tournament's table goes: its tournament chips are withdrawn, and before
    the start his buy-in goes back (called by `bot.store.seats.cash_out`)."""
    if seat.stack:
        await ledger.post(conn, [ledger.Transfer("tournament_out", seat.stack,
                                                 ledger.stack(seat.user_id, seat.table_id),
                                                 ledger.BANK)], at=at)
    if t.status == "registering":
        await refund_entries(conn, seat.table_id, seat.user_id, at=at)


