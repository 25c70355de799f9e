"""The lines a tournament's table message shows: the pool, the level with its next rise,
and the places."""

from __future__ import annotations

from bot.dates import wait_text
from bot.i18n import Html, Translator, escape
from bot.render.views import TableView, short_name


def tournament_lines(view: TableView, tr: Translator) -> list[str]:
    """The tournament's lines (none at a plain table)."""
    t = view.tournament
    if t is None:
        return []
    lines: list[str] = [tr.format("🏆 Tournament · buy-in {buy_in} · pool {pool} · {players}",
                       buy_in=tr.chips(t.buy_in), pool=tr.chips(t.pool),
                       players=tr.nformat("{count} player", "{count} players", t.entrants,
                                          count=t.entrants))]
    level: str = tr.format("Level {level}: ante {ante}", level=t.level, ante=t.ante)
    if t.hands_to_next is not None:
        level += " · " + tr.nformat("next level in {count} hand", "next level in {count} hands",
                                    t.hands_to_next, count=t.hands_to_next)
    elif t.next_at is not None:
        words = wait_text(tr, t.next_in)
        when = Html(f'<tg-time unix="{t.next_at}" format="r">{words}</tg-time>')
        level += " · " + tr.format("next level in {time}", time=when)
    lines.append(level)
    if t.places:
        names = view.names
        shown = [tr.format("{place}. {name}: {prize}", place=place,
                           name=escape(short_name(names.get(player, "?"))),
                           prize=tr.chips(prize)) if prize
                 else tr.format("{place}. {name}", place=place,
                                name=escape(short_name(names.get(player, "?"))))
                 for place, player, prize in t.places]
        lines.append(tr.format("Places: {places}", places=Html(" · ".join(shown))))
    return lines
