"""The other messages of a table: its results, the note of a moved chat, and the links
and buttons that open the table elsewhere."""

from __future__ import annotations

from bot.i18n import Html, Translator, escape
from bot.render.views import Results, Screen, short_name

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
