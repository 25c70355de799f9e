"""The table's voice in Telegram: one table message edited in place, cards by DM.

`TelegramOutbox` is put together from one module per thing it sends, each found by its
name:

- `base`: the state every part shares and the one sending path (tries, flood waits,
  messages lost), with `Delivery` and the constants of retries;
- `table`: the table message, written by one task per table outside the table's lock;
- `private`: every player's cards, and the letters of a table closed for him;
- `hidden`: a member's cards in the group, for his eyes only (ephemeral messages);
- `reminders`: the private reminder of a turn;
- `answers`: replies to commands in a group, queued behind its pace;
- `group`: what the bot knows of a group, its pins and the results message.
"""

from __future__ import annotations

from bot.outbox.answers import Answers
from bot.outbox.base import SEND_TRIES, ChatInfo, Delivery, digest, markup
from bot.outbox.group import GroupChat
from bot.outbox.hidden import HiddenCards
from bot.outbox.private import PrivateMessages
from bot.outbox.reminders import Reminders
from bot.outbox.table import TableWriter


class TelegramOutbox(TableWriter, PrivateMessages, HiddenCards, Reminders, Answers, GroupChat):
    """`bot.live.Outbox` over a python-telegram-bot `Application`.

    The table message is written by one task per table, outside the table's lock: `show`
    only leaves the newest screen for it. The writer waits for the group's next slot
    (`GroupPace`), then sends whatever screen is newest by then, so screens superseded in
    the meantime are never sent, and a press is never kept waiting for Telegram.
    """


__all__ = ["SEND_TRIES", "ChatInfo", "Delivery", "TelegramOutbox", "digest", "markup"]
