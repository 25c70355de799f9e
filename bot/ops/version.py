"""The installed version of the bot."""

from __future__ import annotations

from importlib import metadata

DISTRIBUTION = "svara-bot"


def version() -> str:
    """The version of the installed ``svara-bot`` distribution ("unknown" when not installed)."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"
