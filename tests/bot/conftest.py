"""What the tests of `bot` share: a real store on a temporary file, and a clock to move."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store

NOW = [1_000.0]
"""The tests' clock (seconds since the epoch), back at 1000 before every test."""


@pytest.fixture(autouse=True)
def _clock_at_1000() -> None:
    NOW[0] = 1_000.0


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "games.sqlite3")
    try:
        yield opened
    finally:
        await opened.close()
