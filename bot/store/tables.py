"""Tables and seats: one live table per chat (and forum topic), buy-in, top-up, cash-out.

A table row and its settings live here, with `Tables`, whose every write is one
transaction; what happens to a seat and its chips inside one (sitting down with a buy-in,
topping up, cashing out) is `bot.store.seats`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.store import ledger, practice
from bot.store.chats import ensure_chat
from bot.store.db import Database
from bot.store.errors import (
    BadInput,
    HandInProgress,
    TableClosed,
    TableExists,
    UnknownTable,
)
from bot.store.fairness import table_secret
from bot.store.models import Leave, Seat, Table, TableStatus
from bot.store.seats import (
    amounts,
    cash_out,
    get_seat,
    list_seats,
    move_to_stack,
    open_hand_players,
    sit,
)
from bot.store.sql import Conn, execute, fetchone
from bot.store.tournaments import cancel, create
from bot.store.users import credit_balance, get_user
from bot.tournament import Schedule

MAX_RULES = 16_384


def rules_text(rules: str | Mapping[str, Any]) -> str:
    """The engine rules as JSON text; refuses anything but a JSON object."""
    try:
        value = json.loads(rules) if isinstance(rules, str) else dict(rules)
        text = json.dumps(value, separators=(",", ":"), sort_keys=True)
    except (TypeError, ValueError) as err:
        raise BadInput(f"table rules are not JSON: {err}") from err
    if not isinstance(value, dict):
        raise BadInput("table rules must be a JSON object")
    if len(text) > MAX_RULES:
        raise BadInput(f"table rules are too large ({len(text)} characters)")
    return text


async def get_table(conn: Conn, table_id: int) -> Table:
    """The table row, or `UnknownTable`."""
    row = await fetchone(conn, "SELECT * FROM tables WHERE id = ?", (table_id,))
    if row is None:
        raise UnknownTable(table_id)
    return Table.of(row)


async def live_table(conn: Conn, table_id: int) -> Table:
    """The table if it is not closed."""
    table = await get_table(conn, table_id)
    if table.status is TableStatus.CLOSED:
        raise TableClosed(table_id)
    return table


def _check_wait(wait: str | None) -> None:
    if wait is not None and (type(wait) is not str or len(wait) > 400):
        raise BadInput(f"a wait is a short text, not {wait!r}")


async def _set(conn: Conn, table_id: int, column: str, value: object) -> None:
    await live_table(conn, table_id)
    await execute(conn, f"UPDATE tables SET {column} = ? WHERE id = ?", (value, table_id))


def _reveal_of(rules: str) -> bool | None:
    """The ``reveal`` a table's rules JSON opens with (None when it names none)."""
    value = json.loads(rules).get("reveal")
    return value if isinstance(value, bool) else None


class Tables:
    """The tables repository. Every write is one transaction."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    def _now(self) -> int:
        return int(self._clock())

    async def open(
        self,
        chat_id: int,
        *,
        creator: int,
        rules: str | Mapping[str, Any],
        thread_id: int | None = None,
        message_id: int | None = None,
        wait: str | None = None,
        draw: Callable[[], str] | None = None,
        language: str | None = None,
        tournament: Schedule | None = None,
    ) -> Table:
        """Open a table (status ``lobby``) in a chat or forum topic, waiting for ``wait``
        (`set_wait`); with ``draw`` (`Fairness.draw`) its secret is drawn in the same
        transaction, and ``language`` becomes the chat's if it has none yet. With
        ``tournament`` the table plays a tournament of that schedule (`bot.store.tournaments`).

        Raises `TableExists` if the chat (topic) already has a live table.
        """
        text = rules_text(rules)
        _check_wait(wait)
        if language is not None and not (isinstance(language, str) and 0 < len(language) <= 16):
            raise BadInput(f"not a language code: {language!r}")
        if thread_id is not None and type(thread_id) is not int:
            raise BadInput(f"a thread id is a whole number, not {thread_id!r}")
        now = self._now()

        async def work(conn: Conn) -> Table:
            await get_user(conn, creator)
            await ensure_chat(conn, chat_id, now)
            row = await fetchone(
                conn,
                "SELECT id FROM tables WHERE chat_id = ? AND ifnull(thread_id, 0) = ?"
                " AND status != 'closed'",
                (chat_id, thread_id or 0),
            )
            if row is not None:
                raise TableExists(int(row[0]))
            cursor = await execute(
                conn,
                "INSERT INTO tables (chat_id, thread_id, creator, rules, message_id, created_at,"
                " wait) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (chat_id, thread_id, creator, text, message_id, now, wait),
            )
            table_id = int(cursor.lastrowid or 0)
            if tournament is not None:
                await create(conn, table_id, tournament)
            if draw is not None:
                # Whether the secret is revealed at the close is fixed now, with it.
                await table_secret(conn, table_id, draw, reveal=_reveal_of(text))
            if language is not None:
                await execute(conn, "UPDATE chats SET language = ?, updated_at = ?"
                                    " WHERE id = ? AND language IS NULL",
                              (language, now, chat_id))
            return await get_table(conn, table_id)

        return await self._db.write(work)

    async def get(self, table_id: int) -> Table:
        """The table (closed ones too), or `UnknownTable`."""
        row = await self._db.fetchone("SELECT * FROM tables WHERE id = ?", (table_id,))
        if row is None:
            raise UnknownTable(table_id)
        return Table.of(row)

    async def live(self, chat_id: int, thread_id: int | None = None) -> Table | None:
        """The chat's (topic's) table that is not closed, if any."""
        row = await self._db.fetchone(
            "SELECT * FROM tables WHERE chat_id = ? AND ifnull(thread_id, 0) = ?"
            " AND status != 'closed'",
            (chat_id, thread_id or 0),
        )
        return None if row is None else Table.of(row)

    async def live_tables(self) -> list[Table]:
        """Every table that is not closed (for start-up)."""
        rows = await self._db.fetchall("SELECT * FROM tables WHERE status != 'closed' ORDER BY id")
        return [Table.of(r) for r in rows]

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """Remember the id of the table's message (the one the bot edits)."""
        await self._db.write(lambda conn: _set(conn, table_id, "message_id", message_id))

    async def set_shown(self, table_id: int, shown: str | None) -> None:
        """Remember a digest of what the table message shows now (at most 64 characters).

        Not money: it commits at the lighter durability of an in-hand step.
        """
        if shown is not None and (type(shown) is not str or len(shown) > 64):
            raise BadInput(f"a shown digest is a short text, not {shown!r}")
        await self._db.write(lambda conn: _set(conn, table_id, "shown", shown), step=True)

    async def set_wait(self, table_id: int, wait: str | None) -> None:
        """Remember what the table waits for and until when (a short JSON text).

        Not money: it commits at the lighter durability of an in-hand step.
        """
        _check_wait(wait)
        await self._db.write(lambda conn: _set(conn, table_id, "wait", wait), step=True)

    async def results_due(self) -> list[Table]:
        """Closed tables whose results message has not reached their chat yet."""
        rows = await self._db.fetchall("SELECT * FROM tables WHERE results_due = 1"
                                       " AND status = 'closed' ORDER BY id")
        return [Table.of(r) for r in rows]

    async def results_sent(self, table_id: int) -> None:
        """The table's results message reached its chat (or never can): not due any more."""
        await self._db.write(lambda conn: execute(
            conn, "UPDATE tables SET results_due = 0 WHERE id = ?", (table_id,)), step=True)

    async def set_closing(self, table_id: int) -> None:
        """Mark the table to close when the hand in progress ends."""
        await self._db.write(lambda conn: _set(conn, table_id, "closing", 1))

    async def set_status(self, table_id: int, status: TableStatus) -> None:
        """Switch between ``lobby`` and ``playing`` (use `close` to close)."""
        if status not in (TableStatus.LOBBY, TableStatus.PLAYING):
            raise BadInput(f"a live table is 'lobby' or 'playing', not {status!r}")
        await self._db.write(lambda conn: _set(conn, table_id, "status", status))

    async def set_rules(self, table_id: int, rules: str | Mapping[str, Any]) -> None:
        """Change the table's rules; refused while a hand is open (it keeps its own)."""
        text = rules_text(rules)

        async def work(conn: Conn) -> None:
            hand = await open_hand_players(conn, table_id)
            if hand is not None:
                raise HandInProgress(table_id, hand[0])
            await _set(conn, table_id, "rules", text)

        await self._db.write(work)

    async def seats(self, table_id: int) -> list[Seat]:
        """The table's seats in join order."""

        async def work(conn: Conn) -> list[Seat]:
            await get_table(conn, table_id)
            return await list_seats(conn, table_id)

        return await self._db.read(work)

    async def join(
        self, table_id: int, user_id: int, max_buy_in: int, *, min_buy_in: int | None = None,
        wait: str | None = None, stakes: tuple[int, int] | None = None,
    ) -> Seat:
        """Seat the user with his balance up to ``max_buy_in`` chips (RULES.md §4).

        Refused with `InsufficientChips` if his balance is below ``min_buy_in`` (by default
        ``max_buy_in``: exactly that buy-in). The balance is read in the same transaction
        as the buy-in, so with 1500 chips and two tables of 1000 the second takes the
        remaining 500. The seat's stack is the amount taken. ``wait``: what the table waits
        for once he sits (`set_wait`; None: no change), written in the same transaction.
        ``stakes``: the table's ante and largest buy-in now, kept with the seat (a rebuy
        judges him by them, `bot.store.gifts`).
        """
        most, least = amounts("buy-in", max_buy_in, min_buy_in)
        _check_wait(wait)
        now = self._now()

        async def work(conn: Conn) -> Seat:
            await live_table(conn, table_id)
            seat = await sit(conn, table_id, user_id, most, least, at=now, stakes=stakes)
            if wait is not None:
                await execute(conn, "UPDATE tables SET wait = ? WHERE id = ?", (wait, table_id))
            return seat

        return await self._db.write(work)

    async def open_practice(
        self,
        user_id: int,
        computers: Sequence[tuple[int, str]],
        *,
        rules: str | Mapping[str, Any],
        buy_in: int,
        wallet_name: str,
        draw: Callable[[], str] | None = None,
    ) -> Table:
        """Open a practice table in the user's private chat, seated and bought in.

        The user and each of ``computers`` (id, name: ids from `practice.computer_of`) buy
        in ``buy_in`` practice chips; a practice wallet or a computer with less is first
        granted the difference. Raises `TableExists` if his private chat has a live table.
        """
        text = rules_text(rules)
        ledger.check_amount("a practice buy-in", buy_in)
        if not 1 <= len(computers) <= practice.MAX_COMPUTERS or any(
                not practice.is_computer(c) or c // -practice.SPAN != user_id
                for c, _ in computers):
            raise BadInput(f"not computer players of user {user_id}: {computers!r}")
        now = self._now()

        async def work(conn: Conn) -> Table:
            await get_user(conn, user_id)
            await ensure_chat(conn, user_id, now)
            if await fetchone(conn, "SELECT id FROM tables WHERE chat_id = ?"
                                    " AND thread_id IS NULL AND status != 'closed'",
                              (user_id,)) is not None:
                raise TableExists(user_id)
            cursor = await execute(
                conn,
                "INSERT INTO tables (chat_id, creator, rules, created_at, practice)"
                " VALUES (?, ?, ?, ?, 1)",
                (user_id, user_id, text, now),
            )
            table_id = int(cursor.lastrowid or 0)
            chips = [(practice.wallet_of(user_id), wallet_name), *computers]
            for row_id, name in chips:
                await execute(
                    conn,
                    "INSERT INTO users (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (id) DO UPDATE SET name = excluded.name",
                    (row_id, name[:256], now, now),
                )
                holder = await get_user(conn, row_id)
                if holder.balance < buy_in:
                    await credit_balance(conn, holder, "grant", buy_in - holder.balance,
                                         at=now, memo="practice chips")
            for player in (user_id, *(c for c, _ in computers)):
                await sit(conn, table_id, player, buy_in, buy_in, at=now)
            if draw is not None:  # the secret comes before its first deal, as at a group's
                await table_secret(conn, table_id, draw, reveal=_reveal_of(text))
            return await get_table(conn, table_id)

        return await self._db.write(work)

    async def top_up(
        self, table_id: int, user_id: int, max_amount: int, *, min_amount: int | None = None
    ) -> Seat:
        """Add the balance, up to ``max_amount``, to the stack; only between his hands.

        Refused with `InsufficientChips` if the balance is below ``min_amount`` (by default
        ``max_amount``: exactly that amount), read in the same transaction as the move.
        """
        most, least = amounts("top-up", max_amount, min_amount)
        now = self._now()

        async def work(conn: Conn) -> Seat:
            await live_table(conn, table_id)
            seat = await get_seat(conn, table_id, user_id)
            hand = await open_hand_players(conn, table_id)
            if hand is not None and user_id in hand[1]:
                raise HandInProgress(table_id, hand[0])
            await move_to_stack(conn, "top_up", seat, most, least, at=now)
            return await get_seat(conn, table_id, user_id)

        return await self._db.write(work)

    async def leave(self, table_id: int, user_id: int) -> Leave:
        """Stand up: the stack goes back to the balance now, or when his open hand ends."""
        now = self._now()

        async def work(conn: Conn) -> Leave:
            await get_table(conn, table_id)
            seat = await get_seat(conn, table_id, user_id)
            hand = await open_hand_players(conn, table_id)
            if hand is not None and user_id in hand[1]:
                await execute(conn, "UPDATE seats SET leaving = 1"
                                    " WHERE table_id = ? AND user_id = ?", (table_id, user_id))
                return Leave(user_id, 0, deferred=True)
            return Leave(user_id, await cash_out(conn, seat, at=now), deferred=False)

        return await self._db.write(work)

    async def update_seat(
        self,
        table_id: int,
        user_id: int,
        *,
        sitting_out: bool | None = None,
        timeouts: int | None = None,
    ) -> Seat:
        """Set a seat's flags between hands (None leaves a field as it is)."""
        if timeouts is not None and (type(timeouts) is not int or not 0 <= timeouts <= 1000):
            raise BadInput(f"timeouts must be a small whole number, not {timeouts!r}")

        async def work(conn: Conn) -> Seat:
            await get_seat(conn, table_id, user_id)
            await execute(
                conn,
                "UPDATE seats SET sitting_out = ifnull(?, sitting_out),"
                " timeouts = ifnull(?, timeouts) WHERE table_id = ? AND user_id = ?",
                (None if sitting_out is None else int(sitting_out), timeouts, table_id, user_id),
            )
            return await get_seat(conn, table_id, user_id)

        return await self._db.write(work)

    async def close(self, table_id: int, *, reveal: bool = False,
                    results: bool = False) -> dict[int, int]:
        """Close the table, moving every stack back; return user id -> chips returned.
        ``reveal``: its secret may be shown from now on (`Fairness.proof` gives it; in the same
        transaction), unless the table fixed its reveal when it opened: that one holds.
        ``results``: its results message is due (`results_due`) until `results_sent` says
        it reached the chat.

        Refused with `HandInProgress` while a hand is open: settle or abort it first.
        """
        now = self._now()

        async def work(conn: Conn) -> dict[int, int]:
            await live_table(conn, table_id)
            hand = await open_hand_players(conn, table_id)
            if hand is not None:
                raise HandInProgress(table_id, hand[0])
            # A tournament that closes before its end gives the buy-ins back.
            await cancel(conn, table_id, at=now)
            returned = {s.user_id: await cash_out(conn, s, at=now)
                        for s in await list_seats(conn, table_id)}
            await execute(conn, "UPDATE tables SET status = 'closed', closed_at = ?,"
                                " results_due = ? WHERE id = ?", (now, int(results), table_id))
            # A table keeps the reveal it opened with; only one from before decides now.
            await execute(conn, "UPDATE table_secrets SET revealed = ifnull(reveal, ?)"
                                " WHERE table_id = ?", (int(reveal), table_id))
            return returned

        return await self._db.write(work)
