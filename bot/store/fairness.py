"""What fair dealing keeps: each table's secret, each player's seed, each hand's inputs.

A table deals from a secret of its own, drawn when it is first needed and published only as
its SHA-256 (the table's commitment) until the table closes. A player's seed is his own
text (/seed TEXT) or, until he sets one, a random one. A hand's key is derived from the
secret, the deal's number at its table (the nonce) and the hashes of the seated players'
seeds (`engine.deck.hand_key`); `hand_proofs` keeps the nonce and those hashes, written in
the same transaction as the hand (see `Hands.open`). docs/FAIRNESS.md tells the scheme.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.store.db import Database
from bot.store.errors import BadInput
from bot.store.sql import Conn, execute, fetchall, fetchone
from engine import secret_commitment

SEED_LENGTH = 64
"""The longest seed a player may set, in characters."""


@dataclass(frozen=True, slots=True)
class TableSecret:
    secret: str
    """64 hex digits; never shown while the table plays."""
    commitment: str
    """SHA-256 of the secret's hex text: published before the table's first decision."""
    revealed: bool


@dataclass(frozen=True, slots=True)
class HandProof:
    """What a hand's key came from besides the table secret."""

    nonce: int
    seeds: tuple[str, ...]
    """SHA-256 of each seated player's seed, in seat order."""
    table_commitment: str
    secret: str | None
    """The table secret once revealed (the table closed and its settings allow it)."""
    closed: bool = False
    """The table has closed (with ``secret`` None: it keeps its secret for good)."""


def valid_seed(text: str) -> bool:
    """A seed a player may set: 1 to 64 printable characters."""
    return 0 < len(text) <= SEED_LENGTH and text.isprintable()


async def _stored_secret(conn: Conn, table_id: int) -> TableSecret | None:
    row = await fetchone(conn, "SELECT secret, commitment, revealed FROM table_secrets"
                               " WHERE table_id = ?", (table_id,))
    return None if row is None else TableSecret(str(row[0]), str(row[1]), bool(row[2]))


async def _deals(conn: Conn, table_id: int) -> int:
    """Hands dealt at the table so far."""
    row = await fetchone(conn, "SELECT count(*) FROM hands WHERE table_id = ?", (table_id,))
    return int(row[0] if row else 0)


async def table_secret(conn: Conn, table_id: int, draw: Callable[[], str]) -> TableSecret:
    """The table's secret, drawn the first time it is asked for."""
    found = await _stored_secret(conn, table_id)
    if found is None:
        secret = draw()
        if len(secret) != 64 or any(c not in "0123456789abcdef" for c in secret):
            raise BadInput("a table secret is 64 lowercase hex digits")
        commitment = secret_commitment(secret)
        await execute(conn, "INSERT INTO table_secrets (table_id, secret, commitment)"
                            " VALUES (?, ?, ?)", (table_id, secret, commitment))
        return TableSecret(secret, commitment, False)
    return found


async def stored_seeds(conn: Conn, user_ids: Sequence[int]) -> dict[int, str]:
    """The seeds the players have (one who has none yet is left out)."""
    rows = await fetchall(
        conn, f"SELECT user_id, seed FROM player_seeds WHERE user_id IN"
              f" ({', '.join('?' * len(user_ids))})", tuple(user_ids))
    return {int(r[0]): str(r[1]) for r in rows}


async def player_seeds(conn: Conn, user_ids: Sequence[int], draw: Callable[[], str],
                       at: int) -> dict[int, str]:
    """Each player's seed; one who never set any gets a random one, kept from then on."""
    seeds = await stored_seeds(conn, user_ids)
    for user_id in user_ids:
        if user_id not in seeds:
            seeds[user_id] = draw()
            await execute(conn, "INSERT INTO player_seeds (user_id, seed, set_at)"
                                " VALUES (?, ?, ?)", (user_id, seeds[user_id], at))
    return seeds


async def record_proof(conn: Conn, hand_id: int, nonce: int, seeds: Sequence[str]) -> None:
    await execute(conn, "INSERT INTO hand_proofs (hand_id, nonce, seeds) VALUES (?, ?, ?)",
                  (hand_id, nonce, json.dumps(list(seeds))))


async def read_proof(conn: Conn, hand_id: int) -> HandProof | None:
    """A hand's inputs, with the table secret if it has been revealed (None for a hand
    dealt without them: before this scheme, or from a test's fixed seed)."""
    row = await fetchone(
        conn,
        "SELECT p.nonce, p.seeds, s.commitment, s.secret, s.revealed, t.status FROM hand_proofs p"
        " JOIN hands h ON h.id = p.hand_id JOIN table_secrets s ON s.table_id = h.table_id"
        " JOIN tables t ON t.id = h.table_id WHERE p.hand_id = ?", (hand_id,))
    if row is None:
        return None
    return HandProof(int(row[0]), tuple(json.loads(row[1])), str(row[2]),
                     str(row[3]) if row[4] else None, row[5] == "closed")


class Fairness:
    """Table secrets, player seeds and hand proofs. Each method is one transaction, or only
    a read when what it needs is there already."""

    def __init__(self, db: Database, clock: Callable[[], float],
                 draw: Callable[[], str] | None = None) -> None:
        self._db = db
        self._clock = clock
        self.draw: Callable[[], str] = draw or (lambda: secrets.token_hex(32))
        """Draws a table secret (64 hex digits); `Tables.open` takes it to draw the new
        table's secret in the table's own transaction."""

    async def table(self, table_id: int) -> TableSecret:
        """The table's secret and commitment (drawn now if the table has none yet: only
        then is anything written)."""
        found = await self._db.read(lambda conn: _stored_secret(conn, table_id))
        if found is not None:
            return found
        return await self._db.write(lambda conn: table_secret(conn, table_id, self.draw))

    async def deal_inputs(self, table_id: int,
                          players: Sequence[int]) -> tuple[TableSecret, int, list[str]]:
        """What the next hand of a table is derived from: the secret, the nonce (deals so
        far at the table plus one) and each player's seed, in the order given."""
        at = int(self._clock())

        async def look(conn: Conn) -> tuple[TableSecret, int, list[str]] | None:
            # Read first: a write is needed only for a secret or a seed drawn now.
            secret = await _stored_secret(conn, table_id)
            seeds = await stored_seeds(conn, players)
            if secret is None or len(seeds) < len(set(players)):
                return None
            return secret, await _deals(conn, table_id) + 1, [seeds[p] for p in players]

        async def work(conn: Conn) -> tuple[TableSecret, int, list[str]]:
            secret = await table_secret(conn, table_id, self.draw)
            seeds = await player_seeds(conn, players, lambda: secrets.token_hex(16), at)
            return secret, await _deals(conn, table_id) + 1, [seeds[p] for p in players]

        found = await self._db.read(look)
        return found if found is not None else await self._db.write(work)

    async def set_seed(self, user_id: int, seed: str) -> None:
        """/seed TEXT: the player's seed for every deal from the next one on."""
        if not valid_seed(seed):
            raise BadInput("a seed is 1 to 64 printable characters")
        at = int(self._clock())
        await self._db.write(lambda conn: execute(
            conn, "INSERT INTO player_seeds (user_id, seed, set_at) VALUES (?, ?, ?)"
                  " ON CONFLICT (user_id) DO UPDATE SET seed = excluded.seed,"
                  " set_at = excluded.set_at", (user_id, seed, at)))

    async def seed(self, user_id: int) -> str | None:
        row = await self._db.fetchone("SELECT seed FROM player_seeds WHERE user_id = ?",
                                      (user_id,))
        return None if row is None else str(row[0])

    async def proof(self, hand_id: int) -> HandProof | None:
        """A hand's inputs, with the table secret if it has been revealed."""
        return await self._db.read(lambda conn: read_proof(conn, hand_id))
