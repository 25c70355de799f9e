"""The per-position deck commitment: shown cards are opened, folded ones stay hidden."""

from __future__ import annotations

import hashlib
from typing import Any

from engine import Act, Hand, Rules, SeatIn
from engine.events import RoundStarted
from tests.engine.story import Story, seed_where


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def checks(proof: dict[str, Any]) -> bool:
    """The check as a reader of the proof would write it, with nothing from the engine."""
    hashes = proof["hashes"]
    if sha(" ".join(hashes)) != proof["commitment"]:
        return False
    return all(sha(f"{p}|{card}|{salt}") == hashes[p - 1] for p, card, salt in proof["open"])


def test_a_showdown_opens_the_shown_cards_and_nothing_of_the_folded_player() -> None:
    story = Story([1000, 1000, 1000], rules=Rules(blind=False))  # boris, vera, ana
    published = next(e.commitment for e in story.log if isinstance(e, RoundStarted))
    folded = story.hand.cards(0)
    shown = story.hand.cards(1) + story.hand.cards(2)
    story.do("boris", Act.RAISE, 10)
    story.do("vera", Act.CALL)
    story.do("ana", Act.FOLD)
    reveal = story.hand.reveal()
    assert reveal is not None and len(reveal) == 1
    proof = reveal[0]
    assert proof["commitment"] == published and len(proof["hashes"]) == 32
    assert checks(proof)
    opened = {card for _, card, _ in proof["open"]}
    assert opened == {c.ascii for c in shown}
    assert not opened & {c.ascii for c in folded}
    # Dealt one at a time from the top, left of the dealer first: boris 1 4 7, vera 2 5 8.
    assert [p for p, _, _ in proof["open"]] == [1, 2, 4, 5, 7, 8]


def test_a_fold_win_opens_nothing_and_a_changed_card_fails() -> None:
    story = Story([1000, 1000], rules=Rules(blind=False))
    assert story.hand.reveal() is None
    story.do("boris", Act.FOLD)
    reveal = story.hand.reveal()
    assert reveal is not None and reveal[0]["open"] == [] and checks(reveal[0])
    proof = dict(reveal[0])
    hand = Hand.start(Rules(blind=False), [SeatIn(100, 1000), SeatIn(101, 1000)], 0, b"story")
    p, card, salt = hand.openings(1)[0]
    proof["open"] = [[p, card, salt]]
    assert checks(proof)
    proof["open"] = [[p, "7c" if card != "7c" else "7d", salt]]
    assert not checks(proof)


def test_each_player_gets_openings_of_exactly_his_own_cards() -> None:
    hand = Hand.start(Rules(blind=False), [SeatIn(1, 500), SeatIn(2, 500), SeatIn(3, 500)], 2,
                      b"own")
    proof = {"commitment": hand.commitment, "hashes": [], "open": []}
    from engine.deck import position_hashes

    proof["hashes"] = position_hashes(hand.seed, 1)
    for seat in range(3):
        openings = hand.openings(seat)
        assert sorted(card for _, card, _ in openings) == sorted(c.ascii for c in hand.cards(seat))
        assert checks({**proof, "open": [list(o) for o in openings]})


def test_a_svara_has_its_own_commitment_and_opens_its_own_showdown() -> None:
    order = [1, 0]

    def tie(points: dict[int, int]) -> bool:
        return points[0] == points[1]

    seed = seed_where(order, tie)
    story = Story([100, 100], rules=Rules(blind=False), seed=seed)
    story.do("boris", Act.RAISE, 10)
    story.do("ana", Act.CALL)
    assert story.hand.round_no == 2
    story.do("boris", Act.FOLD)
    reveal = story.hand.reveal()
    assert reveal is not None and [r["round"] for r in reveal] == [1, 2]
    assert reveal[0]["commitment"] != reveal[1]["commitment"]
    assert all(checks(r) for r in reveal)
    assert len(reveal[0]["open"]) == 6 and reveal[1]["open"] == []
