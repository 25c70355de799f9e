"""The bot as the real-limits bench runs it: `python -m bot` in a process of its own pointed
at the stand-in, and what it logs (warnings, errors, lost messages, its count of committed
transactions), read from its stderr or from its records in this process."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import SecretStr

from bot.bench.common import FAKE_TOKEN
from bot.sandbox.server import SandboxServer
from bot.settings import Settings

STOP_WAIT = 30.0
"""Seconds the bot process has to stop cleanly after SIGTERM before it is killed."""

LOG_LINE = re.compile(r"^\S+ \S+ (DEBUG|INFO|WARNING|ERROR|CRITICAL) (\S+): (.*)$")
"""A line of the bot's log as `python -m bot` writes it (`bot.__main__`)."""
TRANSACTIONS = re.compile(r"^transactions committed: (\d+) for \d+ units \((.*)\)$")
LOST = re.compile(r"\blost\b", re.IGNORECASE)


@dataclass
class BotLog:
    """What the bot logged: warnings and errors counted, a few errors kept, its count of
    committed transactions, and the lines that say a message was lost."""

    counts: Counter[str] = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)
    lost_lines: int = 0
    transactions: int | None = None
    writers: str = ""
    by_writer: Counter[str] = field(default_factory=Counter)

    def take(self, level: str, name: str, text: str) -> None:
        self.counts[level] += 1
        if level in ("ERROR", "CRITICAL") and len(self.samples) < 3:
            self.samples.append(f"{name}: {text}"[:300])
        if level != "DEBUG" and LOST.search(text):
            self.lost_lines += 1
        found = TRANSACTIONS.match(text)
        if found:
            self.transactions = (self.transactions or 0) + int(found[1])
            self.writers = found[2]
            for part in found[2].split(", "):
                name, _, n = part.rpartition(" ")
                if n.isdigit():
                    self.by_writer[name] += int(n)

    def line(self, raw: str) -> None:
        """One line of the bot process's stderr (tracebacks' inner lines are skipped)."""
        found = LOG_LINE.match(raw)
        if found:
            self.take(found[1], found[2], found[3])

    @property
    def errors(self) -> int:
        return self.counts["ERROR"] + self.counts["CRITICAL"]


class LogTaker(logging.Handler):
    """Feeds a `BotLog` from the records of a bot running in this process."""

    def __init__(self, log: BotLog) -> None:
        super().__init__(logging.INFO)
        self.log = log

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({record.exc_info[1]!r})"
        self.log.take(record.levelname, record.name, text)


def bot_environment(server: SandboxServer, database: Path, scale: float) -> dict[str, str]:
    """The environment of `python -m bot` pointed at the stand-in: this process's own
    without any SVARA_* setting or PORT, and the bench's settings."""
    env = {k: v for k, v in os.environ.items()
           if not k.upper().startswith("SVARA_") and k.upper() != "PORT"}
    defaults = Settings(bot_token=SecretStr(FAKE_TOKEN), _env_file=None)  # type: ignore[call-arg]
    env.update({
        "SVARA_BOT_TOKEN": server.world.token,
        "SVARA_API_BASE_URL": server.base_url,
        "SVARA_API_BASE_FILE_URL": server.base_file_url,
        "SVARA_DATABASE": str(database),
        "SVARA_LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
    })
    if scale != 1:
        env.update({
            "SVARA_RATE_LIMIT": "false",
            "SVARA_GROUP_PER_MINUTE": f"{defaults.group_per_minute * scale:g}",
            "SVARA_TURN_TIMEOUT": f"{defaults.turn_timeout / scale:g}",
            "SVARA_BLIND_TIMEOUT": f"{defaults.blind_timeout / scale:g}",
            "SVARA_SVARA_JOIN_TIMEOUT": f"{defaults.svara_join_timeout / scale:g}",
            "SVARA_NEXT_HAND_DELAY": f"{defaults.next_hand_delay / scale:g}",
            "SVARA_NUDGE_AFTER": f"{defaults.nudge_after / scale:g}",
        })
    return env


class BotProcess:
    """`python -m bot` in a process of its own, as production starts it; its log is read
    line by line into a `BotLog`."""

    def __init__(self, server: SandboxServer, database: Path, scale: float,
                 workdir: Path) -> None:
        self.env = bot_environment(server, database, scale)
        self.workdir = workdir  # its working directory: no stray .env is read
        self.log = BotLog()
        self.code: int | None = None
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=self.workdir, env=self.env,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE)
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self._process is not None and self._process.stderr is not None
        async for raw in self._process.stderr:
            self.log.line(raw.decode("utf-8", "replace").rstrip())

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.returncode is None

    async def stop(self) -> int | None:
        """SIGTERM, as a service manager stops it; killed if it does not stop in time."""
        process = self._process
        if process is None:
            return None
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), STOP_WAIT)
            except TimeoutError:
                process.kill()
                await process.wait()
        if self._reader is not None:
            await self._reader
        self.code = process.returncode
        return self.code


async def polling(server: SandboxServer, bot: BotProcess, within: float = 60.0) -> None:
    """Wait until the bot asks the stand-in for updates: it is up."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not server.transcript.of("getUpdates"):
        if not bot.running or loop.time() > deadline:
            await bot.stop()
            raise SystemExit(f"the bot did not start (exit code {bot.code}): "
                             f"{'; '.join(bot.log.samples) or 'nothing logged'}")
        await asyncio.sleep(0.1)
