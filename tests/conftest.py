"""Fixtures shared by every test folder."""

pytest_plugins = ["bot.sandbox.pytest_plugin"]
