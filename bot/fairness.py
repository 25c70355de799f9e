"""Fair dealing at a live table: the key each hand is dealt from, and the table's reveal.

Each hand's key comes from the table's secret (committed to before its first decision),
the deal's number at the table (never repeated, whatever happens to the database: see
`bot.store.journal`) and each seat's seed, fixed at his first deal at the table
(`engine.deck.hand_key`); the store keeps what it came from with the hand.
docs/FAIRNESS.md tells the whole scheme.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store import Store
from bot.store.fairness import SeatSeed
from engine import hand_key


@dataclass(frozen=True, slots=True)
class Deal:
    """The key of the next hand and what it was derived from."""

    key: bytes
    nonce: int
    seeds: tuple[str, ...]
    """SHA-256 of each seated player's seed, in seat order."""
    commitment: str
    """The table's commitment (SHA-256 of its secret)."""
    seats: tuple[SeatSeed, ...] = ()
    """Where each seat's seed came from, in seat order."""


async def next_deal(store: Store, table_id: int, players: list[int]) -> Deal:
    """The key of the table's next hand, for the players seated in that order."""
    given = await store.fairness.deal_inputs(table_id, players)
    hashes = tuple(s.hash for s in given.seats)
    return Deal(hand_key(given.secret.secret, given.nonce, list(hashes)), given.nonce, hashes,
                given.secret.commitment, given.seats)


async def table_commitment(store: Store, table_id: int) -> str:
    """The table's commitment, its secret drawn now if it has none yet."""
    return (await store.fairness.table(table_id)).commitment


async def revealed(store: Store, table_id: int) -> str | None:
    """The secret of a closed table that reveals it (`Tables.close`), else None."""
    found = await store.fairness.table(table_id)
    return found.secret if found.revealed else None
