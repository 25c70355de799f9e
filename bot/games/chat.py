"""What the chat does to its tables: its settings and language, a move to a new id, and
the bot losing the right to write there."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.games.base import GamesBase
from bot.i18n import N_
from bot.live import EVICTED
from bot.records import TableStatus
from bot.store.errors import StoreError
from bot.table_settings import BadSetting, TableSettings, change

log = logging.getLogger(__name__)


class ChatGames(GamesBase):
    """A chat's settings, language and fate, applied to each of its tables."""

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
                    self._show(live)

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

    async def chat_moved(self, old: int, new: int) -> None:
        await self.migrate(old, new)

    async def chat_gone(self, chat_id: int) -> None:
        await self.evict(chat_id)
