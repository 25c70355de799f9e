"""Practice tables: a user against computer players, with chips kept apart from his own.

A practice table (``tables.practice = 1``) is played in the user's private chat. Its
seats are the user himself and computer players, and every chip at it comes from, and
goes back to, user rows with negative ids, which Telegram never gives to a person:

* the user's practice wallet, ``-SPAN * user_id``;
* his computer players, ``-SPAN * user_id - k`` for k = 1 .. `MAX_COMPUTERS`.

So his real balance never pays a practice buy-in and never receives a practice stack. A
trigger (migration 6) refuses any ledger row that would move chips between a practice
table and a real balance, or between a practice wallet and a real table, and the audit
proves the practice chips add up on their own.
"""

from __future__ import annotations

from bot.store.sql import Conn, fetchone

SPAN = 8
MAX_COMPUTERS = 5


def wallet_of(user_id: int) -> int:
    """The user row that holds `user_id`'s practice chips."""
    return -SPAN * user_id


def computer_of(user_id: int, k: int) -> int:
    """The user row of `user_id`'s k-th computer player (1 .. MAX_COMPUTERS)."""
    if not 1 <= k <= MAX_COMPUTERS:
        raise ValueError(f"computer players are numbered 1 to {MAX_COMPUTERS}, not {k}")
    return -SPAN * user_id - k


def is_computer(user_id: int) -> bool:
    """A computer player's seat (a practice wallet never sits)."""
    return user_id < 0 and user_id % SPAN != 0


def computer_number(user_id: int) -> int:
    """Which of its owner's computer players a computer seat is (1 .. MAX_COMPUTERS)."""
    return (-user_id) % SPAN


async def is_practice(conn: Conn, table_id: int) -> bool:
    row = await fetchone(conn, "SELECT practice FROM tables WHERE id = ?", (table_id,))
    return row is not None and bool(row[0])


async def wallet(conn: Conn, table_id: int, user_id: int) -> int:
    """The user row whose balance pays `user_id`'s buy-in at the table and gets it back."""
    if user_id > 0 and await is_practice(conn, table_id):
        return wallet_of(user_id)
    return user_id
