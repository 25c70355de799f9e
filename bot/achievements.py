"""Achievements: the badges a player earns for a hand he played, each once, and their rules.

Pure: a settled hand's facts (`facts_of`, read from the engine's hand) and what the record
knows of each player before it (`Past`, `TablePast`) go in, the new awards come out. No
Telegram and no database here: `bot.store.achievements` gathers the past and keeps the
awards in the settling hand's own transaction, and never at a practice table.

A badge is earned once per player, wherever he plays; the record keeps the chat and the
hand where he earned it. A "win" is taking a pot, alone or in a split; "at a showdown" is
a pot paid on shown points, not one taken because everyone else folded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from bot.i18n import N_
from engine import Card, Hand, Rank
from engine.events import (
    Blind,
    Call,
    Dealt,
    PotWon,
    Raise,
    RoundStarted,
    Shown,
    SvaraJoined,
)

STREAK = 5
"""Hands won in a row at one table for the streak badge."""

BIG_POT_ANTES = 100
"""A pot this many antes or more is a big pot."""

NIGHT_HANDS = 10
"""The pot of the night is judged from the table's tenth hand on."""

GIANT = 30
"""Points of the hand a giant slayer beats."""

SMALL = 11
"""The most points a small but enough win may show."""


@dataclass(frozen=True, slots=True)
class Showing:
    """A player's cards and points shown at a showdown."""

    player: int
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class PotPaid:
    """A pot paid out: to its winners (several in a split), on these points (None: unseen)."""

    winners: tuple[int, ...]
    amount: int
    points: int | None


@dataclass(frozen=True, slots=True)
class RoundFacts:
    """One round of a hand: the first deal (1) or a svara (2, 3 ...)."""

    number: int
    shown: tuple[Showing, ...] = ()
    paid: tuple[PotPaid, ...] = ()
    blind: frozenset[int] = frozenset()
    """Players who bet blind in this round."""
    all_in: frozenset[int] = frozenset()
    """Players who went all-in with a call or a raise in this round."""
    joined: frozenset[int] = frozenset()
    """Players who paid to join this svara."""


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What a settled hand was, as the badges' rules read it."""

    ante: int
    players: tuple[int, ...]
    """Everyone dealt into the hand."""
    rounds: tuple[RoundFacts, ...]
    stacks: Mapping[int, int] = field(default_factory=dict)
    """Each player's stack at the table once the hand is settled."""


@dataclass(frozen=True, slots=True)
class Past:
    """What the record knows of one player before this hand (real play only)."""

    held: frozenset[str] = frozenset()
    """The badges he already has."""
    wins: int = 0
    """Hands he won before this one, anywhere."""
    streak: int = 0
    """Hands he won in a row at this table right before this one."""
    rebuys: int = 0
    """Rebuys he took at this table."""
    brought: int = 0
    """Chips he brought to this table (buy-ins, top-ups and rebuys, less what he took home)."""


@dataclass(frozen=True, slots=True)
class TablePast:
    """What the record knows of the hand's table before it."""

    hands: int = 0
    """Hands settled at the table before this one."""
    biggest: int = 0
    """The most chips any earlier hand at the table paid out."""


@dataclass(frozen=True, slots=True)
class Award:
    """A badge earned by a player."""

    player: int
    badge: str


@dataclass(frozen=True, slots=True)
class Badge:
    code: str
    """What the record keeps (never renamed)."""
    emoji: str
    name: str
    """Its name (a message id, marked with N_)."""
    rule: str
    """How it is earned, as /stats and the README say it (a message id)."""


BADGES: tuple[Badge, ...] = (
    Badge("first_pot", "🥇", N_("First pot"), N_("win a pot for the first time")),
    Badge("three_sevens", "🎰", N_("Three sevens"),
          N_("show three sevens for 34 points at a showdown")),
    Badge("three_aces", "🂡", N_("Three aces"), N_("show three aces at a showdown")),
    Badge("suited_31", "🌈", N_("One suit, 31"),
          N_("show three cards of one suit worth 31 points or more at a showdown")),
    Badge("small_win", "🐭", N_("Small but enough"),
          N_("win a showdown with 11 points or fewer")),
    Badge("giant_slayer", "🗡", N_("Giant slayer"),
          N_("win a showdown against a hand of 30 points or more")),
    Badge("blind_win", "🙈", N_("In the dark"),
          N_("bet blind and win that round at a showdown")),
    Badge("all_in_win", "💥", N_("All or nothing"),
          N_("go all-in and win that round at a showdown")),
    Badge("svara_win", "⚖", N_("Svara won"), N_("win a svara")),
    Badge("svara_bought", "🎟", N_("Bought in, took it"),
          N_("win a svara you paid to join")),
    Badge("svara_twice", "🔁", N_("Svara on svara"),
          N_("win a hand after its second svara")),
    Badge("big_pot", "💰", N_("Hundred antes"), N_("win a pot of 100 antes or more")),
    Badge("five_in_row", "🔥", N_("Five in a row"),
          N_("win five hands in a row at one table")),
    Badge("comeback", "🦅", N_("Comeback"),
          N_("after a rebuy, win your stack at that table back above every chip you "
             "brought to it")),
    Badge("pot_of_the_night", "🌙", N_("Pot of the night"),
          N_("from a table's tenth hand on, win the biggest pot that table has paid")),
    Badge("tournament_won", "🏆", N_("Tournament won"),
          N_("be the last one standing in a sit-and-go tournament")),
)
BY_CODE: dict[str, Badge] = {b.code: b for b in BADGES}


# --------------------------------------------------------------------------- the rules

Rule = Callable[[HandFacts, int, Past, TablePast], bool]


def _wins(f: HandFacts, player: int) -> list[tuple[RoundFacts, PotPaid]]:
    """Every pot `player` took in the hand, with its round."""
    return [(r, p) for r in f.rounds for p in r.paid if player in p.winners]


def _showdown_wins(f: HandFacts, player: int) -> list[tuple[RoundFacts, PotPaid]]:
    return [(r, p) for r, p in _wins(f, player) if p.points is not None]


def _shown(f: HandFacts, player: int) -> list[Showing]:
    return [s for r in f.rounds for s in r.shown if s.player == player]


def _all_of(cards: tuple[Card, ...], rank: Rank) -> bool:
    return len(cards) == 3 and all(c.rank is rank for c in cards)


def _first_pot(f: HandFacts, p: int, past: Past, _: TablePast) -> bool:
    return bool(_wins(f, p)) and past.wins == 0


def _three_sevens(f: HandFacts, p: int, _: Past, __: TablePast) -> bool:
    return any(_all_of(s.cards, Rank.SEVEN) and s.points == 34 for s in _shown(f, p))


def _three_aces(f: HandFacts, p: int, _: Past, __: TablePast) -> bool:
    return any(_all_of(s.cards, Rank.ACE) for s in _shown(f, p))


def _suited_31(f: HandFacts, p: int, _: Past, __: TablePast) -> bool:
    return any(len(s.cards) == 3 and len({c.suit for c in s.cards}) == 1 and s.points >= 31
               for s in _shown(f, p))


def _small_win(f: HandFacts, p: int, _: Past, __: TablePast) -> bool:
    return any(pot.points is not None and pot.points <= SMALL for _, pot in _showdown_wins(f, p))


def _giant_slayer(f: HandFacts, p: int, _: Past, __: TablePast) -> bool:
    return any(pot.points is not None and any(
        s.player != p and GIANT <= s.points < pot.points for s in r.shown)
        for r, pot in _showdown_wins(f, p))


def _blind_win(f: HandFacts, p: int, _: Past, __: TablePast) -> bool:
    return any(p in r.blind for r, _ in _showdown_wins(f, p))


def _all_in_win(f: HandFacts, p: int, _: Past, __: TablePast) -> bool:
    return any(p in r.all_in for r, _ in _showdown_wins(f, p))


def _svara_win(f: HandFacts, p: int, _: Past, __: TablePast) -> bool:
    return any(r.number > 1 for r, _ in _wins(f, p))


def _svara_bought(f: HandFacts, p: int, _: Past, __: TablePast) -> bool:
    joined = [r.number for r in f.rounds if p in r.joined]
    return bool(joined) and any(r.number >= min(joined) for r, _ in _wins(f, p))


def _svara_twice(f: HandFacts, p: int, _: Past, __: TablePast) -> bool:
    return any(r.number >= 3 for r, _ in _wins(f, p))


def _big_pot(f: HandFacts, p: int, _: Past, __: TablePast) -> bool:
    return any(pot.amount >= BIG_POT_ANTES * f.ante for _, pot in _wins(f, p))


def _five_in_row(f: HandFacts, p: int, past: Past, _: TablePast) -> bool:
    return bool(_wins(f, p)) and past.streak >= STREAK - 1


def _comeback(f: HandFacts, p: int, past: Past, _: TablePast) -> bool:
    return bool(_wins(f, p)) and past.rebuys > 0 and f.stacks.get(p, 0) > past.brought


def _pot_of_the_night(f: HandFacts, p: int, _: Past, table: TablePast) -> bool:
    pots = [pot for r in f.rounds for pot in r.paid]
    if table.hands < NIGHT_HANDS - 1 or not pots:
        return False
    if sum(pot.amount for pot in pots) <= table.biggest:
        return False
    return p in max(pots, key=lambda pot: pot.amount).winners


def _tournament_won(_: HandFacts, __: int, ___: Past, ____: TablePast) -> bool:
    """Earned by a tournament's end (`bot.store.tournaments`), never by one hand's facts."""
    return False


RULES: dict[str, Rule] = {
    "first_pot": _first_pot,
    "three_sevens": _three_sevens,
    "three_aces": _three_aces,
    "suited_31": _suited_31,
    "small_win": _small_win,
    "giant_slayer": _giant_slayer,
    "blind_win": _blind_win,
    "all_in_win": _all_in_win,
    "svara_win": _svara_win,
    "svara_bought": _svara_bought,
    "svara_twice": _svara_twice,
    "big_pot": _big_pot,
    "five_in_row": _five_in_row,
    "comeback": _comeback,
    "pot_of_the_night": _pot_of_the_night,
    "tournament_won": _tournament_won,
}
"""Each badge's rule, by code, in the order of `BADGES`."""


def earned(f: HandFacts, past: Mapping[int, Past],
           table: TablePast = TablePast()) -> list[Award]:
    """The badges the hand earns, per player in seat order, those already held left out.

    Computer players (ids below 1) earn nothing."""
    awards: list[Award] = []
    for player in f.players:
        if player < 1:
            continue
        mine = past.get(player, Past())
        awards += [Award(player, badge.code) for badge in BADGES
                   if badge.code not in mine.held and RULES[badge.code](f, player, mine, table)]
    return awards


# --------------------------------------------------------------------------- the facts

@dataclass
class _Round:
    """A round being read from the events."""

    number: int
    joined: set[int]
    shown: list[Showing] = field(default_factory=list)
    paid: list[PotPaid] = field(default_factory=list)
    blind: set[int] = field(default_factory=set)
    all_in: set[int] = field(default_factory=set)

    def facts(self) -> RoundFacts:
        return RoundFacts(self.number, tuple(self.shown), tuple(self.paid),
                          frozenset(self.blind), frozenset(self.all_in), frozenset(self.joined))


def facts_of(hand: Hand) -> HandFacts:
    """A finished hand's facts, from its events."""
    rounds: list[_Round] = []
    dealt: list[int] = []
    joined: set[int] = set()
    for e in hand.events:
        if isinstance(e, RoundStarted):
            # Who joined the svara opened before plays the round dealt now.
            rounds.append(_Round(e.round_no, joined))
            joined = set()
        elif isinstance(e, Dealt):
            dealt += [hand.seats[i].player for i in e.seats
                      if hand.seats[i].player not in dealt]
        elif isinstance(e, PotWon):
            rounds[-1].paid.append(PotPaid(tuple(hand.seats[w].player for w in e.winners),
                                           e.amount, e.points))
        elif isinstance(e, Shown):
            rounds[-1].shown.append(Showing(hand.seats[e.seat].player, e.cards, e.points))
        elif isinstance(e, Blind):
            rounds[-1].blind.add(hand.seats[e.seat].player)
        elif isinstance(e, Call | Raise) and e.all_in:
            rounds[-1].all_in.add(hand.seats[e.seat].player)
        elif isinstance(e, SvaraJoined):
            joined.add(hand.seats[e.seat].player)
    players = tuple(s.player for s in hand.seats if s.player in dealt)
    return HandFacts(hand.rules.ante, players, tuple(r.facts() for r in rounds),
                     dict(hand.stacks))


def names(codes: Iterable[str]) -> list[Badge]:
    """The badges of these codes, in the order of `BADGES` (unknown codes left out)."""
    wanted = set(codes)
    return [b for b in BADGES if b.code in wanted]
