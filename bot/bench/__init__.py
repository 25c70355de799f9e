"""Benchmarks (scripts, not tests), each runnable on its own:

- ``python -m bot.bench``: many tables at once through the local Telegram stand-in
  (`bot.bench.tables`); ``--limits real`` runs them under Telegram's limits
  (`bot.bench.limits`).
- ``python -m bot.bench.store``: settled hands per second as the store writes them.
- ``python -m bot.bench.stats``: the /top and /stats queries over 10,000 hands.
"""
