"""The rules of Svara as a pure, synchronous state machine.

No Telegram, storage, asyncio or clock here: a hand is a value driven by actions, and
the same start plus the same actions always give the same hand.
"""

from engine.actions import Act, Action
from engine.cards import CARDS, Card, Rank, Suit, format_hand, parse_hand
from engine.deck import (
    PROOF_VERSION,
    commitment,
    default_seed,
    hand_key,
    new_seed,
    root_hash,
    secret_commitment,
    seed_hash,
    shuffled_deck,
    verify_opening,
)
from engine.errors import (
    BadAction,
    BadAmount,
    BadCardText,
    BadRules,
    CannotCall,
    CannotJoinSvara,
    GameError,
    HandOver,
    NoRaise,
    NotEnoughPlayers,
    NotInHand,
    NotYourTurn,
    WrongPhase,
)
from engine.events import ChipMove, Event
from engine.hand import Hand
from engine.rules import Limit, Rules, TieRule
from engine.scoring import ScoringRules, score
from engine.state import Legal, Phase, SeatIn

__all__ = [
    "CARDS", "PROOF_VERSION", "Act", "Action", "BadAction", "BadAmount", "BadCardText",
    "BadRules", "CannotCall", "CannotJoinSvara", "Card", "ChipMove", "Event", "GameError",
    "Hand", "HandOver", "Legal", "Limit", "NoRaise", "NotEnoughPlayers", "NotInHand",
    "NotYourTurn", "Phase", "Rank", "Rules", "ScoringRules", "SeatIn", "Suit", "TieRule",
    "WrongPhase", "commitment", "default_seed", "format_hand", "hand_key", "new_seed",
    "parse_hand", "root_hash", "score", "secret_commitment", "seed_hash", "shuffled_deck",
    "verify_opening",
]
