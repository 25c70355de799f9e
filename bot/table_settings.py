"""Per-chat table settings: the engine's rules plus the timers and the buy-in.

Each setting is declared once, as a field of `TableSettings`: its type, default and range
(pydantic's), and a `Setting` saying the word an admin types after /settings, the words it
accepts, how it reads in the rules lines, and which operator setting gives its default.
The /settings parser (`change`), the /settings text, the rules lines, the defaults and the
engine's `Rules` are all derived from these declarations.
"""

from __future__ import annotations

import math
import types
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import Enum, StrEnum
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot import replies
from bot.errors import BadSetting as BadSetting
from bot.i18n import N_, Html, Translator, escape
from bot.seasons import SeasonLength
from bot.tournament import LevelClock, Payout, Schedule
from engine import BadRules, Limit, Rules, ScoringRules, TieRule
from engine.rules import MAX_SEATS

ON_OFF: Mapping[str, object] = {"on": True, "off": False}
_ON_OFF_WORDS: Mapping[object, str] = {True: N_("on"), False: N_("off")}
_TEN_ANTES = N_("ten antes")
_NEVER = N_("never")
_NONE = N_("none")


class CardsWhere(StrEnum):
    """Where each player's cards arrive at the deal ("My cards" in the group shows them to
    him alone whatever is chosen)."""

    PRIVATE = "private"
    """In his private chat with the bot."""
    GROUP = "group"
    """In the group, as a message only he sees (the bot must be a chat admin; where it is
    not, or where that message fails, they go to his private chat)."""
    BOTH = "both"


@dataclass(frozen=True, slots=True)
class Setting:
    """How one field of `TableSettings` is changed by admins and shown to players."""

    word: str
    """What an admin types after /settings."""
    words: Mapping[str, object] = field(default_factory=dict)
    """The words it accepts and the value each sets (the first word of a value is the one
    shown). Empty for a number: an optional number reads 0 as unset."""
    reads: str | Mapping[object, str] | None = None
    """How it reads in the rules lines: a message id, or one per value; None: not shown.
    Its fields may name any setting, `max_buy_in`, or a property of the engine's rules."""
    row: int = 0
    """Which rules line it is shown on: 0 the game, 1 the timers and buy-in."""
    operator: str | None = None
    """The operator's setting (`bot.settings.Settings`) that gives its default, if any."""
    presets: tuple[str, ...] = ()
    """For a number: the values offered as buttons in the /settings menu (any other is
    typed, /settings NAME VALUE)."""
    label: str = ""
    """What the setting is, in plain words (a message id): "Betting limit"."""
    plain: Mapping[object, str] = field(default_factory=dict)
    """For words: how each value reads in plain words (message ids)."""
    unit: str = ""
    """For a number: ``chips``, ``seconds``, ``antes`` or nothing."""
    none: str | None = None
    """For a number: how unset (an optional one) or 0 reads ("ten antes", "never")."""


class TableSettings(BaseModel):
    """What a chat's admins may set for its tables; stored as JSON with the chat.

    A field named like a field of the engine's `Rules` (or of its `ScoringRules`) is passed
    to the engine as it is.
    """

    model_config = ConfigDict(frozen=True, extra="ignore")

    ante: Annotated[int, Field(ge=1, le=10**9), Setting(
        "ante", reads=N_("Ante {ante}"), operator="default_ante",
        presets=("1", "5", "10", "20", "50", "100"), label=N_("Ante"), unit="chips")] = 10
    blind: Annotated[bool, Setting(
        "blind", ON_OFF, reads={True: N_("blind up to {max_blind}"), False: N_("no blind")},
        label=N_("Blind bets"), plain=_ON_OFF_WORDS)] = True
    blind_cap: Annotated[int | None, Field(ge=1), Setting(
        "blindcap", presets=("0", "50", "100", "200"), label=N_("Largest blind"),
        unit="chips", none=_TEN_ANTES)] = None
    limit: Annotated[Limit, Setting(
        "limit",
        {"none": Limit.NO_LIMIT, "no": Limit.NO_LIMIT, "pot": Limit.POT_LIMIT,
         "cap": Limit.FIXED_CAP, "fixed": Limit.FIXED_CAP},
        reads={Limit.NO_LIMIT: N_("no limit"), Limit.POT_LIMIT: N_("pot limit"),
               Limit.FIXED_CAP: N_("bets capped at {max_bet_step}")},
        label=N_("Betting limit"),
        plain={Limit.NO_LIMIT: N_("no limit"), Limit.POT_LIMIT: N_("pot limit"),
               Limit.FIXED_CAP: N_("capped bets")},
    )] = Limit.NO_LIMIT
    bet_cap: Annotated[int | None, Field(ge=1), Setting(
        "betcap", presets=("0", "50", "100", "200", "500"), label=N_("Most a bet adds"),
        unit="chips", none=_TEN_ANTES)] = None
    tie: Annotated[TieRule, Setting(
        "tie", {"svara": TieRule.SVARA, "split": TieRule.SPLIT},
        reads={TieRule.SVARA: N_("ties: svara"), TieRule.SPLIT: N_("ties: split")},
        label=N_("A tie"),
        plain={TieRule.SVARA: N_("a svara"), TieRule.SPLIT: N_("the pot is split")},
    )] = TieRule.SVARA
    two_sevens: Annotated[bool, Setting("sevens", ON_OFF, label=N_("Two sevens score 23"),
                                        plain=_ON_OFF_WORDS)] = True
    three_sevens_top: Annotated[bool, Setting(
        "threesevens", {"top": True, "trips": False}, label=N_("Three sevens"),
        plain={True: N_("the best hand (34)"), False: N_("three of a kind (21)")})] = True
    chechak: Annotated[bool, Setting("chechak", ON_OFF, label=N_("7♣ is the Chechak"),
                                     plain=_ON_OFF_WORDS)] = True
    max_seats: Annotated[int, Field(ge=2, le=MAX_SEATS), Setting(
        "seats", presets=tuple(str(n) for n in range(2, MAX_SEATS + 1)),
        label=N_("Seats"))] = MAX_SEATS
    turn_timeout: Annotated[float, Field(gt=0, le=3600), Setting(
        "turn", reads=N_("Turn {turn_timeout} s"), row=1, operator="turn_timeout",
        presets=("20", "30", "45", "60", "90", "120"), label=N_("Time to act"),
        unit="seconds")] = 45
    blind_timeout: Annotated[float, Field(gt=0, le=3600), Setting(
        "blindtime", reads=N_("blind {blind_timeout} s"), row=1,
        operator="blind_timeout", presets=("10", "20", "30", "60"),
        label=N_("Time for the blind"), unit="seconds")] = 20
    svara_join_timeout: Annotated[float, Field(gt=0, le=3600), Setting(
        "svaratime", reads=N_("svara join {svara_join_timeout} s"), row=1,
        operator="svara_join_timeout", presets=("15", "30", "45", "60"),
        label=N_("Time to join a svara"), unit="seconds")] = 30
    max_buy_in_antes: Annotated[int, Field(ge=1, le=10**6), Setting(
        "buyin", reads=N_("buy-in up to {max_buy_in}"), row=1,
        presets=("20", "50", "100", "200", "500"), label=N_("Largest buy-in"),
        unit="antes")] = 100
    next_hand_delay: Annotated[float, Field(ge=0, le=3600), Setting(
        "pause", operator="next_hand_delay", presets=("3", "5", "10", "20"),
        label=N_("Pause between hands"), unit="seconds")] = 5
    autostart: Annotated[float, Field(ge=0, le=3600), Setting(
        "autostart", operator="lobby_autostart", presets=("0", "30", "60", "120"),
        label=N_("Lobby starts by itself"), unit="seconds", none=_NEVER)] = 0
    """Seconds after the second player joins before the lobby starts by itself; 0: never."""
    nudge_after: Annotated[float, Field(ge=0, le=3600), Setting(
        "nudge", operator="nudge_after", presets=("0", "5", "10", "20", "30"),
        label=N_("Private reminder after"), unit="seconds", none=_NEVER)] = 10
    """Seconds a turn waits before its player is reminded privately; 0: never."""
    reveal: Annotated[bool, Setting("reveal", ON_OFF, label=N_("Secret revealed at the close"),
                                    plain=_ON_OFF_WORDS)] = True
    """Reveal the table's secret when it closes, so every deck it dealt can be recomputed
    (folded cards too); off keeps folded cards private for good (docs/FAIRNESS.md). A table
    keeps the value it opened with (`bot.store.fairness.TableSecret.reveal`): a change
    counts for the tables opened after it."""
    rebuy: Annotated[int | None, Field(ge=1, le=10**9), Setting(
        "rebuy", reads=N_("rebuy {rebuy} up to {rebuys} times"), row=1,
        presets=("0", "200", "500", "1000"), label=N_("Rebuy from the house"),
        unit="chips", none=_NONE)] = None
    """Chips a broke player may take from the house with /rebuy; None (0): no rebuys."""
    rebuys: Annotated[int, Field(ge=1, le=100), Setting(
        "rebuys", presets=("1", "2", "3", "5"), label=N_("Rebuys per player"))] = 3
    """How many rebuys each player may take at one table."""
    cards: Annotated[CardsWhere, Setting(
        "cards", {"private": CardsWhere.PRIVATE, "group": CardsWhere.GROUP,
                  "both": CardsWhere.BOTH},
        label=N_("Cards at the deal"),
        plain={CardsWhere.PRIVATE: N_("in the bot's chat"),
               CardsWhere.GROUP: N_("in the group, hidden"),
               CardsWhere.BOTH: N_("both places")})] = CardsWhere.PRIVATE
    """Where each player's cards arrive at the deal."""
    allowance: Annotated[int, Field(ge=0, le=10**9), Setting(
        "allowance", presets=("0", "500", "1000", "5000"),
        label=N_("House gifts a day"), unit="chips", none=_NONE)] = 0
    """Chips the chat's admins may give from the house with /give in 24 hours; 0: none
    (an admin's /give is then of his own chips, like anyone's)."""
    season: Annotated[SeasonLength, Setting(
        "season", {"month": SeasonLength.MONTH, "week": SeasonLength.WEEK,
                   "quarter": SeasonLength.QUARTER, "off": SeasonLength.OFF},
        label=N_("Season length"),
        plain={SeasonLength.MONTH: N_("a month"), SeasonLength.WEEK: N_("a week"),
               SeasonLength.QUARTER: N_("a quarter"), SeasonLength.OFF: N_("no seasons")},
    )] = SeasonLength.MONTH
    """How long the chat's seasons last (calendar periods of UTC, `bot.seasons`); off: no
    season standings and no champions. A change counts from the season it falls in, which
    picks up where the last closed one ended."""
    away_antes: Annotated[bool, Setting("awayante", ON_OFF,
                                        label=N_("Players sitting out pay the ante"),
                                        plain=_ON_OFF_WORDS)] = False
    """A player sitting out still pays the ante (dead money; he is not dealt in); a
    tournament takes it so whatever this says."""
    tournament_buy_in: Annotated[int, Field(ge=1, le=10**9), Setting(
        "tbuyin", presets=("50", "100", "200", "500"), label=N_("Tournament buy-in"),
        unit="chips")] = 100
    """The buy-in of a tournament /tournament opens (bot.tournament)."""
    tournament_stack: Annotated[int, Field(ge=10, le=10**9), Setting(
        "tstack", presets=("500", "1000", "2000", "5000"),
        label=N_("Tournament starting stack"), unit="chips")] = 1000
    tournament_level: Annotated[int, Field(ge=1, le=10_000), Setting(
        "tlevel", presets=("5", "10", "15", "20"),
        label=N_("Tournament level lasts"))] = 10
    """Hands (or minutes, by `tournament_clock`) per level of a tournament."""
    tournament_clock: Annotated[LevelClock, Setting(
        "tclock", {"hands": LevelClock.HANDS, "minutes": LevelClock.MINUTES},
        label=N_("Tournament levels count"),
        plain={LevelClock.HANDS: N_("hands"), LevelClock.MINUTES: N_("minutes")},
    )] = LevelClock.HANDS
    tournament_payout: Annotated[Payout, Setting(
        "payout", {"top2": Payout.TOP_TWO, "top3": Payout.TOP_THREE,
                   "winner": Payout.WINNER},
        label=N_("Tournament prizes"),
        plain={Payout.TOP_TWO: N_("65/35"), Payout.TOP_THREE: N_("50/30/20"),
               Payout.WINNER: N_("all to the winner")},
    )] = Payout.TOP_TWO
    tournament_late: Annotated[int, Field(ge=0, le=5), Setting(
        "tlate", presets=("0", "1", "2", "3"), label=N_("Late registration, levels"),
        none=_NONE)] = 0
    """Registration stays open during a tournament's first this many levels (0: until
    its first deal)."""

    @property
    def max_buy_in(self) -> int:
        return self.ante * self.max_buy_in_antes

    def tournament(self) -> Schedule:
        """The schedule of a tournament opened with these settings."""
        return Schedule(buy_in=self.tournament_buy_in, stack=self.tournament_stack,
                        every=self.tournament_level, clock=self.tournament_clock,
                        payout=self.tournament_payout.shares,
                        late_levels=self.tournament_late)

    def rules(self) -> Rules:
        """The engine rules these settings describe (raises `engine.BadRules`)."""
        scoring = ScoringRules(**_named(self, ScoringRules))
        return Rules(**_named(self, Rules), scoring=scoring)

    @classmethod
    def load(cls, data: dict[str, Any] | None, **defaults: Any) -> TableSettings:
        """Settings from stored JSON over the operator's defaults; bad stored values fall back."""
        merged = {**defaults, **(data or {})}
        try:
            return cls.model_validate(merged)
        except ValidationError:
            return cls.model_validate(defaults)

    @classmethod
    def from_operator(cls, operator: object) -> TableSettings:
        """The settings of a new table: the operator's values where a setting names one."""
        return cls.model_validate({d.field: getattr(operator, d.setting.operator)
                                   for d in DECLARED if d.setting.operator})


def _named(settings: TableSettings, engine_type: type) -> dict[str, Any]:
    """The settings named like the fields of one of the engine's rule types."""
    names = {f.name for f in fields(engine_type)}
    return {name: getattr(settings, name) for name in TableSettings.model_fields
            if name in names}


@dataclass(frozen=True, slots=True)
class Declared:
    """One setting as declared: its field, its value type and its `Setting`."""

    field: str
    kind: type
    """int, float, bool or an enum: the value without None."""
    optional: bool
    setting: Setting

    def parse(self, word: str) -> object:
        """The value an admin's word sets; ValueError if it is none of the accepted words."""
        if self.setting.words:
            if word not in self.setting.words:
                raise ValueError(word)
            return self.setting.words[word]
        number = float(word) if self.kind is float else int(word)
        # A long whole number is fine here (the bounds refuse it); `isfinite` of one past
        # a float's range would raise OverflowError instead.
        if isinstance(number, float) and not math.isfinite(number):
            raise ValueError(word)
        return None if number == 0 and self.optional else number

    def word_of(self, value: object) -> str:
        """How the value is typed after /settings (the opposite of `parse`)."""
        for word, meant in self.setting.words.items():
            if meant == value:
                return word
        return "0" if value is None else str(_plain(value))


def _declared() -> tuple[Declared, ...]:
    found = []
    for name, info in TableSettings.model_fields.items():
        setting = next((m for m in info.metadata if isinstance(m, Setting)), None)
        if setting is None:
            continue
        kind: Any = info.annotation
        optional = get_origin(kind) in (Union, types.UnionType)
        if optional:
            (kind,) = [a for a in get_args(kind) if a is not type(None)]
        if not setting.words:
            assert kind in (int, float), f"{name}: a setting without words must be a number"
            assert setting.presets, f"{name}: a number offers presets for the /settings menu"
        found.append(Declared(name, kind, optional, setting))
    return tuple(found)


DECLARED = _declared()
"""Every table setting, in the order of `TableSettings`."""
_BY_WORD = {d.setting.word: d for d in DECLARED}
SETTING_NAMES = tuple(_BY_WORD)
"""The words admins type after /settings."""


def change(current: TableSettings, name: str, value: str) -> TableSettings:
    """`current` with one setting changed from an admin's words, e.g. ("tie", "split")."""
    said_name, said_value = echo(name), echo(value)
    declared = _BY_WORD.get(name.lower().replace("_", "").replace("-", ""))
    if declared is None:
        raise BadSetting(N_("Unknown setting {name}. Known: {choices}."), name=said_name,
                         choices=", ".join(SETTING_NAMES))
    try:
        new = declared.parse(value.strip().lower())
    except ValueError:
        if declared.setting.words:
            raise BadSetting(N_("{name}: one of {choices}."), name=said_name,
                             choices=", ".join(declared.setting.words)) from None
        raise BadSetting(N_("{name}: give a number."), name=said_name) from None
    try:
        changed = current.model_validate({**current.model_dump(), declared.field: new})
        changed.rules()
    except ValidationError as err:
        raise _out_of_bounds(said_name, said_value, err) from None
    except BadRules as err:
        least, most = err.params.get("least"), err.params.get("most")
        if least is None or most is None:
            raise BadSetting(N_("{name} {value} is not accepted."), name=said_name,
                             value=said_value) from None
        raise BadSetting(N_("{name} {value} is not accepted: it must be from {least} to "
                            "{most}."), name=said_name, value=said_value, least=least,
                         most=most) from None
    return changed


ECHO_LIMIT = 32
"""Longest piece of what the admin typed that a refusal repeats: a setting name or value
of thousands of characters would make the answer longer than Telegram sends."""


def echo(typed: str) -> str:
    """`typed` as a refusal repeats it: at most `ECHO_LIMIT` characters, cut with "…"."""
    return typed if len(typed) <= ECHO_LIMIT else typed[:ECHO_LIMIT - 1] + "…"


_BOUNDS = {
    "greater_than_equal": ("ge", N_("{name} {value} is not accepted: the least is {bound}.")),
    "greater_than": ("gt", N_("{name} {value} is not accepted: it must be more than {bound}.")),
    "less_than_equal": ("le", N_("{name} {value} is not accepted: the most is {bound}.")),
    "less_than": ("lt", N_("{name} {value} is not accepted: it must be less than {bound}.")),
}
"""A bound a declared setting breaks: pydantic's error type, the key of the bound in
the error, and what the admin is told."""


def _out_of_bounds(name: str, value: str, err: ValidationError) -> BadSetting:
    """The admin's words for a value outside a setting's declared bounds."""
    first = err.errors()[0]
    known = _BOUNDS.get(first["type"])
    bound = (first.get("ctx") or {}).get(known[0]) if known is not None else None
    if known is None or bound is None:
        return BadSetting(N_("{name} {value} is not accepted."), name=name, value=value)
    return BadSetting(known[1], name=name, value=value, bound=_plain(bound))


def _plain(value: object) -> object:
    """A number as people write it: 45 rather than 45.0."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value.value if isinstance(value, Enum) else value


def rules_lines(tr: Translator, s: TableSettings) -> list[str]:
    """The rules in force, as shown in the lobby, by /rules and by /settings."""
    rules = s.rules()
    facts: dict[str, object] = {
        "max_blind": rules.max_blind, "max_bet_step": rules.max_bet_step,
        "max_buy_in": s.max_buy_in,
        **{d.field: _plain(getattr(s, d.field)) for d in DECLARED},
    }
    rows: dict[int, list[str]] = {}
    for d in DECLARED:
        reads = d.setting.reads
        value = getattr(s, d.field)
        msgid = reads.get(value) if isinstance(reads, Mapping) else (
            None if value is None else reads)  # an optional number unset is not shown
        if msgid is not None:
            rows.setdefault(d.setting.row, []).append(tr.format(msgid, **facts))
    return [" · ".join(rows[row]) for row in sorted(rows)]


def value_text(tr: Translator, d: Declared, s: TableSettings) -> str:
    """A setting's value in plain words: "no limit", "45 seconds", "ten antes"."""
    value = getattr(s, d.field)
    if d.setting.words:
        msgid = d.setting.plain.get(value)
        return tr.gettext(msgid) if msgid else d.word_of(value)
    if (value is None or value == 0) and d.setting.none:
        return tr.gettext(d.setting.none)
    number = _plain(value)
    if not isinstance(number, int | float):
        return str(number)
    if d.setting.unit == "chips" and isinstance(number, int):
        return tr.chips(number)
    if d.setting.unit == "seconds":
        if isinstance(number, int):
            return tr.seconds(number)
        return tr.nformat("{count} second", "{count} seconds", 2, count=tr.number(number))
    if d.setting.unit == "antes":
        return tr.nformat("{count} ante", "{count} antes", int(number),
                          count=tr.number(number))
    return tr.number(number)


def setting_line(tr: Translator, d: Declared, s: TableSettings) -> str:
    """One setting in /settings: its plain name and value, then the word to type."""
    line = tr.format("{label}: <b>{value}</b>", label=tr.gettext(d.setting.label),
                     value=value_text(tr, d, s))
    return f"{line} · <code>{escape(d.setting.word)}</code>"


def settings_text(tr: Translator, s: TableSettings) -> str:
    """The answer to /settings: the rules in force, then every setting in plain words with
    the word admins type for it."""
    lines = [tr.gettext("<b>Table settings of this chat</b>"), *rules_lines(tr, s), ""]
    lines += [setting_line(tr, d, s) for d in DECLARED]
    lines += ["", tr.gettext("Use /settings NAME VALUE, e.g. /settings tie split.")]
    return "\n".join(lines)


def one_setting_text(tr: Translator, s: TableSettings, word: str) -> str:
    """The /settings menu of one setting: which one it is, what it is now, the words."""
    d = _BY_WORD[word]
    lines = [tr.gettext("<b>Table settings of this chat</b>"), "", setting_line(tr, d, s)]
    if d.setting.words:
        first = {v: w for w, v in reversed(list(d.setting.words.items()))}  # no synonyms
        options = ", ".join(f"<code>{escape(w)}</code>" for w in d.setting.words
                            if first[d.setting.words[w]] == w)
        lines.append(tr.format("Typed: {words}", words=Html(options)))
    lines += ["", tr.gettext("Choose a new value:")]
    return "\n".join(lines)


def saved_note(tr: Translator, s: TableSettings, word: str) -> str:
    """The note over the chat when the menu saved a setting: its plain name and new value,
    never the word typed for it ("Saved. A tie: the pot is split.")."""
    d = _BY_WORD[word]
    return tr.format(replies.SETTING_SAVED, label=Html(tr.gettext(d.setting.label)),
                     value=Html(value_text(tr, d, s)))
