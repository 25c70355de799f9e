"""Inline mode: ``@bot 7c Kh Kd`` in any chat offers the points of that hand and why.

Telegram sends an inline query at every pause in typing, so answering one reads and
writes nothing in the database: the points are the engine's score of the cards, the
reason is the showdown's own explanation (`render.explain`).
"""

from __future__ import annotations

import html
import logging
import re
from dataclasses import dataclass

from telegram import InlineQueryResultArticle, InputTextMessageContent, Update
from telegram.constants import ParseMode
from telegram.error import TelegramError

from bot.handling import Context
from bot.i18n import N_, Html, Translator
from bot.render.cards import explain
from engine import BadCardText, Card, ScoringRules, format_hand, parse_hand, score

log = logging.getLogger(__name__)

CACHE_SECONDS = 30
"""How long Telegram may offer the same answer to the same text without asking again; the
answer is in its user's language, so it is cached for that user only (``is_personal``)."""

SCORING = ScoringRules()
"""The rules of the README, all switches on: a hand's points away from any table."""

USAGE = N_("Type three cards after my name, e.g. 7c Kh Kd or 7♣ K♥ K♦ (T or 10 for a ten).")
USAGE_TITLE = N_("Svara points of three cards")

_SEPARATORS = re.compile(r"[\s,;\ufe0f]+")
"""Spaces, commas and the emoji variation selector phones add to ♥ and ♦."""


@dataclass(frozen=True, slots=True)
class Offer:
    """One inline result: what the list shows and the message it sends when chosen."""

    id: str
    """At most 64 bytes: ``p`` and the cards in ASCII, or ``usage``."""
    title: str
    description: str
    text: Html


def read_hand(text: str) -> tuple[Card, Card, Card] | None:
    """Three different cards in any notation the engine reads, with or without separators
    (``7cKhKd``, ``7♣, K♥, K♦``, ``10h th``); None for anything else."""
    compact = _SEPARATORS.sub("", text)
    pieces: list[str] = []
    at = 0
    while at < len(compact) and len(pieces) <= 3:
        size = 3 if compact.startswith("10", at) else 2
        pieces.append(compact[at:at + size])
        at += size
    if len(pieces) != 3 or at < len(compact):
        return None
    try:
        first, second, third = parse_hand(" ".join(pieces))
    except BadCardText:
        return None
    return first, second, third


def _plain(text: str) -> str:
    """A translated line as plain text, for the fields Telegram does not parse."""
    return html.unescape(text)


def _suit_line(tr: Translator, cards: tuple[Card, Card, Card], points: int) -> str | None:
    """Where `explain` has nothing to add, the points are the cards of one suit added up."""
    for suit in sorted({c.suit for c in cards}):
        same = [c for c in cards if c.suit == suit]
        if sum(c.rank.points for c in same) != points:
            continue
        if len(same) == 1:
            return tr.format("no two cards share a suit: the highest counts, {card} = {points}",
                             card=str(same[0]), points=points)
        return tr.format("the cards of one suit added up: {cards} = {points}",
                         cards=format_hand(same), points=points)
    return None


def offer_for(tr: Translator, query: str) -> Offer:
    """The answer to one inline query: the hand's points and rule, or how to ask."""
    cards = read_hand(query)
    if cards is None:
        usage = tr.gettext(USAGE)
        return Offer("usage", _plain(tr.gettext(USAGE_TITLE)), _plain(usage), usage)
    points = score(cards, SCORING)
    why = explain(tr, cards, points, SCORING) or _suit_line(tr, cards, points)
    shown = format_hand(cards)
    title = tr.nformat("{cards}: {points} point", "{cards}: {points} points", points,
                       cards=shown, points=points)
    text = tr.nformat("<b>{cards}</b>: {points} point", "<b>{cards}</b>: {points} points",
                      points, cards=shown, points=points)
    if why is not None:
        text = Html(f"{text}\n{why}")
    return Offer("p" + "".join(c.ascii for c in cards), _plain(title),
                 _plain(why) if why is not None else "", text)


async def on_inline_query(update: Update, context: Context) -> None:
    """Answer what a user typed after the bot's name, in the user's language."""
    query = update.inline_query
    if query is None:
        return
    tr = context.services.languages.for_user(query.from_user)
    offer = offer_for(tr, query.query)
    result = InlineQueryResultArticle(
        offer.id, offer.title,
        InputTextMessageContent(offer.text, parse_mode=ParseMode.HTML),
        description=offer.description or None)
    try:
        await query.answer([result], cache_time=CACHE_SECONDS, is_personal=True)
    except TelegramError as err:
        # The user typed on: Telegram has dropped this query for the next one.
        log.debug("inline answer not taken: %s", err)
