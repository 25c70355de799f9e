"""The hand key and the svara's commitment, as docs/FAIRNESS.md writes them."""

from __future__ import annotations

import hashlib

from engine import Act, Phase, Rules, commitment, hand_key, secret_commitment, seed_hash
from engine.deck import position_hashes
from tests.engine.story import Story, seed_where

SECRET = "ab" * 32


def test_the_hand_key_mixes_secret_nonce_and_every_seed_in_order() -> None:
    seeds = [hashlib.sha256(t.encode()).hexdigest() for t in ("ana", "boris")]
    assert seeds == [seed_hash("ana"), seed_hash("boris")]
    text = f"svara-hand|{SECRET}|7|{seeds[0]},{seeds[1]}"
    assert hand_key(SECRET, 7, seeds) == hashlib.sha256(text.encode()).digest()
    assert secret_commitment(SECRET) == hashlib.sha256(SECRET.encode()).hexdigest()
    others = {hand_key(SECRET, 8, seeds), hand_key(SECRET, 7, seeds[::-1]),
              hand_key("cd" * 32, 7, seeds), hand_key(SECRET, 7, [seeds[0], seed_hash("x")])}
    assert hand_key(SECRET, 7, seeds) not in others and len(others) == 4


def test_a_svara_commits_to_its_deck_when_it_opens_before_anyone_may_join() -> None:
    order = [1, 2, 0]  # dealt from the dealer's left: boris, vera, ana

    def tie(points: dict[int, int]) -> bool:
        return points[1] == points[2]

    seed = seed_where(order, tie)
    story = Story([100, 100, 100], rules=Rules(blind=False), seed=seed)
    story.do("boris", Act.RAISE, 10)
    story.do("vera", Act.CALL)
    story.do("ana", Act.FOLD)
    hand = story.hand
    assert hand.phase is Phase.SVARA_JOIN and hand.round_no == 1  # ana may buy in
    # Published now, before ana decides; the deck it commits to is the one dealt next.
    published = hand.commitment
    assert len(hand.commitments) == 2 and published == commitment(seed, 2)
    assert published == hashlib.sha256(" ".join(position_hashes(seed, 2)).encode()).hexdigest()
    story.do("ana", Act.JOIN_SVARA)
    assert hand.round_no == 2 and hand.commitment == published
    assert len(hand.commitments) == 2
