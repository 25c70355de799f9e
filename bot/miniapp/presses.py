"""The page's buttons, pressed through `Games` as the chat's are, and who is a member of
the table's group."""

from __future__ import annotations

from typing import Any

from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from bot import errors, replies
from bot.callback_data import BadCallbackData, Button, Press
from bot.games import Games
from bot.handling import Services
from bot.live import Player
from bot.miniapp.state import (
    APP_JOIN,
    APP_LEAVE,
    APP_REBUY,
    APP_SEED,
    APP_TOP_UP,
    LOBBY_BUTTONS,
    SVARA_BUTTONS,
    TURN_BUTTONS,
)
from engine import Act, Action

_TURN = {Button.FOLD: Act.FOLD, Button.CALL: Act.CALL, Button.RAISE: Act.RAISE,
         Button.ALL_IN: Act.ALL_IN, Button.BLIND: Act.BLIND, Button.NO_BLIND: Act.NO_BLIND}
SEED_DIGITS = 32
"""A seed the page draws: 128 random bits, as lowercase hex."""
_SVARA = {Button.SVARA_JOIN: Act.JOIN_SVARA, Button.SVARA_SKIP: Act.SKIP_SVARA}


class Presses:
    """What a press of the page does, as the same press in the chat would."""

    def __init__(self, services: Services, bot: Any) -> None:
        self.services = services
        self.bot = bot

    @property
    def games(self) -> Games:
        return self.services.games

    async def do(self, table_id: int, who: Player, data: object) -> str | None:
        """Press the button `data` of the table `table_id` as `who` (same path as the chat);
        what to tell him besides the table itself (a message id), if anything."""
        if not isinstance(data, str) or len(data) > 64:
            raise errors.Expired()
        if data.startswith("app:"):
            return await self._lobby(table_id, who, data)
        try:
            press = Press.decode(data)
        except BadCallbackData:
            raise errors.Expired() from None
        live = self.games.tables.get(table_id)
        if live is None or press.table != table_id:
            raise errors.Expired()
        button = press.button
        games = self.games
        if press.hand == 0 and button in LOBBY_BUTTONS:
            if button is Button.JOIN:
                if not await self.is_member(live.chat_id, who.id):
                    raise errors.NotAMember()
                await games.join(live, who)
            elif button is Button.LEAVE:
                await games.leave(live, who)
            else:
                admin = who.id == live.creator or await self.is_admin(live.chat_id, who.id)
                await games.start(live, who, is_admin=admin)
        elif button is Button.BACK:
            await games.come_back(live, who)
        elif button in TURN_BUTTONS:
            await games.press(live, who, Action(_TURN[button], 0, press.amount),
                              hand_id=press.hand, seq=press.seq)
        elif button in SVARA_BUTTONS:
            await games.press(live, who, Action(_SVARA[button], 0), hand_id=press.hand,
                              seq=None)
        else:
            raise errors.Expired()
        return None

    async def _lobby(self, table_id: int, who: Player, data: str) -> str | None:
        """The lobby's own presses, as /join, /leave, /topup and /rebuy do them in the group:
        now, or (during his hand) kept for the next one."""
        live = self.games.tables.get(table_id)
        if live is None:
            raise errors.Expired()
        games, store = self.games, self.services.store
        if data == APP_JOIN:
            if not await self.is_member(live.chat_id, who.id):
                raise errors.NotAMember()
            during = live.hand is not None
            await games.join(live, who)
            return replies.SEATED_NEXT_HAND if during else None
        if data == APP_LEAVE:
            await games.leave(live, who)
            return None
        if data == APP_TOP_UP:
            try:
                await games.top_up(live, who, None)
            except (errors.WaitForHand, errors.TopUpAfterHand):
                if await store.users.balance(who.id) == 0:
                    room = (live.next_settings or live.settings).max_buy_in
                    raise errors.BadTopUp(room=room, balance=0) from None
                await store.gifts.queue(live.id, who.id, "top_up", None)
                return replies.TOP_UP_ALL_NEXT_HAND
            return None
        if data == APP_REBUY:
            try:
                await games.rebuy(live, who)
            except errors.WaitForHand:
                await store.gifts.queue(live.id, who.id, "rebuy", None)
                return replies.REBUY_NEXT_HAND
            return None
        if data.startswith(APP_SEED):
            return await self._seed(live.id, who, data[len(APP_SEED):])
        raise errors.Expired()

    async def _seed(self, table_id: int, who: Player, seed: str) -> str:
        """The page's seed for the player: 32 hex digits it drew and keeps (his /seed)."""
        if len(seed) != SEED_DIGITS or any(c not in "0123456789abcdef" for c in seed):
            raise errors.Expired()
        fairness = self.services.store.fairness
        await fairness.set_seed(who.id, seed)
        return (replies.APP_SEED_LATER if await fairness.fixed(table_id, who.id)
                else replies.APP_SEED_SET)

    async def _member(self, chat_id: int, user_id: int) -> Any:
        if chat_id > 0:  # a practice table: only its player is "in" the chat
            return None
        try:
            return await self.bot.get_chat_member(chat_id, user_id)
        except TelegramError:
            return None

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        if chat_id > 0:
            return chat_id == user_id
        member = await self._member(chat_id, user_id)
        if member is None or member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
            return False
        return member.status != ChatMemberStatus.RESTRICTED or bool(
            getattr(member, "is_member", False))

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        member = await self._member(chat_id, user_id)
        return member is not None and member.status in (ChatMemberStatus.OWNER,
                                                        ChatMemberStatus.ADMINISTRATOR)
