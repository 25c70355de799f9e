"""Fair dealing at a live table: the key each hand is dealt from, and the table's reveal.

Each hand's key comes from the table's secret (committed to before its first decision),
the deal's number at the table and the seeds of the seated players (`engine.deck.hand_key`);
the store keeps what it came from with the hand. docs/FAIRNESS.md tells the whole scheme.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store import Store
from engine import hand_key, seed_hash


@dataclass(frozen=True, slots=True)
class Deal:
    """The key of the next hand and what it was derived from."""

    key: bytes
    nonce: int
    seeds: tuple[str, ...]
    """SHA-256 of each seated player's seed, in seat order."""
    commitment: str
    """The table's commitment (SHA-256 of its secret)."""


async def next_deal(store: Store, table_id: int, players: list[int]) -> Deal:
    """The key of the table's next hand, for the players seated in that order."""
    secret, nonce, seeds = await store.fairness.deal_inputs(table_id, players)
    hashes = tuple(seed_hash(s) for s in seeds)
    return Deal(hand_key(secret.secret, nonce, list(hashes)), nonce, hashes, secret.commitment)


async def table_commitment(store: Store, table_id: int) -> str:
    """The table's commitment, its secret drawn now if it has none yet."""
    return (await store.fairness.table(table_id)).commitment


async def revealed(store: Store, table_id: int) -> str:
    """The secret of a table closed with its reveal (`Tables.close`)."""
    return (await store.fairness.table(table_id)).secret
