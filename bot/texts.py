"""The long texts: /help, /rules, the welcome in a new group, the command list, and the
words for the ledger's movements."""

from __future__ import annotations

from bot.i18n import N_, NP_, Translator
from bot.table_settings import TableSettings, rules_lines

COMMANDS: tuple[tuple[str, str], ...] = (
    ("newgame", N_("Open a Svara table in this chat")),
    ("tournament", N_("Open a sit-and-go tournament: /tournament 100 1000 10 (buy-in, stack, "
                          "hands per level; 15m: minutes)")),
    ("join", N_("Sit down at the table")),
    ("leave", N_("Leave the table (folds a hand in play)")),
    ("bet", N_("Bet or raise to a custom amount: /bet 50")),
    ("back", N_("Come back after sitting out")),
    ("topup", N_("Bring more chips between hands: /topup or /topup 200")),
    ("rebuy", N_("Out of chips? Take the table's rebuy from the house")),
    ("give", N_("Give chips to a player: /give @name 100")),
    ("endgame", N_("Close the table, after the hand in play (creator or admin)")),
    ("practice", N_("Practice against computer players, in private: /practice 3")),
    ("table", N_("Post the table message again at the bottom of the chat")),
    ("nextgame", N_("A private message when the next table opens here (/nextgame off "
                    "cancels)")),
    ("notify", N_("Turn reminders in private on or off: /notify on, /notify off")),
    ("balance", N_("Your chips")),
    ("daily", N_("Your daily bonus chips")),
    ("history", N_("The last hands of this chat")),
    ("hand", N_("One hand in full with its fairness proof: /hand 12")),
    ("seed", N_("Your own seed, mixed into every deal at your tables: /seed TEXT")),
    ("top", N_("This chat's leaderboard (/top all: every chat)")),
    ("stats", N_("Your figures and chart (reply to see a player's)")),
    ("season", N_("This chat's season: standings, points and the champion")),
    ("settings", N_("Table settings of this chat (admins change them)")),
    ("language", N_("Language of this group (admins), or your own in private")),
    ("topics", N_("Keep the bot to chosen topics of a forum (admins)")),
    ("rules", N_("The rules of Svara")),
    ("help", N_("How to play with this bot")),
)

EPHEMERAL_COMMANDS = frozenset({"balance", "stats", "hand", "seed", "history", "rules", "help"})
"""Commands about one player alone: registered as ephemeral, so in a group only the asker
sees them and their answers."""

MORE_USES: dict[str, tuple[tuple[str, str], ...]] = {
    "rebuy": (("rebuy cancel", N_("Take back a rebuy asked for during your hand")),),
    "season": (("season last", N_("The champions of this chat's past seasons")),),
    "stats": (("stats group", N_("This chat's chart: each regular's net over the last "
                                 "30 days")),),
}
"""Lines /help adds under a command for its other forms (the command menu lists the
command once)."""


def help_text(tr: Translator) -> str:
    lines = [tr.gettext("🃏 <b>Svara</b>, the Bulgarian three-card game, for your group."), ""]
    lines.append(tr.gettext("In a group: /newgame opens a table, everyone taps Join, the "
                            "creator taps Start. Your cards come to you in a private message; "
                            "the My cards button shows them too."))
    lines.append("")
    for command, description in COMMANDS:
        lines.append(f"/{command}: {tr.gettext(description)}")
        lines += [f"/{use}: {tr.gettext(text)}" for use, text in MORE_USES.get(command, ())]
    lines += ["", tr.gettext("Rebuys from the house are off until a chat admin turns them "
                             "on: /settings rebuy 500.")]
    return "\n".join(lines)


def welcome_text(tr: Translator) -> str:
    """The one message the bot writes when it is added to a group."""
    return "\n".join([
        tr.gettext("🃏 Hello! I run <b>Svara</b>, the Bulgarian three-card game, for this "
                   "group."),
        tr.gettext("Start a table with /newgame; everyone taps Join, the creator taps Start. "
                   "Cards come privately, so each player opens a chat with me once."),
        tr.gettext("I need no admin rights, and privacy mode can stay on. /help lists "
                   "everything."),
    ])


def rules_text(tr: Translator, settings: TableSettings) -> str:
    """The rules as RULES.md states them, in the bot's words, with this chat's settings."""
    parts = [
        tr.gettext("🃏 <b>The rules of Svara</b>"),
        "",
        tr.gettext("A 32-card deck (7 to ace). Everyone gets three cards. The highest "
                   "score wins; there is no tie-breaker."),
        tr.gettext("<b>Points</b>: 7, 8, 9 at face value; 10, J, Q, K ten; ace eleven. Your "
                   "score is the best of: the cards of one suit added up; two aces 22, "
                   "three aces 33; three of a kind, three times the card; two sevens 23; "
                   "three sevens 34, the best hand."),
        tr.gettext("<b>7♣ (Chechak)</b> counts 11 and joins the other two cards when they "
                   "share a suit or a rank: 7♣ K♥ K♦ is 31, 7♣ A♥ K♥ is 32."),
        tr.gettext("<b>A hand</b>: everyone pays the ante. Before the deal the player left "
                   "of the dealer may bet blind; the next may double it, and so on. Then "
                   "each player bets or folds (there is no check); a raise goes up by at "
                   "least the ante, and the first bet after a blind is at least double the "
                   "last blind."),
        tr.gettext("When all but one fold, he takes the pot without showing. Otherwise the "
                   "best score wins. A player who cannot match goes all-in; side pots are "
                   "built as in poker."),
        tr.gettext("<b>Svara</b>: a tie is not paid out. The tied players play it again for "
                   "free; anyone else at the table may join by paying the pot divided by "
                   "the number of tied players."),
        tr.gettext("A player who does not act in time folds; after timeouts in two hands in "
                   "a row he sits out until he taps I'm back."),
        "",
        tr.gettext("<b>This chat's table</b>:"),
        *rules_lines(tr, settings),
    ]
    return "\n".join(parts)


MOVEMENTS: dict[str, str] = {
    "grant": NP_("movement", "starting chips"),
    "bonus": NP_("movement", "daily bonus"),
    "operator_grant": NP_("movement", "chips from the operator"),
    "buy_in": NP_("movement", "sat down at a table"),
    "top_up": NP_("movement", "topped up"),
    "cash_out": NP_("movement", "left a table"),
    "ante": NP_("movement", "ante"),
    "blind": NP_("movement", "blind"),
    "bet": NP_("movement", "bet"),
    "svara_join": NP_("movement", "joined a svara"),
    "win": NP_("movement", "won"),
    "return": NP_("movement", "uncalled chips back"),
    "refund": NP_("movement", "refund"),
    "rebuy": NP_("movement", "rebuy from the house"),
    "house_gift": NP_("movement", "gift from the house"),
    "gift": NP_("movement", "gift"),
    "entry": NP_("movement", "tournament buy-in"),
    "entry_refund": NP_("movement", "tournament buy-in back"),
    "prize": NP_("movement", "tournament prize"),
}
"""Words for the ledger's movement kinds, as /balance lists them."""


def movement_text(tr: Translator, kind: str) -> str:
    msgid = MOVEMENTS.get(kind)
    return tr.pgettext("movement", msgid) if msgid else kind
