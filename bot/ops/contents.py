"""What a restore checks beyond the ledger: the rows a player relies on say what they did.

The audit proves the chips; the schema check proves the guards. Neither reads a hand's
story or its fairness proof, so a copy with bytes garbled there would go in place and a
player's ``/hand N`` would show a deal nobody can recompute. `content_problems` reads
every such row of a copy and lists what does not hold:

* every table secret hashes to its published commitment;
* every hand's start (rules, seats, dealer, seed) gives the deal commitment stored with
  it, and its action log replays through the engine from that start;
* every hand's fairness proof (the deal's number and the seated players' seed hashes)
  derives exactly the seed the hand was dealt from.

It reads the file through its own read-only connection and changes nothing.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

from bot.store.sql import read_only_uri
from engine import Hand, hand_key, secret_commitment

HEX64 = re.compile(r"[0-9a-f]{64}")

LIMIT = 20
"""At most this many problems are listed (a garbled copy usually has one or two)."""


def content_problems(path: Path, *, limit: int = LIMIT) -> list[str]:
    """What does not hold in the copy at ``path`` (see the module's text); [] if all does."""
    conn = sqlite3.connect(read_only_uri(path), uri=True)
    try:
        problems = _secrets(conn) + _hands(conn)
    finally:
        conn.close()
    return problems[:limit]


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}


def _secrets(conn: sqlite3.Connection) -> list[str]:
    if "table_secrets" not in _tables(conn):
        return []
    bad = []
    for table_id, secret, published in conn.execute(
            "SELECT table_id, secret, commitment FROM table_secrets ORDER BY table_id"):
        if not isinstance(secret, str) or secret_commitment(secret) != published:
            bad.append(f"table {table_id}'s secret does not give its published commitment")
    return bad


def _hands(conn: sqlite3.Connection) -> list[str]:
    has_proofs = "hand_proofs" in _tables(conn)
    secrets = ({int(r[0]): str(r[1]) for r in conn.execute(
        "SELECT table_id, secret FROM table_secrets")} if has_proofs else {})
    proofs = ({int(r[0]): (r[1], r[2]) for r in conn.execute(
        "SELECT hand_id, nonce, seeds FROM hand_proofs")} if has_proofs else {})
    bad = []
    for hand_id, table_id, start_text, stored in conn.execute(
            "SELECT id, table_id, start, commitment FROM hands ORDER BY id"):
        actions = [str(r[0]) for r in conn.execute(
            "SELECT action FROM actions WHERE hand_id = ? ORDER BY seq", (hand_id,))]
        problem = _hand(start_text, stored, actions)
        if problem is None and hand_id in proofs:
            problem = _proof(start_text, secrets.get(int(table_id)), *proofs[hand_id])
        if problem is not None:
            bad.append(f"hand {hand_id} {problem}")
    return bad


def _hand(start_text: object, stored: object, actions: list[str]) -> str | None:
    """Why a hand's start and action log do not hold together, or None."""
    try:
        start: dict[str, Any] = json.loads(str(start_text))
        hand = Hand.from_start(start)
    except (ValueError, KeyError, TypeError) as error:
        return f"has a start the engine cannot deal from ({type(error).__name__})"
    if hand.commitment != stored:
        return "was not dealt from the deck its stored commitment names"
    try:
        Hand.replay(start, [json.loads(a) for a in actions])
    except Exception as error:  # any refusal of the engine: the log is not a real hand
        return f"has an action log the engine refuses ({type(error).__name__}: {error})"
    return None


def _proof(start_text: object, secret: str | None, nonce: object, seeds: object) -> str | None:
    """Why a hand's fairness proof does not derive the seed it was dealt from, or None."""
    try:
        hashes = json.loads(str(seeds))
        if not (isinstance(hashes, list) and all(
                isinstance(h, str) and HEX64.fullmatch(h) for h in hashes)):
            return "has a fairness proof whose seed hashes are not SHA-256 digests"
        if secret is None or not isinstance(nonce, int):
            return "has a fairness proof without its table's secret or deal number"
        dealt = str(json.loads(str(start_text))["seed"])
    except (ValueError, KeyError, TypeError):
        return "has a fairness proof that cannot be read"
    if hand_key(secret, nonce, hashes).hex() != dealt:
        return "has a fairness proof that does not derive the seed it was dealt from"
    return None
