"""Which database an operator command acts on: the one the bot itself would open.

Every operator command (``audit``, ``grant``, ``users``, ``backup``, ``restore``,
``status``) reads the bot's own settings, the environment and the ``.env`` file in the
current folder (or ``--env-file``), so it never acts on another file than the bot. An
explicit ``--db PATH`` wins over both. Each command says on stderr which file it acts on
and where that name came from.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from dotenv import dotenv_values
from pydantic import ValidationError
from pydantic_settings import SettingsError

from bot.settings import ENV_PREFIX, Settings, describe_errors

DEFAULT_ENV_FILE = Path(".env")
VARIABLE = f"{ENV_PREFIX}DATABASE"


@dataclass(frozen=True, slots=True)
class Target:
    """The database a command acts on, and what named it."""

    path: Path
    source: str
    settings: Settings | None = None
    """The bot's settings, when they were read (not with ``--db``)."""

    def line(self) -> str:
        """The line a command prints before it acts."""
        return f"database: {self.path.absolute()} ({self.source})"


def _names_it(values: Mapping[str, str | None]) -> bool:
    return any(k.upper() == VARIABLE and v for k, v in values.items())


def resolve(db: Path | None, env_file: Path | None, err: TextIO) -> Target | None:
    """The database named by ``--db``, else by the bot's settings; None (and the reason on
    ``err``) when the settings cannot be read."""
    if db is not None:
        return Target(db, "--db")
    env = env_file if env_file is not None else DEFAULT_ENV_FILE
    if env_file is not None and not env_file.is_file():
        print(f"No settings file at {env_file}.", file=err)
        return None
    try:
        settings = Settings.from_env(env)
    except ValidationError as error:
        print("The bot's settings have problems:", file=err)
        for problem in describe_errors(error):
            print(f"  {problem}", file=err)
        print("Fix them in the environment or the .env file (see .env.example).", file=err)
        return None
    except (OSError, UnicodeDecodeError, SettingsError) as error:
        print(f"Cannot read the settings ({type(error).__name__}); check {env}.", file=err)
        return None
    if _names_it(os.environ):
        source = f"{VARIABLE} in the environment"
    elif env.is_file() and _names_it(dotenv_values(env)):
        source = f"{VARIABLE} in {env}"
    else:
        source = f"the default; {VARIABLE} is not set"
    return Target(settings.database, source, settings)


def announce(target: Target, err: TextIO) -> None:
    """Say which database the command acts on."""
    print(target.line(), file=err)
