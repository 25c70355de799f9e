"""Fixtures shared by every test folder."""

import os

from hypothesis import settings

# The bot's entry point opts in to PTB's coming behaviour (durations as timedelta); so do
# the tests, which build the application without it.
os.environ.setdefault("PTB_TIMEDELTA", "1")

pytest_plugins = ["bot.sandbox.pytest_plugin"]

# In CI every run tries the same examples (a seed taken from each test), so a red build
# can be run again and a green one means the same thing every time. Elsewhere Hypothesis
# keeps exploring, and remembers what failed in its local database.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
