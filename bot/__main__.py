"""Command line: ``python -m bot`` runs the bot; ``audit``, ``backup``, ``restore`` and
``status`` look after the ledger; ``sandbox`` plays it in a browser without Telegram."""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import sys
import traceback
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TextIO, cast
from urllib.parse import quote

from pydantic import ValidationError
from pydantic_settings import SettingsError

from bot.settings import Settings, describe_errors, env_name

log = logging.getLogger("bot")

STORE_COMMANDS = frozenset({"audit", "backup", "grant", "users"})
OPS_COMMANDS = frozenset({"restore", "status"})
EXIT_STARTUP = 1
"""Every start that cannot succeed, bad settings and a missing token included."""
EXIT_CONFIG = EXIT_STARTUP
DEFAULT_ENV_FILE = Path(".env")
HANDLER_NAME = "svara-bot"

DESCRIPTION = "Deal the Bulgarian card game Svara in Telegram group chats."
EPILOG = """\
commands:
  (none)                     run the bot (a webhook if SVARA_WEBHOOK_URL is set)
  audit [--db PATH]          check that the chip ledger adds up
  backup PATH [--db PATH]    copy the database safely while the bot runs
  grant USER_ID AMOUNT --reason TEXT [--db PATH]
                             give a player chips (an operator_grant ledger row)
  users [NAME] [--db PATH]   players whose name contains NAME, with their user ids
  restore BACKUP [--db PATH] put a backup in place of the database (bot stopped)
  status [--db PATH]         version, running or not, open tables, database ok
  sandbox [--port P] [--players N] [--db PATH]
                             play in a browser against a local stand-in for Telegram

Settings come from SVARA_* environment variables or a .env file in the current
folder; .env.example lists them all. The operator commands read the same settings
(SVARA_DATABASE included) unless given --db, and say which database they act on.
"""

TOKEN_HELP = """\
The bot needs its Telegram bot token to run.

Get one from @BotFather in Telegram: send it /newbot, pick a name and a username
for the bot, and it answers with the token (a number, a colon and about 35
letters and digits).

Put the token in the environment:
    export {var}=<the token>
or in a file named .env in the folder you start the bot from ({cwd}):
    {var}=<the token>
.env.example lists every other setting.

To try the bot without a token: python -m bot sandbox (a local Telegram in the browser).
"""

TOKEN_MISSING = "No bot token is set ({var} is empty or missing)."
TOKEN_MALFORMED = "The {var} that is set does not look like a bot token."


def main(argv: list[str] | None = None) -> int:
    """Run the command in ``argv`` (default: the process arguments); return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    # Take PTB's coming behaviour now (durations as timedelta; the bot reads both).
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    if args and args[0] in STORE_COMMANDS:
        return _run_store_command(args)
    if args and args[0] in OPS_COMMANDS:
        return _run_command("bot.ops.cli", args)
    if args and args[0] == "sandbox":
        return _run_command("bot.webui.run", args[1:])

    parser = argparse.ArgumentParser(
        prog="svara-bot",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--env-file",
        type=Path,
        metavar="PATH",
        help="read settings from this file as well as the environment (default: .env)",
    )
    parser.add_argument("--version", action="version", version=_version())
    options = parser.parse_args(args)
    if options.env_file is not None and not options.env_file.is_file():
        print(f"No settings file at {options.env_file}.", file=sys.stderr)
        return EXIT_CONFIG

    settings = load_settings(options.env_file or DEFAULT_ENV_FILE, sys.stderr)
    if settings is None:
        return EXIT_CONFIG

    handler = configure_logging(settings)
    run = _load_runner()
    try:
        run(settings)
    except KeyboardInterrupt:
        log.info("stopped by keyboard interrupt")
    except Exception as error:
        return _failed(error, handler, sys.stderr)
    return 0


def _failed(error: Exception, handler: logging.Handler, err: TextIO) -> int:
    """One line on ``err`` for a run that ended in ``error``, never showing the token."""
    from bot.ops.startup import StartupError

    clean = _cleaner(handler)
    if isinstance(error, StartupError):
        print(clean(str(error)), file=err)
        return EXIT_STARTUP
    # A fault of the bot itself: the whole story goes to the log (token masked there too).
    log.error("the bot stopped on an unexpected error", exc_info=error)
    print(clean(f"The bot stopped on an unexpected error ({type(error).__name__}: {error}); "
                "the log above has the details."), file=err)
    return EXIT_STARTUP


def _cleaner(handler: logging.Handler) -> Callable[[str], str]:
    for found in handler.filters:
        if isinstance(found, TokenFilter):
            return found.clean
    return lambda text: text


def load_settings(env_file: Path | None, err: TextIO) -> Settings | None:
    """Build the settings, or explain on ``err`` what is wrong and return None."""
    try:
        settings = Settings.from_env(env_file)
    except ValidationError as error:
        problems = describe_errors(error)
        token_var = env_name("bot_token")
        if any(problem.startswith(f"{token_var}:") for problem in problems):
            _explain_token(TOKEN_MALFORMED, err)
            problems = [p for p in problems if not p.startswith(f"{token_var}:")]
        if problems:
            print("The bot's settings have problems:", file=err)
            for problem in problems:
                print(f"  {problem}", file=err)
            print("Fix them in the environment or the .env file (see .env.example).", file=err)
        return None
    except (OSError, UnicodeDecodeError, SettingsError) as error:
        # the message names the file, never its contents
        print(f"Cannot read the settings ({type(error).__name__}).", file=err)
        print(f"Check {env_file} and the SVARA_* environment variables.", file=err)
        return None
    if settings.bot_token is None:
        _explain_token(TOKEN_MISSING, err)
        return None
    return settings


def _explain_token(headline: str, err: TextIO) -> None:
    var = env_name("bot_token")
    print(headline.format(var=var), file=err)
    print(file=err)
    print(TOKEN_HELP.format(var=var, cwd=os.getcwd()), file=err)


class TokenFilter(logging.Filter):
    """Replace the bot token in log records (httpx logs URLs that contain it)."""

    def __init__(self, token: str, mask: str = "<token>") -> None:
        super().__init__()
        self._secrets = sorted({token, quote(token, safe="")}, key=len, reverse=True)
        self._mask = mask

    def clean(self, text: str) -> str:
        """``text`` with the token masked."""
        for secret in self._secrets:
            text = text.replace(secret, self._mask)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = self.clean(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = "".join(traceback.format_exception(*record.exc_info)).rstrip()
        if record.exc_text:
            record.exc_text = self.clean(record.exc_text)
        if record.stack_info:
            record.stack_info = self.clean(record.stack_info)
        return True


class ZonedFormatter(logging.Formatter):
    """The text format, its time with the UTC offset (``2026-01-01 10:00:00,123+0100``)."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        text = super().formatTime(record, datefmt)
        return text + datetime.fromtimestamp(record.created).astimezone().strftime("%z")


FIELDS = ("chat", "table", "hand")
"""Record fields game events carry (`bot.ops.events`), shown by the JSON format."""


def _one_line(record: logging.LogRecord) -> bool:
    """A captured warning as one line: ``file:line: Category: text``, without the source
    line Python adds below it."""
    text = record.getMessage().strip()
    record.msg, record.args = (text.splitlines()[0] if text else text), None
    return True


def _zoned(created: float) -> str:
    """A record's time as ISO 8601 with its UTC offset, to the millisecond."""
    return datetime.fromtimestamp(created).astimezone().isoformat(timespec="milliseconds")


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, and chat, table and hand when
    the record has them."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": _zoned(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


QUIET_BELOW_WARNING = ("httpx", "apscheduler")
"""Loggers whose INFO lines are routine churn: one per Bot API request (httpx), one per
timer added or removed (APScheduler runs every table's timers)."""


def configure_logging(settings: Settings, stream: TextIO | None = None) -> logging.Handler:
    """Log to stderr at the configured level, with the token masked everywhere."""
    handler = logging.StreamHandler(stream or sys.stderr)
    if settings.log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(
            ZonedFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    if settings.bot_token is not None:
        handler.addFilter(TokenFilter(settings.bot_token.get_secret_value()))
    handler.name = HANDLER_NAME
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.name == HANDLER_NAME]:
        root.removeHandler(old)  # configured twice in one process (tests): replace, not add
    root.addHandler(handler)
    root.setLevel(settings.log_level)
    # Python's warnings (a library's UserWarning, a DeprecationWarning) are log records of
    # "py.warnings" too: one line in the log's format, never raw text on stderr.
    logging.captureWarnings(True)
    warned = logging.getLogger("py.warnings")
    if _one_line not in warned.filters:
        warned.addFilter(_one_line)
    if settings.log_level != "DEBUG":
        for name in QUIET_BELOW_WARNING:
            logging.getLogger(name).setLevel(logging.WARNING)
    return handler


def _load_runner() -> Callable[[Settings], object]:
    # Imported here: the application pulls in Telegram and the store, which the
    # settings checks above do not need.
    module = importlib.import_module("bot.app")
    return cast("Callable[[Settings], object]", module.run)


def _run_store_command(args: list[str]) -> int:
    return _run_command("bot.store.cli", args)


def _run_command(module_name: str, args: list[str]) -> int:
    module = importlib.import_module(module_name)
    command_main = cast("Callable[[list[str]], int | None]", module.main)
    return command_main(args) or 0


def _version() -> str:
    from bot.ops.version import describe

    return describe()


if __name__ == "__main__":
    raise SystemExit(main())
