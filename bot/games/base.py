"""The state every job of a table shares, and the steps they all take: show a table
and keep its wait, close it, rebuild it from the store.

Every change of a table runs under that table's lock, in the same order: check the
request, apply it to the engine, persist it (one transaction), then show it (one edit of
the table message) and arm the table's single timer. Nothing here knows Telegram: what
must be shown or timed goes through the `Outbox`."""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable

from bot import errors, fairness
from bot.achievements import Award
from bot.clock import Alarms, Clock, Wait, WaitKind, Want
from bot.i18n import normalize_language
from bot.live import REBUY_GRACE, Live, Outbox, Player, comeback, hand_want, lobby_want
from bot.names import display_name
from bot.ops.refusals import Refusals
from bot.records import TableStatus
from bot.render.views import Results
from bot.store import Store
from bot.store.errors import StoreError
from bot.store.models import Table as StoredTable
from bot.table_settings import TableSettings
from engine import Action, Hand
from engine.events import Dealt, Event
from engine.table import Table, TableSeat

log = logging.getLogger(__name__)


class GamesBase(ABC):
    """Every live table, keyed by id and by (chat, topic): the state and the steps every
    job of a table shares."""

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
        """Called (under the table's lock) each time a table is shown (`_show`): how
        computer players (bot.practice) learn that it is their turn, and the Mini App that
        its pages have something new to show."""
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

    def _forgotten(self, live: Live) -> bool:
        return self.tables.get(live.id) is not live

    def _check_live(self, live: Live) -> None:
        if live.status is TableStatus.CLOSED:
            raise errors.NoTable()

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

    async def _speaks_or(self, user_id: int, otherwise: str | None) -> str | None:
        """The user's language; `otherwise` when the store cannot say (his cards matter
        more than their language)."""
        try:
            user = await self.store.users.get(user_id)
        except StoreError as err:
            log.warning("could not read %s's language: %s", user_id, err)
            return otherwise
        return user.speaks

    async def chat_settings(self, chat_id: int) -> TableSettings:
        chat = await self.store.chats.get(chat_id)
        return TableSettings.load(chat.settings_dict(), **self.defaults.model_dump())

    # ----------------------------------------------------------------- inside the lock

    async def _take_settings(self, live: Live) -> None:
        new = live.next_settings
        if new is None:
            return
        await self.store.tables.set_rules(live.id, new.model_dump(mode="json"))
        # Forgotten only once written: a failed write keeps them for the next try.
        live.next_settings = None
        live.settings = new
        live.table.rules = new.rules()

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
        self._arm(live)
        self._show(live)

    def _show(self, live: Live) -> None:
        """The one way a table is shown: its message (by the outbox), then every watcher."""
        self.outbox.show(live)
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
            return lobby_want(s, len(live.table.seats), len(live.table.players_ready()))
        if (hand is None or hand.is_over) and comeback(live):
            return Want(WaitKind.GRACE, live.hand_id, 0, REBUY_GRACE)
        return hand_want(s, hand, live.hand_id)

    async def _close(self, live: Live, note: str) -> None:
        """Close a table between hands: every stack goes back. A hand is never refunded here."""
        assert live.hand is None or live.hand.is_over, "a table closes between hands"
        # A table that played owes its chat a results message until it is delivered.
        await self.store.tables.close(live.id, reveal=live.settings.reveal,
                                      results=live.played > 0 and live.tournament is None)
        live.hand = None
        if live.tournament is not None:
            # Its places, and a pool given back by a close before its end.
            live.tournament = await self.store.tournaments.get(live.id)
        # The reveal fixed when the table opened decides, not today's setting.
        live.table_secret = await fairness.revealed(self.store, live.id)
        live.status = TableStatus.CLOSED
        live.note = note
        live.results = await self._results(live)
        await self._publish(live)
        self._forget(live)

    async def _results(self, live: Live) -> tuple[Results, dict[int, str]] | None:
        """What each player won or lost at a table that closed (None: no hand was played,
        or the ledger cannot be read now; a tournament's table shows its places instead)."""
        if live.played == 0 or live.tournament is not None:
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
        live.tournament = await self.store.tournaments.get(live.id)
        for s in seats:
            if s.user_id not in live.names:
                user = await self.store.users.get(s.user_id)
                live.name(s.user_id, display_name(user.name, s.user_id))
        for place in () if live.tournament is None else live.tournament.places:
            if place.user_id not in live.names:  # out of the tournament, named in its places
                user = await self.store.users.get(place.user_id)
                live.names[place.user_id] = display_name(user.name, place.user_id)
        await self._load_badges(live, [s.user_id for s in seats])

    async def _load_badges(self, live: Live, players: list[int]) -> None:
        """The badges these players hold, as the store has them (shown on their seats)."""
        if live.chat_id > 0:
            return  # a practice table shows none: nothing is earned there
        held = await self.store.achievements.of_players([p for p in players if p > 0])
        for p in players:
            live.badges[p] = tuple(held.get(p, ()))

    # ----------------------------------------------------------------- the jobs
    # Each job of a table lives in a module of its own (bot.games.*); these are the steps
    # one job takes through another.

    @abstractmethod
    async def _deal(self, live: Live) -> None:
        """Deal the table's next hand, or close it if none can be dealt (bot.games.play)."""

    @abstractmethod
    async def _apply(self, live: Live, action: Action, *,
                     leaving: int | None = None) -> tuple[Event, ...]:
        """Apply one checked action to the hand in play and store it (bot.games.play)."""

    @abstractmethod
    async def _finish(self, live: Live, hand: Hand, awards: tuple[Award, ...] = ()) -> None:
        """Take a settled hand's stacks back to the table (bot.games.play)."""

    @abstractmethod
    async def _send_cards(self, live: Live, hand: Hand, dealt: Dealt) -> None:
        """Send the private cards of the round `dealt` opened (bot.games.play)."""

    @abstractmethod
    async def on_timer(self, table_id: int, wait: Wait) -> None:
        """A table's timer rang (bot.games.timers)."""

    @abstractmethod
    async def on_remind(self, table_id: int, wait: Wait) -> None:
        """A turn's reminder rang (bot.games.timers)."""

    @abstractmethod
    async def _live_of(self, row: StoredTable) -> Live:
        """A table as the store holds it (bot.games.restore)."""

    @abstractmethod
    async def _restore(self, live: Live, row: StoredTable | None = None) -> None:
        """Make memory what the store holds (bot.games.restore)."""
