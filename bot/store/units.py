"""The pieces `Database` is built from: units of work, counters, error mapping."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.store.errors import IntegrityViolation, StorageFailure, StoreError

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], T]


def translate(err: BaseException) -> BaseException:
    """Map a raw sqlite3 error to the store's error classes; leave anything else alone."""
    if isinstance(err, sqlite3.IntegrityError):
        return IntegrityViolation(f"the database refused the write: {err}")
    if isinstance(err, sqlite3.Error) and not isinstance(err, StoreError):
        return StorageFailure(f"SQLite failed: {err}")
    return err


@dataclass(slots=True)
class Job(Generic[T]):
    """One unit of work queued for the writer thread, and its outcome."""

    work: Work[T]
    step: bool
    value: Any = None
    error: BaseException | None = None
    done: bool = False


@dataclass(slots=True)
class DbStats:
    """Counters for benchmarks and logs."""

    units: int = 0
    """Units of work committed (or rolled back alone)."""
    commits: int = 0
    batches: int = 0


@dataclass(slots=True)
class Owner:
    """Which task holds the open `Database.transaction`, and its savepoint depth."""

    task: asyncio.Task[Any] | None = None
    depth: int = 0
