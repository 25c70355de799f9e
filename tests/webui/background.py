"""What the browser tests share: the sandbox on an event loop of its own thread, and a
headless Chromium to look at it."""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.webui.run import Running, launch

CHROMIUM = Path("/usr/bin/chromium")
DRIVER = Path("/usr/bin/chromedriver")
WAIT = 30.0


def need_a_browser() -> None:
    """Skip the calling test module unless selenium, Chromium and its driver are here."""
    pytest.importorskip("selenium", reason="selenium is not installed (the dev extra)")
    if not (CHROMIUM.exists() and DRIVER.exists()):
        pytest.skip(f"no {CHROMIUM} and {DRIVER}: apt-get install chromium chromium-driver",
                    allow_module_level=True)


class Background:
    """The sandbox on an event loop of its own thread, while a browser test blocks.

    Hands are dealt from `seeds` in turn, then from `seed` (a test may add seeds while
    it runs); with `seed` None, as in production, from each table's secret and seeds."""

    def __init__(self, db: Path, *, players: int, names: tuple[str, ...],
                 seed: bytes | None) -> None:
        self.db = db
        self.players, self.names, self.seed = players, names, seed
        self.seeds: list[bytes] = []
        self._ready: queue.Queue[Running | BaseException] = queue.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    def _next_seed(self) -> bytes:
        if self.seeds:
            return self.seeds.pop(0)
        assert self.seed is not None
        return self.seed

    async def _main(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        try:
            async with launch(players=self.players, db=self.db, speed=20.0, names=self.names,
                              seed_source=None if self.seed is None else self._next_seed
                              ) as running:
                self._ready.put(running)
                await self._stop.wait()
        except BaseException as err:
            self._ready.put(err)
            raise

    def start(self) -> Running:
        self._thread.start()
        got = self._ready.get(timeout=WAIT)
        if isinstance(got, BaseException):
            raise got
        return got

    def call(self, coro: Any) -> Any:
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(WAIT)

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(WAIT)


@contextmanager
def running(db: Path, *, players: int, names: tuple[str, ...],
            seed: bytes | None) -> Iterator[tuple[Background, Running]]:
    """The sandbox running in the background for the length of a test."""
    bg = Background(db, players=players, names=names, seed=seed)
    started = bg.start()
    try:
        yield bg, started
    finally:
        bg.stop()


@contextmanager
def chromium(*flags: str) -> Iterator[Any]:
    """Headless Chromium through its driver, with the given window flags."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 *flags):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
