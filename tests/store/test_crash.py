"""Crash test: a real process playing hands is SIGKILLed at random points and restarted.

Each restart must first recover every hand left open by the kill -- resume it, or
refund it when its rows were spoiled (done on purpose every few kills) -- and after all
kills the audit must pass with no hand left open. The points are random but drawn from
fixed seeds: each life of the driver kills itself as SQLite begins its N-th statement,
so every run of the test kills at the same places and counts the same outcomes. Three
independent databases are driven side by side to keep the wall time down.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from bot.store.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]
CHAINS = 3
KILLS_PER_CHAIN = 20
SPOIL_EVERY = 5
EARLY_KILLS = 0.15
"""The share of lives killed within their first statements, i.e. during recovery."""
LIFE = 40, 900
"""How many statements a life runs before its kill (the first range is for early kills)."""
REASONS: dict[int, str] = {}


@dataclass
class Chain:
    kills: int = 0
    kills_mid_hand: int = 0
    resumed: int = 0
    refunded: int = 0
    spoiled: set[int] = field(default_factory=set)


def _open_hands(db: Path) -> set[int]:
    if not db.exists():
        return set()
    conn = sqlite3.connect(db)
    try:
        return {r[0] for r in conn.execute("SELECT id FROM hands WHERE status = 'open'")}
    except sqlite3.OperationalError:  # killed before the schema was created
        return set()
    finally:
        conn.close()


def _spoil(db: Path, hand_id: int) -> None:
    """Make a hand impossible to rebuild: its start now carries a rule the engine refuses."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("UPDATE hands SET start = json_set(start, '$.rules.ante', -1) WHERE id = ?",
                 (hand_id,))
    conn.close()


def _start(db: Path, seed: int, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.store.crash_driver", str(db), str(seed), *extra],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )


def _recovered(proc: subprocess.Popen[str]) -> tuple[dict[int, str], bool]:
    """The recovery lines up to ``ready``, and whether ``ready`` came before the end."""
    assert proc.stdout is not None
    seen: dict[int, str] = {}
    for line in proc.stdout:
        if line.strip() == "ready":
            return seen, True
        _, hand_id, outcome, *why = line.split()
        seen[int(hand_id)] = outcome
        REASONS[int(hand_id)] = " ".join(why)
    return seen, False


def _one_life(proc: subprocess.Popen[str], chain: Chain, waiting: set[int]) -> None:
    """Let one driver process recover and play until it kills itself."""
    reports, ready = _recovered(proc)
    if ready:
        # Every hand the last kill left open was decided, and only those.
        assert set(reports) == waiting
    else:
        # Killed during recovery: it decided some of them (the rest stay open).
        assert set(reports) <= waiting
    assert set(reports.values()) <= {"resumed", "refunded"}
    # A kill alone never costs a hand: only the spoiled ones are refunded.
    for hand_id, outcome in reports.items():
        assert (outcome == "refunded") == (hand_id in chain.spoiled), REASONS[hand_id]
    chain.resumed += sum(o == "resumed" for o in reports.values())
    chain.refunded += sum(o == "refunded" for o in reports.values())
    # It plays on until its own kill: it never stops by itself.
    assert proc.wait(timeout=60) == -signal.SIGKILL


def _run_chain(db: Path, seed: int) -> Chain:
    rng = random.Random(seed)
    chain = Chain()
    for run in range(KILLS_PER_CHAIN):
        waiting = _open_hands(db)
        if waiting and run % SPOIL_EVERY == SPOIL_EVERY - 1:
            victim = min(waiting)
            _spoil(db, victim)
            chain.spoiled.add(victim)
        early = rng.random() < EARLY_KILLS
        statements = rng.randint(1, LIFE[0]) if early else rng.randint(*LIFE)
        proc = _start(db, seed * 1000 + run, "--die-at", str(statements))
        try:
            _one_life(proc, chain, waiting)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            assert proc.stdout is not None
            proc.stdout.close()
        chain.kills += 1
        chain.kills_mid_hand += bool(_open_hands(db))
    # A last start that only recovers, then exits cleanly.
    waiting = _open_hands(db)
    final = _start(db, seed, "--recover-only")
    reports, ready = _recovered(final)
    assert final.wait(timeout=30) == 0 and ready
    assert set(reports) == waiting
    assert all((o == "refunded") == (h in chain.spoiled) for h, o in reports.items())
    chain.resumed += sum(o == "resumed" for o in reports.values())
    chain.refunded += sum(o == "refunded" for o in reports.values())
    assert _open_hands(db) == set()
    return chain


def test_sigkill_at_random_points_then_recover(tmp_path: Path) -> None:
    dbs = [tmp_path / f"crash{i}.sqlite3" for i in range(CHAINS)]
    with ThreadPoolExecutor(CHAINS) as pool:
        chains = list(pool.map(_run_chain, dbs, range(1, CHAINS + 1)))
    for db in dbs:
        assert cli(["audit", "--db", str(db)]) == 0
        conn = sqlite3.connect(db)
        statuses = dict(conn.execute("SELECT status, count(*) FROM hands GROUP BY 1"))
        conn.close()
        assert statuses.get("open", 0) == 0 and statuses["settled"] > KILLS_PER_CHAIN
    kills = sum(c.kills for c in chains)
    assert kills >= 50
    # Most kills land inside a hand, and both recovery paths were taken.
    assert sum(c.kills_mid_hand for c in chains) >= kills // 2
    assert sum(c.resumed for c in chains) > 0 and sum(c.refunded for c in chains) > 0
    print(f"crash test: {kills} kills ({sum(c.kills_mid_hand for c in chains)} mid-hand), "
          f"{sum(c.resumed for c in chains)} resumed, {sum(c.refunded for c in chains)} "
          f"refunded")
