"""Pure rendering: a table's state in, the table message's text and buttons out; and the
messages made of game data (cards, reminders, results, /history, /hand, /balance, /top).

Nothing here talks to Telegram or the store; the same view always gives the same screen,
so a caller can compare screens and skip an edit that would change nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from bot.callback_data import Button, Press
from bot.i18n import N_, Html, Translator, escape
from bot.names import group_title
from bot.proof import hand_fields, round_fields, seat_positions
from bot.proof import joined as proof_joined
from bot.proof import link as proof_link
from bot.store.history import PlayedHand, PlayerStats, Standing
from bot.store.models import TableStatus
from bot.store.statement import Entry, Statement
from bot.table_settings import TableSettings
from bot.table_settings import rules_lines as rules_lines  # where callers look for it
from bot.texts import movement_text
from engine import Act, Action, Card, Hand, Phase, ScoringRules, format_hand, parse_hand
from engine.cards import SEVEN_OF_CLUBS, Rank
from engine.events import (
    Blind,
    Call,
    Event,
    Fold,
    Left,
    NoBlind,
    PotWon,
    Raise,
    SatOut,
    Shown,
    SvaraJoined,
    SvaraOpened,
    SvaraSkipped,
)

MAX_NAME = 24
"""Names are cut to this many characters so ten long names still fit one message."""

LAST_ACTIONS = 4
"""How many of the latest actions the table message tells in words."""



@dataclass(frozen=True, slots=True)
class SeatView:
    player: int
    name: str
    stack: int
    sitting_out: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the last hand ended, shown until the next one is dealt."""

    shown: tuple[tuple[int, tuple[Card, ...], int], ...]
    """(player, cards, points) of everyone who showed."""
    won: tuple[tuple[tuple[int, ...], int, int | None], ...]
    """(winners, amount, points or None) per pot paid."""
    proof: bool = False
    """The hand is over: point to its proof (/hand N)."""


CLOSING_AFTER_HAND = N_("🔚 Closing after this hand: then every stack goes back.")
"""Under a table /endgame asked to close (and the answer to that /endgame)."""


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything the table message shows."""

    table_id: int
    status: TableStatus
    settings: TableSettings
    seats: tuple[SeatView, ...]
    names: dict[int, str] = field(default_factory=dict)
    """Display names of every player the view mentions (seated or not)."""
    hand: Hand | None = None
    hand_id: int = 0
    hand_no: int = 0
    wait_seconds: int | None = None
    outcome: Outcome | None = None
    note: str | None = None
    """A message id (marked with N_) shown under the table: why it closed, a refund."""
    autostart_seconds: int | None = None
    """The lobby deals by itself this long after it filled (the autostart setting)."""
    closing: bool = False
    """/endgame was sent during the hand: the table closes when it ends."""
    deadline: float | None = None
    """When the table's current wait runs out (seconds since the epoch); `wait_seconds`
    and `autostart_seconds` are what is left of it when the view was taken."""
    private: bool = False
    """A practice table in a private chat: a new one is opened with /practice."""
    table_commitment: str = ""
    """SHA-256 of the table's secret, shown before its first decision (docs/FAIRNESS.md)."""
    table_secret: str | None = None
    """The table's secret, shown once the table has closed (if its settings reveal it)."""
    waiting_for: tuple[int, ...] = ()
    """Broke players the table waits for before it closes (the grace of a rebuy)."""
    last: Outcome | None = None
    """How the hand before the one in play ended: one line until this hand's first action."""
    last_id: int = 0
    """That hand's number in its chat, as /hand takes it."""


@dataclass(frozen=True, slots=True)
class Screen:
    text: str
    buttons: tuple[tuple[tuple[str, str], ...], ...] = ()
    """Rows of (label, callback data)."""


def short_name(name: str) -> str:
    name = " ".join(name.split()) or "?"
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"


def cards_text(cards: tuple[Card, ...]) -> str:
    return format_hand(cards)


def render_table(view: TableView, tr: Translator) -> Screen:
    """The table message for `view`, in the chat's language."""
    if view.status is TableStatus.LOBBY:
        return _lobby(view, tr)
    if view.status is TableStatus.CLOSED:
        return _closed(view, tr)
    return _playing(view, tr)


def _name(view: TableView, player: int) -> Html:
    return escape(short_name(view.names.get(player, "?")))


def _lobby(view: TableView, tr: Translator) -> Screen:
    lines: list[str] = [tr.gettext("🃏 <b>Svara</b>: a new table"), *rules_lines(tr, view.settings)]
    lines.append("")
    lines.append(tr.format("Players ({count}/{seats}):", count=len(view.seats),
                           seats=view.settings.max_seats))
    for n, seat in enumerate(view.seats, start=1):
        lines.append(tr.format("{n}. {name}: {stack}", n=n, name=_name(view, seat.player),
                               stack=seat.stack))
    if not view.seats:
        lines.append(tr.gettext("nobody yet"))
    lines += ["", tr.gettext("Press Join to sit down; the creator or an admin presses Start.")]
    if view.autostart_seconds:
        lines.append(tr.format("The game starts by itself in {time}.",
                               time=tr.seconds(view.autostart_seconds)))
    if view.note:
        lines.append(tr.gettext(view.note))
    lines += _fairness_lines(view, tr)
    row = (
        (tr.gettext("Join"), Press(view.table_id, 0, 0, Button.JOIN).encode()),
        (tr.gettext("Leave"), Press(view.table_id, 0, 0, Button.LEAVE).encode()),
        (tr.gettext("Start"), Press(view.table_id, 0, 0, Button.START).encode()),
    )
    return Screen("\n".join(lines), (row,))


def _closed(view: TableView, tr: Translator) -> Screen:
    lines: list[str] = [tr.gettext("🃏 <b>Svara</b>: the table is closed.")]
    if view.outcome is not None:
        lines += ["", *_outcome_lines(view, tr, view.outcome)]
    if view.note:
        lines += ["", tr.gettext(view.note)]
    lines += _fairness_lines(view, tr)
    lines += ["", tr.gettext("Start a new one with /practice.") if view.private
              else tr.gettext("Start a new one with /newgame.")]
    return Screen("\n".join(lines))


def _fairness_lines(view: TableView, tr: Translator) -> list[str]:
    """The table's commitment (SHA-256 of its secret), and the secret once it is revealed."""
    if view.table_secret:
        return ["", tr.format("🔓 Table secret: <code>{secret}</code>", secret=view.table_secret)]
    if view.table_commitment:
        return ["", tr.format("🔐 Table: <code>{hash}</code>", hash=view.table_commitment)]
    return []


def deck_line(tr: Translator, commitment: str) -> str:
    """The full commitment of a round's deck, as the table and the card messages show it."""
    return tr.format("🔐 Deck: <code>{hash}</code>", hash=commitment)


def _since_svara(hand: Hand) -> list[Event]:
    """The events since the last svara opened (empty when none is open)."""
    opened = [i for i, e in enumerate(hand.events) if isinstance(e, SvaraOpened)]
    return [] if not opened else hand.events[opened[-1]:]


def _out_reason(view: TableView, tr: Translator, hand: Hand, seat: int) -> str:
    """Why a seat has no cards in this round, in a word or two."""
    # Away as the table has it now: "I'm back" pressed during the hand shows at once.
    player = hand.seats[seat].player
    away = any(v.player == player and v.sitting_out for v in view.seats)
    if seat in hand.pending:
        joins = tr.gettext("may join the svara")
        return f"{tr.gettext('away')} · {joins}" if away else joins
    recent = _since_svara(hand)
    if any(isinstance(e, SvaraSkipped) and e.seat == seat for e in recent):
        return tr.gettext("skipped the svara")
    if away:
        return tr.gettext("away")
    sat_out = [e.reason for e in hand.events if isinstance(e, SatOut) and e.seat == seat]
    if "ante" in sat_out:
        return tr.gettext("out: too few chips for the ante")
    if "away" in sat_out:
        return tr.gettext("out: was away at the deal")
    if any(isinstance(e, Fold) and e.seat == seat for e in hand.events):
        return tr.gettext("folded")
    return tr.gettext("out: not in the tie")


def _status(view: TableView, tr: Translator, hand: Hand, seat: int) -> str:
    s = hand.seats[seat]
    parts = [str(s.stack)]
    if s.committed:
        parts.append(tr.format("in {chips}", chips=s.committed))
    if s.blind:
        parts.append(tr.gettext("blind"))
    if not s.in_round:
        parts.append(_out_reason(view, tr, hand, seat))
    elif s.folded:
        parts.append(tr.gettext("folded"))
    elif s.stack == 0 and not hand.is_over:
        parts.append(tr.gettext("all-in"))
    if s.in_round and any(isinstance(e, SvaraJoined) and e.seat == seat
                          for e in _since_svara(hand)):
        parts.append(tr.gettext("joined the svara"))
    if s.leaving:
        parts.append(tr.gettext("leaving"))
    return " · ".join(parts)


def action_words(tr: Translator, name: Html, event: Event) -> str | None:
    """One action in words ("Maria raises to 100"), or None for events that are not one."""
    if isinstance(event, Fold):
        if event.timeout:
            return tr.format("{name} folds (time)", name=name)
        if event.leaving:
            return tr.format("{name} folds and leaves", name=name)
        return tr.format("{name} folds", name=name)
    if isinstance(event, Call):
        if event.all_in:
            return tr.format("{name} calls {n}, all-in", name=name, n=event.amount)
        return tr.format("{name} calls {n}", name=name, n=event.amount)
    if isinstance(event, Raise):
        if event.all_in:
            return tr.format("{name} goes all-in for {n}", name=name, n=event.to)
        if event.opening:
            return tr.format("{name} bets {n}", name=name, n=event.to)
        return tr.format("{name} raises to {n}", name=name, n=event.to)
    if isinstance(event, Blind):
        return tr.format("{name} plays blind {n}", name=name, n=event.amount)
    if isinstance(event, NoBlind):
        if event.timeout:
            return tr.format("{name}: no blind (time)", name=name)
        return tr.format("{name}: no blind", name=name)
    if isinstance(event, SvaraJoined):
        return tr.format("{name} joins the svara for {n}", name=name, n=event.stake)
    if isinstance(event, SvaraSkipped):
        return tr.format("{name} skips the svara", name=name)
    if isinstance(event, Left):
        return tr.format("{name} leaves", name=name)
    return None


def _said(events: list[Event] | tuple[Event, ...], all_events: list[Event]) -> list[Event]:
    """The events that are actions in words, each action once: a player who leaves is
    "folds and leaves" once his fold is there, not also "leaves"."""
    gone = {e.seat for e in all_events if isinstance(e, Fold) and e.leaving}
    return [e for e in events if isinstance(getattr(e, "seat", None), int)
            and not (isinstance(e, Left) and e.seat in gone)]


def _last_actions(view: TableView, tr: Translator, hand: Hand) -> str | None:
    # In a svara only its own actions: the round before it was shown down already.
    events = _since_svara(hand) if hand.round_no > 1 else hand.events
    words: list[str] = []
    for event in reversed(_said(events, hand.events)):
        seat = getattr(event, "seat", 0)
        said = action_words(tr, _name(view, hand.seats[seat].player), event)
        if said is not None:
            words.append(said)
            if len(words) == LAST_ACTIONS:
                break
    return " · ".join(reversed(words)) if words else None


def _playing(view: TableView, tr: Translator) -> Screen:
    hand = view.hand
    if hand is None:
        return _between_hands(view, tr)
    title: str = tr.format("🃏 <b>Svara</b> · hand {n}", n=view.hand_no)
    if hand.round_no > 1:
        title += " · " + tr.nformat("svara", "svara {count}", hand.round_no - 1,
                                    count=hand.round_no - 1)
    lines: list[str] = [title, tr.format("Pot: <b>{pot}</b> · dealer {dealer}", pot=hand.pot,
                              dealer=_name(view, hand.seats[hand.dealer].player))]
    if hand.commitment:
        # Before the round's first decision (a blind, a svara buy-in): its deck is fixed.
        lines.append(deck_line(tr, hand.commitment))
    if view.closing:
        lines.append(tr.gettext(CLOSING_AFTER_HAND))
    lines.append("")
    for i, s in enumerate(hand.seats):
        marker = "▶ " if i == hand.to_act or i in hand.pending else "   "
        lines.append(f"{marker}{_name(view, s.player)}: {_status(view, tr, hand, i)}")
    if view.last is not None and view.last_id and not hand.actions:
        lines += ["", _last_hand_line(view, tr, view.last)]
    earlier = _earlier_showdown(view, tr, hand)
    if earlier:
        lines += ["", *earlier]
    last = _last_actions(view, tr, hand)
    if last:
        lines += ["", last]
    lines.append("")
    lines.append(_prompt(view, tr, hand))
    return Screen("\n".join(lines), _hand_buttons(view, tr, hand))


def _earlier_showdown(view: TableView, tr: Translator, hand: Hand) -> list[str]:
    """The hand's last showdown (a tie that led to this svara) and the pots paid since."""
    shown_at = [i for i, e in enumerate(hand.events) if isinstance(e, Shown)]
    if not shown_at:
        return []
    first = shown_at[-1]
    while first > 0 and isinstance(hand.events[first - 1], Shown):
        first -= 1
    return _outcome_lines(view, tr, outcome_of(hand, since=first, decks=False))


def _timer(view: TableView, tr: Translator) -> str:
    """The time the wait has left when the screen is drawn, after the prompt (every edit
    of the table message counts it down)."""
    wait = view.wait_seconds
    if not wait:
        return ""
    return f" ⏳ {tr.seconds(wait)}"


def _prompt(view: TableView, tr: Translator, hand: Hand) -> str:
    timer = _timer(view, tr)
    if hand.phase is Phase.SVARA_JOIN:
        opened = next(e for e in reversed(hand.events) if isinstance(e, SvaraOpened))
        tied = ", ".join(_name(view, hand.seats[i].player) for i in opened.tied)
        prompt = tr.format("Tie between {tied}: a svara for {pot}. Others may join for {stake}.",
                           tied=Html(tied), pot=opened.pot, stake=opened.stake) + timer
        return "\n".join([prompt, *_svara_lines(view, tr, hand, opened)])
    if hand.to_act is None:
        return ""
    name = _name(view, hand.seats[hand.to_act].player)
    if hand.phase is Phase.BLIND:
        return tr.format("{name}: blind or not?", name=name) + timer
    return tr.format("{name} to act.", name=name) + timer


def _svara_lines(view: TableView, tr: Translator, hand: Hand, opened: SvaraOpened) -> list[str]:
    """Who may still join the svara, and who joined."""
    names = {i: _name(view, hand.seats[i].player) for i in range(len(hand.seats))}
    lines: list[str] = []
    may = [names[i] for i in opened.can_join if i in hand.pending]
    joined = [names[e.seat] for e in _since_svara(hand) if isinstance(e, SvaraJoined)]
    if may:
        lines.append(tr.format("May join: {names}", names=Html(", ".join(may))))
    elif not opened.can_join:
        lines.append(tr.gettext("Nobody else may join."))
    if joined:
        lines.append(tr.format("Joined: {names}", names=Html(", ".join(joined))))
    return lines


def _hand_buttons(view: TableView, tr: Translator,
                  hand: Hand) -> tuple[tuple[tuple[str, str], ...], ...]:
    seq = len(hand.actions)

    def press(button: Button, amount: int | None = None) -> str:
        return Press(view.table_id, view.hand_id, seq, button, amount).encode()

    rows: list[tuple[tuple[str, str], ...]] = []
    if hand.phase is Phase.SVARA_JOIN:
        rows.append((
            (tr.format("Join svara ({stake})", stake=hand.stake), press(Button.SVARA_JOIN)),
            (tr.gettext("Skip"), press(Button.SVARA_SKIP)),
        ))
    legal = hand.legal()
    if legal is not None and legal.blind is not None:
        low, high = legal.blind
        row = [(tr.format("Blind {n}", n=a), press(Button.BLIND, a))
               for a in sorted({low, min(high, 2 * low), high})]
        rows.append((*row[:3], (tr.gettext("No blind"), press(Button.NO_BLIND))))
    elif legal is not None:
        first = [(tr.gettext("Fold"), press(Button.FOLD))]
        if legal.call is not None:
            first.append((tr.format("Call {n}", n=legal.call), press(Button.CALL)))
        rows.append(tuple(first))
        bets: list[tuple[str, str]] = []
        for to in _presets(hand, legal.raise_to, legal.all_in):
            text = tr.format("Bet {n}", n=to) if legal.opening else tr.format("Raise to {n}", n=to)
            bets.append((text, press(Button.RAISE, to)))
        # A call of his whole stack is his all-in already: one button, not two alike.
        calls_all = legal.call is not None and legal.call >= hand.seats[legal.seat].stack
        if legal.all_in is not None and not calls_all:
            bets.append((tr.format("All-in ({n})", n=legal.all_in), press(Button.ALL_IN)))
        if bets:
            rows.append(tuple(bets))
    extra = [(tr.gettext("My cards"), press(Button.CARDS))]
    if any(s.sitting_out for s in view.seats):
        extra.append((tr.gettext("I'm back"), press(Button.BACK)))
    if not view.private and len(view.seats) < view.settings.max_seats:
        # A latecomer takes a seat for the next deal (the lobby's Join, during a hand).
        extra.append((tr.gettext("Sit in next hand"),
                      Press(view.table_id, 0, 0, Button.JOIN).encode()))
    rows.append(tuple(extra))
    return tuple(rows)


def _presets(hand: Hand, raise_to: tuple[int, int] | None, all_in: int | None) -> list[int]:
    """Bet sizes offered as buttons: the minimum, double it, and the pot where allowed."""
    if raise_to is None:
        return []
    low, high = raise_to
    options = {low, min(2 * low, high), min(hand.level + hand.round_pot, high)}
    return sorted(a for a in options if low <= a <= high and a != all_in)[:3]


def _between_hands(view: TableView, tr: Translator) -> Screen:
    lines: list[str] = [tr.format("🃏 <b>Svara</b> · hand {n} is over", n=view.hand_no), ""]
    if view.outcome is not None:
        lines += _outcome_lines(view, tr, view.outcome)
        lines.append("")
    for seat in view.seats:
        status = tr.gettext("away") if seat.sitting_out else ""
        lines.append(f"{_name(view, seat.player)}: {seat.stack}" + (f" · {status}" if status
                                                                     else ""))
    if view.note:
        lines += ["", tr.gettext(view.note)]
    lines += _fairness_lines(view, tr)
    if view.wait_seconds and view.waiting_for:
        names = Html(", ".join(_name(view, p) for p in view.waiting_for))
        msgid = (N_("Waiting for {names} to rebuy · {time}") if view.settings.rebuy
                 else N_("Waiting for {names} to bring chips · {time}"))
        lines += ["", tr.format(msgid, names=names, time=tr.seconds(view.wait_seconds))]
    elif view.wait_seconds:
        lines += ["", tr.format("Next hand in {time}.", time=tr.seconds(view.wait_seconds))]
    rows: list[tuple[tuple[str, str], ...]] = []
    if any(s.sitting_out for s in view.seats):
        rows.append(((tr.gettext("I'm back"), Press(view.table_id, 0, 0, Button.BACK).encode()),))
    return Screen("\n".join(lines), tuple(rows))


def _last_hand_line(view: TableView, tr: Translator, last: Outcome) -> str:
    """The hand before this one in a line: who took its biggest pot, with what, and where
    to see it in full."""
    winners, pot, points = max(last.won, key=lambda w: w[1], default=((), 0, None))
    names = Html(", ".join(_name(view, p) for p in winners))
    n = view.last_id
    if len(winners) > 1:
        return tr.format("Last hand: {names} split {pot} · /hand {n}", names=names, pot=pot, n=n)
    if points is None:
        return tr.format("Last hand: {names} took {pot} · /hand {n}", names=names, pot=pot, n=n)
    return tr.format("Last hand: {names} won {pot} with {points} · /hand {n}", names=names,
                     pot=pot, points=tr.points(points), n=n)


def _outcome_lines(view: TableView, tr: Translator, outcome: Outcome) -> list[str]:
    lines: list[str] = []
    scoring = view.settings.rules().scoring
    for player, cards, points in outcome.shown:
        lines.append(tr.format("{name}: {cards} ({points})", name=_name(view, player),
                               cards=cards_text(cards), points=points))
        why = explain(tr, cards, points, scoring)
        if why is not None:
            lines.append(f"   {why}")
    for winners, amount, best in outcome.won:
        names = Html(", ".join(_name(view, p) for p in winners))
        if len(winners) > 1:
            lines.append(tr.format("🏆 {names} split {pot}", names=names, pot=amount))
        elif best is None:
            lines.append(tr.format("🏆 {names} takes {pot}", names=names, pot=amount))
        else:
            lines.append(tr.format("🏆 {names} wins {pot} with {points}", names=names,
                                   pot=amount, points=tr.points(best)))
    if outcome.proof and view.hand_no:
        lines.append(tr.format("🔐 fairness: /hand {n}", n=view.hand_no))
    return lines


def explain(tr: Translator, cards: tuple[Card, ...], points: int,
            scoring: ScoringRules) -> str | None:
    """One short line saying how `cards` make `points`, where that is not plain to see
    (three cards of one suit added up need no words); None where it is."""
    if len(cards) != 3:
        return None
    ranks = [c.rank for c in cards]
    sevens, aces = ranks.count(Rank.SEVEN), ranks.count(Rank.ACE)
    chechak = scoring.chechak and SEVEN_OF_CLUBS in cards
    if sevens == 3 and scoring.three_sevens_top and points == 34:
        return tr.gettext("three sevens = 34, the best hand")
    if chechak:
        a, b = (c for c in cards if c != SEVEN_OF_CLUBS)
        grouped = a.suit == b.suit or a.rank == b.rank
        if points == 11 + a.rank.points + b.rank.points and grouped:
            how = tr.gettext("the same suit") if a.suit == b.suit else tr.gettext("a pair")
            return tr.format("7♣ counts 11 and joins {a} {b} ({how}): {a} {b} 7♣ = {points}",
                             a=str(a), b=str(b), how=how, points=points)
        high = max((a, b), key=lambda c: c.rank.points)
        if points == 11 + high.rank.points and not grouped:
            return tr.format("7♣ counts 11 and joins the highest card: {card} 7♣ = {points}",
                             card=str(high), points=points)
    if aces >= 2 and points == 11 * aces:
        return tr.format("{count} aces = {points}", count=aces, points=points)
    if ranks[0] == ranks[1] == ranks[2] and points == 3 * ranks[0].points:
        return tr.format("three of a kind: 3 × {value} = {points}", value=ranks[0].points,
                         points=points)
    if sevens == 2 and scoring.two_sevens and points == 23:
        return tr.gettext("two sevens = 23")
    if chechak:
        same = [c for c in cards if c.suit == SEVEN_OF_CLUBS.suit]
        if len(same) > 1 and points == sum(11 if c == SEVEN_OF_CLUBS else c.rank.points
                                           for c in same):
            return tr.format("7♣ counts 11 as a club: {cards} = {points}",
                             cards=" ".join(str(c) for c in same), points=points)
    return None


def outcome_of(hand: Hand, since: int = 0, *, decks: bool = True) -> Outcome:
    """What to show of a hand's end: the last showdown and every pot paid since `since`."""
    events = hand.events[since:]
    shown: tuple[tuple[int, tuple[Card, ...], int], ...] = tuple(
        (hand.seats[e.seat].player, e.cards, e.points)
                  for e in events if isinstance(e, Shown))
    won = tuple((tuple(hand.seats[w].player for w in e.winners), e.amount, e.points)
                for e in events if isinstance(e, PotWon))
    # The proof (shown cards only, the table secret once revealed) is under /hand N.
    return Outcome(shown, won, proof=decks and hand.is_over)


@dataclass(frozen=True, slots=True)
class PrivateHand:
    """What one player is sent privately at a deal (taken when dealt, sent a moment later)."""

    player: int
    hand_no: int
    cards: tuple[Card, ...]
    points: int
    commitment: str
    openings: tuple[tuple[int, str, str], ...] = ()
    """(deck position, card, salt) of each of his cards: his part of the fairness proof."""
    round_no: int = 1
    """1 for the first deal of the hand, 2 for its first svara, and so on."""
    seeds: tuple[str, ...] = ()
    """The seats' seed hashes the hand was dealt from, in seat order (none: a hand dealt
    without them)."""


def private_hands(hand: Hand, seats: tuple[int, ...], hand_no: int,
                  seeds: tuple[str, ...] = ()) -> list[PrivateHand]:
    return [PrivateHand(hand.seats[s].player, hand_no, hand.cards(s), hand.points(s) or 0,
                        hand.commitment, hand.openings(s), max(hand.round_no, 1), seeds)
            for s in seats]


def render_cards(tr: Translator, private: PrivateHand, group: str | None = None) -> str:
    """The private message with a player's cards: the group and the hand it is for, his
    points, the deck's full commitment (the proof is in /hand N afterwards) and the
    openings of his cards (position, card, salt) to check against that proof."""
    group = group_title(group)
    where = [escape(group)] if group else []
    where.append(tr.format("hand {n}", n=private.hand_no))
    if private.round_no > 1:
        where.append(tr.nformat("svara", "svara {count}", private.round_no - 1,
                                count=private.round_no - 1))
    lines = [
        "🃏 " + " · ".join(where),
        tr.format("Hand {n}: <b>{cards}</b>", n=private.hand_no,
                  cards=cards_text(private.cards)),
        tr.format("Points: <b>{points}</b>", points=private.points),
        deck_line(tr, private.commitment),
    ]
    if private.openings:
        # Folded away (Telegram's expandable quote): a tap opens it, the chat stays short.
        proof = [tr.gettext("Your cards in the deck (position|card|salt), to check "
                            "against the hand's proof afterwards:"),
                 *(f"<code>{p}|{card}|{salt}</code>" for p, card, salt in private.openings)]
        if private.seeds:
            # On record before the hand is played: nobody can change a seed afterwards.
            proof += [tr.gettext("The seats' seeds this deal came from, in seat order:"),
                      " ".join(f"<code>{h}</code>" for h in private.seeds)]
        lines.append("<blockquote expandable>" + "\n".join(proof) + "</blockquote>")
    return "\n".join(lines)


def cards_popup(tr: Translator, hand: Hand, seat: int) -> str:
    """The "My cards" popup (at most 200 characters)."""
    cards, points = hand.cards(seat), hand.points(seat)
    if not cards or points is None:
        return tr.gettext("No cards yet: they are dealt after the blind.")
    return tr.format("Your cards: {cards} ({points})", cards=cards_text(cards),
                     points=tr.points(points)).replace("&amp;", "&")


# --------------------------------------------------------------------- telling people


def nudge_text(tr: Translator, group: str, hand: Hand, seconds_left: int) -> str:
    """The private reminder of a turn that waits: "Your turn at Svara night: call 30 or
    raise · 35 s left"."""
    legal = hand.legal()
    options: list[str] = []
    if legal is not None and legal.blind is not None:
        options.append(tr.gettext("blind or not"))
    elif legal is not None:
        if legal.call is not None:
            options.append(tr.format("call {n}", n=legal.call))
        calls_all = legal.call is not None and legal.call >= hand.seats[legal.seat].stack
        if legal.raise_to is not None:
            options.append(tr.gettext("bet") if legal.opening else tr.gettext("raise"))
        elif legal.all_in is not None and not calls_all:  # as the buttons: one way all in
            options.append(tr.gettext("all-in"))
        options.append(tr.gettext("fold"))
    choice = Html(tr.gettext(" or ").join(options[:2]) if len(options) <= 2
                  else ", ".join(options[:-1]) + tr.gettext(" or ") + options[-1])
    # A practice table is in the private chat itself: it has no group's name.
    place = group_title(group) or tr.gettext("your practice table")
    return tr.format("Your turn at {group}: {choice} · {seconds} s left", group=place,
                     choice=choice, seconds=max(seconds_left, 0))


WEB_APP = "webapp:"
"""Marks a screen button that opens a Mini App page (``webapp:`` and its URL)."""


def with_app_button(screen: Screen, tr: Translator, link: str | None) -> Screen:
    """The screen with a last row that opens the table as a Mini App (when there is one).

    `link` is a URL, or ``webapp:`` and the page's URL for a ``web_app`` button (private
    chats only); `bot.outbox.markup` makes the button of either."""
    if link is None:
        return screen
    return Screen(screen.text, (*screen.buttons, ((tr.gettext("Open the table"), link),)))


def table_link(chat_type: str, chat_id: int, username: str | None,
               message_id: int | None) -> str | None:
    """A link that opens the table message (supergroups) or the group (public basic groups)."""
    if chat_type == "supergroup" and message_id is not None:
        internal = -chat_id - 1_000_000_000_000
        if internal > 0:
            return f"https://t.me/c/{internal}/{message_id}"
    if username:
        return f"https://t.me/{username}" + (f"/{message_id}" if message_id else "")
    return None


@dataclass(frozen=True, slots=True)
class Results:
    """A closed table's session, from the ledger: what it shows in its results message."""

    hands: int
    nets: tuple[tuple[int, int], ...]
    """(player, chips taken home minus chips brought), in the order they sat down."""
    biggest: tuple[int, int, int] | None = None
    """(hand number, player, chips won) of the biggest pot, if a hand paid one."""
    rebuys: tuple[tuple[int, int], ...] = ()
    """(player, how many rebuys he took from the house): their chips count as not his."""


def results_text(tr: Translator, names: dict[int, str], results: Results) -> str:
    """The results message of a closed table, for settling up."""

    def name(player: int) -> Html:
        return escape(short_name(names.get(player, "?")))

    lines: list[str] = [tr.nformat("🏁 <b>Svara</b>: results after {count} hand",
                                   "🏁 <b>Svara</b>: results after {count} hands",
                                   results.hands, count=results.hands), ""]
    rebuys = dict(results.rebuys)
    for player, net in sorted(results.nets, key=lambda pn: -pn[1]):
        line = f"{name(player)}: {net:+d}" if net else f"{name(player)}: 0"
        if rebuys.get(player):
            line += " " + tr.nformat("({n} rebuy)", "({n} rebuys)", rebuys[player])
        lines.append(line)
    if results.biggest is not None:
        number, player, won = results.biggest
        lines += ["", tr.format("Biggest pot: {chips}, taken by {name} in hand {n}.",
                                chips=won, name=name(player), n=number)]
    return "\n".join(lines)


def moved_text(tr: Translator) -> str:
    """What an earlier table message says once /table posted the table again below."""
    return tr.gettext("🃏 <b>Svara</b>: the table moved down ⬇️ (/table brings it back).")


def press_toast(tr: Translator, events: tuple[Event, ...], seat: int) -> str | None:
    """What the pressed button did, in the presser's words ("Raised to 100"): the answer to
    the press says it at once, while the table message may be a slot behind."""
    for event in events:
        if getattr(event, "seat", None) != seat:
            continue
        if isinstance(event, Fold):
            return tr.gettext("Folded")
        if isinstance(event, Call):
            return tr.format("Called {n}", n=event.amount)
        if isinstance(event, Raise):
            if event.all_in:
                return tr.format("All-in for {n}", n=event.to)
            return (tr.format("Bet {n}", n=event.to) if event.opening
                    else tr.format("Raised to {n}", n=event.to))
        if isinstance(event, Blind):
            return tr.format("Blind {n}", n=event.amount)
        if isinstance(event, NoBlind):
            return tr.gettext("No blind")
        if isinstance(event, SvaraJoined):
            return tr.format("Joined the svara for {n}", n=event.stake)
        if isinstance(event, SvaraSkipped):
            return tr.gettext("Skipped the svara")
    return None


# --------------------------------------------------------------------- history, chips, standings


def date_text(at: int | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at or 0))


def winners_line(tr: Translator, names: dict[int, str], played: PlayedHand) -> Html:
    hand = played.hand
    pots = [e for e in hand.events if isinstance(e, PotWon)]
    pot = sum(e.amount for e in pots)
    main = max(pots, key=lambda e: e.amount)
    who = Html(", ".join(escape(short_name(names.get(hand.seats[w].player, "?")))
                         for w in main.winners))
    if main.points is None:
        line = tr.format("#{id} · {who} takes {pot}", id=played.row.number, who=who, pot=pot)
    else:
        line = tr.format("#{id} · {who} wins {pot} with {points}", id=played.row.number,
                         who=who, pot=pot, points=tr.points(main.points))
    if any(isinstance(e, SvaraOpened) for e in hand.events):
        line = Html(line + " · " + tr.pgettext("history", "svara"))
    return line


ACTS: dict[Act, str] = {
    Act.BLIND: N_("{name} bets {amount} blind"),
    Act.NO_BLIND: N_("{name}: no blind"),
    Act.FOLD: N_("{name} folds"),
    Act.CALL: N_("{name} calls"),
    Act.RAISE: N_("{name} raises to {amount}"),
    Act.ALL_IN: N_("{name} goes all-in"),
    Act.JOIN_SVARA: N_("{name} joins the svara"),
    Act.SKIP_SVARA: N_("{name} skips the svara"),
    Act.CLOSE_SVARA: N_("the svara closes"),
    Act.TIMEOUT: N_("{name} runs out of time"),
    Act.LEAVE: N_("{name} leaves"),
}


def action_line(tr: Translator, names: dict[int, str], played: PlayedHand,
                 action: Action, events: tuple[Event, ...]) -> Html:
    """One action of /hand in the words the table message used for it ("Ana bets 20",
    "Boris: no blind (time)"); an action without a player's move, in its own words."""
    hand = played.hand
    words = [action_words(tr, escape(short_name(
                 names.get(hand.seats[getattr(e, "seat", 0)].player, "?"))), e)
             for e in _said(events, hand.events)]
    said = [w for w in words if w is not None]
    if said:
        return Html(" · ".join(said))
    name = "" if action.seat is None else short_name(
        names.get(hand.seats[action.seat].player, "?"))
    return tr.format(ACTS[action.act], name=name, amount=action.amount or 0)


def hand_text(tr: Translator, names: dict[int, str], played: PlayedHand) -> str:
    """/hand N: the players, every action, the showdown, the pots and how to check."""
    hand, row = played.hand, played.row

    def name(seat: int) -> Html:
        return escape(short_name(names.get(hand.seats[seat].player, "?")))

    lines: list[str] = [
        tr.format("📜 Hand {n} · {date}", n=row.number, date=date_text(row.started_at)),
        tr.format("Dealer {name}; stacks at the start: {stacks}", name=name(hand.dealer),
                  stacks=Html(", ".join(f"{name(i)} {s['stack']}" for i, s in
                                        enumerate(hand.start_json()["seats"])))),
        "",
    ]
    again = Hand.from_start(hand.start_json())  # each action with the events it made
    for n, action in enumerate(hand.actions, start=1):
        lines.append(f"{n}. " + action_line(tr, names, played, action, again.apply(action)))
    shown = [e for e in hand.events if isinstance(e, Shown)]
    if shown:
        lines.append("")
    for show in shown:
        lines.append(tr.format("{name}: {cards} ({points})", name=name(show.seat),
                               cards=cards_text(show.cards), points=show.points))
    lines.append("")
    for won in (e for e in hand.events if isinstance(e, PotWon)):
        who = Html(", ".join(name(w) for w in won.winners))
        if len(won.winners) > 1:
            lines.append(tr.format("🏆 {names} split {pot}", names=who, pot=won.amount))
        elif won.points is None:
            lines.append(tr.format("🏆 {names} takes {pot}", names=who, pot=won.amount))
        else:
            lines.append(tr.format("🏆 {names} wins {pot} with {points}", names=who,
                                   pot=won.amount, points=tr.points(won.points)))
    lines += ["", tr.gettext(
        "🔐 <b>Fair dealing</b> (next messages, one per round): before each round the bot "
        "showed the seal of its deck. Every card's place in the deck has a seal of its own, "
        "so only the shown cards are opened; folded cards stay hidden.")]
    return "\n".join(lines)


def short_hash(value: str) -> str:
    """The first 8 hex digits of a long hash, enough for a player to compare by eye (the
    full value is in the folded proof and on the card message)."""
    return value[:8] + "…"


def _proof_block(tr: Translator, fields: list[tuple[str, str]]) -> str:
    """The proof's fields for the checking page, folded away (a tap opens them)."""
    return ("<blockquote expandable>" + tr.gettext("For the checking page:") + "\n<code>"
            + escape(proof_joined(fields)) + "</code></blockquote>")


def proof_texts(tr: Translator, names: dict[int, str], played: PlayedHand,
                verify_url: str | None = None) -> list[str]:
    """After /hand N: where the hand's cards came from, then one message per round (its
    deck's seal, who held which places, the shown cards). Each message folds its part of
    the proof away whole, so the checking page takes the messages' text as well as the link;
    what a player reads is in plain words, hashes only in a short form."""
    hand, proof = played.hand, played.proof

    def name(seat: int) -> Html:
        return escape(short_name(names.get(hand.seats[seat].player, "?")))

    out: list[str] = []
    lines: list[str] = [tr.format("🔐 Hand {n}: where its cards came from",
                                  n=played.row.number)]
    if proof is not None:
        lines += [tr.format("Table seal, shown before its first hand: <code>{short}</code>",
                            short=short_hash(proof.table_commitment)),
                  tr.format("Deal {k} at this table.", k=proof.nonce)]
        if proof.missing:
            lines.append(tr.format(
                "⚠️ This table has no record of its deals {numbers}: a deal that was not "
                "kept, or the bot's data brought back from an older copy.",
                numbers=", ".join(map(str, proof.missing))))
        lines.append(tr.gettext("Each player's seed, fixed at the first deal at this table:"))
        for i, h in enumerate(proof.seeds):
            default = proof.defaults[i] if i < len(proof.defaults) else None
            if default is None:
                lines.append(tr.format("{name}: own seed <code>{short}</code>", name=name(i),
                                       short=short_hash(h)))
            else:
                lines.append(tr.format("{name}: no own seed, one follows from the table "
                                       "secret", name=name(i)))
        if proof.secret is not None:
            lines.append(tr.gettext("The table secret is out: every card of every deal can "
                                    "be checked."))
        elif proof.closed:
            lines.append(tr.gettext("This table keeps its secret (chosen when it opened): folded "
                                    "cards stay private for good and the deals cannot be "
                                    "recomputed; the shown cards still check."))
        else:
            lines.append(tr.gettext("The table secret comes out when the table closes: then "
                                    "every card of every deal can be checked."))
    parts = round_fields(played)
    if proof is not None:
        lines.append(_proof_block(tr, hand_fields(played, names)))
        out.append("\n".join(lines))
    elif parts:
        # No inputs to show (a hand dealt from a fixed seed): the version and the names
        # travel with the first round.
        first = min(parts)
        parts[first] = hand_fields(played, names) + parts[first]
    for r in played.row.reveal or []:
        round_no = int(r["round"])
        held = seat_positions(played, round_no)
        lines = [tr.format("🔐 Hand {n}, round {round}", n=played.row.number, round=round_no),
                 tr.format("Deck seal: <code>{short}</code>, the same as on your card message",
                           short=short_hash(r["commitment"]))]
        if held:
            lines.append(tr.format("Places in the deck: {seats}", seats=Html(" · ".join(
                f"{name(seat)} {' '.join(map(str, positions))}"
                for seat, positions in held.items()))))
        if r["open"]:
            lines.append(tr.format("Cards shown: {cards}", cards=", ".join(
                f"{p} {cards_text(parse_hand(c))}" for p, c, _ in r["open"])))
        else:
            lines.append(tr.gettext("Nothing was shown in this round: no card is opened."))
        lines.append(_proof_block(tr, parts.get(round_no, [])))
        out.append("\n".join(lines))
    if verify_url and out:
        url = escape(proof_link(verify_url, played, names))
        words = escape(tr.gettext("Check this hand in your browser"))
        out[-1] += "\n\n" + tr.format(
            "✅ {link}: the page checks it on your phone or computer; you may also paste these "
            "messages into it.", link=Html(f'<a href="{url}">{words}</a>'))
    return out


def day_text(at: int) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(at))


def place_text(tr: Translator, title: str | None) -> Html:
    title = group_title(title)
    return escape(title) if title else Html(tr.gettext("a group"))


def entry_line(tr: Translator, e: Entry) -> Html:
    """One line of the statement: a stay at a table (its buy-in, top-ups, rebuys and
    cash-out, and its net as the table's results message gives it), or one movement."""
    if e.kind != "stay":
        return tr.format("{day} · {delta:+d} {what}", day=day_text(e.at), delta=e.delta,
                         what=movement_text(tr, e.kind))
    parts = [tr.format("buy-in {chips}", chips=e.brought)]
    if e.topped:
        parts.append(tr.format("top-ups {chips}", chips=e.topped))
    if e.rebuys:
        parts.append(tr.nformat("{count} rebuy ({chips})", "{count} rebuys ({chips})", e.rebuys,
                                count=e.rebuys, chips=e.rebought))
    if e.back or not e.playing:
        parts.append(tr.format("cash-out {chips}", chips=e.back))
    if e.playing:
        parts.append(tr.gettext("still playing"))
        return tr.format("{day} · {place}: {parts}", day=day_text(e.at),
                         place=place_text(tr, e.title), parts=Html(", ".join(parts)))
    return tr.format("{day} · {place}: {parts} · {net:+d}", day=day_text(e.at),
                     place=place_text(tr, e.title), parts=Html(", ".join(parts)), net=e.delta)


def wait_text(tr: Translator, seconds: int) -> Html:
    hours, minutes = divmod(max(60, seconds) // 60, 60)
    if hours:
        return tr.format("{h} h {m} min", h=hours, m=minutes)
    return tr.format("{m} min", m=minutes)


def standing_line(tr: Translator, s: Standing) -> Html:
    hands = tr.nformat("{count} hand", "{count} hands", s.played, count=s.played)
    return tr.format("{rank}. {name}: {net:+d} · {hands}, {won} won · biggest pot "
                     "{biggest}", rank=s.rank, name=short_name(s.name), net=s.net,
                     hands=hands, won=s.won, biggest=s.biggest)


def history_text(tr: Translator, names: dict[int, str], hands: list[PlayedHand]) -> str:
    """/history: the chat's last hands, one line each."""
    lines = [tr.gettext("<b>The last hands here</b> (details: /hand NUMBER)")]
    lines += [winners_line(tr, names, p) for p in hands]
    return "\n".join(lines)


def statement_text(tr: Translator, name: str, found: Statement) -> str:
    """/balance in private: where the chips are, and the recent movements."""
    at_tables = sum(t.stack for t in found.tables)
    lines: list[str] = [
        tr.format("🏦 <b>{name}</b>: {total}", name=name,
                  total=tr.chips(found.balance + at_tables)),
        tr.format("Balance: <b>{balance}</b>", balance=found.balance)]
    lines += [tr.format("At the table of {place}: {stack}", place=place_text(tr, t.title),
                        stack=t.stack) for t in found.tables]
    if found.entries:
        lines += ["", tr.gettext("<b>Recent movements</b>")]
        lines += [entry_line(tr, e) for e in found.entries]
    return "\n".join(lines)


def leaderboard_text(tr: Translator, board: list[Standing], mine: Standing | None, *,
                     everywhere: bool) -> str:
    """/top: the best nets, and the asker's own line when he is further down."""
    title = (tr.gettext("<b>Leaderboard, every chat</b>") if everywhere
             else tr.gettext("<b>Leaderboard of this chat</b>"))
    lines: list[str] = [title, *(standing_line(tr, s) for s in board)]
    if mine is not None and mine.rank > len(board):
        lines += ["…", standing_line(tr, mine)]
    elif mine is None:
        lines += ["", tr.gettext("You have not played a hand here yet.")]
    return "\n".join(lines)


def stats_text(tr: Translator, name: str, stats: PlayerStats) -> str:
    """/stats: a player's figures (the chart follows as a picture)."""
    return "\n".join([
        tr.format("📊 <b>{name}</b>", name=name),
        tr.format("Hands played {played}, won {won} · net {net:+d}", played=stats.played,
                  won=stats.won, net=stats.net),
        tr.format("Biggest pot won: {pot}", pot=stats.biggest),
        tr.format("Svaras played {played}, won {won}", played=stats.svaras,
                  won=stats.svaras_won),
        tr.format("Best hand shown: {points}", points=stats.best
                  if stats.best is not None else "–"),
        tr.format("Longest winning streak: {n}", n=stats.streak),
    ])
