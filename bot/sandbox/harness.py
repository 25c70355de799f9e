"""The test-facing facade: one object with the world, the server and the final checks."""

from __future__ import annotations

import contextlib
import functools
import ssl
from collections.abc import AsyncIterator
from typing import Any

from telegram import Bot
from telegram.ext import Application, ApplicationBuilder
from telegram.request import HTTPXRequest

from bot.sandbox.faults import Faults
from bot.sandbox.limits import FloodControl
from bot.sandbox.server import SandboxServer
from bot.sandbox.transcript import UNANSWERED, VIOLATION_KINDS, Transcript, Violation
from bot.sandbox.world import World


class Sandbox:
    """A running stand-in as a test sees it (the `tg` fixture)."""

    def __init__(self, server: SandboxServer) -> None:
        self.server = server
        self._expected: set[str] = set()

    @property
    def world(self) -> World:
        """Users, chats and messages."""
        return self.server.world

    @property
    def transcript(self) -> Transcript:
        """Every call the bot made."""
        return self.server.transcript

    @property
    def faults(self) -> Faults:
        """Fault injection: `tg.faults.fail_next("sendMessage", Fault.retry_after(1))`."""
        return self.server.faults

    @property
    def flood(self) -> FloodControl:
        """Flood counters; set `tg.flood.mode` to change the mode."""
        return self.server.flood

    def app_builder(self) -> ApplicationBuilder[Any, Any, Any, Any, Any, Any]:
        """An ApplicationBuilder already pointed at the stand-in, with fast HTTP clients."""
        return (
            ApplicationBuilder()
            .token(self.world.token)
            .base_url(self.server.base_url)
            .base_file_url(self.server.base_file_url)
            .request(self.request())
            .get_updates_request(self.request(pool_size=1))
        )

    def bot(self) -> Bot:
        """A bare PTB Bot pointed at the stand-in (call initialize() or use `async with`)."""
        return Bot(
            self.world.token,
            base_url=self.server.base_url,
            base_file_url=self.server.base_file_url,
            request=self.request(),
            get_updates_request=self.request(pool_size=1),
        )

    @staticmethod
    def request(pool_size: int = 32, read_timeout: float = 5.0) -> HTTPXRequest:
        """A PTB HTTP client for the stand-in.

        It shares one TLS context: httpx otherwise loads the CA bundle for every client
        (about 50 ms each), which dominated test time though the stand-in speaks plain HTTP.
        """
        return HTTPXRequest(
            connection_pool_size=pool_size,
            read_timeout=read_timeout,
            httpx_kwargs={"verify": _tls_context()},
        )

    @contextlib.asynccontextmanager
    async def running(
        self, app: Application[Any, Any, Any, Any, Any, Any], *, poll_timeout: float = 1.0
    ) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
        """Run `app` with long polling for the duration of the block, then stop it cleanly."""
        await app.initialize()
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=int(poll_timeout) or 1)
        try:
            yield app
        finally:
            await app.updater.stop()
            await app.stop()
            await app.shutdown()

    def expect(self, *kinds: str) -> None:
        """Declare violations this test provokes on purpose, e.g. `tg.expect("flood")`."""
        unknown = set(kinds) - VIOLATION_KINDS
        if unknown:
            raise ValueError(f"unknown violation kinds {unknown}; known: {sorted(VIOLATION_KINDS)}")
        self._expected.update(kinds)

    def violations(self) -> list[Violation]:
        """Everything the bot did wrong so far, unanswered presses included."""
        found = list(self.transcript.violations)
        for query in self.world.unanswered_queries():
            detail = f"press of {query.data!r} by {query.user.first_name} was never answered"
            found.append(Violation(UNANSWERED, detail))
        return found

    def unexpected(self) -> list[Violation]:
        """Violations the test did not declare with expect()."""
        return [v for v in self.violations() if v.kind not in self._expected]

    def check(self) -> None:
        """Fail with a readable list if the bot broke a rule the test did not expect."""
        problems = self.unexpected()
        if problems:
            lines = "\n".join(f"  [{v.kind}] {v.detail}" for v in problems)
            raise AssertionError(
                f"the bot broke Telegram rules ({len(problems)}):\n{lines}\n"
                'declare intended ones with tg.expect("kind")'
            )


@functools.cache
def _tls_context() -> ssl.SSLContext:
    return ssl.create_default_context()
