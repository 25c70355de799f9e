"""Seats and chips: opening a table, sitting down, standing up, topping up, rebuys, and
the commands that start or end the game."""

from __future__ import annotations

import asyncio
import logging

from bot import errors, fairness
from bot.clock import Wait, WaitKind
from bot.games.base import GamesBase
from bot.live import CLOSED_NOW, Live, Player, lobby_want, takes_part
from bot.records import TableStatus
from bot.store.errors import HouseDayLimit, InsufficientChips, NoRebuyLeft, StoreError
from bot.store.errors import TableExists as StoreTableExists
from bot.store.tournaments import NotRegistering
from bot.store.users import DAY
from bot.table_settings import CardsWhere
from bot.tournament import Schedule
from engine import Act, Action
from engine.table import Table

log = logging.getLogger(__name__)


class Lobby(GamesBase):
    """What players and admins do to a table outside the betting."""

    async def open_table(self, chat_id: int, thread_id: int | None, creator: Player, *,
                         tournament: Schedule | None = None) -> Live:
        """/newgame: a lobby with the chat's settings, shown as a new table message;
        /tournament: the same, where a tournament of `tournament` registers its players."""
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
                wait = self.waits.follow(None, lobby_want(settings, 0, 0))
                try:
                    row = await self.store.tables.open(chat_id, creator=creator.id,
                                                       thread_id=thread_id,
                                                       rules=settings.model_dump(mode="json"),
                                                       wait=None if wait is None
                                                       else wait.to_json(),
                                                       draw=self.store.fairness.draw,
                                                       language=language,
                                                       tournament=tournament)
                except StoreTableExists:
                    # The store has a table here that memory lost: hold it again.
                    await self._hold_stored(chat_id, thread_id)
                    raise errors.TableExists() from None
                live = Live(row.id, chat_id, thread_id, creator.id, settings,
                            Table(settings.rules()), language=language,
                            wait=wait, stored_wait=wait)
                live.table_commitment = await fairness.table_commitment(self.store, row.id)
                if tournament is not None:
                    live.tournament = await self.store.tournaments.get(row.id)
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
        if not user.private_chat and live.settings.cards is CardsWhere.PRIVATE:
            # Where the chat deals cards into the group, the group alone is enough.
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
            if live.tournament is not None:
                await self._enter(live, who)
                return 0
            ante, most = live.settings.ante, live.settings.max_buy_in
            rebuy = self._rebuy_of(live)
            broke = min(balance, most) < ante
            if broke and rebuy is None:
                raise await self.short_of_chips(who.id, ante=ante, balance=balance)
            wait: Wait | None = None
            if live.status is TableStatus.LOBBY:
                # What the lobby waits for once he sits (his buy-in is at least the ante),
                # written with his seat.
                wait = self.waits.follow(live.wait, lobby_want(
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
            try:
                await self._load_badges(live, [who.id])
            except StoreError as err:
                # His seat is taken; only the badges on it wait for the next reload.
                log.warning("table %s: could not read %s's badges: %s", live.id, who.id, err)
            live.note = None
            await self._publish(live)
            return taken

    async def _enter(self, live: Live, who: Player) -> None:
        """Register for the table's tournament: the buy-in for the starting stack."""
        t = live.tournament
        assert t is not None
        if not t.registering:
            raise errors.RegistrationClosed()
        try:
            seat = await self.store.tournaments.enter(live.id, who.id)
        except InsufficientChips as err:
            raise errors.TournamentBuyIn(buy_in=t.schedule.buy_in, balance=err.have) from None
        except NotRegistering:
            raise errors.RegistrationClosed() from None
        live.table.sit(who.id, seat.stack)
        live.tournament = await self.store.tournaments.get(live.id)
        live.name(who.id, who.name)
        live.note = None
        await self._publish(live)

    def _rebuy_of(self, live: Live) -> int | None:
        """The chips of the table's rebuy (None: the table has none, as a practice table)."""
        if live.tournament is not None:
            return None
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
            if live.tournament is not None and live.tournament.status != "registering":
                raise errors.InTournament()
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
            if live.tournament is not None:  # his buy-in went back from the pool
                live.tournament = await self.store.tournaments.get(live.id)
            await self._publish(live)

    async def top_up(self, live: Live, who: Player, amount: int | None) -> int:
        """Between his hands a player brings more chips: `amount`, or up to the maximum."""
        balance = await self.player(who)
        async with live.lock:
            self._check_live(live)
            seat = live.table.seat(who.id)
            if seat is None:
                raise errors.NotAtTable()
            if live.tournament is not None:
                raise errors.InTournament()
            if live.table.in_hand and who.id in live.table.dealt:
                hand = live.hand
                index = None if hand is None else hand.seat_of(who.id)
                if hand is not None and index is not None and takes_part(hand, index):
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
            if live.tournament is not None:
                raise errors.InTournament()
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
                self._show(live)  # the timers run on untouched
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
                self._show(live)  # the turn's timer runs on untouched
                return
            await self._close(live, CLOSED_NOW)
