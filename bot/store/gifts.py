"""Chips for a broke player: a rebuy from the house, a chat admin's gift from the house,
a player's gift of his own chips.

Each is one movement of its own kind in the ledger (``rebuy``: bank to his stack at the
table; ``house_gift``: bank to his balance, remembered with its chat in ``house_gifts``
so a chat's daily allowance is a sum; ``gift``: one balance to another), written in one
transaction with the checks that allow it, so two requests racing each see what the
other did.

The house's chips cannot be minted by a chat's own admin: a player is broke by the ante
of the table as he sat down (a seat keeps it), a rebuy is never more than the table's
largest buy-in, and what one user receives from the house (rebuys and gifts) and what one
admin gives from it are bounded per 24 hours in every chat together (the operator's
``daily``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.store import ledger
from bot.store.db import Database
from bot.store.errors import (
    AllowanceSpent,
    BadInput,
    HandInProgress,
    HouseDayLimit,
    InsufficientChips,
    MenuUsed,
    NoRebuyLeft,
)
from bot.store.ledger_table import MAX_CHIPS
from bot.store.models import Seat
from bot.store.seats import get_seat, open_hand_players, sit_empty
from bot.store.sql import Conn, fetchall, fetchone
from bot.store.tables import live_table
from bot.store.users import DAY, get_user


@dataclass(frozen=True, slots=True)
class Queued:
    """Chips a player asked for during his hand, for the next one."""

    user_id: int
    kind: str
    """``top_up`` (from his balance) or ``rebuy`` (from the house)."""
    amount: int | None
    """None: up to the table's maximum (a top-up), the table's rebuy (a rebuy)."""


QUEUED_KINDS = ("top_up", "rebuy")


@dataclass(frozen=True, slots=True)
class GiveMenu:
    """The buttons one /give command was answered with: they give once, whichever is
    pressed. Named by the chat and the command's message; its gift carries it as memo."""

    chat_id: int
    message_id: int

    @property
    def memo(self) -> str:
        return f"give menu {self.chat_id}/{self.message_id}"


async def menu_used(conn: Conn, giver: int, menu: GiveMenu) -> bool:
    """Whether the giver's menu gave already, of his own chips or from the house."""
    own = await fetchone(conn, "SELECT 1 FROM ledger WHERE user_id = ? AND kind = 'gift'"
                               " AND memo = ? LIMIT 1", (giver, menu.memo))
    if own is not None:
        return True
    house = await fetchone(conn, "SELECT 1 FROM house_gifts h JOIN ledger l ON l.move = h.move"
                                 " WHERE h.chat_id = ? AND h.giver = ? AND l.memo = ? LIMIT 1",
                           (menu.chat_id, giver, _house_memo(menu.chat_id, menu)))
    return house is not None


def _house_memo(chat_id: int, menu: GiveMenu | None) -> str:
    memo = f"from an admin of chat {chat_id}"
    return memo if menu is None else f"{memo}, {menu.memo}"


@dataclass(frozen=True, slots=True)
class Rebuys:
    """A player's rebuys at one table: how many and how many chips."""

    user_id: int
    count: int
    chips: int


async def rebuys_taken(conn: Conn, table_id: int, user_id: int) -> int:
    """How many rebuys the player took at the table."""
    row = await fetchone(conn, "SELECT count(*) FROM ledger WHERE kind = 'rebuy'"
                               " AND account = 'stack' AND table_id = ? AND user_id = ?",
                         (table_id, user_id))
    return int(row[0]) if row is not None else 0


async def given_today(conn: Conn, chat_id: int, now: int) -> int:
    """The chips a chat's admins gave from the house in the 24 hours before ``now``."""
    row = await fetchone(conn, "SELECT ifnull(sum(amount), 0) FROM house_gifts"
                               " WHERE chat_id = ? AND at > ?", (chat_id, now - DAY))
    return int(row[0]) if row is not None else 0


async def house_received(conn: Conn, user_id: int, now: int) -> int:
    """The house's chips the user received (rebuys, gifts from the house) in every chat in
    the 24 hours before ``now``."""
    row = await fetchone(conn, "SELECT ifnull(sum(delta), 0) FROM ledger WHERE user_id = ?"
                               " AND at > ? AND kind IN ('rebuy', 'house_gift')"
                               " AND account IN ('stack', 'balance')", (user_id, now - DAY))
    return int(row[0]) if row is not None else 0


async def house_given_by(conn: Conn, giver: int, now: int) -> int:
    """The house's chips one admin gave in every chat in the 24 hours before ``now``."""
    row = await fetchone(conn, "SELECT ifnull(sum(amount), 0) FROM house_gifts"
                               " WHERE giver = ? AND at > ?", (giver, now - DAY))
    return int(row[0]) if row is not None else 0


async def _check_house_day(conn: Conn, user_id: int, amount: int, daily: int | None,
                           now: int) -> None:
    if daily is None:
        return
    if type(daily) is not int or daily < 0:
        raise BadInput(f"the house's chips a day are a whole number, not {daily!r}")
    left = daily - await house_received(conn, user_id, now)
    if amount > left:
        raise HouseDayLimit(user_id, max(left, 0), amount)


async def _rebuy_into(conn: Conn, seat: Seat, amount: int, *, most: int, below: int,
                      high: int | None, daily: int | None, now: int) -> int:
    """The rebuy's checks and its movement, in the caller's transaction; the new stack."""
    user_id, table_id = seat.user_id, seat.table_id
    if seat.sat_ante is not None:
        below = min(below, seat.sat_ante)
    for cap in (high, seat.sat_most):
        if cap is not None:
            amount = min(amount, cap)
    user = await get_user(conn, user_id)
    if seat.stack >= below or user.balance >= below:
        raise NoRebuyLeft(table_id, user_id, "not broke")
    if await rebuys_taken(conn, table_id, user_id) >= most:
        raise NoRebuyLeft(table_id, user_id, f"all {most} taken")
    await _check_house_day(conn, user_id, amount, daily, now)
    ledger.check_amount("the stack after it", seat.stack + amount, high=MAX_CHIPS)
    await ledger.post(conn, [ledger.Transfer("rebuy", amount, ledger.BANK,
                                             ledger.stack(user_id, table_id))], at=now)
    return seat.stack + amount


class Gifts:
    """Rebuys and gifts. Every write is one transaction."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    def _now(self) -> int:
        return int(self._clock())

    async def rebuy(self, table_id: int, user_id: int, amount: int, *, most: int,
                    below: int, high: int | None = None, daily: int | None = None) -> int:
        """A rebuy of ``amount`` chips from the house to the player's stack; his new stack.

        Only for a player who is broke: his stack and his balance both below ``below``
        (the ante now, or the ante when he sat down if that was lower: a change of the
        stakes after he sat never makes him broke), not in the open hand, and only ``most``
        times at this table; otherwise `NoRebuyLeft` (or `HandInProgress`), and nothing
        changes. The rebuy is at most ``high`` (the table's largest buy-in, or the one when
        he sat down if lower), and the house gives one user at most ``daily`` chips in 24
        hours in every chat together (`HouseDayLimit`).
        """
        ledger.check_amount("a rebuy", amount)
        if type(most) is not int or most < 0:
            raise BadInput(f"the most rebuys is a whole number, not {most!r}")
        now = self._now()

        async def work(conn: Conn) -> int:
            table = await live_table(conn, table_id)
            if table.practice:
                raise NoRebuyLeft(table_id, user_id, "a practice table")
            seat = await get_seat(conn, table_id, user_id)
            hand = await open_hand_players(conn, table_id)
            if hand is not None and user_id in hand[1]:
                raise HandInProgress(table_id, hand[0])
            return await _rebuy_into(conn, seat, amount, most=most, below=below, high=high,
                                     daily=daily, now=now)

        return await self._db.write(work)

    async def sit_with_rebuy(self, table_id: int, user_id: int, amount: int, *, most: int,
                             ante: int, high: int, daily: int | None = None,
                             wait: str | None = None) -> Seat:
        """A broke player sits down with the table's rebuy from the house; his seat.

        Broke: his balance below ``ante``, so no buy-in of his own is possible (what little
        he has stays in his balance). The seat keeps ``ante`` and ``high`` as the stakes he
        sat at; the rebuy is as `rebuy` allows it (`NoRebuyLeft`, `HouseDayLimit`), written
        with the seat (and ``wait``, what the table waits for now) in one transaction.
        """
        ledger.check_amount("a rebuy", amount)
        if type(most) is not int or most < 0:
            raise BadInput(f"the most rebuys is a whole number, not {most!r}")
        now = self._now()

        async def work(conn: Conn) -> Seat:
            table = await live_table(conn, table_id)
            if table.practice:
                raise NoRebuyLeft(table_id, user_id, "a practice table")
            seat = await sit_empty(conn, table_id, user_id, at=now, stakes=(ante, high))
            await _rebuy_into(conn, seat, amount, most=most, below=ante, high=high,
                              daily=daily, now=now)
            if wait is not None:
                await conn.execute("UPDATE tables SET wait = ? WHERE id = ?", (wait, table_id))
            return await get_seat(conn, table_id, user_id)

        return await self._db.write(work)

    async def house_left(self, user_id: int, daily: int) -> int:
        """What the house may still give the user (rebuys and gifts) in the next 24 hours."""
        now = self._now()
        got = await self._db.read(lambda conn: house_received(conn, user_id, now))
        return max(0, daily - got)

    async def rebuys(self, table_id: int) -> list[Rebuys]:
        """Every player's rebuys at the table, in the order they took the first."""
        rows = await self._db.fetchall(
            "SELECT user_id, count(*), sum(delta) FROM ledger WHERE kind = 'rebuy'"
            " AND account = 'stack' AND table_id = ? GROUP BY user_id ORDER BY min(id)",
            (table_id,))
        return [Rebuys(int(r[0]), int(r[1]), int(r[2])) for r in rows]

    async def rebuys_of(self, table_id: int, user_id: int) -> int:
        """How many rebuys the player took at the table."""
        return await self._db.read(lambda conn: rebuys_taken(conn, table_id, user_id))

    async def give(self, giver: int, receiver: int, amount: int, *,
                   menu: GiveMenu | None = None) -> int:
        """A player gives ``amount`` of his own balance to another; the giver's new balance.

        From a ``menu`` of buttons: `MenuUsed` if that menu gave already, and nothing changes.
        """
        ledger.check_amount("a gift", amount)
        if giver == receiver:
            raise BadInput("a gift goes to someone else")
        now = self._now()

        async def work(conn: Conn) -> int:
            source = await get_user(conn, giver)
            target = await get_user(conn, receiver)
            if source.id < 0 or target.id < 0:
                raise BadInput("practice chips are never given")
            if menu is not None and await menu_used(conn, giver, menu):
                raise MenuUsed(menu.chat_id, menu.message_id)
            if source.balance < amount:
                raise InsufficientChips(f"the balance of user {giver}", source.balance, amount)
            ledger.check_amount("the balance after it", target.balance + amount, high=MAX_CHIPS)
            await ledger.post(conn, [ledger.Transfer("gift", amount, ledger.balance(giver),
                                                     ledger.balance(receiver))], at=now,
                              memo=None if menu is None else menu.memo)
            return source.balance - amount

        return await self._db.write(work)

    async def give_from_house(self, chat_id: int, giver: int, receiver: int, amount: int,
                              *, allowance: int, menu: GiveMenu | None = None,
                              daily: int | None = None) -> int:
        """A chat admin gives ``amount`` new chips from the house to a player's balance,
        within the chat's ``allowance`` per 24 hours; what the chat may still give.

        Over the allowance: `AllowanceSpent` (with what is left), and nothing changes; from
        a ``menu`` that gave already: `MenuUsed`, and nothing changes. ``daily`` bounds the
        house's chips in every chat together: what one user receives (with his rebuys) and
        what one admin gives in 24 hours (`HouseDayLimit`).
        """
        ledger.check_amount("a gift", amount)
        if type(allowance) is not int or allowance < 0:
            raise BadInput(f"an allowance is a whole number, not {allowance!r}")
        now = self._now()

        async def work(conn: Conn) -> int:
            await get_user(conn, giver)
            target = await get_user(conn, receiver)
            if target.id < 0:
                raise BadInput("practice chips and real chips never mix")
            if menu is not None and await menu_used(conn, giver, menu):
                raise MenuUsed(menu.chat_id, menu.message_id)
            left = allowance - await given_today(conn, chat_id, now)
            if amount > left:
                raise AllowanceSpent(chat_id, max(left, 0), amount)
            await _check_house_day(conn, receiver, amount, daily, now)
            if daily is not None:
                gives = daily - await house_given_by(conn, giver, now)
                if amount > gives:
                    raise HouseDayLimit(giver, max(gives, 0), amount, giver=True)
            ledger.check_amount("the balance after it", target.balance + amount, high=MAX_CHIPS)
            move = await ledger.next_move(conn)
            await ledger.post(conn, [ledger.Transfer("house_gift", amount, ledger.BANK,
                                                     ledger.balance(receiver))],
                              at=now, memo=_house_memo(chat_id, menu))
            await conn.execute("INSERT INTO house_gifts (move, chat_id, giver, amount, at)"
                               " VALUES (?, ?, ?, ?, ?)", (move, chat_id, giver, amount, now))
            return left - amount

        return await self._db.write(work)

    async def left_today(self, chat_id: int, allowance: int) -> int:
        """What a chat's admins may still give from the house now."""
        now = self._now()
        return max(0, allowance - await self._db.read(
            lambda conn: given_today(conn, chat_id, now)))

    async def queue(self, table_id: int, user_id: int, kind: str, amount: int | None) -> None:
        """Remember chips for the player's next hand (a second ask replaces the first)."""
        if kind not in QUEUED_KINDS:
            raise BadInput(f"not a kind of queued chips: {kind!r}")
        if amount is not None:
            ledger.check_amount("queued chips", amount)
        now = self._now()

        async def work(conn: Conn) -> None:
            await live_table(conn, table_id)
            await get_seat(conn, table_id, user_id)
            await conn.execute(
                "INSERT INTO queued_chips (table_id, user_id, kind, amount, at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, user_id, kind)"
                " DO UPDATE SET amount = excluded.amount, at = excluded.at",
                (table_id, user_id, kind, amount, now))

        await self._db.write(work)

    async def cancel(self, table_id: int, user_id: int, kind: str | None = None) -> bool:
        """Forget the chips the player queued at the table (of one ``kind``, or all);
        whether there were any."""
        if kind is not None and kind not in QUEUED_KINDS:
            raise BadInput(f"not a kind of queued chips: {kind!r}")

        async def work(conn: Conn) -> bool:
            cursor = await conn.execute(
                "DELETE FROM queued_chips WHERE table_id = ? AND user_id = ?"
                " AND kind = ifnull(?, kind)", (table_id, user_id, kind))
            return cursor.rowcount > 0

        return await self._db.write(work)

    async def take_queued(self, table_id: int) -> list[Queued]:
        """Every queued ask of the table, oldest first, forgotten as they are handed out
        (nothing is written when none waits, as after most hands)."""
        if not await self._db.fetchall("SELECT 1 FROM queued_chips WHERE table_id = ?"
                                       " LIMIT 1", (table_id,)):
            return []

        async def work(conn: Conn) -> list[Queued]:
            rows = await fetchall(conn, "SELECT user_id, kind, amount FROM queued_chips"
                                        " WHERE table_id = ? ORDER BY at, user_id, kind",
                                  (table_id,))
            await conn.execute("DELETE FROM queued_chips WHERE table_id = ?", (table_id,))
            return [Queued(int(r[0]), str(r[1]), None if r[2] is None else int(r[2]))
                    for r in rows]

        return await self._db.write(work)

    async def find_username(self, username: str) -> int | None:
        """The id of the user with this @username (any case), if he has written to the bot."""
        rows = await self._db.fetchall(
            "SELECT id FROM users WHERE lower(username) = lower(?) AND id > 0", (username,))
        return int(rows[0][0]) if len(rows) == 1 else None

    async def menu_used(self, giver: int, menu: GiveMenu) -> bool:
        """Whether the giver's menu of buttons gave already."""
        return await self._db.read(lambda conn: menu_used(conn, giver, menu))

    async def recent_players(self, chat_id: int, limit: int) -> list[tuple[int, str]]:
        """The people who played hands in the chat, the latest first: (id, name)."""
        rows = await self._db.fetchall(
            "SELECT p.user_id, u.name FROM hand_players p JOIN users u ON u.id = p.user_id"
            " WHERE p.chat_id = ? AND p.user_id > 0 GROUP BY p.user_id"
            " ORDER BY max(p.at) DESC, p.user_id LIMIT ?", (chat_id, limit))
        return [(int(r[0]), str(r[1])) for r in rows]
