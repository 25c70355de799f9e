"""Shuffling from a secret seed, and the fairness commitment.

The deck order of every round is derived from the hand's seed with SHA-256 in counter
mode, so a hand replays exactly from its seed, and a seed drawn from `secrets` makes the
order unpredictable.

The commitment is made per deck position, so that after the hand only the cards that were
shown need to be opened. Position ``p`` (1 is the top card, dealt first) holding card ``c``
(ASCII, e.g. ``Kh``) with its own salt ``s`` hashes to ``SHA-256("p|c|s")``; the root is
``SHA-256`` of the 32 position hashes in order, joined by single spaces. The table publishes
the root before the deal; afterwards it gives every position hash and the card and salt of
the shown positions only. Anyone can recompute the shown hashes and the root; a folded
player's cards stay hidden behind their salted hashes.

The hand's seed itself is not the dealer's alone (`hand_key`): it mixes a table secret,
committed to as ``SHA-256(secret)`` when the table opens, the deal's number at the table
and the seeds of the seated players. Revealing the secret when the table closes lets
anyone recompute every deck the table dealt. docs/FAIRNESS.md has the whole derivation.
"""

from __future__ import annotations

import hashlib
import secrets

from engine.cards import CARDS, Card


def new_seed() -> bytes:
    """A fresh, unpredictable 32-byte seed for production shuffles."""
    return secrets.token_bytes(32)


def sha256_hex(text: str) -> str:
    """SHA-256 of a text's UTF-8 bytes, as 64 lowercase hex digits."""
    return hashlib.sha256(text.encode()).hexdigest()


def secret_commitment(secret: str) -> str:
    """What a table publishes before its first decision: SHA-256 of its secret (hex text)."""
    return sha256_hex(secret)


def seed_hash(seed: str) -> str:
    """What of a player's seed enters a deal, and what the proof shows of it."""
    return sha256_hex(seed)


PROOF_VERSION = 2
"""The version of the scheme this code deals and proves with (docs/FAIRNESS.md): 1 took a
random default seed drawn at a player's first deal; 2 derives it from the table secret."""


def default_seed(secret: str, user_id: int) -> str:
    """The seed of a player who set none, at the table with ``secret``: the first 32 hex
    digits of ``SHA-256("svara-default|SECRET|USER_ID")``. It follows from the secret, so
    the table's commitment covers it and nobody can draw it again after seeing the seeds."""
    return sha256_hex(f"svara-default|{secret}|{user_id}")[:32]


def hand_key(secret: str, nonce: int, seed_hashes: list[str]) -> bytes:
    """The seed of one hand: ``SHA-256("svara-hand|SECRET|NONCE|H1,H2,...")`` as bytes.

    ``secret`` is the table's secret (64 hex digits), ``nonce`` the deal's number at the
    table (1, 2 ...), ``seed_hashes`` the `seed_hash` of every seated player's seed in seat
    order. Every round's deck and every salt of the hand come from this key.
    """
    text = f"svara-hand|{secret}|{nonce}|{','.join(seed_hashes)}"
    return hashlib.sha256(text.encode()).digest()


class _Stream:
    """Deterministic random words: SHA-256(seed, round, counter)."""

    def __init__(self, seed: bytes, round_no: int) -> None:
        self._prefix = b"svara-deck|" + seed + b"|" + round_no.to_bytes(4, "big")
        self._counter = 0
        self._buffer = b""

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling over 32-bit words."""
        limit = (1 << 32) - (1 << 32) % n
        while True:
            if len(self._buffer) < 4:
                block = self._prefix + self._counter.to_bytes(8, "big")
                self._buffer += hashlib.sha256(block).digest()
                self._counter += 1
            word = int.from_bytes(self._buffer[:4], "big")
            self._buffer = self._buffer[4:]
            if word < limit:
                return word % n


def shuffled_deck(seed: bytes, round_no: int) -> tuple[Card, ...]:
    """The deck order for one round of a hand (Fisher-Yates)."""
    deck = list(CARDS)
    stream = _Stream(seed, round_no)
    for i in range(len(deck) - 1, 0, -1):
        j = stream.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def position_salt(seed: bytes, round_no: int, position: int) -> str:
    """The salt of one deck position; opening it does not reveal the seed or other salts."""
    data = b"svara-salt|" + seed + round_no.to_bytes(4, "big") + position.to_bytes(2, "big")
    return hashlib.sha256(data).hexdigest()[:32]


def position_hash(position: int, card: str, salt: str) -> str:
    """SHA-256 of ``"position|card|salt"`` as hex; ``card`` in ASCII, e.g. ``"Kh"``."""
    return hashlib.sha256(f"{position}|{card}|{salt}".encode()).hexdigest()


def position_hashes(seed: bytes, round_no: int) -> list[str]:
    """The hash of every position of a round's deck, top card first."""
    deck = shuffled_deck(seed, round_no)
    return [position_hash(p, card.ascii, position_salt(seed, round_no, p))
            for p, card in enumerate(deck, start=1)]


def root_hash(hashes: list[str]) -> str:
    """The commitment: SHA-256 of the position hashes joined by single spaces, as hex."""
    return hashlib.sha256(" ".join(hashes).encode()).hexdigest()


def commitment(seed: bytes, round_no: int) -> str:
    """The root hash of a round's deck, published before the deal."""
    return root_hash(position_hashes(seed, round_no))


def opening(seed: bytes, round_no: int, position: int) -> tuple[int, str, str]:
    """(position, card, salt) of one position: what proves that card was there."""
    card = shuffled_deck(seed, round_no)[position - 1]
    return position, card.ascii, position_salt(seed, round_no, position)


def verify_opening(root: str, hashes: list[str],
                   openings: list[tuple[int, str, str]]) -> bool:
    """True if ``hashes`` give ``root`` and every opened card hashes to its position."""
    if len(hashes) != len(CARDS) or root_hash(hashes) != root:
        return False
    return all(1 <= p <= len(hashes) and position_hash(p, card, salt) == hashes[p - 1]
               for p, card, salt in openings)


def dealt_positions(order: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """The deck positions of ``seat``'s three cards, dealt one at a time round ``order``."""
    n = len(order)
    return tuple(k + 1 for k in range(3 * n) if order[k % n] == seat)
