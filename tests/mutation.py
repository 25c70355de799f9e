"""Mutation testing: how many one-line breaks of a module its own fast tests catch.

    python -m tests.mutation [MODULE ...]     # every module below when none is named

Each module is broken by mutmut (configured under ``[tool.mutmut]`` in pyproject.toml) in a
copy of the tree of its own, ``mutants/<module>/``, and only the module's own fast tests run
against each mutant (mutmut narrows them further to the tests that reach the mutated
function). The score is the killed share of the mutants that are not equivalent: the
equivalent ones are listed in ``mutation_equivalent.txt`` beside this file, one a line with
the reason. Survivors are printed by name; ``mutmut show NAME`` in ``mutants/<module>/``
shows the change. It is slow (minutes a module): not part of ``.ci/run``.

Module constants are not mutated by mutmut (only function bodies); their values are pinned
by behaviour tests of their own (the flood guard's burst, the clock's back-off).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = Path(__file__).with_name("mutation_equivalent.txt")
KEEP = 90.0
"""The killed share (in %) a change must keep in every module below."""


@dataclass(frozen=True)
class Module:
    path: str
    tests: tuple[str, ...]
    fresh: bool = False
    """Import the module anew for each mutant: it computes tables when imported (mutmut
    otherwise forks from a process that imported the unmutated code)."""


ENGINE_TESTS = ("tests/engine/test_table.py", "tests/engine/test_rule_holes.py",
                "tests/engine/test_stories.py", "tests/engine/test_properties.py")


def _outbox(*names: str) -> tuple[str, ...]:
    return tuple(f"tests/{name}.py" for name in names)


# Each outbox module against the tests that reach what it sends (narrow: a surviving mutant
# runs every test that reaches its function, and most end-to-end tests deal cards).
OUTBOX_TESTS: dict[str, tuple[str, ...]] = {
    # The one sending path: every answer Telegram gives, and the table message's faults.
    "base": _outbox("bot/test_sending", "bot/test_outbox", "e2e/test_delivery",
                    "e2e/test_robustness", "e2e/test_in_group"),
    # The table message through Telegram's refusals, its pace, pins and /table.
    "table": _outbox("bot/test_outbox", "bot/test_table_writer", "e2e/test_robustness",
                     "e2e/test_pace", "e2e/test_delivery", "e2e/test_hardening", "e2e/test_attacks",
                     "e2e/test_tell", "e2e/test_group_changes", "miniapp/test_play",
                     "e2e/test_answers"),
    # Each player's cards (in private and in the group) and the letter of a closed table.
    "private": _outbox("bot/test_outbox", "e2e/test_delivery", "e2e/test_in_group",
                       "e2e/test_group_changes", "miniapp/test_play"),
    # A member's own cards in the group, answered to his press or dealt there.
    "hidden": _outbox("e2e/test_in_group", "e2e/test_answers", "bot/test_outbox",
                      "e2e/test_flood"),
    # Turn reminders, and replies to commands in a group queued behind its pace (with the
    # ephemeral answers): against every test that reaches the outbox's queues.
    **dict.fromkeys(("reminders", "answers"), _outbox(
        "bot/test_outbox", "e2e/test_delivery", "e2e/test_answers", "e2e/test_in_group",
        "e2e/test_flood", "e2e/test_hardening", "e2e/test_attacks", "e2e/test_tell",
        "e2e/test_group_changes", "miniapp/test_play")),
    # What the bot knows of a group, its pins, the results message and its own announcements.
    "group": _outbox("bot/test_sending", "e2e/test_delivery", "e2e/test_group_changes",
                     "e2e/test_tell", "bot/test_outbox", "e2e/test_robustness",
                     "e2e/test_in_group", "e2e/test_season"),
}

MODULES: dict[str, Module] = {
    "clock": Module("bot/clock.py", ("tests/bot/test_clock.py",)),
    "flood": Module("bot/flood.py", ("tests/bot/test_flood.py",)),
    "ratelimit": Module("bot/ratelimit.py", ("tests/bot/test_ratelimit.py",
                                             "tests/bot/test_flood.py",
                                             "tests/bot/test_pacing.py")),
    "initdata": Module("bot/miniapp/initdata.py", ("tests/miniapp/test_initdata.py",)),
    "db": Module("bot/store/db.py", ("tests/store/test_db.py",
                                     "tests/store/test_migrations.py")),
    **{f"outbox.{part}": Module(f"bot/outbox/{part}.py", tests)
       for part, tests in OUTBOX_TESTS.items()},
    "scoring": Module("engine/scoring.py", ("tests/engine/test_scoring.py",), fresh=True),
    "legality": Module("engine/legality.py", ("tests/engine/test_legality.py", *ENGINE_TESTS)),
    "pots": Module("engine/pots.py", ("tests/engine/test_pots.py", *ENGINE_TESTS)),
    "ledger": Module("bot/store/ledger.py", ("tests/store/test_users.py",
                                             "tests/store/test_audit.py",
                                             "tests/store/test_hands.py",
                                             "tests/store/test_recovery.py",
                                             "tests/store/test_history.py",
                                             "tests/store/test_practice.py",
                                             "tests/store/test_tournaments.py",
                                             "tests/store/test_ledger.py")),
    "store.audit": Module("bot/store/audit.py", ("tests/store/test_audit.py",
                                                 "tests/store/test_audit_lines.py",
                                                 "tests/store/test_tournaments.py",
                                                 "tests/store/test_ledger.py")),
    "gifts": Module("bot/store/gifts.py", ("tests/store/test_gifts.py",)),
    "fairness": Module("bot/fairness.py", ("tests/store/test_fairness.py",
                                           "tests/e2e/test_fair.py",
                                           "tests/e2e/test_fair_numbers.py")),
    "store.fairness": Module("bot/store/fairness.py", ("tests/store/test_fairness.py",
                                                       "tests/e2e/test_fair.py")),
    "seasons": Module("bot/seasons.py", ("tests/bot/test_seasons.py",
                                         "tests/store/test_seasons.py",
                                         "tests/e2e/test_season_tournaments.py")),
    "store.seasons": Module("bot/store/seasons.py", ("tests/store/test_seasons.py",
                                                     "tests/bot/test_season_close.py",
                                                     "tests/e2e/test_season.py",
                                                     "tests/e2e/test_season_tournaments.py")),
    "season_close": Module("bot/season_close.py", ("tests/bot/test_season_close.py",
                                                   "tests/e2e/test_season.py")),
    "tournament": Module("bot/tournament.py", ("tests/bot/test_tournament.py",
                                               "tests/e2e/test_tournament.py")),
    "store.tournaments": Module("bot/store/tournaments.py", ("tests/store/test_tournaments.py",
                                                             "tests/e2e/test_tournament.py")),
    "store.tournament_pool": Module("bot/store/tournament_pool.py",
                                    ("tests/store/test_tournaments.py",
                                     "tests/store/test_audit.py",
                                     "tests/e2e/test_tournament.py")),
    "achievements": Module("bot/achievements.py", ("tests/bot/test_achievements.py",)),
    "store.achievements": Module("bot/store/achievements.py",
                                 ("tests/store/test_achievements.py",
                                  "tests/e2e/test_badges.py")),
    # A group's settings and language, and all it keeps when it becomes a supergroup.
    "store.chats": Module("bot/store/chats.py", ("tests/store/test_chats.py",
                                                 "tests/store/test_bad_input.py",
                                                 "tests/store/test_seasons.py",
                                                 "tests/store/test_achievements.py",
                                                 "tests/store/test_tournaments.py",
                                                 "tests/e2e/test_group_changes.py")),
    # What each player made of a settled hand: the leaderboards' and the seasons' rows.
    "store.hand_players": Module("bot/store/hand_players.py",
                                 ("tests/store/test_hand_players.py",
                                  "tests/store/test_history.py",
                                  "tests/store/test_migrations.py",
                                  "tests/store/test_seasons.py",
                                  "tests/store/test_achievements.py",
                                  "tests/e2e/test_history.py")),
}

SQL_START = re.compile(
    r"\s*(?:\(|SELECT|INSERT|UPDATE|DELETE|REPLACE|FROM|WHERE|AND|OR|NOT|ON|JOIN|LEFT|GROUP"
    r"|ORDER|HAVING|UNION|IN|LIMIT|PRAGMA|BEGIN|COMMIT|ROLLBACK|CREATE|DROP|ALTER|WITH"
    r"|VALUES|SET)\b")
"""How a string literal of SQL begins (a statement or the next piece of one)."""


def sql_case_only(diff: str) -> bool:
    """Whether a mutant's diff only changes the case of SQL outside its quoted values.

    SQLite reads keywords and names in any case (and ``sqlite3.Row`` finds a column by its
    name in any case); only a quoted value such as ``'balance'`` is compared as written, so
    a mutant that changes one of those still counts.
    """
    lines = [line for line in diff.splitlines() if not line.startswith(("---", "+++"))]
    old = [line[1:] for line in lines if line.startswith("-")]
    new = [line[1:] for line in lines if line.startswith("+")]
    if not old or len(old) != len(new):
        return False
    for before, after in zip(old, new, strict=True):
        if before == after:
            continue
        if before.lower() != after.lower():
            return False
        if re.findall(r"'[^']*'", before) != re.findall(r"'[^']*'", after):
            return False
        changed = [text for text, other in zip(_literals(before), _literals(after), strict=False)
                   if text != other]
        if not changed or not all(SQL_START.match(text) for text in changed):
            return False
    return True


def _literals(line: str) -> list[str]:
    return re.findall(r'"((?:[^"\\]|\\.)*)"', line)


DETECTED = {"killed", "timeout", "caught by type check"}
"""What counts as caught: a mutant that fails a test, hangs one, or fails the type check."""
NOT_RUN = {"skipped", "not checked"}


def equivalents() -> dict[str, str]:
    """Mutant name to why it cannot change behaviour."""
    found: dict[str, str] = {}
    for line in EQUIVALENT.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, reason = line.partition(" ")
            found[name] = reason.strip()
    return found


def pyproject_for(module: Module) -> str:
    """The project's pyproject.toml with its [tool.mutmut] narrowed to `module`."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    head, found, rest = text.partition("[tool.mutmut]\n")
    if not found:
        raise SystemExit("pyproject.toml has no [tool.mutmut] section")
    body, _, tail = rest.partition("\n[")
    kept = [line for line in body.splitlines()
            if not line.startswith(("only_mutate", "pytest_add_cli_args_test_selection"))]
    kept += [f"only_mutate = [{_quoted(module.path)}]",
             "pytest_add_cli_args_test_selection = ["
             + ", ".join(_quoted(t) for t in module.tests) + "]"]
    if module.fresh:
        kept = [line for line in kept if not line.startswith(("process_isolation",
                                                              "forkserver_warmup"))]
        kept += ['process_isolation = "forkserver"', 'forkserver_warmup = "none"']
    return head + found + "\n".join(kept) + "\n" + ("\n[" + tail if tail else "")


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def run(name: str, module: Module, children: int) -> Counter[str]:
    """Run mutmut for one module in its own copy; its mutants by how they ended."""
    work = ROOT / "mutants" / name
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "mutants")
    # docs/ too: tests read the documents they hold to (FAIRNESS.md, verify.html).
    for folder in ("bot", "engine", "tests", "docs"):
        shutil.copytree(ROOT / folder, work / folder, ignore=ignore)
    (work / "pyproject.toml").write_text(pyproject_for(module), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(work)}
    nice = ["nice", "-n", "10"] if shutil.which("nice") else []
    with open(work / "mutmut.log", "w", encoding="utf-8") as log:
        subprocess.run([*nice, sys.executable, "-m", "mutmut", "run", "--max-children",
                        str(children)], cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT,
                       check=False)
    listed = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"],
                            cwd=work, env=env, capture_output=True, text=True, check=False)
    ended: dict[str, str] = {}
    for line in listed.stdout.splitlines():
        match = re.match(r"\s*(\S+__mutmut_\d+): (.+)$", line)
        if match:
            ended[match.group(1)] = match.group(2).strip()
    if not ended:
        raise SystemExit(f"{name}: mutmut reported nothing; see {work / 'mutmut.log'}")
    same = equivalents()
    counts: Counter[str] = Counter()
    for mutant, how in sorted(ended.items()):
        if mutant in same:
            counts["equivalent"] += 1
        elif how in DETECTED:
            counts["killed"] += 1
        elif how in NOT_RUN:
            counts["not run"] += 1
        elif sql_case_only(_diff(work, env, mutant)):
            counts["equivalent"] += 1
            counts["sql case"] += 1
        else:
            counts["survived"] += 1
            print(f"  {name}: {mutant} {how}", flush=True)
    if counts["not run"] and not counts["killed"] + counts["survived"]:
        # mutmut could not run the tests at all (see its log): no score to give.
        raise SystemExit(f"{name}: no mutant was tested; see {work / 'mutmut.log'}")
    return counts


def _diff(work: Path, env: dict[str, str], mutant: str) -> str:
    shown = subprocess.run([sys.executable, "-m", "mutmut", "show", mutant], cwd=work, env=env,
                           capture_output=True, text=True, check=False)
    return shown.stdout.partition("\n")[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", metavar="MODULE",
                        help=f"some of: {', '.join(MODULES)}")
    parser.add_argument("--children", type=int, default=1,
                        help="mutants tested at once (the machine may be shared)")
    args = parser.parse_args(argv)
    names = args.modules or list(MODULES)
    unknown = [name for name in names if name not in MODULES]
    if unknown:
        parser.error(f"unknown module {', '.join(unknown)}; known: {', '.join(MODULES)}")
    rows = []
    for name in names:
        began = time.monotonic()
        counts = run(name, MODULES[name], args.children)
        judged = counts["killed"] + counts["survived"]
        score = 100.0 * counts["killed"] / judged if judged else 100.0
        rows.append((name, counts, score, time.monotonic() - began))
        print(f"{name}: {score:.1f} % killed ({counts['killed']}/{judged}), "
              f"{counts['equivalent']} equivalent ({counts['sql case']} of them SQL in another"
              f" case), {counts['not run']} not run", flush=True)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\nload average {load}")
    print(f"{'module':10} {'killed':>7} {'survived':>8} {'equiv.':>6} {'score':>7} {'time':>6}")
    for name, counts, score, took in rows:
        print(f"{name:10} {counts['killed']:7} {counts['survived']:8} "
              f"{counts['equivalent']:6} {score:6.1f}% {took:5.0f}s")
    return 0 if all(score >= KEEP for _, _, score, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
