"""python-telegram-bot's HTTP layer on aiohttp, and what of it may reach a log.

PTB's default client spends most of a busy bot's processor time in its connection pool
(every request checks every pooled connection); aiohttp, already a dependency, keeps a
table's press-to-edit time low when many tables play at once.

At DEBUG level PTB logs every Bot API call with its parameters and its answer, and every
update it processes: that would put each player's private hand in the log.
`PrivateTextFilter` blanks the text of everything addressed to one person (a private
chat, a popup) in those records, at every level.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from typing import Any, Protocol

import aiohttp
from telegram import TelegramObject
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

log = logging.getLogger(__name__)


def _seconds(value: object, default: float | None) -> float | None:
    """A timeout as PTB passes it: seconds or None as given; its "not given" marker
    (`BaseRequest.DEFAULT_NONE` or a configured default) means ours."""
    if value is None or isinstance(value, int | float):
        return value
    return default


class Observer(Protocol):
    """What the request layer tells about each call (`bot.metrics.Metrics` listens)."""

    def call(self, method: str, status: int, seconds: float) -> None: ...
    def fetched(self) -> None: ...
    def update_received(self, press_id: str | None = None) -> None: ...
    def press_answered(self, press_id: str) -> None: ...


NO_STATUS = 0
"""The status counted for a call that got no HTTP answer (timeout, network)."""


def _press_id(update: object) -> str | None:
    if isinstance(update, Mapping):
        press = update.get("callback_query")
        if isinstance(press, Mapping) and isinstance(press.get("id"), str):
            return str(press["id"])
    return None


class AiohttpRequest(BaseRequest):
    """A `telegram.request.BaseRequest` over one `aiohttp.ClientSession`.

    With an `Observer`, every call is reported when it ends (method, HTTP status, time),
    the updates in getUpdates' answers as they arrive, and each answered press; a 429 is
    logged in one line.
    """

    def __init__(
        self,
        *,
        pool_size: int = 32,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        observer: Observer | None = None,
    ) -> None:
        self.observer = observer
        self._pool_size = pool_size
        self._read = read_timeout
        self._write = write_timeout
        self._connect = connect_timeout
        self._pool = pool_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._pool_size)
            self._session = aiohttp.ClientSession(connector=connector)

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: object = BaseRequest.DEFAULT_NONE,
        write_timeout: object = BaseRequest.DEFAULT_NONE,
        connect_timeout: object = BaseRequest.DEFAULT_NONE,
        pool_timeout: object = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            await self.initialize()
        assert self._session is not None
        read = _seconds(read_timeout, self._read)
        connect = _seconds(connect_timeout, self._connect)
        pool = _seconds(pool_timeout, self._pool)
        write = _seconds(write_timeout, self._write)
        # aiohttp has no separate write timeout: the connect phase and each read are bounded,
        # and the whole call by their sum.
        parts = [t for t in (read, connect, pool, write) if t is not None]
        timeout = aiohttp.ClientTimeout(
            total=sum(parts) if len(parts) == 4 else None,
            connect=None if connect is None or pool is None else connect + pool,
            sock_read=read,
        )
        data: Any = None
        if request_data is not None:
            if request_data.contains_files:
                form = aiohttp.FormData()
                for name, value in request_data.json_parameters.items():
                    form.add_field(name, value)
                for name, (filename, content, mime) in request_data.multipart_data.items():
                    form.add_field(name, content, filename=filename, content_type=mime)
                data = form
            else:
                data = request_data.json_parameters
        started = time.monotonic()
        status = NO_STATUS
        try:
            async with self._session.request(method, url, data=data, timeout=timeout) as reply:
                status, body = reply.status, await reply.read()
                return status, body
        except TimeoutError as err:
            raise TimedOut(f"Timed out: {err!r}") from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp: {err!r}") from err
        finally:
            if self.observer is not None:
                self._report(url, request_data, status, time.monotonic() - started,
                             body if status == 200 else b"")

    def _report(self, url: str, request_data: RequestData | None, status: int,
                seconds: float, body: bytes) -> None:
        observer = self.observer
        assert observer is not None
        api_method = url.rsplit("/", 1)[-1]
        try:
            observer.call(api_method, status, seconds)
            params = request_data.parameters if request_data is not None else {}
            if status == 429:
                log.info("telegram: 429 too many requests on %s (chat %s); the call is "
                         "retried later", api_method, params.get("chat_id", "-"),
                         extra={"chat": params.get("chat_id")})
            if api_method == "getUpdates" and status == 200:
                observer.fetched()
                for update in json.loads(body).get("result") or ():
                    observer.update_received(_press_id(update))
            elif api_method == "answerCallbackQuery" and status == 200:
                press = params.get("callback_query_id")
                if isinstance(press, str):
                    observer.press_answered(press)
        except Exception:  # counting must never break a call
            log.debug("could not count a call to %s", api_method, exc_info=True)


# -- logs ----------------------------------------------------------------------------------

HIDDEN = "<private text hidden>"

PTB_LOGGERS = (
    "telegram.Bot",  # calls and their answers (a plain Bot)
    "telegram.ext.ExtBot",  # the same, for the Application's bot
    "telegram.ext.Application",  # "Processing update ..."
    "telegram.ext.Updater",
)
"""PTB's loggers that print Bot API parameters, answers or updates."""

_TEXT_FIELDS = ("text", "caption", "message_text", "quote")
_NESTED_TYPES = (Mapping, list, tuple, TelegramObject)


def _is_private_chat_id(value: object) -> bool:
    # Users' ids (and so their private chats') are positive; groups' are negative.
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value > 0
    return isinstance(value, str) and value.isdigit()


def _addressed_to_one_person(data: Mapping[str, Any]) -> bool:
    if "callback_query_id" in data:
        return True  # a popup: shown to the presser alone
    if "receiver_user_id" in data or "ephemeral_message_parameters" in data \
            or "ephemeral_message_id" in data:
        return True  # an ephemeral message: shown in a group to one member alone
    if _is_private_chat_id(data.get("chat_id")):
        return True  # a call sending to or editing in a private chat
    chat = data.get("chat")
    if isinstance(chat, Mapping):
        return chat.get("type") == "private" or _is_private_chat_id(chat.get("id"))
    return False


def redact_private(value: Any) -> Any:
    """``value`` with the text of every private message and popup in it replaced.

    Walks Bot API parameters, answers and updates (dicts, lists and Telegram objects);
    returns ``value`` itself when there is nothing to hide, else a redacted copy (the
    original is never changed: the bot is still using it).
    """
    if isinstance(value, TelegramObject):
        as_dict = value.to_dict()
        cleaned = redact_private(as_dict)
        return value if cleaned is as_dict else cleaned
    if isinstance(value, Mapping):
        changed = False
        out: dict[Any, Any] = {}
        hide = _addressed_to_one_person(value)
        for key, item in value.items():
            if hide and key in _TEXT_FIELDS and item is not None:
                out[key] = HIDDEN
                changed = True
            elif isinstance(item, _NESTED_TYPES):
                out[key] = redact_private(item)
                changed = changed or out[key] is not item
            else:
                out[key] = item
        return out if changed else value
    if isinstance(value, list | tuple):
        items = [redact_private(item) for item in value]
        if all(new is old for new, old in zip(items, value, strict=True)):
            return value
        return type(value)(items) if isinstance(value, tuple) else items
    return value


class PrivateTextFilter(logging.Filter):
    """Hide private-message and popup texts in the arguments of a log record."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and args:
            cleaned = redact_private(args)
            if cleaned is not args:
                record.args = cleaned
        elif isinstance(args, Mapping):
            cleaned_map = redact_private(args)
            if cleaned_map is not args:
                record.args = cleaned_map
        return True


_FILTER = PrivateTextFilter()


def hide_private_texts(loggers: tuple[str, ...] = PTB_LOGGERS) -> None:
    """Put the `PrivateTextFilter` on PTB's loggers (once; calling again is harmless).

    On the loggers themselves, not on a handler: every handler anyone adds sees the
    redacted record.
    """
    for name in loggers:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)


def show_private_texts(loggers: tuple[str, ...] = PTB_LOGGERS) -> None:
    """Take the filter off again (tests prove with it that the filter is what hides)."""
    for name in loggers:
        logging.getLogger(name).removeFilter(_FILTER)
