"""Tables in play: the one place where presses, commands and timers become engine actions.

Every change of a table runs under that table's lock, in the same order: check the
request, apply it to the engine, persist it (one transaction), then show it (one edit of
the table message) and arm the table's single timer. Nothing here knows Telegram: what
must be shown or timed goes through the `Outbox`.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from bot import errors
from bot.i18n import N_, normalize_language
from bot.names import display_name, distinct
from bot.render import (
    Outcome,
    PrivateHand,
    SeatView,
    TableView,
    outcome_of,
    private_hands,
)
from bot.store import Store, TableStatus
from bot.store.errors import InsufficientChips, NoRebuyLeft, StoreError
from bot.store.errors import TableExists as StoreTableExists
from bot.table_settings import BadSetting, TableSettings, change
from engine import Act, Action, Hand, Phase, new_seed
from engine.events import Dealt, Event, RoundStarted
from engine.table import Table, TableSeat

log = logging.getLogger(__name__)

LOBBY_IDLE = 30 * 60.0
"""Seconds a lobby waits for Start before it closes by itself."""

RETRY_MAX = 60.0
"""Longest pause between two tries of a timer whose write failed."""

TURN_ACTS = {Act.FOLD, Act.CALL, Act.RAISE, Act.ALL_IN, Act.BLIND, Act.NO_BLIND}
"""Actions bound to one turn: a press for an earlier turn is stale."""


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


class WaitKind(StrEnum):
    """What a table's timer does when it rings."""

    BLIND = "blind"
    """The player asked to bet blind did not answer: he passes."""
    TURN = "turn"
    """The player to act did not: he folds (or checks out of the turn)."""
    SVARA = "svara"
    """The time to join a svara is over: it is played by those in it."""
    NEXT = "next"
    """The pause between two hands is over: the next one is dealt."""
    AUTOSTART = "autostart"
    """A lobby with enough players starts by itself."""
    IDLE = "idle"
    """A lobby nobody started closes, and the buy-ins go back."""

    @property
    def shown(self) -> bool:
        """Whether the table message shows this wait's clock as the turn's."""
        return self not in (WaitKind.AUTOSTART, WaitKind.IDLE)


@dataclass(frozen=True, slots=True)
class Wait:
    """The table's one timer: what it will do, for which hand and turn."""

    kind: WaitKind
    hand_id: int
    seq: int
    seconds: float
    attempt: int = 0
    """How many times this wait already rang and could not be saved (it rings again)."""

    def again(self) -> Wait:
        """The same wait, to ring again after a failed write: 1, 2, 4 … 60 seconds on."""
        delay = min(RETRY_MAX, 2.0 ** self.attempt)
        return Wait(self.kind, self.hand_id, self.seq, delay, self.attempt + 1)


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
    deadline: float | None = None
    """When `wait` runs out (seconds since the epoch), as the table message shows it."""

    def name(self, player: int, name: str) -> None:
        """Remember how `player` is called here, told apart from everyone else seated."""
        others = [self.names[s.player] for s in self.table.seats
                  if s.player != player and s.player in self.names]
        self.names[player] = distinct(name, others)

    def view(self) -> TableView:
        seats = tuple(SeatView(s.player, self.names.get(s.player, "?"), s.stack, s.sitting_out)
                      for s in self.table.seats)
        wait = None if self.wait is None or not self.wait.kind.shown else self.wait
        return TableView(
            table_id=self.id, status=self.status, settings=self.settings, seats=seats,
            names=self.names, hand=self.hand, hand_id=self.hand_id, hand_no=self.hand_no,
            wait_seconds=None if wait is None else round(wait.seconds),
            outcome=self.outcome, note=self.note, last=self.last, last_id=self.last_id,
            autostart_seconds=math.ceil(self.wait.seconds)
            if self.wait is not None and self.wait.kind is WaitKind.AUTOSTART else None,
            closing=self.closing,
            private=self.chat_id > 0,  # private chats have positive ids, groups negative
            deadline=None if wait is None and (self.wait is None
                                               or self.wait.kind is not WaitKind.AUTOSTART)
            else self.deadline,
        )


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

    def send_cards(self, live: Live, hands: list[PrivateHand], *, hand_id: int,
                   rounds: int) -> None:
        """Send each player his cards privately (without holding up the table), then record
        that the hand's first `rounds` rounds went out."""

    def arm(self, live: Live, wait: Wait | None) -> None:
        """Replace the table's timer: call `Games.on_timer(live.id, wait)` when it rings."""

    def resume(self, live: Live, *, message_id: int | None, shown: str | None) -> None:
        """After a restart: the table's message and a digest of what it showed, as last
        stored, so a table that did not change is not edited again."""


class Games:
    """Every live table, keyed by id and by (chat, topic)."""

    def __init__(
        self,
        store: Store,
        outbox: Outbox,
        *,
        defaults: TableSettings,
        starting_chips: int,
        seed_source: Callable[[], bytes] = new_seed,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.outbox = outbox
        self.defaults = defaults
        self.starting_chips = starting_chips
        self.seed_source = seed_source
        self.clock = clock
        self.tables: dict[int, Live] = {}
        self._places: dict[tuple[int, int], int] = {}
        self._opening: dict[tuple[int, int], asyncio.Lock] = {}
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

    async def player(self, who: Player) -> int:
        """Make sure the player exists (new ones get the starting chips); his balance."""
        user, _ = await self.store.users.ensure(who.id, who.name, language=who.language,
                                                starting_chips=self.starting_chips,
                                                username=who.username)
        return user.balance

    async def speaks(self, user_id: int) -> str:
        """The language a user reads: the one he chose, else his client's."""
        user = await self.store.users.find(user_id)
        return normalize_language(None if user is None else user.speaks)

    async def chat_settings(self, chat_id: int) -> TableSettings:
        chat = await self.store.chats.get(chat_id)
        return TableSettings.load(chat.settings_dict(), **self.defaults.model_dump())

    async def change_settings(self, chat_id: int, name: str, value: str) -> TableSettings:
        """An admin changes one setting of the chat; live tables take it from their next deal."""
        new = change(await self.chat_settings(chat_id), name, value)
        tables = [t for t in self.tables.values() if t.chat_id == chat_id]
        if any(len(t.table.seats) > new.max_seats for t in tables):
            raise BadSetting(N_("{name} {value} is not accepted: {why}"), name=name, value=value,
                             why=N_("more players are seated"))
        await self.store.chats.set_settings(chat_id, new.model_dump(mode="json"))
        for live in tables:
            async with live.lock:
                live.next_settings = new
                if live.hand is None:
                    await self._take_settings(live)
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
        live.next_settings = None
        await self.store.tables.set_rules(live.id, new.model_dump(mode="json"))
        live.settings = new
        live.table.rules = new.rules()

    # ----------------------------------------------------------------- lobby

    async def open_table(self, chat_id: int, thread_id: int | None, creator: Player) -> Live:
        """/newgame: a lobby with the chat's settings, shown as a new table message."""
        place = (chat_id, thread_id or 0)
        async with self._opening.setdefault(place, asyncio.Lock()):
            if self.at(chat_id, thread_id) is not None:
                raise errors.TableExists()
            await self.player(creator)
            settings = await self.chat_settings(chat_id)
            chat = await self.store.chats.get(chat_id)
            try:
                row = await self.store.tables.open(chat_id, creator=creator.id,
                                                   thread_id=thread_id,
                                                   rules=settings.model_dump(mode="json"))
            except StoreTableExists:
                raise errors.TableExists() from None
            language = chat.language
            if language is None:  # the chat's first table: it reads its opener's language
                language = await self.speaks(creator.id)
                await self.store.chats.set_language(chat_id, language)
            live = Live(row.id, chat_id, thread_id, creator.id, settings,
                        Table(settings.rules()), language=language)
            live.name(creator.id, creator.name)
            self._register(live)
        self._opening.pop(place, None)
        async with live.lock:
            await self._publish(live)
        return live

    async def adopt(self, live: Live) -> None:
        """A table opened and seated in the store elsewhere (a practice table): hold it
        from now on and deal its first hand."""
        await self.reload(live)
        self._register(live)
        async with live.lock:
            await self._deal(live)

    async def join(self, live: Live, who: Player) -> None:
        """Sit down with a buy-in: the balance up to the table's maximum."""
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
            if len(live.table.seats) >= live.settings.max_seats:
                raise errors.TableFull()
            ante = live.settings.ante
            if min(balance, live.settings.max_buy_in) < ante:
                raise errors.NotEnoughChips(ante=ante, balance=balance)
            try:
                # His balance up to the maximum, read where it moves: another table may
                # have taken some since.
                seat = await self.store.tables.join(live.id, who.id, live.settings.max_buy_in,
                                                    min_buy_in=ante)
            except InsufficientChips as err:
                raise errors.NotEnoughChips(ante=ante, balance=err.have) from None
            live.table.sit(who.id, seat.stack)
            live.name(who.id, who.name)
            live.note = None
            await self._publish(live)

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
                await self.store.tables.leave(live.id, who.id)
                await self._apply(live, Action(Act.LEAVE, seat))
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

    async def rebuy(self, live: Live, who: Player) -> tuple[int, int]:
        """/rebuy: a broke player takes the table's rebuy from the house (bot.store.gifts);
        his new stack and how many rebuys he has left."""
        await self.player(who)
        async with live.lock:
            self._check_live(live)
            chips, most = live.settings.rebuy, live.settings.rebuys
            if chips is None or live.chat_id > 0:  # a practice table has none
                raise errors.NoRebuys()
            seat = live.table.seat(who.id)
            if seat is None:
                raise errors.NotAtTable()
            if live.table.in_hand and who.id in live.table.dealt:
                raise errors.WaitForHand()
            try:
                stack = await self.store.gifts.rebuy(live.id, who.id, chips, most=most,
                                                     below=live.settings.ante)
            except NoRebuyLeft as err:
                if err.why == "not broke":
                    raise errors.NotBroke() from None
                raise errors.RebuysUsed(most=most) from None
            live.table.top_up(who.id, stack - seat.stack, stack)
            self.outbox.show(live)  # the timers run on untouched
            return stack, most - await self.store.gifts.rebuys_of(live.id, who.id)

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
            await self._close(live, N_("The table was closed; every chip went back."))

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
        """A table's timer rang; it acts only if the table still waits for exactly that."""
        live = self.tables.get(table_id)
        if live is None:
            return
        async with live.lock:
            if live.wait != wait:
                return
            live.wait = None
            try:
                await self._ring(live, wait)
            except (StoreError, errors.StoreBusy) as err:
                # The disk is full or the file is locked: nothing was applied. The table
                # must not wait on nothing, so the same wait rings again, a little later.
                retry = wait.again()
                log.warning("table %s: the %s timer could not be saved (%s); again in %.0f s",
                            live.id, wait.kind, err, retry.seconds)
                live.wait = retry
                self.outbox.arm(live, retry)

    async def _ring(self, live: Live, wait: Wait) -> None:
        """Do what a timer that rang waits for (under the lock)."""
        if wait.kind is WaitKind.NEXT:
            await self._deal(live)
        elif wait.kind is WaitKind.AUTOSTART:
            if live.status is TableStatus.LOBBY and live.table.can_deal():
                await self._deal(live)
        elif wait.kind is WaitKind.IDLE:
            if live.status is TableStatus.LOBBY:
                await self._close(live, N_("Nobody started the game: the table is closed "
                                           "and every buy-in went back."))
        elif live.hand is not None and not live.hand.is_over:
            if wait.kind is WaitKind.SVARA:
                await self._apply(live, Action(Act.CLOSE_SVARA))
            elif live.hand.to_act is not None:
                await self._apply(live, Action(Act.TIMEOUT, live.hand.to_act))

    # ----------------------------------------------------------------- inside the lock

    def _check_live(self, live: Live) -> None:
        if live.status is TableStatus.CLOSED:
            raise errors.NoTable()

    async def _deal(self, live: Live) -> None:
        if not live.table.can_deal():
            await self._close(live, _why_no_deal(live.table))
            return
        await self._take_settings(live)
        hand = live.table.deal(self.seed_source())
        try:
            hand_id = await self.store.hands.open(live.id, hand)
        except StoreError as err:
            log.warning("table %s: could not open a hand: %s", live.id, err)
            await self.reload(live)
            raise errors.StoreBusy() from None
        live.last, live.last_id = live.outcome, live.hand_id
        live.hand, live.hand_id = hand, hand_id
        live.hand_no += 1
        live.status = TableStatus.PLAYING
        live.outcome = live.note = None
        if hand.is_over:
            # Over at the deal (everyone all-in on the ante): nothing to play, only to settle.
            await self.store.hands.settle(hand_id, hand)
        await self._after(live, hand.events)

    async def _apply(self, live: Live, action: Action) -> tuple[Event, ...]:
        hand = live.hand
        assert hand is not None
        events = tuple(hand.apply(action))
        try:
            if hand.is_over:
                await self.store.hands.settle(live.hand_id, hand, action=action, events=events)
            else:
                await self.store.hands.record(live.hand_id, action, events,
                                              seq=len(hand.actions))
        except StoreError as err:
            log.warning("table %s: could not save %s, undone: %s", live.id, action, err)
            live.hand = Hand.replay(hand.start_json(),
                                    [a.to_json() for a in hand.actions[:-1]])
            raise errors.StoreBusy() from None
        await self._after(live, events)
        return events

    async def _after(self, live: Live, events: tuple[Event, ...] | list[Event]) -> None:
        """Show what happened, send new cards, settle a finished hand, arm the timer."""
        hand = live.hand
        assert hand is not None
        dealt = [e for e in events if isinstance(e, Dealt)]
        if hand.is_over:
            await self._finish(live, hand)
            if live.closing:
                await self._close(live, CLOSED_AS_ASKED)
        if live.status is not TableStatus.CLOSED:
            await self._publish(live)
        if dealt:
            self._send_cards(live, hand, dealt[-1])

    def _send_cards(self, live: Live, hand: Hand, dealt: Dealt) -> None:
        """The private cards of the round `dealt` opened (earlier rounds no longer matter)."""
        rounds = sum(1 for e in hand.events if isinstance(e, Dealt))
        # Computer players sit with negative ids (bot.store.practice): they have no chat.
        hands = [h for h in private_hands(hand, dealt.seats, live.hand_no) if h.player > 0]
        self.outbox.send_cards(live, hands, hand_id=live.hand_id, rounds=rounds)

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
        live.hand = None
        await self.store.tables.close(live.id)
        live.status = TableStatus.CLOSED
        live.note = note
        live.wait = None
        self.outbox.arm(live, None)
        await self._publish(live)
        self._forget(live)

    async def _publish(self, live: Live) -> None:
        before = live.wait
        live.wait = self._next_wait(live)
        if live.wait is None:
            live.deadline = None
        elif live.wait is not before or live.deadline is None:
            live.deadline = self.clock() + live.wait.seconds
        self.outbox.show(live)
        self.outbox.arm(live, live.wait)
        for watch in self.watchers:
            watch(live)

    def _next_wait(self, live: Live) -> Wait | None:
        s = live.settings
        if live.status is TableStatus.CLOSED:
            return None
        hand = live.hand
        if live.status is TableStatus.LOBBY:
            if s.autostart and live.table.can_deal():
                keep = live.wait if live.wait and live.wait.kind is WaitKind.AUTOSTART else None
                return keep or Wait(WaitKind.AUTOSTART, 0, 0, s.autostart)
            # No wait is forever: a lobby nobody starts closes, and the buy-ins go back.
            return Wait(WaitKind.IDLE, 0, len(live.table.seats), LOBBY_IDLE)
        if hand is None:
            return Wait(WaitKind.NEXT, live.hand_id, 0, s.next_hand_delay)
        seq = len(hand.actions)
        if hand.phase is Phase.SVARA_JOIN:
            keep = live.wait if live.wait and live.wait.kind is WaitKind.SVARA else None
            return keep or Wait(WaitKind.SVARA, live.hand_id, seq, s.svara_join_timeout)
        if hand.phase is Phase.BLIND:
            return Wait(WaitKind.BLIND, live.hand_id, seq, s.blind_timeout)
        return Wait(WaitKind.TURN, live.hand_id, seq, s.turn_timeout)

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
        for s in seats:
            if s.user_id not in live.names:
                user = await self.store.users.get(s.user_id)
                live.name(s.user_id, display_name(user.name, s.user_id))

    async def resume_all(self) -> list[str]:
        """At start-up: recover unfinished hands, then bring every live table back."""
        reports = await self.store.recover()
        lines = [r.describe() for r in reports]
        by_table = {r.table_id: r for r in reports}
        for row in await self.store.tables.live_tables():
            chat = await self.store.chats.get(row.chat_id)
            settings = TableSettings.load(row.rules, **self.defaults.model_dump())
            live = Live(row.id, row.chat_id, row.thread_id, row.creator, settings,
                        Table(settings.rules()), status=row.status, closing=row.closing,
                        language=chat.language or await self.speaks(row.creator))
            await self.reload(live)
            report = by_table.get(row.id)
            if report is not None and report.hand is not None and not report.hand.is_over:
                live.hand, live.hand_id = report.hand, report.hand_id
                live.table.resume_hand(report.hand)
            elif report is not None and report.outcome == "refunded":
                live.note = N_("The bot restarted and could not resume the hand: every chip "
                               "in it went back to its owner.")
            else:
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
        return lines

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
            self._send_cards(live, hand, dealt[-1])


def _outcome(hand: Hand) -> Outcome:
    """How a finished hand ended, as its last round showed it."""
    last_round = max(i for i, e in enumerate(hand.events) if isinstance(e, RoundStarted))
    return outcome_of(hand, since=last_round)
