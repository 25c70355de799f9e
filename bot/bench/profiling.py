"""Where the load benchmark's main thread spent its time (`--profile N`): cProfile's figures
by area (stand-in, bot, engine, PTB, ...) and by function, with paths shortened."""

from __future__ import annotations

import io
import pstats
from collections import Counter
from pathlib import Path
from typing import Any

AREAS = (
    ("stand-in (bot/sandbox)", ("/bot/sandbox/",)),
    ("stand-in HTTP server (aiohttp, yarl, multidict)", ("/aiohttp/", "/yarl/", "/multidict/")),
    ("bot (bot/, excluding the stand-in)", ("/bot/",)),
    ("engine", ("/engine/",)),
    ("PTB (telegram/, telegram.ext)", ("/telegram/",)),
    ("HTTP client (httpx, httpcore, h11, anyio)", ("/httpx/", "/httpcore/", "/h11/", "/anyio/")),
    ("timers (apscheduler)", ("/apscheduler/",)),
    ("asyncio and selectors", ("/asyncio/", "selectors.py")),
    ("json", ("/json/",)),
    ("pydantic", ("/pydantic",)),
)


def _area(filename: str) -> str:
    for name, marks in AREAS:
        if any(mark in filename for mark in marks):
            return name
    if filename.startswith("~") or filename.startswith("<"):
        return "built-ins (C functions, sockets, sqlite3 calls)"
    return "other"


def describe_profile(stats: pstats.Stats, wall: float) -> list[str]:
    """Where the main thread's time went, by area and by function."""
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    by_area: Counter[str] = Counter()
    total = 0.0
    for (filename, _, _), (_, _, tottime, _, _) in raw.items():
        by_area[_area(filename)] += tottime
        total += tottime
    lines = [f"  profile (main thread; {total:.2f} s of CPU in {wall:.2f} s wall; the SQLite "
             "writer and reader threads are not in it):"]
    for area, seconds in by_area.most_common():
        lines.append(f"    {seconds / total * 100:5.1f}%  {area}")
    buffer = io.StringIO()
    stats.stream = buffer  # type: ignore[attr-defined]
    stats.sort_stats("tottime").print_stats(18)
    lines.append("  top functions by own time:")
    lines += ["    " + line for line in _table_lines(buffer.getvalue())]
    buffer = io.StringIO()
    stats.stream = buffer  # type: ignore[attr-defined]
    stats.sort_stats("cumulative").print_stats(r"/bot/(?!sandbox)", 25)
    lines.append("  bot functions by cumulative time:")
    lines += ["    " + line for line in _table_lines(buffer.getvalue())]
    return lines


def _table_lines(text: str) -> list[str]:
    out = []
    started = False
    for line in text.splitlines():
        if line.lstrip().startswith("ncalls"):
            started = True
        if started and line.strip():
            out.append(_shorten(line))
    return out


_ROOT = str(Path(__file__).resolve().parents[1])
"""The checkout, cut from profile lines like the library paths."""


def _shorten(line: str) -> str:
    for mark in ("site-packages/", f"{_ROOT}/", "/lib/python3"):
        head, sep, tail = line.partition(mark)
        if sep:
            cut = head.rfind(" ")
            line = head[: cut + 1] + tail
    return line
