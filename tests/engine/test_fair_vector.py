"""docs/FAIRNESS.md's test vector: the document, a derivation written here from the
document's words with hashlib alone, and the engine give the same values."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from engine import commitment, default_seed, hand_key, secret_commitment, seed_hash
from engine.deck import position_hashes, position_salt, shuffled_deck

DOCS = Path(__file__).resolve().parents[2] / "docs" / "FAIRNESS.md"
SECRET = "0123456789abcdef" * 4
NUMBER = 7
OWN = "my own words"
USER = 42


def vector() -> dict[str, list[str]]:
    """The rows of the document's test vector: label -> the values in backticks."""
    text = DOCS.read_text()
    part = text.split("### Test vector", 1)[1].split("\n## ", 1)[0]
    assert f"`S = {SECRET}`, `k = {NUMBER}`" in part and f"/seed {OWN}" in part
    rows: dict[str, list[str]] = {}
    for line in part.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if line.startswith("| ") and len(cells) == 2 and not cells[1].startswith("-"):
            rows[cells[0]] = re.findall(r"`([^`]+)`", cells[1])
    return rows


def h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def by_hand_deck(key: bytes, r: int) -> list[str]:
    """Fisher-Yates over SHA-256 blocks, as step 5 of the derivation says."""
    cards = [rank + suit for rank in "789TJQKA" for suit in "cdhs"]
    stream: list[int] = []
    counter = 0
    for i in range(31, 0, -1):
        n = i + 1
        limit = 2**32 - (2**32 % n)
        while True:
            if not stream:
                block = h(b"svara-deck|" + key + b"|" + r.to_bytes(4, "big")
                          + counter.to_bytes(8, "big"))
                counter += 1
                stream = [int.from_bytes(block[4 * q:4 * q + 4], "big") for q in range(8)]
            word = stream.pop(0)
            if word < limit:
                break
        j = word % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def by_hand_salt(key: bytes, r: int, p: int) -> str:
    return h(b"svara-salt|" + key + r.to_bytes(4, "big") + p.to_bytes(2, "big")).hex()[:32]


def by_hand_commitment(key: bytes, r: int) -> str:
    hashes = [h(f"{p}|{card}|{by_hand_salt(key, r, p)}".encode()).hex()
              for p, card in enumerate(by_hand_deck(key, r), start=1)]
    return h(" ".join(hashes).encode()).hex()


def test_the_documents_test_vector_is_what_the_code_deals() -> None:
    rows = vector()
    t = h(SECRET.encode()).hex()
    h1 = h(OWN.encode()).hex()
    default = h(f"svara-default|{SECRET}|{USER}".encode()).hex()[:32]
    h2 = h(default.encode()).hex()
    key = h(f"svara-hand|{SECRET}|{NUMBER}|{h1},{h2}".encode())
    deck1 = by_hand_deck(key, 1)
    salts = [by_hand_salt(key, 1, p) for p in (1, 2, 3)]
    first = h(f"1|{deck1[0]}|{salts[0]}".encode()).hex()

    # The document says what the derivation written from its own words gives.
    assert rows["`T`"] == [t]
    assert rows["`H1` (own seed)"] == [h1]
    assert rows["default seed of user 42"] == [default]
    assert rows["`H2` (its hash)"] == [h2]
    assert rows["`K` (hex of the 32 bytes)"] == [key.hex()]
    assert rows["deck of round 1"] == [" ".join(deck1)]
    assert rows["deck of round 2"] == [" ".join(by_hand_deck(key, 2))]
    assert rows["salts of positions 1, 2, 3 (round 1)"] == salts
    assert rows[f"position hash 1 (round 1), of `1\\|{deck1[0]}\\|{salts[0]}`"][-1] == first
    assert rows["`C` of round 1"] == [by_hand_commitment(key, 1)]
    assert rows["`C` of round 2"] == [by_hand_commitment(key, 2)]

    # And the engine deals exactly that.
    assert secret_commitment(SECRET) == t
    assert seed_hash(OWN) == h1 and default_seed(SECRET, USER) == default
    engine_key = hand_key(SECRET, NUMBER, [h1, seed_hash(default_seed(SECRET, USER))])
    assert engine_key == key
    assert [c.ascii for c in shuffled_deck(key, 1)] == deck1
    assert [position_salt(key, 1, p) for p in (1, 2, 3)] == salts
    assert position_hashes(key, 1)[0] == first
    assert commitment(key, 1) == rows["`C` of round 1"][0]
    assert commitment(key, 2) == rows["`C` of round 2"][0]
