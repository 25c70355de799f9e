"""Shuffling from a secret seed, and the fairness commitment.

The deck order of every round is derived from the hand's seed with SHA-256 in counter
mode, so a hand replays exactly from its seed, and a seed drawn from `secrets` makes the
order unpredictable. Before the deal the table can publish ``commitment``; after the hand
it reveals the order and the salt, and anyone can recompute the hash.
"""

from __future__ import annotations

import hashlib
import secrets

from engine.cards import CARDS, Card, format_hand


def new_seed() -> bytes:
    """A fresh, unpredictable 32-byte seed for production shuffles."""
    return secrets.token_bytes(32)


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


def salt_for(seed: bytes, round_no: int) -> str:
    """The public salt of a round, revealed after the hand; it does not reveal the seed."""
    return hashlib.sha256(b"svara-salt|" + seed + round_no.to_bytes(4, "big")).hexdigest()[:32]


def commitment(deck: tuple[Card, ...], salt: str) -> str:
    """SHA-256 of the deck order (ASCII cards) and the salt, as hex."""
    text = format_hand(deck, ascii=True) + "|" + salt
    return hashlib.sha256(text.encode()).hexdigest()


def verify_commitment(commitment_hex: str, deck_text: str, salt: str) -> bool:
    """Anyone can check a revealed deck: ``deck_text`` as in the reveal, e.g. ``"Kh 7c ..."``."""
    text = deck_text.strip() + "|" + salt
    return hashlib.sha256(text.encode()).hexdigest() == commitment_hex
