"""Benchmarks (scripts, not tests), each runnable on its own:

- ``python -m bot.bench``: many tables at once through the local Telegram stand-in
  (`bot.bench.tables`); ``--limits real`` runs them under Telegram's limits
  (`bot.bench.limits`), ``--miniapp V`` with Mini App viewers (`bot.bench.miniapp`).
  Its options are read in `bot.bench.__main__`.
- ``python -m bot.bench.store``: settled hands per second as the store writes them.
- ``python -m bot.bench.stats``: the /top and /stats queries over 10,000 hands.
- ``python -m bot.bench.startup``: how long ``python -m bot`` takes to start.

The scripts share `bot.bench.common` and never import one another; the real-limits runs
share their people and tables (`bot.bench.real`), the bot's process and log
(`bot.bench.botprocess`), the reading of the stand-in's transcript (`bot.bench.screens`,
`bot.bench.losses`) and their report (`bot.bench.real_report`); the load run's players are
`bot.bench.loadplay` and its profile `bot.bench.profiling`.
"""
