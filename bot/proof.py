"""A played hand's fairness proof: who held which deck positions, and the verifier's link.

The link carries the proof in its fragment (after ``#``), which a browser never sends to a
server: the verifier page (docs/verify.html, served by the bot at `VERIFY_PATH`) reads it
there and checks it with its own code. The same fields, split over the messages of
/hand N (the hand's, then one per round), are folded into each message, so that the page
takes the messages' text as well as the link. The fields:

* ``v`` the scheme's version (`engine.PROOF_VERSION`; a page refuses one it does not
  know), ``n`` the hand's number in its chat, ``a`` the seats' names (each URL-encoded,
  joined by ``,``);
* ``t`` the table's commitment, ``k`` the deal number, ``p`` the seed hashes joined by
  ``.``; from version 2: ``q`` per seat the user id whose default seed it is (empty for a
  seed of his own), ``f`` per seat the deal number his seed was fixed at, ``g`` the deal numbers
  below ``k`` the table has no hand for (all joined by ``.``); ``s`` the table secret once
  it is revealed;
* per round ``i`` (1, 2 ...): ``ci`` its commitment, ``hi`` its 32 position hashes as
  base64url of their 1,024 bytes, ``di`` the seats in dealing order joined by ``.``, and
  ``oi`` the opened positions as ``position-card-salt`` joined by ``.``.
"""

from __future__ import annotations

import base64
from typing import Any
from urllib.parse import quote

from bot.records import PlayedHand
from engine.deck import dealt_positions
from engine.events import Dealt


def dealing_orders(played: PlayedHand) -> dict[int, tuple[int, ...]]:
    """Per round: the seats dealt in, in the order their cards came off the deck."""
    return {e.round_no: e.seats for e in played.hand.events if isinstance(e, Dealt)}


def seat_positions(played: PlayedHand, round_no: int) -> dict[int, tuple[int, ...]]:
    """The deck positions each seat held in a round (nobody's if it was never dealt)."""
    order = dealing_orders(played).get(round_no, ())
    return {seat: dealt_positions(order, seat) for seat in order}


def _hashes_b64(hashes: list[str]) -> str:
    raw = b"".join(bytes.fromhex(h) for h in hashes)
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def hand_fields(played: PlayedHand, names: dict[int, str]) -> list[tuple[str, str]]:
    """The proof's fields about the hand as a whole (the version first)."""
    hand, proof = played.hand, played.proof
    version = 1 if proof is None else proof.version
    fields: list[tuple[str, str]] = [
        ("v", str(version)), ("n", str(played.row.number)),
        ("a", ",".join(quote(names.get(s.player, "?"), safe="") for s in hand.seats)),
    ]
    if proof is not None:
        fields += [("t", proof.table_commitment), ("k", str(proof.nonce)),
                   ("p", ".".join(proof.seeds))]
        if version >= 2:
            fields += [("q", ".".join("" if d is None else str(d) for d in proof.defaults)),
                       ("f", ".".join(map(str, proof.fixed))),
                       ("g", ".".join(map(str, proof.missing)))]
        if proof.secret is not None:
            fields.append(("s", proof.secret))
    return fields


def round_fields(played: PlayedHand) -> dict[int, list[tuple[str, str]]]:
    """Per round: the proof's fields of that round's deck."""
    orders = dealing_orders(played)
    out: dict[int, list[tuple[str, str]]] = {}
    rounds: list[dict[str, Any]] = played.row.reveal or []
    for r in rounds:
        i = int(r["round"])
        out[i] = [(f"c{i}", r["commitment"]), (f"h{i}", _hashes_b64(r["hashes"])),
                  (f"d{i}", ".".join(str(s) for s in orders.get(i, ()))),
                  (f"o{i}", ".".join(f"{p}-{c}-{salt}" for p, c, salt in r["open"]))]
    return out


def joined(fields: list[tuple[str, str]]) -> str:
    """Fields as the fragment writes them: ``k=v`` joined by ``&``."""
    return "&".join(f"{k}={v}" for k, v in fields)


def fragment(played: PlayedHand, names: dict[int, str]) -> str:
    """The proof of a settled hand, as the fragment of the verifier's link (without ``#``)."""
    fields = hand_fields(played, names)
    for part in round_fields(played).values():
        fields += part
    return joined(fields)


def link(base: str, played: PlayedHand, names: dict[int, str]) -> str:
    """The verifier's address with the hand's proof in its fragment."""
    return f"{base}#{fragment(played, names)}"
