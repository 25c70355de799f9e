"""Errors the engine raises. Each has a stable `code` and a message a player can read.

The `code` and `params` let a user interface translate the message; `str(err)` is the
English text.
"""

from __future__ import annotations

from typing import ClassVar


class GameError(Exception):
    """Base of every error the engine raises on purpose. The state is left untouched."""

    code: ClassVar[str] = "game_error"
    template: ClassVar[str] = "That is not possible now."

    def __init__(self, **params: object) -> None:
        self.params = params
        super().__init__(self.template.format(**params))

    @property
    def message(self) -> str:
        return str(self)


class BadCardText(GameError, ValueError):
    code = "bad_card"
    template = "Not a card (or a valid hand): {text!r}{why}."

    def __init__(self, text: str, why: str = "") -> None:
        super().__init__(text=text, why=f": {why}" if why else "")


class BadRules(GameError, ValueError):
    """Rules that cannot be played. When one rule is out of its range, `params` name it
    (``rule``, a field of `Rules`) and the range (``least``, ``most``)."""

    code = "bad_rules"
    template = "These table rules are not valid: {why}."

    def __init__(self, why: str, *, rule: str | None = None, least: int | None = None,
                 most: int | None = None) -> None:
        super().__init__(why=why, rule=rule, least=least, most=most)


class NotEnoughPlayers(GameError):
    code = "not_enough_players"
    template = "At least two players who can pay the ante are needed (have {count})."

    def __init__(self, count: int) -> None:
        super().__init__(count=count)


class HandOver(GameError):
    code = "hand_over"
    template = "This hand is over."


class WrongPhase(GameError):
    code = "wrong_phase"
    template = "You cannot {action} now."

    def __init__(self, action: str) -> None:
        super().__init__(action=action)


class NotYourTurn(GameError):
    code = "not_your_turn"
    template = "It is not your turn."

    def __init__(self, seat: int | None) -> None:
        super().__init__(seat=seat)


class NotInHand(GameError):
    code = "not_in_hand"
    template = "You are not playing this hand."

    def __init__(self, seat: int | None) -> None:
        super().__init__(seat=seat)


class BadAmount(GameError):
    code = "bad_amount"
    template = "The amount must be between {low} and {high} (got {amount})."

    def __init__(self, amount: int, low: int, high: int) -> None:
        super().__init__(amount=amount, low=low, high=high)


class CannotCall(GameError):
    code = "cannot_call"
    template = "There is no bet to call yet: bet or fold."


class NoRaise(GameError):
    code = "no_raise"
    template = "You cannot bet or raise now."


class CannotJoinSvara(GameError):
    code = "cannot_join_svara"
    template = "You cannot join this svara{why}."

    def __init__(self, why: str = "") -> None:
        super().__init__(why=f": {why}" if why else "")


class BadAction(GameError, ValueError):
    code = "bad_action"
    template = "Not a valid action: {why}."

    def __init__(self, why: str) -> None:
        super().__init__(why=why)
