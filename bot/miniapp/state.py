"""What one viewer of the Mini App sees of a table: the public table, and his own cards.

A `Snapshot` is taken under the table's lock each time the table is shown (the hand is
copied, so later moves do not change it). `view_for` turns it into the JSON one viewer
gets, in his language: every seat, the pot, the clock, the last actions, the showdown
explained, the buttons he may press (the same presses as the table message's), and his
own three cards. Nobody else's cards are in it before a showdown shows them in the group.
"""

from __future__ import annotations

import copy
import html
import re
from dataclasses import dataclass, replace
from typing import Any

from bot.achievements import BY_CODE
from bot.callback_data import BadCallbackData, Button, Press
from bot.i18n import N_, Translator
from bot.live import Live
from bot.records import TableStatus
from bot.render.cards import outcome_of
from bot.render.table import (
    earlier_showdown,
    last_actions,
    outcome_lines,
    render_table,
    seat_status,
    turn_prompt,
)
from bot.render.tournament import tournament_lines
from bot.render.views import Outcome, TableView, short_name
from bot.table_settings import rules_lines
from engine import Card, Phase, score
from engine.events import Shown

_TAG = re.compile(r"<[^>]*>")

LOBBY_BUTTONS = {Button.JOIN, Button.LEAVE, Button.START}
TURN_BUTTONS = {Button.FOLD, Button.CALL, Button.RAISE, Button.ALL_IN, Button.BLIND,
                Button.NO_BLIND}
SVARA_BUTTONS = {Button.SVARA_JOIN, Button.SVARA_SKIP}

WORDS = {
    "pot": N_("Pot"),
    "watching": N_("You are watching this table."),
    "offline": N_("Connection lost; reconnecting…"),
    "reopen": N_("Close the table and open it again."),
    "share": N_("Share the hand"),
    "check": N_("Check this hand in your browser"),
    "table": N_("The table"),
}
"""Words of the page itself, sent in the viewer's language."""

APP_JOIN, APP_LEAVE, APP_TOP_UP, APP_REBUY = "app:join", "app:leave", "app:topup", "app:rebuy"
APP_SEED = "app:seed:"
"""The seed button's press: followed by the 32 hex digits the page drew for the player."""
"""The lobby's own presses (the table message has no buttons for them: /join, /leave,
/topup and /rebuy do the same in the group, through the same `Games` calls)."""


def plain(text: str | None) -> str:
    """Telegram HTML as plain text (the page shows it as text, never as markup)."""
    return "" if not text else html.unescape(_TAG.sub("", text))


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table as it was shown at revision `rev`."""

    rev: int
    view: TableView
    chat_id: int
    creator: int


def take(live: Live, rev: int, now: float) -> Snapshot:
    """The table as it is now (call under its lock: the hand is copied as it stands)."""
    view = live.view(now)
    view = replace(view, hand=copy.deepcopy(view.hand), names=dict(view.names))
    return Snapshot(rev, view, live.chat_id, live.creator)


def _card(card: Card) -> dict[str, str]:
    return {"rank": card.rank.label, "suit": card.suit.letter, "text": str(card)}


def view_for(snap: Snapshot, viewer: int, tr: Translator, now: float, *,
             proof: str | None = None) -> dict[str, Any]:
    """The JSON `viewer` gets of the table at `snap`, in the language of `tr`; `proof` is
    the verifier's address with the last hand's proof, where the bot serves one."""
    view = snap.view
    hand = view.hand
    screen = render_table(view, tr)
    me_at_table = next((i for i, s in enumerate(view.seats) if s.player == viewer), None)
    seats: list[dict[str, Any]] = []
    shown: dict[int, tuple[tuple[Card, ...], int]] = {}
    # Cards on the seats: the last showdown, and the tie while its svara may be joined
    # (once the svara is dealt, the tie is only told in words below the table).
    outcome = view.outcome if hand is None else \
        _svara_showdown(hand) if hand.phase is Phase.SVARA_JOIN else None
    if outcome is not None:
        shown = {p: (cards, points) for p, cards, points in outcome.shown}
    me: dict[str, Any] | None = None
    held = {s.player: s.badges for s in view.seats}
    if hand is not None:
        for i, s in enumerate(hand.seats):
            seat = {
                "name": short_name(view.names.get(s.player, "?")),
                "stack": s.stack, "bet": s.committed, "me": s.player == viewer,
                "dealer": i == hand.dealer,
                "acting": i == hand.to_act or i in hand.pending,
                "in": s.in_round and not s.folded,
                # Face down: dealt and still in (the cards themselves never leave here).
                "backs": 3 if s.in_round and not s.folded and s.cards else 0,
                # What the table message says of the seat, less the stack shown above it.
                "status": " · ".join(plain(seat_status(view, tr, hand, i))
                                     .split(" · ")[1:]),
            }
            if s.player in shown:
                seat["shown"] = [_card(c) for c in shown[s.player][0]]
                seat["points"] = plain(tr.points(shown[s.player][1]))
            seat["badges"] = _badges(tr, held.get(s.player, ()))
            seats.append(seat)
            if s.player == viewer:
                dealt = s.cards if s.in_round else ()
                me = {"seat": i, "cards": [_card(c) for c in dealt],
                      "points": plain(tr.points(score(dealt, hand.rules.scoring)))
                      if dealt else None,
                      "turn": i == hand.to_act or i in hand.pending}
    else:
        for seat_view in view.seats:
            seat = {"name": short_name(seat_view.name), "stack": seat_view.stack,
                    "bet": 0, "me": seat_view.player == viewer, "dealer": False,
                    "acting": False, "in": True, "backs": 0,
                    "status": tr.gettext("away") if seat_view.sitting_out else ""}
            if seat_view.player in shown:
                seat["shown"] = [_card(c) for c in shown[seat_view.player][0]]
                seat["points"] = plain(tr.points(shown[seat_view.player][1]))
            seat["badges"] = _badges(tr, seat_view.badges)
            seats.append(seat)
    log = ""
    prompt = ""
    results: list[str] = []
    if hand is not None:
        log = plain(last_actions(view, tr, hand))
        # The page counts the deadline down itself: no time left frozen in the prompt.
        prompt = plain(turn_prompt(replace(view, wait_seconds=None), tr, hand))
        results = [plain(line) for line in earlier_showdown(view, tr, hand)]
    elif view.outcome is not None:
        # Not the "/hand N" line: the page cannot send a command; it links the proof.
        command = tr.format("🔐 fairness: /hand {n}", n=view.hand_no)
        results = [plain(line) for line in outcome_lines(view, tr, view.outcome)
                   if line != command]
    return {
        "rev": snap.rev,
        "table": view.table_id,
        "status": view.status.value,
        "title": plain(screen.text.split("\n", 1)[0]),
        "text": plain(screen.text),
        "hand_no": view.hand_no,
        "hand_id": view.hand_id,
        # The turn shown (None: between hands): the same count the buttons' presses carry.
        "seq": None if hand is None else len(hand.actions),
        "pot": 0 if hand is None else hand.pot,
        "phase": None if hand is None else hand.phase.value,
        "deadline": view.deadline,
        "now": now,
        "seats": seats,
        "me": me,
        "seated": me_at_table is not None,
        "prompt": prompt,
        "log": log,
        "results": results,
        "note": tr.gettext(view.note) if view.note else "",
        "buttons": _buttons(snap, screen.buttons, viewer, me_at_table),
        "words": {**{k: tr.gettext(v) for k, v in WORDS.items()},
                  # The page counts the clock between hands down in these words.
                  "next_hand": plain(tr.format("Next hand in {time}.", time="{time}"))},
        "language": tr.language,
        "lobby": _lobby(snap, viewer, tr),
        # After a showdown: the hand may be shared, and its proof opened where it is served.
        "share": hand is None and view.outcome is not None and view.hand_no > 0,
        "proof": proof if hand is None and view.outcome is not None else None,
        "tournament": _tournament(view, tr),
    }


def _tournament(view: TableView, tr: Translator) -> dict[str, Any] | None:
    """A tournament's level and places as the page shows them (None: a plain table)."""
    t = view.tournament
    if t is None:
        return None
    return {"lines": [plain(line) for line in tournament_lines(view, tr)],
            "level": t.level, "ante": t.ante, "pool": t.pool,
            "hands_to_next": t.hands_to_next, "next_at": t.next_at,
            "places": [{"place": place, "name": short_name(view.names.get(player, "?")),
                        "prize": prize} for place, player, prize in t.places]}


def _badges(tr: Translator, codes: tuple[str, ...]) -> list[dict[str, str]]:
    """The badges a seat's player holds, as the page shows them: emoji and name."""
    return [{"emoji": b.emoji, "name": plain(tr.gettext(b.name))} for b in
            (BY_CODE[c] for c in codes if c in BY_CODE)]


def _lobby(snap: Snapshot, viewer: int, tr: Translator) -> dict[str, Any]:
    """The table's stakes and rules, who sits at it, and what the viewer may do there (in
    the lobby: for now; during a hand: for the next one)."""
    view = snap.view
    settings = view.settings
    seat = next((s for s in view.seats if s.player == viewer), None)
    actions: list[dict[str, str]] = []
    if view.status is not TableStatus.CLOSED:
        if seat is None:
            actions.append({"label": tr.gettext("Join"), "do": APP_JOIN})
        elif view.tournament is not None:
            # A tournament: no top-ups or rebuys; leaving only before it starts.
            if view.status is TableStatus.LOBBY:
                actions.append({"label": tr.gettext("Leave"), "do": APP_LEAVE})
        else:
            actions.append({"label": tr.gettext("Leave"), "do": APP_LEAVE})
            if seat.stack < settings.max_buy_in:
                actions.append({"label": tr.gettext("Top up"), "do": APP_TOP_UP})
            if settings.rebuy is not None and snap.chat_id < 0 and seat.stack < settings.ante:
                actions.append({"label": tr.gettext("Rebuy from the house"), "do": APP_REBUY})
    return {
        "rules": [plain(line) for line in rules_lines(tr, settings)],
        "heading": plain(tr.format("Players ({count}/{seats}):", count=len(view.seats),
                                   seats=settings.max_seats)),
        "players": [{"name": short_name(s.name), "stack": s.stack,
                     "me": s.player == viewer, "away": s.sitting_out} for s in view.seats],
        "actions": actions,
        # Before the first deal: one tap gives the viewer a seed of his own, drawn and kept
        # by the page (docs/FAIRNESS.md: set after the commitment, before the first deal).
        "seed": tr.gettext("🔐 My own seed") if view.status is TableStatus.LOBBY else None,
        "creator": snap.creator == viewer,
    }


def _svara_showdown(hand: Any) -> Outcome | None:
    """During a svara: the showdown of the tie that opened it (shown in the group too)."""
    shown_at = [i for i, e in enumerate(hand.events) if isinstance(e, Shown)]
    if not shown_at:
        return None
    first = shown_at[-1]
    while first > 0 and isinstance(hand.events[first - 1], Shown):
        first -= 1
    return outcome_of(hand, since=first, decks=False)


def _buttons(snap: Snapshot, rows: tuple[tuple[tuple[str, str], ...], ...], viewer: int,
             at_table: int | None) -> list[list[dict[str, str]]]:
    """The table message's buttons that `viewer` may press, as (label, press data)."""
    view = snap.view
    hand = view.hand
    seat = None if hand is None else hand.seat_of(viewer)
    away = any(s.player == viewer and s.sitting_out for s in view.seats)
    out: list[list[dict[str, str]]] = []
    for row in rows:
        kept: list[dict[str, str]] = []
        for label, data in row:
            try:
                button = Press.decode(data).button
            except BadCallbackData:
                continue
            if button in LOBBY_BUTTONS:
                ok = (button is Button.JOIN and at_table is None) or (
                    button is Button.LEAVE and at_table is not None) or (
                    button is Button.START and at_table is not None)
            elif button in TURN_BUTTONS:
                ok = hand is not None and seat is not None and seat == hand.to_act
            elif button in SVARA_BUTTONS:
                ok = hand is not None and seat is not None and seat in hand.pending
            elif button is Button.BACK:
                ok = away
            else:  # "My cards": the page shows them anyway
                ok = False
            if ok:
                kept.append({"label": label, "data": data, "kind": button.value})
        if kept:
            out.append(kept)
    return out
