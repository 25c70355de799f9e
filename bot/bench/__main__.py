"""``python -m bot.bench``: the load benchmark of `bot.bench.tables`."""

from bot.bench.tables import main

raise SystemExit(main())
