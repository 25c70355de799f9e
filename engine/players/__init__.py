"""Computer players: showdown odds from the 4960 hands.

Pure and synchronous like the rest of the engine.
"""

from engine.players.odds import Odds, floor_for_top, one_opponent, opponent_counts, showdown_odds

__all__ = ["Odds", "floor_for_top", "one_opponent", "opponent_counts", "showdown_odds"]
