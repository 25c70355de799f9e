"""End-to-end fixtures: the real Application over HTTP against the stand-in, a real SQLite file."""

from __future__ import annotations

import io
import logging
from collections.abc import AsyncIterator, Iterator

import pytest

from bot.sandbox.harness import Sandbox
from tests.e2e.bed import Bed

__all__ = ["bed", "debug_log"]


@pytest.fixture
async def bed(tg: Sandbox, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Bed]:
    """A running bot with a fresh database; audited and checked at teardown."""
    test_bed = Bed(tg, tmp_path_factory.mktemp("db") / "svara.sqlite3")
    await test_bed.start()
    try:
        yield test_bed
    finally:
        await test_bed.stop()
    await test_bed.audit()
    await test_bed.assert_no_cards_leaked()


@pytest.fixture
def debug_log() -> Iterator[io.StringIO]:
    """Everything logged at DEBUG, from every logger, as text."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setLevel(logging.DEBUG)
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
