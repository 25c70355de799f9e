"""Per-chat table settings: the engine's rules plus the timers and the buy-in."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.i18n import N_
from engine import Limit, Rules, ScoringRules, TieRule
from engine.rules import MAX_SEATS


class TableSettings(BaseModel):
    """What a chat's admins may set for its tables; stored as JSON with the chat."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    ante: int = Field(default=10, ge=1, le=10**9)
    blind: bool = True
    blind_cap: int | None = Field(default=None, ge=1)
    limit: Limit = Limit.NO_LIMIT
    bet_cap: int | None = Field(default=None, ge=1)
    tie: TieRule = TieRule.SVARA
    two_sevens: bool = True
    three_sevens_top: bool = True
    chechak: bool = True
    max_seats: int = Field(default=MAX_SEATS, ge=2, le=MAX_SEATS)
    max_buy_in_antes: int = Field(default=100, ge=1, le=10**6)
    turn_timeout: float = Field(default=45, gt=0, le=3600)
    blind_timeout: float = Field(default=20, gt=0, le=3600)
    svara_join_timeout: float = Field(default=30, gt=0, le=3600)
    next_hand_delay: float = Field(default=5, ge=0, le=3600)
    autostart: float = Field(default=0, ge=0, le=3600)
    """Seconds after the second player joins before the lobby starts by itself; 0: never."""
    nudge_after: float = Field(default=10, ge=0, le=3600)
    """Seconds a turn waits before its player is reminded privately; 0: never."""

    @property
    def max_buy_in(self) -> int:
        return self.ante * self.max_buy_in_antes

    def rules(self) -> Rules:
        """The engine rules these settings describe (raises `engine.BadRules`)."""
        return Rules(
            ante=self.ante,
            blind=self.blind,
            blind_cap=self.blind_cap,
            limit=self.limit,
            bet_cap=self.bet_cap,
            tie=self.tie,
            scoring=ScoringRules(self.two_sevens, self.three_sevens_top, self.chechak),
            max_seats=self.max_seats,
        )

    @classmethod
    def load(cls, data: dict[str, Any] | None, **defaults: Any) -> TableSettings:
        """Settings from stored JSON over the operator's defaults; bad stored values fall back."""
        merged = {**defaults, **(data or {})}
        try:
            return cls.model_validate(merged)
        except ValidationError:
            return cls.model_validate(defaults)


# Names an admin types after /settings, the field each sets, and the words it accepts.
_SWITCHES: dict[str, tuple[str, dict[str, object]]] = {
    "blind": ("blind", {"on": True, "off": False}),
    "limit": ("limit", {"none": Limit.NO_LIMIT, "no": Limit.NO_LIMIT, "pot": Limit.POT_LIMIT,
                        "cap": Limit.FIXED_CAP, "fixed": Limit.FIXED_CAP}),
    "tie": ("tie", {"svara": TieRule.SVARA, "split": TieRule.SPLIT}),
    "sevens": ("two_sevens", {"on": True, "off": False}),
    "threesevens": ("three_sevens_top", {"top": True, "trips": False}),
    "chechak": ("chechak", {"on": True, "off": False}),
}
_NUMBERS: dict[str, str] = {
    "ante": "ante",
    "blindcap": "blind_cap",
    "betcap": "bet_cap",
    "seats": "max_seats",
    "buyin": "max_buy_in_antes",
    "turn": "turn_timeout",
    "blindtime": "blind_timeout",
    "svaratime": "svara_join_timeout",
    "pause": "next_hand_delay",
    "autostart": "autostart",
    "nudge": "nudge_after",
}
SETTING_NAMES = (*_NUMBERS, *_SWITCHES)


class BadSetting(ValueError):
    """A /settings change that cannot be applied; `msgid` and `params` say what is accepted."""

    def __init__(self, msgid: str, **params: str) -> None:
        super().__init__(msgid.format(**params))
        self.msgid = msgid
        self.params = params


def change(current: TableSettings, name: str, value: str) -> TableSettings:
    """`current` with one setting changed from an admin's words, e.g. ("tie", "split")."""
    key = name.lower().replace("_", "").replace("-", "")
    word = value.strip().lower()
    if key in _SWITCHES:
        field, words = _SWITCHES[key]
        if word not in words:
            raise BadSetting(N_("{name}: one of {choices}."), name=name,
                             choices=", ".join(words))
        new: object = words[word]
    elif key in _NUMBERS:
        field = _NUMBERS[key]
        try:
            number = float(word) if field.endswith(("timeout", "delay", "after")) \
                or field == "autostart" \
                else int(word)
        except ValueError:
            raise BadSetting(N_("{name}: give a number."), name=name) from None
        new = None if number == 0 and field in ("blind_cap", "bet_cap") else number
    else:
        raise BadSetting(N_("Unknown setting {name}. Known: {choices}."), name=name,
                         choices=", ".join(SETTING_NAMES))
    try:
        changed = current.model_validate({**current.model_dump(), field: new})
        changed.rules()
    except (ValidationError, ValueError) as err:
        raise BadSetting(N_("{name} {value} is not accepted: {why}"), name=name, value=value,
                         why=_first_error(err)) from None
    return changed


def _first_error(err: Exception) -> str:
    if isinstance(err, ValidationError):
        first = err.errors()[0]
        return str(first.get("msg", "not accepted"))
    return str(err)
