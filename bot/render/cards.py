"""A player's own cards: the private card message, the "My cards" popup, the reminder of
his turn, the toast after his press, and how a hand's points are explained."""

from __future__ import annotations

from bot.i18n import Html, Translator, escape
from bot.names import group_title
from bot.render.views import Outcome, PrivateHand, cards_text
from engine import Card, Hand, ScoringRules
from engine.cards import SEVEN_OF_CLUBS, Rank
from engine.events import (
    Blind,
    Call,
    Event,
    Fold,
    NoBlind,
    PotWon,
    Raise,
    Shown,
    SvaraJoined,
    SvaraSkipped,
)


def deck_line(tr: Translator, commitment: str) -> str:
    """The full commitment of a round's deck, as the table and the card messages show it."""
    return tr.format("🔐 Deck: <code>{hash}</code>", hash=commitment)


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
