"""Load benchmark: many tables at once, the real bot against the local Telegram stand-in.

Run ``python -m bot.bench [--tables 1,10,100,500] [--hands K] [--hands-big K] [--profile]``.

``--limits real`` measures under Telegram's limits instead (see `bot.bench.limits`):
``python -m bot.bench --limits real --tables T [--time-scale S]`` or ``--limits real
--max-tables``.

Everything runs in one process and one asyncio loop: the stand-in (`SandboxServer`), the
real PTB `Application` from `bot.app.build_application` polling it over HTTP, a fresh
SQLite file per run, and the simulated players. Each table is a group of 2-4 players who
send /newgame, start the bot privately, press Join, then Start, and play hands by pressing
a random legal button of the player to act ("No blind" at the blind) as soon as the table
message shows a new turn. Timers are long, so nothing ever times out. The bot's rate
limiter and the stand-in's flood control are both off: this measures the bot's own
capacity, not Telegram's limits.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bot.bench import tables
from bot.bench.tables import BIG, DEFAULT_TABLES


def _counts(text: str) -> list[int]:
    try:
        counts = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {text!r}") from None
    if not counts or counts[0] < 1:
        raise argparse.ArgumentTypeError("table counts must be 1 or more")
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limits", choices=("off", "real"), default="off",
                        help="off (default): the bot's own capacity, limits off on both "
                             "sides; real: the production rate limiter against Telegram's "
                             "limits, players at human pace")
    parser.add_argument("--tables", type=_counts, default=None,
                        help="table counts to run, comma-separated (default: 1,10,100,500; "
                             "with --limits real: 10)")
    parser.add_argument("--hands", type=int, default=None,
                        help="hands per table (default: 2; with --limits real: 3, and 2 "
                             "for each run of --max-tables)")
    parser.add_argument("--hands-big", type=int, default=1,
                        help=f"hands per table from {BIG} tables on (default: 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of players and decks")
    parser.add_argument("--profile", type=int, metavar="N", default=None,
                        help="profile the run with N tables (cProfile, main thread)")
    parser.add_argument("--think", type=float, default=3000.0, metavar="MS",
                        help="mean think time before each press, in ms (default 3000, a "
                             "quick human; 0: press as soon as the bot answers)")
    parser.add_argument("--think-big", type=float, default=8000.0, metavar="MS",
                        help=f"the same from {BIG} tables on (default 8000)")
    parser.add_argument("--max-tables", action="store_true",
                        help="with --limits real: search for the most tables that meet "
                             "every target")
    parser.add_argument("--from", dest="search_from", type=int, default=10, metavar="T",
                        help="--max-tables starts at T tables (default 10)")
    parser.add_argument("--ceiling", type=int, default=200, metavar="T",
                        help="--max-tables tries at most T tables (default 200)")
    parser.add_argument("--cards", choices=("private", "group", "both"), default="private",
                        help="with --limits real: where the chats deal the cards (My cards "
                             "shows them in the group on a press in every case)")
    parser.add_argument("--time-scale", type=float, default=1.0, metavar="S",
                        help="with --limits real: run every clock S times faster (default "
                             "1, the real clock, which is the reference)")
    parser.add_argument("--cap", type=float, default=300.0, metavar="SECONDS",
                        help="with --limits real: end a run after this long (default 300)")
    parser.add_argument("--in-process", action="store_true",
                        help="with --limits real: run the bot in the bench's own process "
                             "instead of as `python -m bot` in a process of its own")
    parser.add_argument("--lift-global", action="store_true",
                        help="with --limits real: lift Telegram's overall limit of 30 "
                             "calls a second in the stand-in (to see answers at more tables "
                             "than one token may carry)")
    parser.add_argument("--miniapp", type=int, default=0, metavar="V",
                        help="with --limits real: V Mini App viewers a table "
                             "(bot.bench.miniapp)")
    parser.add_argument("--dir", type=Path, default=None,
                        help="where to put the scratch databases (default: a temp dir)")
    args = parser.parse_args(argv)
    if (args.hands is not None and args.hands < 1) or args.hands_big < 1:
        parser.error("--hands and --hands-big must be 1 or more")
    if args.limits == "off" and (args.max_tables or args.time_scale != 1.0
                                 or args.in_process or args.lift_global):
        parser.error("--max-tables, --time-scale, --in-process and --lift-global go with "
                     "--limits real")
    if args.time_scale <= 0 or args.cap <= 0:
        parser.error("--time-scale and --cap must be positive")
    logging.getLogger().setLevel(logging.WARNING)  # counted by LogCounter, not printed
    workdir = Path(tempfile.mkdtemp(prefix="svara-bench-", dir=args.dir))
    try:
        if args.limits == "real":
            return _real(args, workdir)
        results = asyncio.run(tables.run(
            args.tables or list(DEFAULT_TABLES), args.hands or 2, args.hands_big, args.seed,
            workdir, args.profile, args.think / 1000, args.think_big / 1000))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if all(r.errors == 0 for r in results) else 1


def _real(args: argparse.Namespace, workdir: Path) -> int:
    # Each run loads only its own script: a run with limits off loads neither.
    if args.miniapp:
        from bot.bench import miniapp as bench_miniapp
        return bench_miniapp.main(args.tables or [10], args.miniapp, args.hands or 3,
                                  args.seed, workdir, args.time_scale, args.cap)
    from bot.bench import limits as bench_limits
    from bot.bench.real import Plan

    plan = Plan(scale=args.time_scale, cap=args.cap, in_process=args.in_process,
                lift_global=args.lift_global, cards=args.cards)
    if args.max_tables:
        found = asyncio.run(bench_limits.search(
            args.search_from, args.hands or 2, args.seed, workdir, plan, args.ceiling))
        print(f"real limits: one token carries {found} tables")
        return 0
    results = asyncio.run(bench_limits.run_counts(
        args.tables or [10], args.hands or 3, args.seed, workdir, plan))
    return 0 if all(not r.misses() for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
