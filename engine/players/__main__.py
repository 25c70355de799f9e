"""``python -m engine.players``: the computer players' tournament, as a benchmark."""

from __future__ import annotations

import argparse
import time

from engine.players.tournament import NAMES, STACK_ANTES, STATION, play
from engine.rules import MAX_SEATS


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m engine.players",
        description="Play the computer players' levels and a calling station at one table.",
    )
    parser.add_argument("--hands", type=int, default=10_000, help="hands to play (10,000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and players")
    parser.add_argument("--seats", type=int, default=len(NAMES),
                        choices=range(len(NAMES), MAX_SEATS + 1), metavar="SEATS",
                        help=f"players at the table, {len(NAMES)} to {MAX_SEATS} (each level "
                             f"and the station in turn; {len(NAMES)})")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    began = time.perf_counter()
    result = play(args.hands, args.seed, seats=args.seats)
    took = time.perf_counter() - began
    rules = result.rules
    print(
        f"{result.hands} hands, seed {args.seed}: {args.seats} players, ante {rules.ante}, "
        f"stacks {STACK_ANTES * rules.ante}, each deal played from every seat"
    )
    print("chips won per hand [95% confidence interval]; then the same, minus the station's")
    for name, fig in result.per_hand.items():
        over = "" if name == STATION else str(result.over_station[name])
        print(f"{name:>10}  {fig}   {over}".rstrip())
    print(f"{took:.1f} s ({result.hands / took:.0f} hands/s)")


if __name__ == "__main__":
    main()
