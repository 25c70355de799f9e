"""Table settings: every setting is declared once, and the parser, the texts, the defaults
and the engine's rules all follow the declarations."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.errors import BadSetting, refusal
from bot.i18n import N_, Translations
from bot.table_settings import (
    DECLARED,
    SETTING_NAMES,
    TableSettings,
    change,
    one_setting_text,
    rules_lines,
    settings_text,
)
from engine import Limit, Rules, ScoringRules, TieRule

TR = Translations.load().get("en")


def test_default_rules_lines() -> None:
    assert rules_lines(TR, TableSettings()) == [
        "Ante 10 · blind up to 100 · no limit · ties: svara",
        "Turn 45 s · blind 20 s · svara join 30 s · buy-in up to 1000",
    ]


def test_rules_lines_follow_every_shown_setting() -> None:
    s = TableSettings(ante=5, blind=False, limit=Limit.FIXED_CAP, bet_cap=30,
                      tie=TieRule.SPLIT, turn_timeout=0.5, blind_timeout=7,
                      svara_join_timeout=9, max_buy_in_antes=20)
    assert rules_lines(TR, s) == [
        "Ante 5 · no blind · bets capped at 30 · ties: split",
        "Turn 0.5 s · blind 7 s · svara join 9 s · buy-in up to 100",
    ]
    assert rules_lines(TR, TableSettings(blind_cap=40, limit=Limit.POT_LIMIT))[0] == \
        "Ante 10 · blind up to 40 · pot limit · ties: svara"
    assert rules_lines(TR, TableSettings(limit=Limit.FIXED_CAP))[0] == \
        "Ante 10 · blind up to 100 · bets capped at 100 · ties: svara"


@pytest.mark.parametrize(("name", "value", "field", "expected"), [
    ("ante", "20", "ante", 20),
    ("blind", "off", "blind", False),
    ("blindcap", "50", "blind_cap", 50),
    ("blindcap", "0", "blind_cap", None),
    ("Blind_Cap", "50", "blind_cap", 50),
    ("limit", "pot", "limit", Limit.POT_LIMIT),
    ("limit", "FIXED", "limit", Limit.FIXED_CAP),
    ("betcap", "0", "bet_cap", None),
    ("tie", "split", "tie", TieRule.SPLIT),
    ("sevens", "off", "two_sevens", False),
    ("threesevens", "trips", "three_sevens_top", False),
    ("chechak", "off", "chechak", False),
    ("seats", "4", "max_seats", 4),
    ("buyin", "30", "max_buy_in_antes", 30),
    ("turn", "0.5", "turn_timeout", 0.5),
    ("blind-time", "8", "blind_timeout", 8.0),
    ("svaratime", "9", "svara_join_timeout", 9.0),
    ("pause", "0", "next_hand_delay", 0.0),
    ("autostart", "12", "autostart", 12.0),
])
def test_each_word_sets_its_field(name: str, value: str, field: str, expected: object) -> None:
    start = TableSettings(blind_cap=60, bet_cap=60)
    changed = change(start, name, value)
    assert getattr(changed, field) == expected
    assert type(getattr(changed, field)) is type(expected)
    others = {k: v for k, v in changed.model_dump().items() if k != field}
    assert others == {k: v for k, v in start.model_dump().items() if k != field}


@pytest.mark.parametrize(("name", "value", "text"), [
    ("ante", "lots", "ante: give a number."),
    ("ante", "1.5", "ante: give a number."),
    ("tie", "maybe", "tie: one of svara, split."),
    ("limit", "x", "limit: one of none, no, pot, cap, fixed."),
    ("blindcap", "3", "blindcap 3 is not accepted: it must be from 10 to 100000000000000."),
    ("betcap", "10" + "0" * 14, "betcap 1000000000000000 is not accepted: it must be from 10 "
     "to 100000000000000."),
    ("seats", "11", "seats 11 is not accepted: the most is 10."),
    ("seats", "1", "seats 1 is not accepted: the least is 2."),
    ("turn", "0", "turn 0 is not accepted: it must be more than 0."),
    ("turn", "3600.5", "turn 3600.5 is not accepted: the most is 3600."),
    ("turn", "nan", "turn: give a number."),
    ("pause", "-inf", "pause: give a number."),
    ("<b>x</b>", "1", "Unknown setting &lt;b&gt;x&lt;/b&gt;. Known: "
     "ante, blind, blindcap, limit, betcap, tie, sevens, threesevens, chechak, seats, turn, "
     "blindtime, svaratime, buyin, pause, autostart, nudge, reveal, rebuy, rebuys, cards, "
     "allowance, season, awayante, tbuyin, tstack, tlevel, tclock, payout, tlate."),
    ("ante", "<i>", "ante: give a number."),
    ("blindcap", "<3", "blindcap: give a number."),
])
def test_refusals_say_what_is_accepted(name: str, value: str, text: str) -> None:
    with pytest.raises(BadSetting) as caught:
        change(TableSettings(), name, value)
    assert caught.value.text(TR) == text
    assert refusal(caught.value) is caught.value


@pytest.mark.parametrize(("name", "value", "text"), [
    ("seats", "11", "seats 11 не се приема: най-много е 10."),
    ("turn", "0", "turn 0 не се приема: трябва да е повече от 0."),
    ("blindcap", "3", "blindcap 3 не се приема: трябва да е от 10 до 100000000000000."),
])
def test_a_value_out_of_range_is_refused_in_the_admins_language(
        name: str, value: str, text: str) -> None:
    # The bounds come from the declared fields and the engine's rules, never in their
    # own (English) words.
    with pytest.raises(BadSetting) as caught:
        change(TableSettings(), name, value)
    assert caught.value.text(Translations.load().get("bg")) == text


def test_a_refusal_escapes_what_was_typed_and_translates_only_the_reason() -> None:
    ours = BadSetting(N_("{name} {value} is not accepted: {why}"), name="seats",
                      value="<2>", why=N_("more players are seated"))
    assert ours.text(TR) == "seats &lt;2&gt; is not accepted: more players are seated"
    library = BadSetting(N_("{name} {value} is not accepted: {why}"), name="x", value="1",
                         why="Input should be <b>")
    assert library.text(TR) == "x 1 is not accepted: Input should be &lt;b&gt;"


def test_the_engine_gets_every_rule() -> None:
    s = TableSettings(ante=5, blind=False, blind_cap=50, limit=Limit.FIXED_CAP, bet_cap=30,
                      tie=TieRule.SPLIT, two_sevens=False, three_sevens_top=False,
                      chechak=False, max_seats=4)
    assert s.rules() == Rules(ante=5, blind=False, blind_cap=50, limit=Limit.FIXED_CAP,
                              bet_cap=30, tie=TieRule.SPLIT,
                              scoring=ScoringRules(False, False, False), max_seats=4)
    assert TableSettings().rules() == Rules()


def test_every_engine_rule_is_a_declared_setting() -> None:
    declared = {d.field for d in DECLARED}
    assert declared == set(TableSettings.model_fields)
    engine = {f.name for f in fields(Rules) if f.name != "scoring"}
    engine |= {f.name for f in fields(ScoringRules)}
    assert engine <= declared
    assert len(SETTING_NAMES) == len(DECLARED)


def test_every_setting_reads_back_as_it_is_typed() -> None:
    s = TableSettings(blind=False, limit=Limit.POT_LIMIT, turn_timeout=0.5, autostart=3)
    for d in DECLARED:
        value = getattr(s, d.field)
        assert change(s, d.setting.word, d.word_of(value)) == s, d.field


def test_a_rebuy_reads_in_the_rules_only_while_the_table_allows_one() -> None:
    off = TableSettings()
    on = change(off, "rebuy", "500")
    assert on.rebuy == 500 and change(on, "rebuy", "0").rebuy is None
    assert "rebuy" not in " ".join(rules_lines(TR, off))
    assert "rebuy 500 up to 3 times" in rules_lines(TR, change(on, "rebuys", "3"))[1]


def test_defaults_come_from_the_operator() -> None:
    operator = SimpleNamespace(default_ante=25, turn_timeout=60.0, blind_timeout=15.0,
                               svara_join_timeout=40.0, next_hand_delay=2.0,
                               lobby_autostart=30.0, nudge_after=7.0)
    assert TableSettings.from_operator(operator) == TableSettings(
        ante=25, turn_timeout=60, blind_timeout=15, svara_join_timeout=40,
        next_hand_delay=2, autostart=30, nudge_after=7)


def test_settings_speak_plain_words_in_every_language_and_say_what_to_type() -> None:
    bulgarian = Translations.load().get("bg")
    text = settings_text(bulgarian, TableSettings())
    for machine in ("blindcap 0", "none (none", "(on, off)"):
        assert machine not in text, text
    assert "<code>blindcap</code>" in text and "<code>limit</code>" in text
    for d in DECLARED:  # every setting has a plain name, and Bulgarian has its own
        assert d.setting.label and bulgarian.gettext(d.setting.label) != d.setting.label, d
    menu = one_setting_text(TR, TableSettings(), "limit")
    assert "Betting limit: <b>no limit</b> · <code>limit</code>" in menu
    assert "<code>none</code>, <code>pot</code>, <code>cap</code>" in menu


def test_settings_text_lists_every_setting_as_typed() -> None:
    s = TableSettings(tie=TieRule.SPLIT, bet_cap=30, turn_timeout=0.5)
    assert settings_text(TR, s).split("\n") == [
        "<b>Table settings of this chat</b>",
        "Ante 10 · blind up to 100 · no limit · ties: split",
        "Turn 0.5 s · blind 20 s · svara join 30 s · buy-in up to 1000",
        "",
        "Ante: <b>10 chips</b> · <code>ante</code>",
        "Blind bets: <b>on</b> · <code>blind</code>",
        "Largest blind: <b>ten antes</b> · <code>blindcap</code>",
        "Betting limit: <b>no limit</b> · <code>limit</code>",
        "Most a bet adds: <b>30 chips</b> · <code>betcap</code>",
        "A tie: <b>the pot is split</b> · <code>tie</code>",
        "Two sevens score 23: <b>on</b> · <code>sevens</code>",
        "Three sevens: <b>the best hand (34)</b> · <code>threesevens</code>",
        "7♣ is the Chechak: <b>on</b> · <code>chechak</code>",
        "Seats: <b>10</b> · <code>seats</code>",
        "Time to act: <b>0.5 seconds</b> · <code>turn</code>",
        "Time for the blind: <b>20 seconds</b> · <code>blindtime</code>",
        "Time to join a svara: <b>30 seconds</b> · <code>svaratime</code>",
        "Largest buy-in: <b>100 antes</b> · <code>buyin</code>",
        "Pause between hands: <b>5 seconds</b> · <code>pause</code>",
        "Lobby starts by itself: <b>never</b> · <code>autostart</code>",
        "Private reminder after: <b>10 seconds</b> · <code>nudge</code>",
        "Secret revealed at the close: <b>on</b> · <code>reveal</code>",
        "Rebuy from the house: <b>none</b> · <code>rebuy</code>",
        "Rebuys per player: <b>3</b> · <code>rebuys</code>",
        "Cards at the deal: <b>in the bot's chat</b> · <code>cards</code>",
        "House gifts a day: <b>none</b> · <code>allowance</code>",
        "Season length: <b>a month</b> · <code>season</code>",
        "Players sitting out pay the ante: <b>off</b> · <code>awayante</code>",
        "Tournament buy-in: <b>100 chips</b> · <code>tbuyin</code>",
        "Tournament starting stack: <b>1,000 chips</b> · <code>tstack</code>",
        "Tournament level lasts: <b>10</b> · <code>tlevel</code>",
        "Tournament levels count: <b>hands</b> · <code>tclock</code>",
        "Tournament prizes: <b>65/35</b> · <code>payout</code>",
        "Late registration, levels: <b>none</b> · <code>tlate</code>",
        "",
        "Use /settings NAME VALUE, e.g. /settings tie split.",
    ]


def test_the_readme_lists_every_setting() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    table = readme.split("### Table settings", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"^\| (.*?) \|", table, re.MULTILINE))
    words = {w.strip("` ") for row in named for w in row.split(",")}
    assert words - {"name", "---"} == set(SETTING_NAMES)
