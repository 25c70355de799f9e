"""/language: a group's admins choose what the group reads; anyone chooses for himself
in private. Buttons name each language in itself; ``/language CODE`` works as well."""

from __future__ import annotations

import contextlib

from telegram import Message, Update, User
from telegram.constants import ChatType, ParseMode
from telegram.error import TelegramError

from bot import errors, replies
from bot.handling import Context, command_parts, is_admin, popup, refuse_press, reply, run_command
from bot.i18n import Translator
from bot.i18n.catalogs import LANGUAGES, native_name
from bot.languages import BadLanguage, keyboard, menu_text, parse_choice
from bot.pacing import URGENT


def _private(message: Message) -> bool:
    return message.chat.type == ChatType.PRIVATE


async def on_language(update: Update, context: Context) -> None:
    """/language: the menu; /language CODE: choose at once."""
    message, _, tr = command_parts(update, context)
    user = update.effective_user
    assert user is not None

    async def work() -> None:
        args = context.args or []
        private = _private(message)
        if len(args) > 1:
            raise errors.UnknownLanguage(codes=", ".join(LANGUAGES))
        if args:
            try:
                choice = parse_choice(args[0], private=private)
            except BadLanguage:
                raise errors.UnknownLanguage(codes=", ".join(LANGUAGES)) from None
            await reply(context, message, await _choose(context, message, user, choice))
            return
        languages = context.services.languages
        current = languages.chosen(user.id) if private else languages.of_chat(message.chat_id)
        shown = languages.of_user(user) if private else current or tr.language
        await reply(context, message, menu_text(tr, shown, private=private),
                    reply_markup=keyboard(current, tr, private=private))

    await run_command(message, tr, work(), context)


async def _choose(context: Context, message: Message, user: User, choice: str | None) -> str:
    """Make the choice; the confirmation, in the language just chosen."""
    services = context.services
    if _private(message):
        await services.languages.choose_for_user(user.id, choice)
        tr = services.languages.for_user(user)
        await services.games.speak(message.chat_id, tr.language)
        return tr.format(replies.USER_LANGUAGE_SAVED, language=native_name(tr.language))
    if choice is None:  # "as in Telegram" is offered in private only
        raise errors.Expired()
    if not await is_admin(context, message.chat_id, user.id):
        raise errors.LanguageOnlyAdmins()
    await services.languages.choose_for_chat(message.chat_id, choice)
    await services.games.speak(message.chat_id, choice)
    tr = services.translations.get(choice)
    return tr.format(replies.GROUP_LANGUAGE_SAVED, language=native_name(choice))


async def on_language_press(update: Update, context: Context) -> None:
    """A button of the /language menu: answered at once, the menu edited in place."""
    query = update.callback_query
    assert query is not None
    message = query.message
    tr: Translator = context.services.languages.for_user(query.from_user)
    try:
        if not isinstance(message, Message):
            raise errors.Expired()
        private = _private(message)
        try:
            choice = parse_choice(query.data or "", private=private)
        except BadLanguage:
            raise errors.Expired() from None
        languages = context.services.languages
        before = (languages.chosen(query.from_user.id) if private
                  else languages.of_chat(message.chat_id))
        note = await _choose(context, message, query.from_user, choice)
    except Exception as err:
        await refuse_press(query, tr, err)
        return
    await query.answer(popup(note))
    if choice == before:
        return  # the menu already says so
    reader = (languages.for_user(query.from_user) if private
              else context.services.translations.get(choice))
    await context.services.outbox.pace.slot(message.chat_id, URGENT)
    with contextlib.suppress(TelegramError):
        await query.edit_message_text(
            menu_text(reader, reader.language, private=private), parse_mode=ParseMode.HTML,
            reply_markup=keyboard(choice, reader, private=private))
