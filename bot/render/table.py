"""The table message: one screen per state of a table (lobby, hand in play, between
hands, closed), text and buttons, drawn from a `TableView` alone."""

from __future__ import annotations

import math

from bot.achievements import BY_CODE
from bot.callback_data import Button, Press
from bot.i18n import N_, Html, Translator, escape
from bot.records import TableStatus
from bot.render.cards import deck_line, explain, outcome_of
from bot.render.tournament import tournament_lines
from bot.render.views import Outcome, Screen, TableView, cards_text, short_name
from bot.table_settings import rules_lines
from engine import Hand, Phase
from engine.events import (
    Blind,
    Call,
    Event,
    Fold,
    Left,
    NoBlind,
    Raise,
    SatOut,
    Shown,
    SvaraJoined,
    SvaraOpened,
    SvaraSkipped,
)

LAST_ACTIONS = 4
"""How many of the latest actions the table message tells in words."""


CLOSING_AFTER_HAND = N_("🔚 Closing after this hand: then every stack goes back.")
"""Under a table /endgame asked to close (and the answer to that /endgame)."""


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
    lines: list[str] = [tr.gettext("🃏 <b>Svara</b>: a new table"), *tournament_lines(view, tr),
                        *rules_lines(tr, view.settings)]
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
                               time=ticking(view, tr, view.autostart_seconds)))
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
    lines: list[str] = [tr.gettext("🃏 <b>Svara</b>: the table is closed."),
                        *tournament_lines(view, tr)]
    if view.outcome is not None:
        lines += ["", *outcome_lines(view, tr, view.outcome)]
    if view.note:
        lines += ["", tr.gettext(view.note)]
    lines += _fairness_lines(view, tr)
    lines += ["", tr.gettext("Start a new one with /practice.") if view.private
              else tr.gettext("Start a new one with /newgame.")]
    return Screen("\n".join(lines))


def folded(line: str) -> str:
    """A line on record but out of the reader's way: an expandable quote, opened by a tap."""
    return f"<blockquote expandable>{line}</blockquote>"


def _fairness_lines(view: TableView, tr: Translator) -> list[str]:
    """The table's commitment (SHA-256 of its secret), and the secret once it is revealed."""
    if view.table_secret:
        return ["", folded(tr.format("🔓 Table secret: <code>{secret}</code>",
                                     secret=view.table_secret))]
    if view.table_commitment:
        return ["", folded(tr.format("🔐 Table: <code>{hash}</code>",
                                     hash=view.table_commitment))]
    return []


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


def seat_status(view: TableView, tr: Translator, hand: Hand, seat: int) -> str:
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


def last_actions(view: TableView, tr: Translator, hand: Hand) -> str | None:
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
    lines: list[str] = [title, *tournament_lines(view, tr),
                        tr.format("Pot: <b>{pot}</b> · dealer {dealer}", pot=hand.pot,
                                  dealer=_name(view, hand.seats[hand.dealer].player))]
    if hand.commitment:
        # Before the round's first decision (a blind, a svara buy-in): its deck is fixed.
        lines.append(folded(deck_line(tr, hand.commitment)))
    if view.closing:
        lines.append(tr.gettext(CLOSING_AFTER_HAND))
    lines.append("")
    for i, s in enumerate(hand.seats):
        marker = "▶ " if i == hand.to_act or i in hand.pending else "   "
        lines.append(f"{marker}{_name(view, s.player)}: {seat_status(view, tr, hand, i)}")
    if view.last is not None and view.last_id and not hand.actions:
        lines += ["", *_last_showdown(view, tr, view.last)]
    earlier = earlier_showdown(view, tr, hand)
    if earlier:
        lines += ["", *earlier]
    last = last_actions(view, tr, hand)
    if last:
        lines += ["", last]
    lines.append("")
    lines.append(turn_prompt(view, tr, hand))
    return Screen("\n".join(lines), _hand_buttons(view, tr, hand))


def earlier_showdown(view: TableView, tr: Translator, hand: Hand) -> list[str]:
    """The hand's last showdown (a tie that led to this svara) and the pots paid since."""
    shown_at = [i for i, e in enumerate(hand.events) if isinstance(e, Shown)]
    if not shown_at:
        return []
    first = shown_at[-1]
    while first > 0 and isinstance(hand.events[first - 1], Shown):
        first -= 1
    return outcome_lines(view, tr, outcome_of(hand, since=first, decks=False))


def ticking(view: TableView, tr: Translator, seconds: int) -> Html:
    """The time the table's wait has left, as a clock that ticks in the reader's app: a
    relative `date_time` entity at the deadline ("in 25 seconds", counted down without an
    edit), around the seconds left when the screen was drawn, which older apps show."""
    words = tr.seconds(seconds)
    if view.deadline is None:
        return words
    return Html(f'<tg-time unix="{math.ceil(view.deadline)}" format="r">{words}</tg-time>')


def _timer(view: TableView, tr: Translator) -> str:
    """The time the wait has left, after the prompt."""
    wait = view.wait_seconds
    if not wait:
        return ""
    return f" ⏳ {ticking(view, tr, wait)}"


def turn_prompt(view: TableView, tr: Translator, hand: Hand) -> str:
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


def action_rows(view: TableView, tr: Translator,
                hand: Hand) -> tuple[tuple[tuple[str, str], ...], ...]:
    """The buttons of the move the hand waits for (a blind, a bet, a svara), without the
    table's own row ("My cards", "I'm back", "Sit in next hand")."""
    return _hand_buttons(view, tr, hand)[:-1]


def _presets(hand: Hand, raise_to: tuple[int, int] | None, all_in: int | None) -> list[int]:
    """Bet sizes offered as buttons: the minimum, double it, and the pot where allowed."""
    if raise_to is None:
        return []
    low, high = raise_to
    options = {low, min(2 * low, high), min(hand.level + hand.round_pot, high)}
    return sorted(a for a in options if low <= a <= high and a != all_in)[:3]


def _between_hands(view: TableView, tr: Translator) -> Screen:
    lines: list[str] = [tr.format("🃏 <b>Svara</b> · hand {n} is over", n=view.hand_no),
                        *tournament_lines(view, tr), ""]
    if view.outcome is not None:
        lines += outcome_lines(view, tr, view.outcome)
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
        lines += ["", tr.format(msgid, names=names, time=ticking(view, tr, view.wait_seconds))]
    elif view.wait_seconds:
        lines += ["", tr.format("Next hand in {time}.", time=ticking(view, tr, view.wait_seconds))]
    rows: list[tuple[tuple[str, str], ...]] = []
    if any(s.sitting_out for s in view.seats):
        rows.append(((tr.gettext("I'm back"), Press(view.table_id, 0, 0, Button.BACK).encode()),))
    return Screen("\n".join(lines), tuple(rows))


def _last_showdown(view: TableView, tr: Translator, last: Outcome) -> list[str]:
    """The hand before this one, face up until this one's first action: the cards and
    points shown at its showdown, then who took its biggest pot."""
    lines = [tr.format("{name}: {cards} ({points})", name=_name(view, player),
                       cards=cards_text(cards), points=points)
             for player, cards, points in last.shown]
    return [*lines, _last_hand_line(view, tr, last), *badge_lines(view, tr, last)]


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


def outcome_lines(view: TableView, tr: Translator, outcome: Outcome) -> list[str]:
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
    lines += badge_lines(view, tr, outcome)
    if outcome.proof and view.hand_no:
        lines.append(tr.format("🔐 fairness: /hand {n}", n=view.hand_no))
    return lines


def badge_lines(view: TableView, tr: Translator, outcome: Outcome) -> list[str]:
    """One line per badge the hand earned: "🏅 Ana earns 🎰 Three sevens"."""
    lines: list[str] = []
    for player, code in outcome.badges:
        badge = BY_CODE.get(code)
        if badge is not None:
            lines.append(tr.format("🏅 {name} earns {emoji} <b>{badge}</b>",
                                   name=_name(view, player), emoji=badge.emoji,
                                   badge=tr.gettext(badge.name)))
    return lines
