"""Benchmark: how long ``python -m bot`` takes to start, from the process being spawned to
its first getUpdates at a local stand-in for Telegram (a fresh database each run).

Run ``python -m bot.bench.startup [--runs N]``. It also times ``import bot.app`` alone and
says whether that import loaded matplotlib (charts load on the first chart, so it should
not). Prints the machine's load average beside the figures: on a busy machine every
figure grows.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bot.sandbox import SandboxServer, World

TOKEN = "4242:" + "Tq9" * 11 + "Zz"
TARGET = 2.0
"""Seconds a start may take (without charts)."""


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("SVARA_")}
    env.update(extra)
    return env


def time_import() -> tuple[float, bool]:
    """Seconds ``import bot.app`` takes in a fresh interpreter; whether matplotlib came."""
    code = ("import sys, time; t = time.perf_counter(); import bot.app; "
            "print(time.perf_counter() - t, 'matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=_env()).stdout.split()
    return float(out[0]), out[1] == "True"


async def time_start(folder: Path) -> float:
    """Seconds from spawning ``python -m bot`` to its first getUpdates."""
    async with SandboxServer(World(token=TOKEN)) as server:
        env = _env(SVARA_BOT_TOKEN=TOKEN, SVARA_API_BASE_URL=server.base_url,
                   SVARA_DATABASE=str(folder / "svara.sqlite3"))
        started = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=folder, env=env,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        try:
            while not any(c.method == "getUpdates" for c in server.transcript.calls):
                if proc.returncode is not None:
                    raise RuntimeError(f"the bot exited with {proc.returncode}")
                await asyncio.sleep(0.005)
            return time.perf_counter() - started
        finally:
            if proc.returncode is None:
                proc.terminate()
            await proc.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.bench.startup")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    imports = [time_import() for _ in range(args.runs)]
    starts = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as folder:
            starts.append(asyncio.run(time_start(Path(folder))))
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    seconds = [s for s, _ in imports]
    print(f"load average {load}; {os.cpu_count()} cores; {args.runs} runs each")
    print(f"import bot.app: median {statistics.median(seconds):.2f} s, "
          f"min {min(seconds):.2f} s, max {max(seconds):.2f} s; "
          f"matplotlib loaded: {any(m for _, m in imports)}")
    print(f"python -m bot to first getUpdates: median {statistics.median(starts):.2f} s, "
          f"min {min(starts):.2f} s, max {max(starts):.2f} s "
          f"(target under {TARGET:.0f} s: {'met' if max(starts) < TARGET else 'NOT met'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
