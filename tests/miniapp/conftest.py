"""Fixtures: the real bot on the stand-in, with its Mini App served over real HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.sandbox.harness import Sandbox
from tests.e2e.bed import Bed
from tests.miniapp.app import PUBLIC_URL, Served, served


@pytest.fixture
async def app(tg: Sandbox, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Served]:
    """A running bot whose tables open as a Mini App; audited and checked at teardown."""
    bed = Bed(tg, tmp_path_factory.mktemp("db") / "svara.sqlite3", public_url=PUBLIC_URL)
    await bed.start()
    try:
        async for found in served(bed):
            yield found
    finally:
        await bed.stop()
    await bed.audit()
    await bed.assert_no_cards_leaked()
