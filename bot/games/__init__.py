"""What a table does: the one place where presses, commands and timers become engine actions.

`Games` holds every live table (what a table is: `bot.live`) and is put together from one
module per job, each found by its name:

- `base`: the state every job shares; showing a table and keeping its wait; closing it;
- `chat`: the chat's settings and language, a move to a new id, the bot losing the chat;
- `lobby`: opening, sitting down, standing up, top-ups, rebuys, start and /endgame;
- `play`: presses, the deal, the steps after an action, settling a hand;
- `timers`: what a table does when its wait rings, and its reminder;
- `restore`: tables brought back from the store at start-up and after a failed step;
- `reports`: what the messenger saw reach the chats, kept in the store.
"""

from __future__ import annotations

from bot.games.chat import ChatGames
from bot.games.lobby import Lobby
from bot.games.play import Play
from bot.games.reports import Reports
from bot.games.restore import Restore
from bot.games.timers import Timers


class Games(ChatGames, Lobby, Play, Timers, Restore, Reports):
    """Every live table, keyed by id and by (chat, topic), and all that it does."""


__all__ = ["Games"]
