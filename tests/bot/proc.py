"""Run ``python -m bot`` as a real process, with only the environment a test gives it."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

TOKEN = "4242:" + "Tq9" * 11 + "Zz"
"""A token the local stand-in accepts (World(token=TOKEN))."""
OTHER_TOKEN = "4242:" + "Xr7" * 11 + "Yy"
"""A well-formed token the stand-in rejects."""
PROCESS_TIMEOUT = 90.0


def clean_env(**extra: str) -> dict[str, str]:
    """The test process's environment without SVARA_*/PORT, plus ``extra``."""
    env = {k: v for k, v in os.environ.items()
           if not k.upper().startswith("SVARA_") and k.upper() != "PORT"}
    env["PYTHONPATH"] = str(REPO)
    env.update(extra)
    return env


@dataclass
class Done:
    code: int
    out: str
    err: str

    @property
    def last_line(self) -> str:
        lines = [line for line in self.err.splitlines() if line.strip()]
        return lines[-1] if lines else ""


async def start_bot(cwd: Path, env: Mapping[str, str], args: Sequence[str] = (),
                    prefix: Sequence[str] = ()) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *prefix, sys.executable, "-m", "bot", *args, cwd=cwd, env=dict(env),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )


async def finish(proc: asyncio.subprocess.Process) -> Done:
    try:
        out, err = await asyncio.wait_for(proc.communicate(), PROCESS_TIMEOUT)
    except BaseException:
        # A bot that does not end in time (a test failing) must not outlive the test.
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        raise
    assert proc.returncode is not None
    return Done(proc.returncode, out.decode(), err.decode())


async def run_bot(cwd: Path, env: Mapping[str, str], args: Sequence[str] = (),
                  prefix: Sequence[str] = ()) -> Done:
    return await finish(await start_bot(cwd, env, args, prefix))


def closed_port() -> int:
    """A local port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file in ``folder`` with a hash of its bytes (lock files left out)."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file() and not p.name.endswith(".lock")
    }


def can_run(argv: list[str]) -> bool:
    try:
        return subprocess.run(argv, capture_output=True, timeout=30, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@contextlib.contextmanager
def unwritable(path: Path) -> Iterator[None]:
    """Make ``path`` unwritable for the user running the tests (root too, via chattr)."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
        return
    if shutil.which("chattr") is None or not can_run(["chattr", "+i", str(path)]):
        pytest.skip("running as root and chattr +i is not available: cannot make a file "
                    "unwritable")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)
