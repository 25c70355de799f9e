"""What each player made of a settled hand: the ``hand_players`` rows.

One row per player dealt into a settled hand, written with the settlement in the same
transaction (`record_players`), or by the migration that made the table, for the hands
settled before it (`backfill`). Leaderboards and stats (`bot.store.history`) are sums of
these rows. This module reads and writes plain SQL on the connection it is given, so the
migrations may use it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.store.sql import Conn, fetchall, fetchone
from engine import Hand
from engine.events import Dealt, PotWon, RoundStarted, Shown


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """What one hand was for one player."""

    user_id: int
    net: int
    won: bool
    svara: bool
    """He played a svara round of this hand."""
    svara_won: bool
    points: int | None
    """His best points shown at a showdown, if he showed."""


def player_lines(hand: Hand) -> list[PlayerLine]:
    """Per player dealt into a hand that is over: net, won, svara played and won, best
    points shown. A svara's players are those dealt its cards: a joiner among them."""
    net = hand.result()["net"]
    dealt: set[int] = set()
    in_svara: set[int] = set()
    won: set[int] = set()
    svara_won: set[int] = set()
    shown: dict[int, int] = {}
    round_no = 0
    for e in hand.events:
        if isinstance(e, RoundStarted):
            round_no = e.round_no
        elif isinstance(e, Dealt):
            players = {hand.seats[i].player for i in e.seats}
            dealt |= players
            if round_no > 1:
                in_svara |= players
        elif isinstance(e, Shown):
            player = hand.seats[e.seat].player
            shown[player] = max(shown.get(player, 0), e.points)
        elif isinstance(e, PotWon):
            for w in e.winners:
                won.add(hand.seats[w].player)
                if round_no > 1:
                    svara_won.add(hand.seats[w].player)
    return [PlayerLine(p, int(net[p]), p in won, p in in_svara, p in svara_won,
                       shown.get(p)) for p in sorted(dealt)]


async def record_players(conn: Conn, hand_id: int, hand: Hand, *, at: int) -> None:
    """Write the ``hand_players`` rows of a hand being settled (none at a practice table,
    nor at a tournament's, whose chips are not real)."""
    table = await fetchone(conn, "SELECT t.chat_id, t.practice OR EXISTS (SELECT 1 FROM"
                                 " tournaments WHERE table_id = t.id) FROM hands h JOIN tables t"
                                 " ON t.id = h.table_id WHERE h.id = ?", (hand_id,))
    if table is None or table[1]:
        return
    await _insert_players(conn, hand_id, int(table[0]), hand, at=at)


async def _insert_players(conn: Conn, hand_id: int, chat_id: int, hand: Hand, *,
                          at: int) -> None:
    pot = sum(e.amount for e in hand.events if isinstance(e, PotWon))
    await conn.executemany(
        "INSERT INTO hand_players (hand_id, user_id, chat_id, net, won, svara, svara_won,"
        " points, pot, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(hand_id, p.user_id, chat_id, p.net, int(p.won), int(p.svara),
          int(p.svara_won), p.points, pot, at) for p in player_lines(hand)])


async def backfill(conn: Conn) -> None:
    """Migration step: the ``hand_players`` rows of hands settled before the table existed
    (practice tables came later, so every one of them was real play)."""
    rows = await fetchall(conn, "SELECT h.id, h.start, h.ended_at, t.chat_id FROM hands h"
                                " JOIN tables t ON t.id = h.table_id"
                                " WHERE h.status = 'settled' ORDER BY h.id")
    for row in rows:
        acts = await fetchall(conn, "SELECT action FROM actions WHERE hand_id = ? ORDER BY seq",
                              (row[0],))
        hand = Hand.replay(json.loads(row[1]), [json.loads(a[0]) for a in acts])
        await _insert_players(conn, int(row[0]), int(row[3]), hand, at=int(row[2] or 0))


__all__ = ["PlayerLine", "backfill", "player_lines", "record_players"]
