"""Tables in play: the one place where presses, commands and timers become engine actions.

Every change of a table runs under that table's lock, in the same order: check the
request, apply it to the engine, persist it (one transaction), then show it (one edit of
the table message) and arm the table's single timer. Nothing here knows Telegram: what
must be shown or timed goes through the `Outbox`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from bot import errors, fairness
from bot.clock import Alarms, Clock, Wait, WaitKind, Want
from bot.i18n import N_, normalize_language
from bot.names import display_name, distinct
from bot.ops.refusals import Refusals
from bot.render import (
    Outcome,
    PrivateHand,
    Results,
    SeatView,
    TableView,
    outcome_of,
    private_hands,
)
from bot.store import Store, TableStatus
from bot.store.errors import HouseDayLimit, InsufficientChips, NoRebuyLeft, StoreError
from bot.store.errors import TableExists as StoreTableExists
from bot.store.models import Table as StoredTable
from bot.store.users import DAY
from bot.table_settings import BadSetting, TableSettings, change
from engine import Act, Action, Hand, Phase
from engine.events import Dealt, Event, RoundStarted, SvaraOpened
from engine.table import Table, TableSeat

log = logging.getLogger(__name__)

LOBBY_IDLE = 30 * 60.0
"""Seconds a lobby waits for Start before it closes by itself."""

REBUY_GRACE = 30.0
"""Seconds a table that cannot deal waits for a seated broke player before it closes."""

TURN_ACTS = {Act.FOLD, Act.CALL, Act.RAISE, Act.ALL_IN, Act.BLIND, Act.NO_BLIND}
"""Actions bound to one turn: a press for an earlier turn is stale."""


EVICTED = N_("The bot can no longer write to this group: the table closed, a hand in "
              "play was refunded, and every chip went back.")
"""Why a table closed when the bot was removed from its group or lost the right to write."""

CLOSED_NOW = N_("The table was closed; every chip went back.")
"""The note of a table closed by /endgame between hands (and the answer, when no results
message follows)."""

CLOSED_AS_ASKED = N_("The table closed after the hand, as asked; every stack went back.")
"""The note of a table closed by /endgame once the hand it came during had ended."""


@dataclass(frozen=True, slots=True)
class Player:
    """Who pressed or typed: a Telegram user as the bot needs him."""

    id: int
    name: str
    language: str | None = None
    username: str | None = None
    """His @name without the @, if he has one (so `/give @name` finds him)."""


@dataclass(eq=False)
class Live:
    """A table that is not closed, as the bot holds it between database writes."""

    id: int
    chat_id: int
    thread_id: int | None
    creator: int
    settings: TableSettings
    table: Table
    status: TableStatus = TableStatus.LOBBY
    language: str | None = None
    names: dict[int, str] = field(default_factory=dict)
    hand: Hand | None = None
    hand_id: int = 0
    hand_no: int = 0
    outcome: Outcome | None = None
    last: Outcome | None = None
    """How the hand before the one in play ended (its line stays until the first action)."""
    last_id: int = 0
    """That hand's id, as /hand takes it."""
    note: str | None = None
    wait: Wait | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    next_settings: TableSettings | None = None
    """Settings an admin changed during a hand; they apply from the next deal."""
    closing: bool = False
    """/endgame came during a hand: the table closes when that hand ends."""
    shown: str | None = None
    """A digest of what the table message shows, as the outbox last reported it."""
    results: tuple[Results, dict[int, str]] | None = None
    """A closed table's results message, with the names it mentions (None: no hand played)."""
    stored_wait: Wait | None = None
    """The wait as the store holds it (written when it changes, not on every redraw)."""
    played: int = 0
    """Hands dealt at this table (`hand_no` is the chat's number of the last one)."""
    table_commitment: str = ""
    table_secret: str | None = None
    """Revealed when the table closes (see bot.fairness)."""
    seeds: tuple[str, ...] = ()
    """The seats' seed hashes the hand in play was dealt from, in seat order: each card
    message lists them, so the seeds are on record before the hand is played."""
    told_out: set[int] = field(default_factory=set)
    """Players told privately that their stack is below the ante (told once, until they
    have the ante again)."""
    cards_due: int = 0
    """Rounds of the hand in play whose cards went out but are not yet written as sent:
    written with the hand's next step (or at a clean stop). After a crash in between they
    are sent again: a card message twice, never none."""

    def name(self, player: int, name: str) -> None:
        """Remember how `player` is called here, told apart from everyone else seated."""
        others = [self.names[s.player] for s in self.table.seats
                  if s.player != player and s.player in self.names]
        self.names[player] = distinct(name, others)

    def view(self, now: float) -> TableView:
        """What the table message shows at `now` (the wait's time left counts down)."""
        seats = tuple(SeatView(s.player, self.names.get(s.player, "?"), s.stack, s.sitting_out)
                      for s in self.table.seats)
        wait = None if self.wait is None or not self.wait.kind.shown else self.wait
        left = None if wait is None else math.ceil(wait.left(now))
        autostart = wait is not None and wait.kind is WaitKind.AUTOSTART
        grace = wait is not None and wait.kind is WaitKind.GRACE
        return TableView(
            table_id=self.id, status=self.status, settings=self.settings, seats=seats,
            names=self.names, hand=self.hand, hand_id=self.hand_id, hand_no=self.hand_no,
            wait_seconds=None if autostart else left,
            outcome=self.outcome, note=self.note, last=self.last, last_id=self.last_id,
            autostart_seconds=left if autostart else None,
            closing=self.closing,
            private=self.chat_id > 0,  # private chats have positive ids, groups negative
            deadline=None if wait is None else wait.deadline,
            table_commitment=self.table_commitment, table_secret=self.table_secret,
            waiting_for=tuple(comeback(self)) if grace else (),
        )


def comeback(live: Live) -> list[int]:
    """The broke players a table that cannot deal its next hand waits for: seated, with
    a stack below the ante, who may still rebuy or be given chips (none at a practice
    table, or one asked to close)."""
    if live.chat_id > 0 or live.closing or live.table.can_deal():
        return []
    ante = live.settings.ante
    return [s.player for s in live.table.seats if s.player > 0 and s.stack < ante]


def _takes_part(hand: Hand, seat: int) -> bool:
    """The seat has a stake in the hand: dealt into this round, or it may join the svara."""
    return hand.seats[seat].in_round or seat in hand.pending


def _dealt_in(hand: Hand, seat: int) -> bool:
    """The seat was dealt into the hand's first round (it paid the ante)."""
    first = next(e for e in hand.events if isinstance(e, RoundStarted))
    return seat in first.seats


def _why_no_deal(table: Table) -> str:
    """Why the next hand cannot be dealt, as the note of the closed table."""
    with_chips = [s for s in table.seats if s.stack >= table.rules.ante]
    if len(with_chips) >= 2:
        if table.players_ready():
            return N_("Only one player is active; the others are sitting out: the table is "
                      "closed and every stack went back.")
        return N_("Everyone is sitting out: the table is closed and every stack went back.")
    return N_("Fewer than two players can pay the ante: the table is closed and every stack "
              "went back.")


class Outbox(Protocol):
    """What a table needs from the messenger."""

    def show(self, live: Live) -> None:
        """Make the table message show `live` as it is now (written soon, outside the lock)."""

    def send_cards(self, live: Live, hands: list[tuple[PrivateHand, str | None]], *,
                   hand_id: int, rounds: int) -> None:
        """Send each player his cards privately, each in his language (without holding up
        the table), then tell `Told.cards_sent`."""

    def remind(self, live: Live, player: int, language: str | None, left: int) -> None:
        """Tell `player` privately that the table waits for him (`left` seconds remain)."""

    def moved(self, live: Live) -> None:
        """The table's chat has a new id: its next screen is a new message there."""

    def evicted(self, live: Live, players: list[tuple[int, str | None]]) -> None:
        """Tell each player (with his language) privately that the bot can no longer write
        to the table's group, so the table closed and his chips went home."""

    def resume(self, live: Live, *, message_id: int | None, shown: str | None) -> None:
        """After a restart: the table's message and a digest of what it showed, as last
        stored, so a table that did not change is not edited again."""

    def results_again(self, live: Live) -> None:
        """After a restart: the results message of a table closed before it that had not
        reached its chat."""


class Told(Protocol):
    """What the messenger reports back: what reached the chats (kept in the store)."""

    async def message_sent(self, live: Live, message_id: int) -> None:
        """A new table message was posted."""

    async def shown(self, live: Live, digest: str) -> None:
        """The table message shows the screen of this digest now."""

    async def cards_sent(self, live: Live, hand_id: int, rounds: int) -> None:
        """The cards of the hand's first `rounds` rounds went out privately."""

    async def blocked(self, player: int) -> None:
        """The player cannot be written to privately (blocked the bot, never started it)."""

    async def chat_moved(self, old: int, new: int) -> None:
        """Telegram answered that the chat is now a supergroup with a new id."""

    async def chat_gone(self, chat_id: int) -> None:
        """Telegram answered that the bot may not write to the chat any more."""

    async def results_sent(self, live: Live) -> None:
        """A closed table's results message reached its chat (or never can)."""


class Games:
    """Every live table, keyed by id and by (chat, topic)."""

    def __init__(
        self,
        store: Store,
        outbox: Outbox,
        *,
        defaults: TableSettings,
        starting_chips: int,
        seed_source: Callable[[], bytes] | None = None,
        clock: Callable[[], float] = time.time,
        alarms: Alarms | None = None,
        house_daily: int | None = None,
    ) -> None:
        self.store = store
        self.house_daily = house_daily
        """The most chips of the house one user receives (and one admin gives) in 24 hours,
        in every chat together (None: no bound)."""
        self.outbox = outbox
        self.defaults = defaults
        self.starting_chips = starting_chips
        self.seed_source = seed_source
        self.clock = clock
        self.waits = Clock(clock, alarms)
        """Every table's one wait and its alarm (bot.clock)."""
        self.refusals = Refusals(log)
        """Steps the store refused to save: counted, and logged at most once a minute."""
        self.tables: dict[int, Live] = {}
        self._places: dict[tuple[int, int], int] = {}
        self._opening: dict[tuple[int, int], asyncio.Lock] = {}
        self._settings_locks: dict[int, asyncio.Lock] = {}
        self.watchers: list[Callable[[Live], None]] = []
        """Called (under the table's lock) each time a table is shown and its timer armed:
        how computer players (bot.practice) learn that it is their turn."""
        self.after_hand: list[Callable[[Live, Hand, dict[int, bool]], Awaitable[None]]] = []
        """Awaited (under the table's lock) once a hand is settled and its stacks are back
        at the table, with who sat out before it: chips queued for the next hand are
        brought then (bot.next_hand)."""

    # ----------------------------------------------------------------- lookups

    def at(self, chat_id: int, thread_id: int | None) -> Live | None:
        table_id = self._places.get((chat_id, thread_id or 0))
        return None if table_id is None else self.tables.get(table_id)

    def _register(self, live: Live) -> None:
        self.tables[live.id] = live
        self._places[(live.chat_id, live.thread_id or 0)] = live.id

    def _forget(self, live: Live) -> None:
        self.tables.pop(live.id, None)
        self._places.pop((live.chat_id, live.thread_id or 0), None)

    async def player(self, who: Player, *, private_chat: bool | None = None) -> int:
        """Make sure the player exists (new ones get the starting chips); his balance.
        ``private_chat``: he wrote to the bot in private (kept in the same write)."""
        user, _ = await self.store.users.ensure(who.id, who.name, language=who.language,
                                                starting_chips=self.starting_chips,
                                                username=who.username,
                                                private_chat=private_chat)
        return user.balance

    async def speaks(self, user_id: int) -> str:
        """The language a user reads: the one he chose, else his client's."""
        user = await self.store.users.find(user_id)
        return normalize_language(None if user is None else user.speaks)

    async def chat_settings(self, chat_id: int) -> TableSettings:
        chat = await self.store.chats.get(chat_id)
        return TableSettings.load(chat.settings_dict(), **self.defaults.model_dump())

    async def change_settings(self, chat_id: int, name: str, value: str) -> TableSettings:
        """An admin changes one setting of the chat; live tables take it from their next deal.

        One change at a time per chat (two admins saving two settings both keep theirs),
        checked and applied under the lock of every table of the chat, so nobody sits down
        between the check of the seats and the change."""
        async with contextlib.AsyncExitStack() as held:
            await held.enter_async_context(self._settings_locks.setdefault(chat_id,
                                                                           asyncio.Lock()))
            new = change(await self.chat_settings(chat_id), name, value)
            tables = sorted((t for t in self.tables.values() if t.chat_id == chat_id),
                            key=lambda t: t.id)
            for live in tables:
                await held.enter_async_context(live.lock)
            if any(len(t.table.seats) > new.max_seats for t in tables):
                raise BadSetting(N_("{name} {value} is not accepted: {why}"), name=name,
                                 value=value, why=N_("more players are seated"))
            await self.store.chats.set_settings(chat_id, new.model_dump(mode="json"))
            for live in tables:
                live.next_settings = new
                if live.hand is None and live.status is not TableStatus.CLOSED:
                    try:
                        await self._take_settings(live)
                    except StoreError as err:
                        # Saved for the chat; the table takes it at its next deal.
                        log.warning("table %s: new settings wait for the next deal: %s",
                                    live.id, err)
                    await self._publish(live)
        return new

    async def speak(self, chat_id: int, language: str) -> None:
        """The chat's tables are shown in `language` from now on (their timers untouched)."""
        for live in [t for t in self.tables.values() if t.chat_id == chat_id]:
            async with live.lock:
                if live.language != language:
                    live.language = language
                    self.outbox.show(live)

    async def _take_settings(self, live: Live) -> None:
        new = live.next_settings
        if new is None:
            return
        await self.store.tables.set_rules(live.id, new.model_dump(mode="json"))
        # Forgotten only once written: a failed write keeps them for the next try.
        live.next_settings = None
        live.settings = new
        live.table.rules = new.rules()

    # ----------------------------------------------------------------- told by the outbox

    async def message_sent(self, live: Live, message_id: int) -> None:
        try:
            await self.store.tables.set_message(live.id, message_id)
        except StoreError as err:
            # Kept in memory; after a restart the table is posted anew.
            log.warning("table %s: could not save its message id: %s", live.id, err)

    async def shown(self, live: Live, digest: str) -> None:
        # Kept in memory and written at a clean stop (`keep_shown`), not after every edit:
        # after a crash a stale digest costs one edit that changes nothing.
        live.shown = digest

    async def keep_shown(self) -> None:
        """At a clean stop: what each table message shows, so a restart does not edit a
        message into what it already shows, and which cards went out, so a restart does
        not send them again."""
        for live in list(self.tables.values()):
            if live.status is TableStatus.CLOSED:
                continue
            await self._keep_cards_sent(live)
            if live.shown is None:
                continue
            try:
                await self.store.tables.set_shown(live.id, live.shown)
            except StoreError as err:
                log.warning("table %s: could not remember the table message: %s", live.id, err)

    async def cards_sent(self, live: Live, hand_id: int, rounds: int) -> None:
        # Written with the hand's next step, not in a transaction of its own; a hand
        # that is over no longer needs it (its cards are never sent again).
        if live.hand_id == hand_id and live.hand is not None and not live.hand.is_over:
            live.cards_due = max(live.cards_due, rounds)

    async def _keep_cards_sent(self, live: Live) -> None:
        if not live.cards_due or live.hand is None or live.hand.is_over:
            return
        try:
            await self.store.hands.set_cards_sent(live.hand_id, live.cards_due)
            live.cards_due = 0
        except StoreError as err:
            log.warning("table %s: could not record the cards of hand %s as sent: %s",
                        live.id, live.hand_id, err)

    async def results_sent(self, live: Live) -> None:
        try:
            await self.store.tables.results_sent(live.id)
        except StoreError as err:
            # Due still: sent once more at the next start.
            log.warning("table %s: could not record its results as sent: %s", live.id, err)

    async def blocked(self, player: int) -> None:
        try:
            await self.store.users.set_private_chat(player, False)
        except StoreError as err:
            log.warning("could not record that %s cannot be written to: %s", player, err)

    async def chat_moved(self, old: int, new: int) -> None:
        await self.migrate(old, new)

    async def chat_gone(self, chat_id: int) -> None:
        await self.evict(chat_id)

    # ----------------------------------------------------------------- the group itself

    async def migrate(self, old: int, new: int) -> None:
        """A group became a supergroup with a new id: its tables, settings, language,
        history and statistics move there, and the game goes on in the new chat."""
        async with contextlib.AsyncExitStack() as held:
            await held.enter_async_context(self._settings_locks.setdefault(old,
                                                                           asyncio.Lock()))
            tables = sorted((t for t in self.tables.values() if t.chat_id == old),
                            key=lambda t: t.id)
            for live in tables:
                await held.enter_async_context(live.lock)
            moved = await self.store.chats.migrate(old, new)
            for live in tables:
                self._places.pop((old, live.thread_id or 0), None)
                live.chat_id = new
                self._places[(new, live.thread_id or 0)] = live.id
                self.outbox.moved(live)
                await self._publish(live)
        if moved or tables:
            log.info("chat %s moved to %s with %d tables", old, new, moved)

    async def evict(self, chat_id: int) -> None:
        """The bot was removed from a group or may no longer write there: its tables close,
        a hand in progress is refunded (nobody there can act), every stack goes home, and
        the players are told privately."""
        for live in [t for t in self.tables.values() if t.chat_id == chat_id]:
            async with live.lock:
                if self._forgotten(live) or live.status is TableStatus.CLOSED:
                    continue
                players = [s.player for s in live.table.seats if s.player > 0]
                try:
                    if live.hand is not None and not live.hand.is_over:
                        await self.store.hands.abort(live.hand_id,
                                                     "the bot can no longer write to the group")
                        live.hand = None
                        await self.reload(live)
                    await self._close(live, EVICTED)
                except StoreError as err:
                    # Nothing changed; the next message Telegram refuses tells us again.
                    log.warning("table %s: could not close it in a chat it cannot write to:"
                                " %s", live.id, err)
                    continue
                letters = [(p, await self._speaks_or(p, live.language)) for p in players]
                self.outbox.evicted(live, letters)
                log.info("table %s closed: the bot can no longer write to chat %s",
                         live.id, chat_id)

    # ----------------------------------------------------------------- lobby

    async def open_table(self, chat_id: int, thread_id: int | None, creator: Player) -> Live:
        """/newgame: a lobby with the chat's settings, shown as a new table message."""
        place = (chat_id, thread_id or 0)
        try:
            async with self._opening.setdefault(place, asyncio.Lock()):
                if self.at(chat_id, thread_id) is not None:
                    raise errors.TableExists()
                await self.player(creator)
                settings = await self.chat_settings(chat_id)
                chat = await self.store.chats.get(chat_id)
                language = chat.language
                if language is None:  # the chat's first table: it reads its opener's language
                    language = await self.speaks(creator.id)
                # The lobby's first wait is written with the table.
                wait = self.waits.follow(None, _lobby_want(settings, 0, 0))
                try:
                    row = await self.store.tables.open(chat_id, creator=creator.id,
                                                       thread_id=thread_id,
                                                       rules=settings.model_dump(mode="json"),
                                                       wait=None if wait is None
                                                       else wait.to_json(),
                                                       draw=self.store.fairness.draw,
                                                       language=language)
                except StoreTableExists:
                    # The store has a table here that memory lost: hold it again.
                    await self._hold_stored(chat_id, thread_id)
                    raise errors.TableExists() from None
                live = Live(row.id, chat_id, thread_id, creator.id, settings,
                            Table(settings.rules()), language=language,
                            wait=wait, stored_wait=wait)
                live.table_commitment = await fairness.table_commitment(self.store, row.id)
                live.name(creator.id, creator.name)
                self._register(live)
        finally:
            self._opening.pop(place, None)
        async with live.lock:
            await self._publish(live)
        return live

    async def _hold_stored(self, chat_id: int, thread_id: int | None) -> None:
        """Bring back the live table the store has at this place, if memory lacks it."""
        for row in await self.store.tables.live_tables():
            if (row.chat_id, row.thread_id or 0) == (chat_id, thread_id or 0) \
                    and row.id not in self.tables:
                live = await self._live_of(row)
                self._register(live)
                async with live.lock:
                    await self._publish(live)

    async def adopt(self, live: Live) -> None:
        """A table opened and seated in the store elsewhere (a practice table): hold it
        from now on and deal its first hand."""
        await self.reload(live)
        self._register(live)
        async with live.lock:
            await self._deal(live)

    async def join(self, live: Live, who: Player) -> int:
        """Sit down with a buy-in: the balance up to the table's maximum; or, for a broke
        player where the chat allows rebuys, with the table's rebuy from the house. The
        chips he took from the house (0: none)."""
        taken = 0
        balance = await self.player(who)
        user = await self.store.users.get(who.id)
        if not user.private_chat:
            raise errors.NeedPrivateChat(live.id)
        async with live.lock:
            self._check_live(live)
            if live.table.seat(who.id) is not None:
                raise errors.AlreadySeated()
            if live.closing:
                raise errors.Closing()
            seats = live.settings.max_seats
            if live.next_settings is not None:  # fewer seats from the next deal on
                seats = min(seats, live.next_settings.max_seats)
            if len(live.table.seats) >= seats:
                raise errors.TableFull()
            ante, most = live.settings.ante, live.settings.max_buy_in
            rebuy = self._rebuy_of(live)
            broke = min(balance, most) < ante
            if broke and rebuy is None:
                raise await self.short_of_chips(who.id, ante=ante, balance=balance)
            wait: Wait | None = None
            if live.status is TableStatus.LOBBY:
                # What the lobby waits for once he sits (his buy-in is at least the ante),
                # written with his seat.
                wait = self.waits.follow(live.wait, _lobby_want(
                    live.settings, len(live.table.seats) + 1,
                    len(live.table.players_ready()) + 1))
            stored = None if wait is None or wait == live.stored_wait else wait.to_json()
            try:
                if broke and rebuy is not None:
                    # Broke where the chat allows rebuys: he sits down with one.
                    seat = await self.store.gifts.sit_with_rebuy(
                        live.id, who.id, rebuy, most=live.settings.rebuys, ante=ante,
                        high=most, daily=self.house_daily, wait=stored)
                    taken = seat.stack
                else:
                    # His balance up to the maximum, read where it moves: another table may
                    # have taken some since.
                    seat = await self.store.tables.join(
                        live.id, who.id, most, min_buy_in=ante, wait=stored,
                        stakes=(ante, most))
            except InsufficientChips as err:
                raise await self.short_of_chips(who.id, ante=ante, balance=err.have) from None
            except NoRebuyLeft:  # his rebuys here are taken: the other ways
                raise await self.short_of_chips(who.id, ante=ante, balance=balance) from None
            except HouseDayLimit as err:
                raise errors.HouseDay(left=err.left) from None
            live.table.sit(who.id, seat.stack)
            if wait is not None:
                live.wait = live.stored_wait = wait
            live.name(who.id, who.name)
            live.note = None
            await self._publish(live)
            return taken

    def _rebuy_of(self, live: Live) -> int | None:
        """The chips of the table's rebuy (None: the table has none, as a practice table)."""
        return None if live.chat_id > 0 else live.settings.rebuy

    async def short_of_chips(self, user_id: int, *, ante: int,
                             balance: int) -> errors.NotEnoughChips:
        """The refusal of a seat to a player short of chips, naming the ways back that
        work now: a friend's gift, and the daily bonus now or when it comes."""
        user = await self.store.users.find(user_id)
        last = None if user is None else user.last_bonus_at
        due = 0 if last is None else max(0, int(last + DAY - self.clock()))
        return errors.NotEnoughChips(ante=ante, balance=balance, daily_in=due)

    async def empty_balance(self, live: Live, user_id: int,
                            stack: int) -> errors.EmptyBalance:
        """The answer to a top-up from an empty balance: the ways to chips that work now
        (the table's rebuy if his stack is below the ante and he has one left)."""
        short = await self.short_of_chips(user_id, ante=live.settings.ante, balance=0)
        rebuy = self._rebuy_of(live)
        if rebuy is not None and (stack >= live.settings.ante or await
                                  self.store.gifts.rebuys_of(live.id, user_id)
                                  >= live.settings.rebuys):
            rebuy = None
        return errors.EmptyBalance(rebuy=rebuy, daily_in=short.daily_in)

    async def leave(self, live: Live, who: Player) -> None:
        """Stand up: now between hands, or fold now and go when the hand ends."""
        async with live.lock:
            self._check_live(live)
            if live.table.seat(who.id) is None:
                raise errors.NotAtTable()
            hand = live.hand
            seat = None if hand is None else hand.seat_of(who.id)
            if hand is not None and seat is not None and not hand.is_over:
                if hand.seats[seat].leaving:
                    return
                # The fold and the seat's leave are one write.
                await self._apply(live, Action(Act.LEAVE, seat), leaving=who.id)
                return
            await self.store.tables.leave(live.id, who.id)
            live.table.stand(who.id)
            await self._publish(live)

    async def top_up(self, live: Live, who: Player, amount: int | None) -> int:
        """Between his hands a player brings more chips: `amount`, or up to the maximum."""
        balance = await self.player(who)
        async with live.lock:
            self._check_live(live)
            seat = live.table.seat(who.id)
            if seat is None:
                raise errors.NotAtTable()
            if live.table.in_hand and who.id in live.table.dealt:
                hand = live.hand
                index = None if hand is None else hand.seat_of(who.id)
                if hand is not None and index is not None and _takes_part(hand, index):
                    raise errors.WaitForHand()
                raise errors.TopUpAfterHand()
            room = live.settings.max_buy_in - seat.stack
            if balance == 0 and room > 0:
                raise await self.empty_balance(live, who.id, seat.stack)
            wanted = min(room, balance) if amount is None else amount
            if not 1 <= wanted <= min(room, balance):
                raise errors.BadTopUp(room=max(room, 0), balance=balance)
            try:
                row = await self.store.tables.top_up(
                    live.id, who.id, room if amount is None else amount,
                    min_amount=1 if amount is None else amount)
            except InsufficientChips as err:
                raise errors.BadTopUp(room=max(room, 0), balance=err.have) from None
            live.table.top_up(who.id, row.stack - seat.stack, live.settings.max_buy_in)
            await self._publish(live)
            return seat.stack

    async def rebuy(self, live: Live, who: Player) -> tuple[int, int, int]:
        """/rebuy: a broke player takes the table's rebuy from the house (bot.store.gifts);
        the chips he took, his new stack and how many rebuys he has left.

        During his own hand: `WaitForHand` if the rebuy would bring chips should he lose
        the chips he has in play (it is then queued), `NotBroke` if it never would."""
        balance = await self.player(who)
        async with live.lock:
            self._check_live(live)
            chips, most = self._rebuy_of(live), live.settings.rebuys
            if chips is None:
                raise errors.NoRebuys()
            seat = live.table.seat(who.id)
            if seat is None:
                raise errors.NotAtTable()
            ante = live.settings.ante
            if live.table.in_hand and who.id in live.table.dealt:
                hand = live.hand
                index = None if hand is None else hand.seat_of(who.id)
                behind = seat.stack if hand is None or index is None \
                    else hand.seats[index].stack
                if behind >= ante or balance >= ante:
                    raise errors.NotBroke()
                if await self.store.gifts.rebuys_of(live.id, who.id) >= most:
                    raise errors.RebuysUsed(most=most)
                raise errors.WaitForHand()
            try:
                stack = await self.store.gifts.rebuy(live.id, who.id, chips, most=most,
                                                     below=ante,
                                                     high=live.settings.max_buy_in,
                                                     daily=self.house_daily)
            except HouseDayLimit as err:
                raise errors.HouseDay(left=err.left) from None
            except NoRebuyLeft as err:
                if err.why == "not broke":
                    raise errors.NotBroke() from None
                raise errors.RebuysUsed(most=most) from None
            taken = stack - seat.stack
            live.table.top_up(who.id, taken, stack)
            if live.wait is not None and live.wait.kind is WaitKind.GRACE:
                await self._publish(live)  # the table waited for him: the next deal
            else:
                self.outbox.show(live)  # the timers run on untouched
            return taken, stack, most - await self.store.gifts.rebuys_of(live.id, who.id)

    async def start(self, live: Live, who: Player, *, is_admin: bool) -> None:
        """The creator or an admin deals the first hand."""
        async with live.lock:
            self._check_live(live)
            if live.status is not TableStatus.LOBBY:
                raise errors.AlreadyStarted()
            if who.id != live.creator and not is_admin:
                raise errors.OnlyCreatorOrAdmin()
            if not live.table.can_deal():
                raise errors.NeedPlayers()
            await self._deal(live)

    async def come_back(self, live: Live, who: Player) -> None:
        """ "I'm back": a player sitting out is dealt in again from the next hand."""
        async with live.lock:
            self._check_live(live)
            seat = live.table.seat(who.id)
            if seat is None:
                raise errors.NotAtTable()
            if not seat.sitting_out:
                if seat.stack < live.settings.ante:
                    raise errors.TooFewChips(ante=live.settings.ante)
                raise errors.AlreadyPlaying()
            await self.store.tables.update_seat(live.id, who.id, sitting_out=False, timeouts=0)
            live.table.set_away(who.id, False)
            await self._publish(live)

    async def end(self, live: Live, who: Player, *, is_admin: bool) -> None:
        """/endgame: close the table now, or when the hand in progress ends (never refund it)."""
        async with live.lock:
            self._check_live(live)
            if who.id != live.creator and not is_admin:
                raise errors.OnlyCreatorOrAdmin()
            if live.hand is not None and not live.hand.is_over:
                if live.closing:
                    raise errors.Closing()
                await self.store.tables.set_closing(live.id)
                live.closing = True
                self.outbox.show(live)  # the turn's timer runs on untouched
                return
            await self._close(live, CLOSED_NOW)

    # ----------------------------------------------------------------- play

    async def press(self, live: Live, who: Player, action: Action, *, hand_id: int,
                    seq: int | None) -> tuple[Event, ...]:
        """Apply a player's action, pressed on a button of hand `hand_id`, turn `seq`; what
        it did."""
        async with live.lock:
            hand = live.hand
            if hand is None or hand_id != live.hand_id or hand.is_over:
                raise errors.Expired()
            if seq is not None and seq != len(hand.actions):
                raise errors.Expired()
            seat = hand.seat_of(who.id)
            if seat is None:
                raise errors.NotAtTable()
            action = Action(action.act, seat, action.amount)
            if action.act in TURN_ACTS and hand.phase is not Phase.SVARA_JOIN \
                    and seat != hand.to_act:
                raise errors.NotYourTurn()
            hand.verify(action)
            return await self._apply(live, action)

    def cards(self, live: Live, who: Player, hand_id: int) -> tuple[Hand, int]:
        """The hand and seat whose cards the "My cards" button shows."""
        hand = live.hand
        if hand is None or hand_id != live.hand_id:
            raise errors.Expired()
        seat = hand.seat_of(who.id)
        if seat is None and live.table.seat(who.id) is None:
            raise errors.NotAtTable()
        if seat is None:
            raise errors.NoCardsThisRound()  # he sat down during the hand
        me = hand.seats[seat]
        if me.in_round:
            return hand, seat
        if _dealt_in(hand, seat):
            raise errors.NoCardsThisRound()  # a svara he is not in
        if not me.sitting_out:
            raise errors.NoCardsShort()
        at_table = live.table.seat(who.id)
        if at_table is not None and not at_table.sitting_out:
            raise errors.NoCardsThisRound()  # away when dealt, back from the next hand
        raise errors.NoCardsAway()

    async def on_timer(self, table_id: int, wait: Wait) -> None:
        """A table's timer rang; it acts only if the table still waits for exactly that.

        Whatever goes wrong here (the store, the engine, a bug), the table is left waiting
        for something: it is reloaded from the store and the wait rings again a little later.
        """
        live = self.tables.get(table_id)
        if live is None:
            return
        async with live.lock:
            if live.wait != wait:
                return
            try:
                await self._ring(live, wait)
                if live.wait == wait and not self._forgotten(live):
                    raise RuntimeError(f"still waiting for {wait.kind} after it rang")
            except Exception as err:
                await self._recover(live, wait, err)

    async def on_remind(self, table_id: int, wait: Wait) -> None:
        """The reminder of a turn that still waits: the player to act is told privately."""
        live = self.tables.get(table_id)
        if live is None:
            return
        async with live.lock:
            hand = live.hand
            if live.wait != wait or hand is None or hand.to_act is None:
                return
            player = hand.seats[hand.to_act].player
            if player < 0:  # a computer player
                return
            try:
                user = await self.store.users.get(player)
                if not user.private_chat or not await self.store.users.notify(player):
                    return
            except StoreError as err:
                log.info("table %s: no reminder for %s: %s", live.id, player, err)
                return
            self.outbox.remind(live, player, user.speaks, math.ceil(wait.left(self.clock())))

    async def _recover(self, live: Live, wait: Wait, err: Exception) -> None:
        """A timer failed: log it, make memory what the store holds, and wait again."""
        if isinstance(err, StoreError | errors.StoreBusy):
            log.warning("table %s: the %s timer could not be saved (%s); trying again",
                        live.id, wait.kind, err)
        else:
            log.error("table %s: the %s timer failed", live.id, wait.kind, exc_info=err)
        retry = wait.again(self.clock())
        try:
            await self._restore(live)
        except Exception as again:
            log.warning("table %s: could not reload it from the store (%s); again in %.0f s",
                        live.id, again, retry.seconds)
            live.wait = retry
            self._arm(live)
            return
        if self._forgotten(live):
            return
        want = self._want(live)
        if want is not None and (want.kind, want.hand_id, want.turn) == wait.name:
            live.wait = retry  # the same wait, a little later
        await self._publish(live)

    async def _results(self, live: Live) -> tuple[Results, dict[int, str]] | None:
        """What each player won or lost at a table that closed (None: no hand was played,
        or the ledger cannot be read now)."""
        if live.played == 0:
            return None
        try:
            nets = await self.store.users.session(live.id)
            biggest = await self.store.users.biggest_pot(live.id)
            names = dict(live.names)
            for result in nets:
                if result.user_id not in names:
                    names[result.user_id] = (await self.store.users.get(result.user_id)).name
        except StoreError as err:
            log.warning("table %s: no results message, the ledger could not be read: %s",
                        live.id, err)
            return None
        if not nets:
            return None
        return Results(live.played, tuple((r.user_id, r.net) for r in nets), biggest,
                       tuple((r.user_id, r.rebuys) for r in nets if r.rebuys)), names

    def _forgotten(self, live: Live) -> bool:
        return self.tables.get(live.id) is not live

    async def _ring(self, live: Live, wait: Wait) -> None:
        """Do what a timer that rang waits for (under the lock)."""
        if wait.kind in (WaitKind.NEXT, WaitKind.GRACE):
            # After a grace nobody came back in, the deal closes the table.
            if live.closing:
                await self._close(live, CLOSED_AS_ASKED)
            else:
                await self._deal(live)
        elif wait.kind is WaitKind.AUTOSTART:
            if live.status is TableStatus.LOBBY and live.table.can_deal():
                await self._deal(live)
            else:
                await self._publish(live)
        elif wait.kind is WaitKind.IDLE:
            if live.status is TableStatus.LOBBY:
                await self._close(live, N_("Nobody started the game: the table is closed "
                                           "and every buy-in went back."))
        elif live.hand is not None and not live.hand.is_over:
            if wait.kind is WaitKind.SVARA:
                await self._apply(live, Action(Act.CLOSE_SVARA))
            elif live.hand.to_act is not None:
                await self._apply(live, Action(Act.TIMEOUT, live.hand.to_act))
        else:
            await self._publish(live)

    # ----------------------------------------------------------------- inside the lock

    def _check_live(self, live: Live) -> None:
        if live.status is TableStatus.CLOSED:
            raise errors.NoTable()

    async def _deal(self, live: Live) -> None:
        await self._take_settings(live)
        if not live.table.can_deal():
            await self._close(live, _why_no_deal(live.table))
            return
        try:
            deal = await fairness.next_deal(self.store, live.id,
                                            [s.player for s in live.table.seats])
            # A test may deal from a seed of its own; then the hand has no derivation to prove.
            fixed = None if self.seed_source is None else self.seed_source()
            hand = live.table.deal(deal.key if fixed is None else fixed)
            began: list[Wait] = []

            def first_wait(hand_id: int) -> str | None:
                # The hand's first wait is written with it.
                wait = self.waits.follow(None, _hand_want(live.settings, hand, hand_id))
                began.extend([] if wait is None else [wait])
                return None if wait is None else wait.to_json()

            hand_id, number = await self.store.hands.open_numbered(
                live.id, hand, None if fixed is not None else (deal.nonce, deal.seeds),
                seats=deal.seats, wait=first_wait)
        except StoreError as err:
            self.refusals.saw(live.id, "the new hand", err)
            await self.reload(live)
            raise errors.StoreBusy() from None
        live.last, live.last_id = live.outcome, live.hand_no
        live.hand, live.hand_id, live.hand_no = hand, hand_id, number
        live.seeds = deal.seeds if fixed is None else ()
        live.cards_due = 0
        if began:
            live.wait = live.stored_wait = began[0]
        live.played += 1
        live.table_commitment = deal.commitment
        live.status = TableStatus.PLAYING
        live.outcome = live.note = None
        if hand.is_over:
            # Over at the deal (everyone all-in on the ante): nothing to play, only to settle.
            await self.store.hands.settle(hand_id, hand)
        await self._after(live, hand.events)

    async def _apply(self, live: Live, action: Action, *,
                     leaving: int | None = None) -> tuple[Event, ...]:
        hand = live.hand
        assert hand is not None
        events = tuple(hand.apply(action))
        # What the table waits for after this step is written with it, in one transaction.
        wait = self.waits.follow(live.wait, self._want(live))
        stored = None if wait is None or wait == live.stored_wait else wait.to_json()
        try:
            if hand.is_over:
                await self.store.hands.settle(live.hand_id, hand, action=action, events=events,
                                              leaving=leaving, wait=stored)
            else:
                await self.store.hands.record(live.hand_id, action, events,
                                              seq=len(hand.actions), leaving=leaving,
                                              wait=stored, cards_sent=live.cards_due)
                live.cards_due = 0
        except StoreError as err:
            self.refusals.saw(live.id, action, err)
            live.hand = Hand.replay(hand.start_json(),
                                    [a.to_json() for a in hand.actions[:-1]])
            raise errors.StoreBusy() from None
        live.wait = live.stored_wait = wait
        await self._after(live, events)
        return events

    async def _after(self, live: Live, events: tuple[Event, ...] | list[Event]) -> None:
        """Show what happened, send new cards, settle a finished hand, arm the timer.

        Called once the step is stored: nothing here may undo it, so a failure to close a
        table that asked to close leaves it waiting to close again at the next timer."""
        hand = live.hand
        assert hand is not None
        dealt = [e for e in events if isinstance(e, Dealt)]
        if hand.is_over:
            await self._finish(live, hand)
            if live.closing:
                try:
                    await self._close(live, CLOSED_AS_ASKED)
                except StoreError as err:
                    log.warning("table %s: could not close after its hand (%s); it closes at "
                                "its next timer", live.id, err)
        if live.status is not TableStatus.CLOSED:
            await self._publish(live)
        if dealt:
            await self._send_cards(live, hand, dealt[-1])

    async def _send_cards(self, live: Live, hand: Hand, dealt: Dealt) -> None:
        """The private cards of the round `dealt` opened (earlier rounds no longer matter)."""
        rounds = sum(1 for e in hand.events if isinstance(e, Dealt))
        # Computer players sit with negative ids (bot.store.practice): they have no chat.
        hands = [h for h in private_hands(hand, dealt.seats, live.hand_no, live.seeds)
                 if h.player > 0]
        letters = [(h, await self._speaks_or(h.player, live.language)) for h in hands]
        self.outbox.send_cards(live, letters, hand_id=live.hand_id, rounds=rounds)

    async def _speaks_or(self, user_id: int, otherwise: str | None) -> str | None:
        """The user's language; `otherwise` when the store cannot say (his cards matter
        more than their language)."""
        try:
            user = await self.store.users.get(user_id)
        except StoreError as err:
            log.warning("could not read %s's language: %s", user_id, err)
            return otherwise
        return user.speaks

    async def _finish(self, live: Live, hand: Hand) -> None:
        """The hand is settled in the store: take its stacks back to the table."""
        live.outcome = _outcome(hand)
        before = {s.player: s.sitting_out for s in live.table.seats}
        live.table.settle(hand)
        live.hand = None
        for seat in live.table.seats:
            if seat.sitting_out and not before.get(seat.player, False):
                try:
                    await self.store.tables.update_seat(live.id, seat.player, sitting_out=True,
                                                        timeouts=seat.timeouts)
                except StoreError as err:
                    # The hand is settled; only a restart would forget he sits out.
                    log.warning("table %s: could not save that %s sits out: %s",
                                live.id, seat.player, err)
        for hook in self.after_hand:
            await hook(live, hand, before)

    async def _close(self, live: Live, note: str) -> None:
        """Close a table between hands: every stack goes back. A hand is never refunded here."""
        assert live.hand is None or live.hand.is_over, "a table closes between hands"
        # A table that played owes its chat a results message until it is delivered.
        await self.store.tables.close(live.id, reveal=live.settings.reveal,
                                      results=live.played > 0)
        live.hand = None
        # The reveal fixed when the table opened decides, not today's setting.
        live.table_secret = await fairness.revealed(self.store, live.id)
        live.status = TableStatus.CLOSED
        live.note = note
        live.results = await self._results(live)
        await self._publish(live)
        self._forget(live)

    async def _publish(self, live: Live) -> None:
        """Show the table as it is, and keep (or begin) the wait it is in now."""
        wait = self.waits.follow(live.wait, self._want(live))
        if wait != live.wait:
            live.wait = wait
        if wait != live.stored_wait and live.status is not TableStatus.CLOSED:
            try:
                await self.store.tables.set_wait(live.id, None if wait is None
                                                 else wait.to_json())
                live.stored_wait = wait
            except StoreError as err:
                # Only a restart needs it: then this wait would begin again.
                log.warning("table %s: could not remember its deadline: %s", live.id, err)
        self.outbox.show(live)
        self._arm(live)
        for watch in self.watchers:
            watch(live)

    def _arm(self, live: Live) -> None:
        wait = live.wait
        after = live.settings.nudge_after
        remind_at = None
        if wait is not None and wait.kind in (WaitKind.TURN, WaitKind.BLIND) and after \
                and after < wait.seconds:
            remind_at = wait.started + after
        self.waits.arm(live.id, wait, lambda w: self.on_timer(live.id, w),
                       remind_at=remind_at, remind=lambda w: self.on_remind(live.id, w))

    def _want(self, live: Live) -> Want | None:
        """What the table should wait for now (the clock keeps a wait that stays the same)."""
        s = live.settings
        if live.status is TableStatus.CLOSED:
            return None
        hand = live.hand
        if live.status is TableStatus.LOBBY:
            return _lobby_want(s, len(live.table.seats), len(live.table.players_ready()))
        if (hand is None or hand.is_over) and comeback(live):
            return Want(WaitKind.GRACE, live.hand_id, 0, REBUY_GRACE)
        return _hand_want(s, hand, live.hand_id)

    # ----------------------------------------------------------------- start-up

    async def reload(self, live: Live) -> None:
        """Rebuild a table's seats from the database (after a refund or a failed write)."""
        seats = await self.store.tables.seats(live.id)
        last = await self.store.hands.last(live.id)
        start = None if last is None else last.start
        result = (None if last is None else last.result) or {}
        keep = bool(result.get("dealer_keeps_deal"))
        live.table = Table.resume(
            live.settings.rules(),
            [TableSeat(s.user_id, s.stack, s.sitting_out, s.timeouts) for s in seats],
            start, keep,
        )
        live.hand_no = 0 if last is None else last.number
        live.played = await self.store.hands.count(live.id)
        live.table_commitment = await fairness.table_commitment(self.store, live.id)
        for s in seats:
            if s.user_id not in live.names:
                user = await self.store.users.get(s.user_id)
                live.name(s.user_id, display_name(user.name, s.user_id))

    async def _live_of(self, row: StoredTable) -> Live:
        """A table as the store holds it: seats, settings, its hand in progress, its wait."""
        chat = await self.store.chats.get(row.chat_id)
        settings = TableSettings.load(row.rules, **self.defaults.model_dump())
        live = Live(row.id, row.chat_id, row.thread_id, row.creator, settings,
                    Table(settings.rules()), status=row.status, closing=row.closing,
                    language=chat.language or await self.speaks(row.creator))
        if not row.practice:
            # A change of the chat's settings during a hand is in the chat's row: the
            # table takes it at its next deal, after a restart too.
            wanted = await self.chat_settings(row.chat_id)
            if wanted != settings:
                live.next_settings = wanted
        await self._restore(live, row)
        return live

    async def _restore(self, live: Live, row: StoredTable | None = None) -> None:
        """Make memory what the store holds: status, seats, the hand in progress and what
        the table waits for (the store is the truth after a failed step)."""
        if row is None:
            row = await self.store.tables.get(live.id)
        live.status = row.status
        live.closing = row.closing
        if row.status is TableStatus.CLOSED:
            live.hand = None
            self._forget(live)
            self.outbox.show(live)
            self.waits.cancel(live.id)
            return
        await self.reload(live)
        live.hand = None
        last = await self.store.hands.last(live.id)
        if last is not None and last.status == "open":
            hand = Hand.replay(last.start, await self.store.hands.actions(last.id))
            live.hand, live.hand_id = hand, last.id
            proof = await self.store.fairness.proof(last.id)
            live.seeds = () if proof is None else proof.seeds
            live.table.resume_hand(hand)
            if hand.is_over:  # its last step was stored, its settling was not
                await self.store.hands.settle(last.id, hand)
                await self._finish(live, hand)
        elif last is not None:
            live.hand_id = last.id
        stored = Wait.from_json(row.wait)
        want = self._want(live)
        live.stored_wait = stored
        live.wait = stored if stored is not None and want is not None \
            and stored.name == (want.kind, want.hand_id, want.turn) else None

    async def resume_all(self) -> list[str]:
        """At start-up: recover unfinished hands, then bring every live table back, each
        waiting until the deadline it showed before (at once if that has passed)."""
        reports = await self.store.recover()
        lines = [r.describe() for r in reports]
        by_table = {r.table_id: r for r in reports}
        for row in await self.store.tables.live_tables():
            live = await self._live_of(row)
            report = by_table.get(row.id)
            if report is not None and report.outcome == "refunded":
                live.note = N_("The bot restarted and could not resume the hand: every chip "
                               "in it went back to its owner.")
            elif live.hand is None:
                # Between hands the table shows how the last one ended, after a restart too.
                live.outcome = await self._last_outcome(live)
            self._register(live)
            async with live.lock:
                self.outbox.resume(live, message_id=row.message_id, shown=row.shown)
                if live.closing and (live.hand is None or live.hand.is_over):
                    # /endgame came during a hand that has ended (or was refunded) since.
                    await self._close(live, CLOSED_AS_ASKED)
                    continue
                await self._publish(live)
                await self._resend_cards(live)
        for row in await self.store.tables.results_due():
            await self._results_again(row)
        return lines

    async def _results_again(self, row: StoredTable) -> None:
        """A table closed before the restart whose results message had not reached its
        chat: it is sent now (still due if the ledger cannot be read)."""
        chat = await self.store.chats.get(row.chat_id)
        settings = TableSettings.load(row.rules, **self.defaults.model_dump())
        live = Live(row.id, row.chat_id, row.thread_id, row.creator, settings,
                    Table(settings.rules()), status=TableStatus.CLOSED,
                    language=chat.language or await self.speaks(row.creator))
        live.played = await self.store.hands.count(row.id)
        live.results = await self._results(live)
        if live.results is None:
            return
        self.outbox.results_again(live)

    async def _last_outcome(self, live: Live) -> Outcome | None:
        """How the table's last hand ended, rebuilt from the database (None if it did not)."""
        last = await self.store.hands.last(live.id)
        if last is None or last.status != "settled":
            return None
        hand = Hand.replay(last.start, await self.store.hands.actions(last.id))
        return _outcome(hand) if hand.is_over else None

    async def _resend_cards(self, live: Live) -> None:
        """Cards of a round that was dealt but not sent before the process stopped."""
        hand = live.hand
        if hand is None or hand.is_over:
            return
        dealt = [e for e in hand.events if isinstance(e, Dealt)]
        row = await self.store.hands.get(live.hand_id)
        if len(dealt) > row.cards_sent:
            await self._send_cards(live, hand, dealt[-1])


def _outcome(hand: Hand) -> Outcome:
    """How a finished hand ended, as its last round showed it."""
    last_round = max(i for i, e in enumerate(hand.events) if isinstance(e, RoundStarted))
    return outcome_of(hand, since=last_round)


def _lobby_want(s: TableSettings, seated: int, ready: int) -> Want:
    """What a lobby with `seated` players, `ready` of them able to pay the ante, waits for."""
    if s.autostart and ready >= 2:
        return Want(WaitKind.AUTOSTART, 0, 0, s.autostart)
    # No wait is forever: a lobby nobody starts closes, and the buy-ins go back.
    return Want(WaitKind.IDLE, 0, seated, LOBBY_IDLE)


def _hand_want(s: TableSettings, hand: Hand | None, hand_id: int) -> Want:
    """What a playing table waits for with `hand` (None or over: the pause before the next)."""
    if hand is None or hand.is_over:
        return Want(WaitKind.NEXT, hand_id, 0, s.next_hand_delay)
    if hand.phase is Phase.SVARA_JOIN:
        svaras = sum(1 for e in hand.events if isinstance(e, SvaraOpened))
        return Want(WaitKind.SVARA, hand_id, svaras, s.svara_join_timeout)
    # A turn is the player to act and the steps taken before him; another player's leave is
    # not a step of the game, so it moves nobody's clock.
    steps = sum(1 for a in hand.actions if a.act is not Act.LEAVE)
    turn = steps * 64 + (hand.to_act or 0)
    if hand.phase is Phase.BLIND:
        return Want(WaitKind.BLIND, hand_id, turn, s.blind_timeout)
    return Want(WaitKind.TURN, hand_id, turn, s.turn_timeout)
