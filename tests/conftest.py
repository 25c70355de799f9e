"""Fixtures shared by every test folder."""

import os

# The bot's entry point opts in to PTB's coming behaviour (durations as timedelta); so do
# the tests, which build the application without it.
os.environ.setdefault("PTB_TIMEDELTA", "1")

pytest_plugins = ["bot.sandbox.pytest_plugin"]
