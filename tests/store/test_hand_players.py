"""What each player made of a settled hand, as the leaderboards and seasons add it up:
hands told as stories, the lines worked out by hand from their cards and bets."""

from __future__ import annotations

from bot.store.hand_players import PlayerLine, player_lines
from engine import Act, Phase, Rules
from tests.engine.story import Story, seed_where
from tests.engine.test_stories import FOUR, tie_between

ANA, BORIS, VERA, GEORGI = 100, 101, 102, 103  # the story's seats 0 to 3


def _bet_and_call(story: Story) -> None:
    """The first to act bets the ante; everyone calls to the showdown."""
    story.do(story.to_act, Act.RAISE, 10)
    while story.hand.phase is Phase.BETTING:
        story.do(story.to_act, Act.CALL)


def test_a_svara_joined_by_two_who_folded_counts_for_all_four_and_its_winner() -> None:
    # Boris and Vera tie at 20; Georgi and Ana fold, pay 30 each to join, and all four
    # show in the svara: Boris 20, Vera 10, Georgi 21 (wins 160), Ana 18.
    seed = seed_where([1, 2, 3, 0], tie_between(1, 2))
    story = Story(FOUR, rules=Rules(blind=False), seed=seed)
    story.do("boris", Act.RAISE, 10)
    story.do("vera", Act.CALL)
    story.do("georgi", Act.FOLD)
    story.do("ana", Act.FOLD)
    story.do("georgi", Act.JOIN_SVARA)
    story.do("ana", Act.JOIN_SVARA)
    _bet_and_call(story)
    assert story.hand.is_over
    assert player_lines(story.hand) == [
        PlayerLine(ANA, -50, won=False, svara=True, svara_won=False, points=18),
        PlayerLine(BORIS, -30, won=False, svara=True, svara_won=False, points=20),
        # Vera's best is her 20 of the first showdown, not the 10 of the svara.
        PlayerLine(VERA, -30, won=False, svara=True, svara_won=False, points=20),
        PlayerLine(GEORGI, 110, won=True, svara=True, svara_won=True, points=21),
    ]


def test_a_player_who_sits_out_a_second_svara_keeps_his_hand_and_his_first_svara() -> None:
    # Boris and Vera tie twice; Ana joins the first svara (25) and loses it at 10, skips
    # the second; Boris bets in it, Vera folds, and Boris takes the pot of 105.
    order = [1, 2, 0]
    seed = seed_where(order, tie_between(1, 2), then=(order, tie_between(1, 2, others=(0,))))
    story = Story([1000] * 3, rules=Rules(blind=False), seed=seed)
    story.do("boris", Act.RAISE, 10)
    story.do("vera", Act.CALL)
    story.do("ana", Act.FOLD)
    story.do("ana", Act.JOIN_SVARA)
    _bet_and_call(story)
    story.do("ana", Act.SKIP_SVARA)
    assert story.hand.round_no == 3
    story.do(story.to_act, Act.RAISE, 10)
    story.do(story.to_act, Act.FOLD)
    assert story.hand.is_over
    assert player_lines(story.hand) == [
        PlayerLine(ANA, -45, won=False, svara=True, svara_won=False, points=10),
        PlayerLine(BORIS, 75, won=True, svara=True, svara_won=True, points=22),
        PlayerLine(VERA, -30, won=False, svara=True, svara_won=False, points=22),
    ]


def test_a_hand_won_without_a_svara_or_a_showdown_shows_no_points() -> None:
    story = Story([1000] * 3, rules=Rules(blind=False))
    story.do("boris", Act.RAISE, 10)  # left of the dealer, first to act
    story.do("vera", Act.FOLD)
    story.do("ana", Act.FOLD)
    assert player_lines(story.hand) == [
        PlayerLine(ANA, -10, won=False, svara=False, svara_won=False, points=None),
        PlayerLine(BORIS, 20, won=True, svara=False, svara_won=False, points=None),
        PlayerLine(VERA, -10, won=False, svara=False, svara_won=False, points=None),
    ]
