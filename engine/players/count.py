"""Write ``showdown.json``: the exact counts of `engine.players.exact` for every hand.

    python -m engine.players.count --most 5 --jobs 2     # half an hour on two cores
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
from importlib import resources

from engine.players.exact import DATA, MOST, canonical, hand_classes, tie_counts
from engine.scoring import DEFAULT_SCORING


def _entry(job: tuple[tuple[int, int, int], int]) -> tuple[str, list[list[int]]]:
    hand, most = job
    return str(canonical(hand, DEFAULT_SCORING)), tie_counts(hand, DEFAULT_SCORING, most)


def build(most: int = MOST, jobs: int = 1) -> dict[str, object]:
    """The counts of every hand for the default scoring, in ``jobs`` processes."""
    work = [(hand, most) for hand in hand_classes(DEFAULT_SCORING)]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            entries = pool.map(_entry, work, chunksize=4)
    else:
        entries = [_entry(job) for job in work]
    return {"most": most, "hands": dict(sorted(entries, key=lambda e: int(e[0])))}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m engine.players.count",
        description=f"Count the exact showdown odds of every hand into {DATA}.",
    )
    parser.add_argument("--out", default=str(resources.files("engine.players") / DATA))
    parser.add_argument("--most", type=int, default=MOST, choices=range(1, MOST + 1),
                        help=f"opponents to count up to ({MOST})")
    parser.add_argument("--jobs", type=int, default=1, help="processes to count in")
    args = parser.parse_args(argv)
    data = build(args.most, args.jobs)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
