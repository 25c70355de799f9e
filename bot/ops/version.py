"""The bot's version, in one place: this module.

``pyproject.toml`` reads `VERSION` from here (``dynamic = ["version"]``), so the package's
metadata, ``--version``, ``/healthz`` and ``status`` always say the same, and they say the
version of the code that runs, also in an editable install made before an upgrade.

A release that changes the schema is a new version: `SCHEMA` is the schema this version
ships, and a test fails when a migration is added without raising both.
"""

from __future__ import annotations

VERSION = "0.5.0"
"""The release: raise it for every release (a new schema raises the minor number)."""

SCHEMA = 22
"""The newest schema (`bot.store.migrations.LATEST`) this version ships."""


def version() -> str:
    """The running bot's version."""
    return VERSION


def describe() -> str:
    """What ``--version`` prints: the version and the schema it ships."""
    return f"svara-bot {VERSION} (schema {SCHEMA})"
