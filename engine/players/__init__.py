"""Computer players: showdown odds, a strategy in three levels, and their tournament.

Pure and synchronous like the rest of the engine; randomness is always an injected
`random.Random`. ``python -m engine.players`` runs the tournament (docs/STRATEGY.md).
"""

from engine.players.odds import Odds, floor_for_top, one_opponent, opponent_counts, showdown_odds
from engine.players.play import CallingStation, Player, next_to_decide, play_hand
from engine.players.strategy import STYLES, Computer, Level, Style

__all__ = [
    "STYLES", "CallingStation", "Computer", "Level", "Odds", "Player", "Style",
    "floor_for_top", "next_to_decide", "one_opponent", "opponent_counts", "play_hand",
    "showdown_odds",
]
