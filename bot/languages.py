"""Who reads which language, and /language to change it.

- A group reads its chat's language: set by an admin with /language, and until then
  the language of the user who opened its first table.
- A user reads his own language in private messages, popups and reminders: the one
  he chose with /language in private, else his Telegram client's.
- Anything the bot has no catalogue for reads English.

`Languages` keeps what the store says in memory, so handlers pick a translator without
a read per update: `learn` runs before every handler (one read for a user not seen
yet, and for a group until it has a language). Only this module writes chosen
languages, so the memory stays true; a group's language is set here or by its first
table (`Games.open_table`) and never cleared, so it is remembered once it has one.

The menu is one message edited in place; its callback data::

    l1:<code>   choose that language
    l1:auto     (private) back to the client's language
"""

from __future__ import annotations

import contextlib
import re
from typing import Final

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update, User
from telegram.constants import ChatType

from bot import replies
from bot.i18n import Translations, Translator, normalize_language
from bot.i18n.catalogs import LANGUAGES, native_name
from bot.store import Store, StoreError

PREFIX: Final = "l1:"
PATTERN: Final = "^" + re.escape(PREFIX)
AUTO: Final = "auto"
"""The private menu's "as Telegram says" choice."""
PER_ROW: Final = 2

class BadLanguage(ValueError):
    """Callback data or an argument that names no language the bot speaks."""


def parse_choice(text: str, *, private: bool) -> str | None:
    """A language code from a button or ``/language CODE``; None for "as in Telegram"."""
    word = text.removeprefix(PREFIX).strip().lower()
    if private and word == AUTO:
        return None
    if word in LANGUAGES:
        return word
    raise BadLanguage(text)


def keyboard(current: str | None, tr: Translator, *, private: bool) -> InlineKeyboardMarkup:
    """One button per language in its own name, the current one marked."""
    buttons = [
        InlineKeyboardButton(("✓ " if code == current else "") + native_name(code),
                             callback_data=PREFIX + code)
        for code in LANGUAGES
    ]
    rows = [buttons[i:i + PER_ROW] for i in range(0, len(buttons), PER_ROW)]
    if private:
        rows.append([InlineKeyboardButton(("✓ " if current is None else "") + tr.gettext(
            replies.LANGUAGE_AS_TELEGRAM), callback_data=PREFIX + AUTO)])
    return InlineKeyboardMarkup(rows)


def menu_text(tr: Translator, language: str, *, private: bool) -> str:
    return tr.format(replies.LANGUAGE_OF_USER if private else replies.LANGUAGE_OF_GROUP,
                     language=native_name(language))


class Languages:
    """The languages of chats and users, as the store has them, kept in memory."""

    def __init__(self, store: Store, translations: Translations) -> None:
        self._store = store
        self._translations = translations
        self._chats: dict[int, str] = {}
        self._chosen: dict[int, str | None] = {}

    # -- reading -------------------------------------------------------------------------

    async def learn(self, update: Update) -> None:
        """Read what the store knows of this update's chat and user, once each.

        When the store cannot be read, this update reads the client's language and the
        next one tries again (the handler itself answers that storage failed)."""
        with contextlib.suppress(StoreError):
            await self._learn(update)

    async def _learn(self, update: Update) -> None:
        user, chat = update.effective_user, update.effective_chat
        if update.inline_query is not None:
            return  # every keystroke is an update: no reads for them
        if user is not None and user.id not in self._chosen:
            found = await self._store.users.find(user.id)
            self._chosen[user.id] = found.chosen_language if found is not None else None
        if chat is not None and chat.type != ChatType.PRIVATE and chat.id not in self._chats:
            language = (await self._store.chats.get(chat.id)).language
            if language is not None:
                self._chats[chat.id] = language

    def of_user(self, user: User) -> str:
        """The language a user reads: his choice, else his client's (normalised)."""
        return normalize_language(self._chosen.get(user.id) or user.language_code)

    def chosen(self, user_id: int) -> str | None:
        return self._chosen.get(user_id)

    def of_chat(self, chat_id: int) -> str | None:
        """The group's language, if it has one yet."""
        return self._chats.get(chat_id)

    def for_user(self, user: User) -> Translator:
        return self._translations.get(self.of_user(user))

    def for_message(self, chat_id: int, chat_type: str, user: User) -> Translator:
        """Who reads a reply: the group in its language (the sender's until it has one),
        a private chat in the user's."""
        if chat_type == ChatType.PRIVATE:
            return self.for_user(user)
        return self._translations.get(self._chats.get(chat_id) or self.of_user(user))

    # -- writing -------------------------------------------------------------------------

    async def choose_for_user(self, user_id: int, language: str | None) -> None:
        await self._store.users.choose_language(user_id, language)
        self._chosen[user_id] = language

    async def choose_for_chat(self, chat_id: int, language: str) -> None:
        await self._store.chats.set_language(chat_id, language)
        self._chats[chat_id] = language
