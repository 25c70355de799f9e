"""Users: who they are, their language, and their wallet (the ``balance`` account)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.store import ledger
from bot.store.db import Database
from bot.store.errors import BadInput, BonusNotDue, UnknownUser
from bot.store.ledger_table import MAX_CHIPS
from bot.store.models import Holdings, Movement, TableChips, User
from bot.store.sql import Conn, execute, fetchall, fetchone

MAX_NAME = 256


@dataclass(frozen=True, slots=True)
class SessionResult:
    """One player's result at one table: chips taken home minus chips brought."""

    user_id: int
    net: int
    rebuys: int = 0
    """How many rebuys from the house he took there (their chips are not his winnings)."""

DAY = 24 * 60 * 60


async def get_user(conn: Conn, user_id: int) -> User:
    """The user row, or `UnknownUser`."""
    row = await fetchone(conn, "SELECT * FROM users WHERE id = ?", (user_id,))
    if row is None:
        raise UnknownUser(user_id)
    return User.of(row)


async def credit_balance(
    conn: Conn, user: User, kind: str, amount: int, *, at: int, memo: str | None
) -> int:
    """Move ``amount`` new chips from the bank to ``user``'s balance; return the new balance."""
    ledger.check_amount(f"a {kind} amount", amount)
    # Keep every balance (and so every sum of them per user) inside the engine's bound.
    ledger.check_amount("the balance after it", user.balance + amount, high=MAX_CHIPS)
    await ledger.post(conn, [ledger.Transfer(kind, amount, ledger.BANK,
                                             ledger.balance(user.id))], at=at, memo=memo)
    return user.balance + amount


def _check_id(user_id: object) -> int:
    if type(user_id) is not int:
        raise BadInput(f"a user id is a whole number, not {user_id!r}")
    return user_id


def _check_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise BadInput("a user needs a non-empty name")
    return name.strip()[:MAX_NAME]


class Users:
    """The users repository. Every write is one transaction."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    def _now(self) -> int:
        return int(self._clock())

    async def ensure(
        self, user_id: int, name: str, *, language: str | None = None, starting_chips: int = 0,
        username: str | None = None, private_chat: bool | None = None,
    ) -> tuple[User, bool]:
        """Create the user (granting ``starting_chips``) or refresh his name; say if new.

        ``language`` is his client's (Telegram's ``language_code``): kept when given, so
        messages sent later without an update from him (timers, reminders) speak it. A
        language he chose (`choose_language`) is apart and wins. ``username`` (his
        @name, without the @) is kept when given, so `/give @name` finds him.
        ``private_chat``, when given, is whether he has a private chat with the bot
        (`set_private_chat`), written in the same transaction.
        """
        _check_id(user_id)
        clean = _check_name(name)
        if username is not None and not (isinstance(username, str) and 0 < len(username) <= 64):
            username = None
        if starting_chips:
            ledger.check_amount("starting chips", starting_chips)
        now = self._now()
        known = await self._db.fetchone("SELECT * FROM users WHERE id = ?", (user_id,))
        opened = None if private_chat is None else int(bool(private_chat))
        if known is not None and known["name"] == clean and (
                language is None or known["language"] == language) and (
                opened is None or known["private_chat"] == opened):
            return User.of(known), False  # nothing to write: no transaction

        async def work(conn: Conn) -> tuple[User, bool]:
            row = await fetchone(conn, "SELECT name, language, username, private_chat"
                                       " FROM users WHERE id = ?", (user_id,))
            if row is not None:
                if row["name"] != clean or (language is not None and row["language"] != language) \
                        or (username is not None and row["username"] != username) \
                        or (opened is not None and row["private_chat"] != opened):
                    await execute(
                        conn,
                        "UPDATE users SET name = ?, language = ifnull(?, language),"
                        " username = ifnull(?, username), private_chat = ifnull(?, private_chat),"
                        " updated_at = ? WHERE id = ?",
                        (clean, language, username, opened, now, user_id),
                    )
                return await get_user(conn, user_id), False
            await execute(
                conn,
                "INSERT INTO users (id, name, language, username, private_chat, created_at,"
                " updated_at) VALUES (?, ?, ?, ?, ifnull(?, 0), ?, ?)",
                (user_id, clean, language, username, opened, now, now),
            )
            if starting_chips:
                await credit_balance(conn, await get_user(conn, user_id), "grant",
                                     starting_chips, at=now, memo="starting chips")
            return await get_user(conn, user_id), True

        return await self._db.write(work)

    async def get(self, user_id: int) -> User:
        """The user, or `UnknownUser`."""
        user = await self.find(user_id)
        if user is None:
            raise UnknownUser(user_id)
        return user

    async def find(self, user_id: int) -> User | None:
        """The user, or None."""
        row = await self._db.fetchone("SELECT * FROM users WHERE id = ?", (user_id,))
        return None if row is None else User.of(row)

    async def _update(self, user_id: int, column: str, value: object) -> None:
        now = self._now()

        async def work(conn: Conn) -> None:
            cursor = await execute(
                conn,
                f"UPDATE users SET {column} = ?, updated_at = ? WHERE id = ?",
                (value, now, user_id),
            )
            if cursor.rowcount == 0:
                raise UnknownUser(user_id)

        await self._db.write(work)

    async def choose_language(self, user_id: int, language: str | None) -> None:
        """Set the language the user chose, or clear it (None: his client's again)."""
        if language is not None and not (isinstance(language, str) and 0 < len(language) <= 16):
            raise BadInput(f"not a language code: {language!r}")
        await self._update(user_id, "chosen_language", language)

    async def set_private_chat(self, user_id: int, opened: bool = True) -> None:
        """Record whether the user has a private chat with the bot."""
        await self._update(user_id, "private_chat", int(bool(opened)))

    async def set_notify(self, user_id: int, on: bool) -> None:
        """Turn the user's private turn reminders on or off."""
        await self._update(user_id, "notify", int(bool(on)))

    async def notify(self, user_id: int) -> bool:
        """Whether the user wants a private reminder when his turn waits (unknown: no)."""
        row = await self._db.fetchone("SELECT notify FROM users WHERE id = ?", (user_id,))
        return row is not None and bool(row["notify"])

    async def session(self, table_id: int) -> list[SessionResult]:
        """What every player who sat at the table took home, as the ledger has it: his
        cash-outs minus his buy-ins, top-ups and rebuys from the house, in the order they
        first sat down."""

        async def work(conn: Conn) -> list[SessionResult]:
            rows = await fetchall(
                conn,
                "SELECT user_id, sum(CASE WHEN kind = 'rebuy' THEN -delta ELSE delta END)"
                " AS net, sum(kind = 'rebuy') AS rebuys, min(id) AS first FROM ledger"
                " WHERE table_id = ? AND ((account = 'balance'"
                " AND kind IN ('buy_in', 'top_up', 'cash_out'))"
                " OR (account = 'stack' AND kind = 'rebuy'))"
                " GROUP BY user_id ORDER BY first",
                (table_id,),
            )
            return [SessionResult(int(r["user_id"]), int(r["net"]), int(r["rebuys"]))
                    for r in rows]

        return await self._db.read(work)

    async def biggest_pot(self, table_id: int) -> tuple[int, int, int] | None:
        """The most one player won in one hand at the table: (hand number, player, chips)."""

        async def work(conn: Conn) -> tuple[int, int, int] | None:
            row = await fetchone(
                conn,
                "SELECT h.number AS number, l.user_id AS user_id, sum(l.delta) AS won"
                " FROM ledger l JOIN hands h ON h.id = l.hand_id"
                " WHERE l.account = 'stack' AND l.kind = 'win' AND h.table_id = ?"
                " GROUP BY l.hand_id, l.user_id ORDER BY won DESC, h.number LIMIT 1",
                (table_id,),
            )
            if row is None:
                return None
            return int(row["number"]), int(row["user_id"]), int(row["won"])

        return await self._db.read(work)

    async def grant(self, user_id: int, amount: int, *, memo: str | None = None) -> int:
        """Grant chips (kind ``grant``); return the new balance."""
        return await self._credit(user_id, "grant", amount, memo)

    async def operator_grant(self, user_id: int, amount: int, *, memo: str) -> int:
        """An operator's grant (kind ``operator_grant``, with a reason); the new balance."""
        if not memo:
            raise BadInput("an operator grant needs a reason")
        return await self._credit(user_id, "operator_grant", amount, memo)

    async def _credit(self, user_id: int, kind: str, amount: int, memo: str | None) -> int:
        ledger.check_amount(f"a {kind} amount", amount)
        now = self._now()

        async def work(conn: Conn) -> int:
            user = await get_user(conn, user_id)
            return await credit_balance(conn, user, kind, amount, at=now, memo=memo)

        return await self._db.write(work)

    async def daily_bonus(self, user_id: int, amount: int, *, every: int = DAY,
                          now: int | None = None) -> int:
        """Grant the daily bonus if ``every`` seconds passed since the last; new balance.

        Raises `BonusNotDue` (with the time it is due) otherwise. ``now`` overrides the
        store's clock (the bot passes its own).
        """
        ledger.check_amount("a bonus", amount)
        if type(every) is not int or every < 0:
            raise BadInput("the bonus period is a number of seconds")
        at = self._now() if now is None else now

        async def work(conn: Conn) -> int:
            user = await get_user(conn, user_id)
            if user.last_bonus_at is not None and at < user.last_bonus_at + every:
                raise BonusNotDue(user_id, user.last_bonus_at + every)
            new = await credit_balance(conn, user, "bonus", amount, at=at, memo=None)
            await execute(conn, "UPDATE users SET last_bonus_at = ?, updated_at = ? WHERE id = ?",
                          (at, at, user_id))
            return new

        return await self._db.write(work)

    async def balance(self, user_id: int) -> int:
        """The user's wallet balance."""
        return (await self.get(user_id)).balance

    async def holdings(self, user_id: int) -> Holdings:
        """The balance and the stack at every table where the user sits (practice tables
        play practice chips, which are not his)."""

        async def work(conn: Conn) -> Holdings:
            user = await get_user(conn, user_id)
            rows = await fetchall(
                conn,
                "SELECT s.table_id, t.chat_id, t.thread_id, s.stack FROM seats s"
                " JOIN tables t ON t.id = s.table_id WHERE s.user_id = ? AND t.practice = 0"
                " ORDER BY s.table_id",
                (user_id,),
            )
            tables = tuple(TableChips(r[0], r[1], r[2], r[3]) for r in rows)
            return Holdings(user_id, user.balance, tables)

        return await self._db.read(work)

    async def history(self, user_id: int, limit: int = 20) -> list[Movement]:
        """The user's latest movements (balance and stacks), newest first."""
        if type(limit) is not int or not 1 <= limit <= 1000:
            raise BadInput("the history limit is 1 to 1000 rows")

        async def work(conn: Conn) -> list[Movement]:
            await get_user(conn, user_id)
            return await ledger.history(conn, user_id, limit)

        return await self._db.read(work)
