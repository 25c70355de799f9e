"""python-telegram-bot's HTTP layer on aiohttp.

PTB's default client spends most of a busy bot's processor time in its connection pool
(every request checks every pooled connection); aiohttp, already a dependency, keeps a
table's press-to-edit time low when many tables play at once.
"""

from __future__ import annotations

from typing import Any

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData


def _seconds(value: ODVInput[float], default: float | None) -> float | None:
    return default if isinstance(value, DefaultValue) else value


class AiohttpRequest(BaseRequest):
    """A `telegram.request.BaseRequest` over one `aiohttp.ClientSession`."""

    def __init__(
        self,
        *,
        pool_size: int = 32,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
    ) -> None:
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
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
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
        try:
            async with self._session.request(method, url, data=data, timeout=timeout) as reply:
                return reply.status, await reply.read()
        except TimeoutError as err:
            raise TimedOut(f"Timed out: {err!r}") from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp: {err!r}") from err
