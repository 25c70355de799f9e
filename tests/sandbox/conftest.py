"""The stand-in's own tests use its fixtures directly."""

from bot.sandbox.pytest_plugin import tg

__all__ = ["tg"]
