"""Practice in private: /practice opens a table of the user against 1 to 5 computer players.

The table lives in his private chat (chat id = user id) and is an ordinary table in every
other way: the same table message, buttons, timers and rules as in a group. Its chips are
practice chips (`bot.store.practice`): they come from a practice wallet, go back to it,
and never touch his real balance.

The computer players press nothing: `Practice.watch` runs each time a table is shown
(`Games.watchers`), and when the seat to act, or a seat deciding a svara, is a computer
it schedules that computer's decision a moment later on the job queue. The decision goes
through `Games.press`, under the table's lock, like a person's button press, and counts
only if the table still waits for exactly that turn. A practice table closes when its
player leaves, sits out or runs out of chips.
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, Job, filters

from bot import errors, replies
from bot.games import Games
from bot.handling import (
    Context,
    Services,
    bet,
    command_name,
    command_parts,
    player_of,
    refuse_press,
    reply,
    run_command,
)
from bot.i18n import N_, Translations, Translator
from bot.live import Live, Player
from bot.pacing import URGENT
from bot.records import TableStatus
from bot.store.errors import TableExists
from bot.store.practice import MAX_COMPUTERS, computer_number, computer_of, is_computer
from engine import Action, Hand, Phase
from engine.players import Computer, Level
from engine.table import Table

log = logging.getLogger(__name__)

COMPUTERS: tuple[tuple[str, Level], ...] = (
    ("Ana", Level.NORMAL),
    ("Boris", Level.CAUTIOUS),
    ("Vera", Level.BOLD),
    ("Georgi", Level.NORMAL),
    ("Dana", Level.CAUTIOUS),
)
"""The computer players, in the order they sit down: a name and how they play."""

DELAY = 1.2
"""Seconds a computer player "thinks" before it acts (the table message moves meanwhile)."""
RETRY = 3.0
"""Seconds before a computer's move that could not be saved is tried again."""
CHOICE = "practice:"
"""Callback data of the buttons that ask how many computer players: ``practice:3``."""


LEVELS: dict[Level, str] = {
    Level.CAUTIOUS: N_("cautious"),
    Level.NORMAL: N_("normal"),
    Level.BOLD: N_("bold"),
}
"""How each level of computer player is called at the table."""


def computer_name(tr: Translator, k: int) -> str:
    """The k-th computer player's name in the player's language: "Bot Ana (normal)"."""
    name, level = COMPUTERS[k - 1]
    # Plain text, not HTML: it is stored as the player's name and escaped where shown.
    return tr.gettext("Bot {name} ({level})").format(name=name,
                                                     level=tr.gettext(LEVELS[level]))


def is_practice(live: Live) -> bool:
    """A practice table: only those are played in a private chat (its id is the user's)."""
    return live.chat_id == live.creator and live.thread_id is None


def computer_due(hand: Hand) -> int | None:
    """The seat of a computer player the hand waits for, if any (the first of a svara)."""
    if hand.is_over:
        return None
    if hand.phase is Phase.SVARA_JOIN:
        seats = sorted(s for s in hand.pending if is_computer(hand.seats[s].player))
        return seats[0] if seats else None
    seat = hand.to_act
    return seat if seat is not None and is_computer(hand.seats[seat].player) else None


def why_over(live: Live) -> str | None:
    """Why the player cannot play the next hand of his practice table (None: he can)."""
    seat = live.table.seat(live.creator)
    if seat is None:
        return replies.PRACTICE_LEFT
    if seat.sitting_out:
        return replies.PRACTICE_SAT_OUT
    if seat.stack < live.table.rules.ante:
        return replies.PRACTICE_BROKE
    return None


class Practice:
    """The practice tables of the bot: opening them, and their computer players' moves."""

    def __init__(self, app: Application[Any, Any, Any, Any, Any, Any], services: Services,
                 *, delay: float = DELAY, rng: random.Random | None = None) -> None:
        self.app = app
        self.games: Games = services.games
        self.translations: Translations = services.translations
        self.pace = services.outbox.pace
        """Every call into the private chat of a practice table waits for its turn here."""
        self.delay = delay
        self.rng = rng or random.Random()
        self.due: set[int] = set()
        """Tables where a computer's move (or the closing) is scheduled or under way."""
        self._jobs: dict[int, tuple[object, Job[Any] | None]] = {}
        self._computers: dict[tuple[int, int], Computer] = {}
        self.games.watchers.append(self.watch)

    # ----------------------------------------------------------------- opening

    async def open(self, who: Player, count: int,
                   announce: Callable[[list[str], int], Awaitable[None]]) -> Live:
        """Seat `who` with `count` computer players on practice chips and deal.

        `announce(names, chips)` runs once the table is seated, before its first message.
        """
        if not 1 <= count <= MAX_COMPUTERS:
            raise errors.BadCount()
        games = self.games
        if games.at(who.id, None) is not None:
            raise errors.PracticeRunning()
        await games.player(who)
        settings = games.defaults
        language = await games.speaks(who.id)
        tr = self.translations.get(language)
        computers = [(computer_of(who.id, k), computer_name(tr, k))
                     for k in range(1, count + 1)]
        try:
            row = await games.store.tables.open_practice(
                who.id, computers, rules=settings.model_dump(mode="json"),
                buy_in=settings.max_buy_in,
                wallet_name=tr.gettext("{name} (practice chips)").format(name=who.name),
                draw=games.store.fairness.draw)
        except TableExists:
            raise errors.PracticeRunning() from None
        live = Live(row.id, who.id, None, who.id, settings, Table(settings.rules()),
                    language=language)
        await announce([name for _, name in computers], settings.max_buy_in)
        await games.adopt(live)
        return live

    # ----------------------------------------------------------------- the computers

    def watch(self, live: Live) -> None:
        """A table was shown (under its lock): schedule what its computers do next."""
        if not is_practice(live):
            return
        if live.status is TableStatus.CLOSED:
            self._cancel(live.id)
            for key in [k for k in self._computers if k[0] == live.id]:
                del self._computers[key]
            return
        hand = live.hand
        if hand is not None and not hand.is_over:
            seat = computer_due(hand)
            if seat is None:
                self._cancel(live.id)
            else:
                turn = (live.hand_id, len(hand.actions), seat)
                self._schedule(live, lambda: self._move(live, *turn), self.delay)
        elif live.status is TableStatus.PLAYING and why_over(live) is not None:
            self._schedule(live, lambda: self._close(live), self.delay)
        else:
            self._cancel(live.id)

    def _computer(self, table_id: int, player: int) -> Computer:
        key = (table_id, player)
        if key not in self._computers:
            level = COMPUTERS[computer_number(player) - 1][1]
            self._computers[key] = Computer(level, random.Random(self.rng.getrandbits(64)))
        return self._computers[key]

    async def _move(self, live: Live, hand_id: int, seq: int, seat: int) -> None:
        hand = live.hand
        if hand is None or live.hand_id != hand_id or len(hand.actions) != seq \
                or computer_due(hand) != seat:
            return  # the table moved on
        player = hand.seats[seat].player
        action = self._computer(live.id, player).decide(hand, seat)
        who = Player(player, live.names.get(player, "?"))
        try:
            await self.games.press(live, who, Action(action.act, seat, action.amount),
                                   hand_id=hand_id, seq=seq)
        except (errors.Expired, errors.NotYourTurn):
            return  # someone else's move came first; the table was shown again after it
        except errors.StoreBusy:
            log.warning("table %s: a computer's move was not saved; trying again", live.id)
            self._schedule(live, lambda: self._move(live, hand_id, seq, seat), RETRY)

    async def _close(self, live: Live) -> None:
        why = why_over(live)
        if live.status is not TableStatus.PLAYING or live.hand is not None or why is None:
            return
        await self.games.end(live, Player(live.creator, live.names.get(live.creator, "?")),
                             is_admin=True)
        tr = self.translations.get(live.language)
        await self.pace.slot(live.chat_id, URGENT)
        with contextlib.suppress(TelegramError):
            await self.app.bot.send_message(live.chat_id, tr.gettext(why),
                                            parse_mode=ParseMode.HTML)

    def _schedule(self, live: Live, work: Callable[[], Awaitable[None]],
                  delay: float) -> None:
        """Run `work` in `delay` seconds, instead of anything scheduled for the table."""
        self._cancel(live.id)
        token = object()
        table_id = live.id

        async def fire(_: Any) -> None:
            try:
                await work()
            except Exception:  # a computer player must never stop a table
                log.exception("table %s: a computer player failed", table_id)
            finally:
                held = self._jobs.get(table_id)
                if held is not None and held[0] is token:
                    del self._jobs[table_id]
                    self.due.discard(table_id)

        queue = self.app.job_queue
        if queue is None:
            log.warning("no job queue: the computer players cannot move")
            return
        self.due.add(table_id)
        self._jobs[table_id] = (token, None)
        job = queue.run_once(fire, when=delay, name=f"practice-{table_id}")
        if self._jobs.get(table_id, (None,))[0] is token:
            self._jobs[table_id] = (token, job)

    def _cancel(self, table_id: int) -> None:
        held = self._jobs.pop(table_id, None)
        self.due.discard(table_id)
        if held is not None and held[1] is not None and not held[1].removed:
            with contextlib.suppress(Exception):
                held[1].schedule_removal()


# --------------------------------------------------------------------- Telegram


def _practice(context: Context) -> Practice:
    practice = context.bot_data.get("practice")
    assert isinstance(practice, Practice), "the bot has not finished starting"
    return practice


def _count(args: list[str]) -> int:
    if len(args) != 1 or not (args[0].isascii() and args[0].isdigit()) or len(args[0]) > 3:
        raise errors.BadCount()
    count = int(args[0])
    if not 1 <= count <= MAX_COMPUTERS:
        raise errors.BadCount()
    return count


async def _open(context: Context, chat_id: int, who: Player, tr: Translator,
                count: int) -> None:
    async def announce(names: list[str], chips: int) -> None:
        stake = tr.nformat("{count} practice chip", "{count} practice chips", chips,
                           count=tr.number(chips))
        text = tr.format(replies.PRACTICE_OPENED, names=", ".join(names), chips=stake)
        await context.services.outbox.pace.slot(chat_id, URGENT)
        with contextlib.suppress(TelegramError):
            await context.bot.send_message(chat_id, text, parse_mode=ParseMode.HTML)

    await _practice(context).open(who, count, announce)


async def on_practice(update: Update, context: Context) -> None:
    """/practice N in private opens a practice table; /practice alone asks for N."""
    message, who, tr = command_parts(update, context)

    async def work() -> None:
        if message.chat.type != ChatType.PRIVATE:
            raise errors.PrivateOnly()
        if context.args:
            await _open(context, message.chat_id, who, tr, _count(context.args))
            return
        if context.services.games.at(message.chat_id, None) is not None:
            raise errors.PracticeRunning()
        buttons = [InlineKeyboardButton(str(n), callback_data=f"{CHOICE}{n}")
                   for n in range(1, MAX_COMPUTERS + 1)]
        await reply(context, message, tr.gettext(replies.HOW_MANY_COMPUTERS),
                     reply_markup=InlineKeyboardMarkup([buttons]))

    await run_command(message, tr, work(), context)


async def on_choice(update: Update, context: Context) -> None:
    """A press on one of the "how many computer players" buttons."""
    query = update.callback_query
    assert query is not None
    tr = context.services.languages.for_user(query.from_user)
    try:
        message = query.message
        if message is None or message.chat.type != ChatType.PRIVATE:
            raise errors.Expired()
        await _open(context, message.chat.id, player_of(query.from_user), tr,
                    _count([(query.data or "").removeprefix(CHOICE)]))
    except Exception as err:
        await refuse_press(query, tr, err)
        return
    await query.answer()
    with contextlib.suppress(TelegramError):
        await query.edit_message_reply_markup(None)


async def on_private_command(update: Update, context: Context) -> None:
    """/endgame, /leave, /back and /bet N at the practice table of this private chat."""
    message, who, tr = command_parts(update, context)
    games = context.services.games
    command = command_name(message)

    async def work() -> None:
        live = games.at(message.chat_id, None)
        if live is None or not is_practice(live):
            raise errors.GroupOnly()
        if command == "endgame":
            await games.end(live, who, is_admin=False)
        elif command == "leave":
            await games.leave(live, who)
        elif command == "back":
            await games.come_back(live, who)
        elif command == "bet":
            await bet(games, live, who, context.args)
        else:
            raise errors.PracticeChips()

    await run_command(message, tr, work(), context)


def register(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """The practice handlers; registered before the group table commands, so that in a
    private chat these commands reach the practice table."""
    app.add_handler(CommandHandler("practice", on_practice))
    app.add_handler(CallbackQueryHandler(on_choice, pattern=f"^{CHOICE}"))
    app.add_handler(CommandHandler(["join", "leave", "back", "endgame", "bet", "topup"],
                                   on_private_command, filters=filters.ChatType.PRIVATE))
