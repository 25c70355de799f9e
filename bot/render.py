"""Pure rendering: a table's state in, the table message's text and buttons out.

Nothing here talks to Telegram or the store; the same view always gives the same screen,
so a caller can compare screens and skip an edit that would change nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.callback_data import Button, Press
from bot.i18n import Html, Translator, escape
from bot.table_settings import TableSettings
from bot.table_settings import rules_lines as rules_lines  # where callers look for it
from engine import Card, Hand, Phase, format_hand
from engine.events import PotWon, Shown, SvaraOpened

MAX_NAME = 24
"""Names are cut to this many characters so ten long names still fit one message."""


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
    decks: tuple[tuple[str, str], ...] = ()
    """(deck order, salt) of every round, to check against the commitments."""


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything the table message shows."""

    table_id: int
    status: str
    """lobby, playing or closed."""
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
    if view.status == "lobby":
        return _lobby(view, tr)
    if view.status == "closed":
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
    lines += ["", tr.gettext("Start a new one with /newgame.")]
    return Screen("\n".join(lines))


def _status(view: TableView, tr: Translator, hand: Hand, seat: int) -> str:
    s = hand.seats[seat]
    parts = [str(s.stack)]
    if s.committed:
        parts.append(tr.format("in {chips}", chips=s.committed))
    if s.blind:
        parts.append(tr.gettext("blind"))
    if not s.in_round:
        # Away as the table has it now: "I'm back" pressed during the hand shows at once.
        away = any(v.player == s.player and v.sitting_out for v in view.seats)
        parts.append(tr.gettext("away") if away else tr.gettext("out"))
    elif s.folded:
        parts.append(tr.gettext("folded"))
    elif s.stack == 0 and not hand.is_over:
        parts.append(tr.gettext("all-in"))
    if s.leaving:
        parts.append(tr.gettext("leaving"))
    return " · ".join(parts)


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
    if view.closing:
        lines.append(tr.gettext("🔚 Closing after this hand: then every stack goes back."))
    lines.append("")
    for i, s in enumerate(hand.seats):
        marker = "▶ " if i == hand.to_act or i in hand.pending else "   "
        lines.append(f"{marker}{_name(view, s.player)}: {_status(view, tr, hand, i)}")
    earlier = _earlier_showdown(view, tr, hand)
    if earlier:
        lines += ["", *earlier]
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


def _prompt(view: TableView, tr: Translator, hand: Hand) -> str:
    wait = view.wait_seconds
    timer = f" ⏳ {tr.seconds(wait)}" if wait else ""
    if hand.phase is Phase.SVARA_JOIN:
        opened = next(e for e in reversed(hand.events) if isinstance(e, SvaraOpened))
        tied = ", ".join(_name(view, hand.seats[i].player) for i in opened.tied)
        return tr.format("Tie between {tied}: a svara for {pot}. Others may join for {stake}.",
                         tied=Html(tied), pot=opened.pot, stake=opened.stake) + timer
    if hand.to_act is None:
        return ""
    name = _name(view, hand.seats[hand.to_act].player)
    if hand.phase is Phase.BLIND:
        return tr.format("{name}: blind or not?", name=name) + timer
    return tr.format("{name} to act.", name=name) + timer


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
        if legal.all_in is not None:
            bets.append((tr.format("All-in ({n})", n=legal.all_in), press(Button.ALL_IN)))
        if bets:
            rows.append(tuple(bets))
    extra = [(tr.gettext("My cards"), press(Button.CARDS))]
    if any(s.sitting_out for s in view.seats):
        extra.append((tr.gettext("I'm back"), press(Button.BACK)))
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
    if view.wait_seconds:
        lines += ["", tr.format("Next hand in {time}.", time=tr.seconds(view.wait_seconds))]
    rows: list[tuple[tuple[str, str], ...]] = []
    if any(s.sitting_out for s in view.seats):
        rows.append(((tr.gettext("I'm back"), Press(view.table_id, 0, 0, Button.BACK).encode()),))
    return Screen("\n".join(lines), tuple(rows))


def _outcome_lines(view: TableView, tr: Translator, outcome: Outcome) -> list[str]:
    lines: list[str] = []
    for player, cards, points in outcome.shown:
        lines.append(tr.format("{name}: {cards} ({points})", name=_name(view, player),
                               cards=cards_text(cards), points=points))
    for winners, amount, best in outcome.won:
        names = Html(", ".join(_name(view, p) for p in winners))
        if len(winners) > 1:
            lines.append(tr.format("🏆 {names} split {pot}", names=names, pot=amount))
        elif best is None:
            lines.append(tr.format("🏆 {names} takes {pot}", names=names, pot=amount))
        else:
            lines.append(tr.format("🏆 {names} wins {pot} with {points}", names=names,
                                   pot=amount, points=best))
    for deck, salt in outcome.decks:
        lines.append(tr.format("🔐 Deck <code>{deck}</code> salt <code>{salt}</code>",
                               deck=deck, salt=salt))
    return lines


def outcome_of(hand: Hand, since: int = 0, *, decks: bool = True) -> Outcome:
    """What to show of a hand's end: the last showdown and every pot paid since `since`."""
    events = hand.events[since:]
    shown: tuple[tuple[int, tuple[Card, ...], int], ...] = tuple(
        (hand.seats[e.seat].player, e.cards, e.points)
                  for e in events if isinstance(e, Shown))
    won = tuple((tuple(hand.seats[w].player for w in e.winners), e.amount, e.points)
                for e in events if isinstance(e, PotWon))
    # The whole deck is no longer revealed: the proof (shown cards only) is under /hand N.
    del decks
    return Outcome(shown, won)


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


def private_hands(hand: Hand, seats: tuple[int, ...], hand_no: int) -> list[PrivateHand]:
    return [PrivateHand(hand.seats[s].player, hand_no, hand.cards(s), hand.points(s) or 0,
                        hand.commitment, hand.openings(s)) for s in seats]


def render_cards(tr: Translator, private: PrivateHand) -> str:
    """The private message with a player's cards, his points, the deck commitment and the
    openings of his cards (position, card, salt) to check against the proof after the hand."""
    lines: list[str] = [
        tr.format("🃏 Hand {n}: <b>{cards}</b>", n=private.hand_no,
                  cards=cards_text(private.cards)),
        tr.format("Points: <b>{points}</b>", points=private.points),
        tr.format("Deck commitment: <code>{hash}</code>", hash=private.commitment),
    ]
    if private.openings:
        lines.append(tr.gettext("Your cards in the deck (position|card|salt), to check "
                                "against the hand's proof afterwards:"))
        lines += [f"<code>{p}|{card}|{salt}</code>" for p, card, salt in private.openings]
    return "\n".join(lines)


def cards_popup(tr: Translator, hand: Hand, seat: int) -> str:
    """The "My cards" popup (at most 200 characters)."""
    cards = hand.cards(seat)
    if not cards:
        return tr.gettext("No cards yet: they are dealt after the blind.")
    return tr.format("Your cards: {cards} ({points} points)", cards=cards_text(cards),
                     points=hand.points(seat)).replace("&amp;", "&")
