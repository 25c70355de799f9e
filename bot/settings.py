"""The bot's configuration, read once from the environment and a ``.env`` file.

``Settings`` is built in ``bot.__main__`` and handed to whatever needs it; nothing
imports a shared instance. Every variable is ``SVARA_`` plus the field name in
capitals (``SVARA_BOT_TOKEN``, ``SVARA_TURN_TIMEOUT`` ...). The webhook port also
honours a bare ``PORT``, which hosting platforms set for the process.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.pacing import PER_MINUTE

VERIFY_PATH = "/verify"
"""Where the bot's own web server serves the checking page (`bot.verifier`)."""

ENV_PREFIX = "SVARA_"
DEFAULT_API_BASE_URL = "https://api.telegram.org/bot"
DEFAULT_WEBHOOK_PORT = 8443

# BotFather tokens: the bot's numeric id, a colon, then 35 URL-safe characters.
# The tail length is given some slack so a future change of length is not refused.
TOKEN_SHAPE = re.compile(r"[0-9]{1,20}:[A-Za-z0-9_-]{30,64}")
# Telegram's rule for the secret_token of setWebhook.
WEBHOOK_SECRET_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,256}")

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


def looks_like_token(value: str) -> bool:
    """Tell whether ``value`` has the shape of a bot token from @BotFather."""
    return value.isascii() and TOKEN_SHAPE.fullmatch(value) is not None


def _http_url(value: str, setting: str) -> str:
    if not value.startswith(("http://", "https://")) or len(value) <= len("https://"):
        raise ValueError(f"{setting} must be an http:// or https:// address")
    return value


class Settings(BaseSettings):
    """Everything the bot can be told from outside: token, server, storage, timers, rules."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        # `SVARA_WEBHOOK_PORT=` with nothing after it means "not set", as in .env.example.
        env_ignore_empty=True,
        frozen=True,
        # Errors must never repeat what was typed: the token could be in there.
        hide_input_in_errors=True,
        validate_by_name=True,
        validate_by_alias=True,
    )

    bot_token: SecretStr | None = Field(
        default=None, description="The token @BotFather gave for this bot."
    )
    api_base_url: str = Field(
        default=DEFAULT_API_BASE_URL,
        description="Bot API endpoint; the token and method name are appended.",
    )
    api_base_file_url: str | None = Field(
        default=None,
        description="File download endpoint; derived from api_base_url when unset.",
    )
    database: Path = Field(default=Path("svara.sqlite3"), description="SQLite ledger file.")

    webhook_url: str | None = Field(
        default=None, description="Public https address; when set the bot serves a webhook."
    )
    verify_url: str | None = Field(
        default=None,
        description="Where docs/verify.html is served; /hand N links it with the hand's proof"
                    " (default: /verify on the bot's public address, which serves it).",
    )
    webhook_listen: str = Field(default="0.0.0.0", description="Address the webhook binds to.")
    webhook_port: int = Field(
        default=DEFAULT_WEBHOOK_PORT,
        ge=1,
        le=65535,
        validation_alias=AliasChoices(f"{ENV_PREFIX}WEBHOOK_PORT", "PORT"),
        description="Port the webhook listens on.",
    )
    webhook_secret: SecretStr | None = Field(
        default=None, description="Secret Telegram sends back with every webhook call."
    )

    webhook_take_over: bool = Field(
        default=False,
        description="Replace a webhook another process set for this token (a stale one).")

    public_url: str | None = Field(
        default=None,
        description="Public https address of the bot's web server; when set the table "
                    "opens as a Telegram Mini App at <address>/app/.",
    )
    miniapp_max_age: float = Field(
        default=3600, gt=0, le=7 * 24 * 3600,
        description="Seconds a Mini App's initData stays good after Telegram signed it.",
    )

    backup_dir: Path | None = Field(
        default=None, description="Folder for automatic backups; unset: no automatic backups."
    )
    backup_every: float = Field(
        default=24, gt=0, le=24 * 366, description="Hours between automatic backups."
    )
    backup_keep: int = Field(
        default=7, ge=1, le=10_000, description="Automatic backups kept; older ones are deleted."
    )

    turn_timeout: float = Field(default=45, gt=0, description="Seconds a player has to act.")
    blind_timeout: float = Field(
        default=20, gt=0, description="Seconds a player has to decide on playing blind."
    )
    svara_join_timeout: float = Field(
        default=30, gt=0, description="Seconds to buy into a svara (tie) re-deal."
    )
    next_hand_delay: float = Field(
        default=5, ge=0, description="Seconds between the end of a hand and the next deal."
    )
    lobby_autostart: float = Field(
        default=0,
        ge=0,
        description="Seconds after which a lobby with enough players starts; 0 = never.",
    )
    nudge_after: float = Field(
        default=10, ge=0, le=3600,
        description="Seconds a turn waits before its player gets a private reminder; 0 = never.",
    )

    starting_chips: int = Field(default=1000, gt=0, description="Chips a new player gets.")
    daily_bonus: int = Field(default=200, gt=0, le=10**9,
                             description="Chips /daily gives, once every 24 hours.")
    house_daily: int = Field(
        default=10_000, ge=0, le=10**9,
        description="The most chips of the house (rebuys and admins' gifts) one user receives "
        "in 24 hours, in every chat together; also the most one admin gives from the house.")
    default_ante: int = Field(default=10, gt=0, description="Ante of a new table.")
    rate_limit: bool = Field(default=True, description="Throttle calls to stay under limits.")
    group_per_minute: float = Field(
        default=PER_MINUTE, gt=0, le=10_000,
        description="Calls a minute the bot makes into one group (Telegram allows about 20).",
    )
    log_level: LogLevel = Field(default="INFO", description="Logging threshold.")
    log_format: Literal["text", "json"] = Field(
        default="text", description="text: one readable line a record; json: one JSON object "
        "a line, with chat, table and hand as fields.")

    health_port: int | None = Field(
        default=None, ge=1, le=65535,
        description="Port of /livez, /readyz, /healthz and /metrics; unset: not served "
        "(in webhook mode /livez, /readyz and /healthz are on the webhook port too).")
    health_listen: str = Field(default="127.0.0.1",
                               description="Address the health and metrics port binds to.")
    updates_stale_after: float = Field(
        default=300, ge=0, le=7 * 24 * 3600,
        description="Seconds without getUpdates answering (a webhook: without an update "
        "while Telegram holds some) before /livez says the bot is not live; 0: never.")

    @field_validator("bot_token", mode="after")
    @classmethod
    def _token_shape(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None:
            return None
        token = value.get_secret_value().strip()
        if not token:
            return None  # an empty SVARA_BOT_TOKEN= line means "not set"
        if not looks_like_token(token):
            raise ValueError(
                "does not look like a bot token (digits, a colon, then about 35 letters,"
                " digits, '-' or '_')"
            )
        return SecretStr(token)

    @field_validator("webhook_secret", mode="after")
    @classmethod
    def _secret_shape(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value():
            return None
        if WEBHOOK_SECRET_SHAPE.fullmatch(value.get_secret_value()) is None:
            raise ValueError("must be 1-256 characters of A-Z, a-z, 0-9, '_' or '-'")
        return value

    @field_validator("api_base_url", mode="after")
    @classmethod
    def _api_base_url(cls, value: str) -> str:
        return _http_url(value.strip(), "the API base URL")

    @field_validator("api_base_file_url", mode="after")
    @classmethod
    def _api_base_file_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        return _http_url(value.strip(), "the API file URL")

    @field_validator("webhook_url", mode="after")
    @classmethod
    def _webhook_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        return _http_url(value.strip(), "the webhook URL")

    def verifier_url(self) -> str | None:
        """Where /hand N links the checking page: `verify_url`, else the bot's own copy at
        ``/verify`` on its public address (the Mini App's, else the webhook's origin);
        None when the bot has no public address."""
        if self.verify_url:
            return self.verify_url
        if self.public_url:
            return self.public_url + VERIFY_PATH
        if self.webhook_url:
            parts = urlsplit(self.webhook_url)
            return f"{parts.scheme}://{parts.netloc}{VERIFY_PATH}"
        return None

    @field_validator("verify_url", mode="after")
    @classmethod
    def _verify_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        return _http_url(value.strip(), "the verifier's URL")
    @field_validator("log_format", mode="before")
    @classmethod
    def _log_format_lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("public_url", mode="after")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip().rstrip("/")
        if not value.startswith("https://") or len(value) <= len("https://"):
            raise ValueError("the public URL must be an https:// address (Telegram opens "
                             "Mini Apps over https only)")
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _log_level_upper(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _consistent(self) -> Settings:
        if self.default_ante > self.starting_chips:
            raise ValueError(
                f"the default ante ({self.default_ante}) is more than the starting chips"
                f" ({self.starting_chips})"
            )
        return self

    @classmethod
    def from_env(cls, env_file: Path | None = Path(".env")) -> Settings:
        """Read the environment and ``env_file`` (None: the environment only)."""
        return cls(_env_file=env_file)  # type: ignore[call-arg]

    @property
    def file_url(self) -> str:
        """The file download endpoint: ``api_base_file_url`` or derived from ``api_base_url``."""
        return self.api_base_file_url or derive_file_url(self.api_base_url)

    def token(self) -> str:
        """The bot token in clear; raise ``LookupError`` when none is configured."""
        if self.bot_token is None:
            raise LookupError(f"{ENV_PREFIX}BOT_TOKEN is not set")
        return self.bot_token.get_secret_value()

    @property
    def uses_webhook(self) -> bool:
        """Whether updates come by webhook (else by long polling)."""
        return self.webhook_url is not None

    def webhook_secret_value(self) -> str:
        """The secret Telegram must send with every webhook call.

        ``SVARA_WEBHOOK_SECRET`` when set; otherwise one derived from the token, so it is
        the same at every start of this install and changes when the token does.
        """
        if self.webhook_secret is not None:
            return self.webhook_secret.get_secret_value()
        return derive_webhook_secret(self.token())


def derive_file_url(api_base_url: str) -> str:
    """The file endpoint that goes with a Bot API endpoint.

    ``https://api.telegram.org/bot`` serves files at ``https://api.telegram.org/file/bot``;
    a self-hosted server or the local stand-in follow the same layout.
    """
    base = api_base_url.rstrip("/")
    if base.endswith("/bot"):
        return base[: -len("bot")] + "file/bot"
    return base + "/file/bot"


def derive_webhook_secret(token: str) -> str:
    """A webhook secret from the bot token: 64 hex digits, useless for finding the token."""
    return hmac.new(token.encode(), b"svara-bot webhook secret", hashlib.sha256).hexdigest()


def env_name(field: str) -> str:
    """The environment variable that sets ``field``."""
    return f"{ENV_PREFIX}{field.upper()}"


_ALIASED = {f"{ENV_PREFIX}WEBHOOK_PORT": "webhook_port", "PORT": "webhook_port"}


def describe_errors(error: ValidationError) -> list[str]:
    """One readable line per problem, naming the variable and never its value."""
    lines = []
    for problem in error.errors(include_input=False, include_url=False):
        location = problem.get("loc") or ()
        field = str(location[0]) if location else ""
        field = _ALIASED.get(field.upper(), field)  # reported under its variable name
        message = str(problem.get("msg", "is not valid"))
        message = message.removeprefix("Value error, ")
        if field == "webhook_port":
            lines.append(f"{env_name(field)} (or PORT): {message}")
        elif field in Settings.model_fields:
            lines.append(f"{env_name(field)}: {message}")
        elif field:
            lines.append(f"{field}: {message}")
        else:
            lines.append(message)
    return lines
