"""The Docker image: built from the Dockerfile, run against the local stand-in, it opens a
table, reports itself healthy through ``status``, and stops cleanly.

Heavy (an image build), so it runs only when asked: ``SVARA_CONTAINER_TESTS=1`` (``.ci/run``
sets it when a container engine answers). ``SVARA_TEST_PYTHON_IMAGE`` names the base image
(default ``python:3.12-slim``, which must be present or pullable).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import uuid
from collections.abc import AsyncIterator

import pytest

from bot.sandbox import SandboxServer, World
from bot.sandbox.harness import Sandbox
from tests.bot.proc import REPO, TOKEN, closed_port

pytestmark = pytest.mark.container

BUILD_TIMEOUT = 1200
WAIT = 90.0
DEFAULT_BASE = "python:3.12-slim"


def docker(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout,
                          check=False)


@pytest.fixture(scope="module")
def image() -> str:
    """The built image's tag, or a skip saying why there is none."""
    if os.environ.get("SVARA_CONTAINER_TESTS") != "1":
        pytest.skip("container tests run only with SVARA_CONTAINER_TESTS=1 "
                    "(.ci/run sets it when a container engine answers)")
    if shutil.which("docker") is None:
        pytest.skip("no docker command on this machine")
    if docker("info").returncode != 0:
        pytest.skip("the docker command cannot reach a container engine")
    base = os.environ.get("SVARA_TEST_PYTHON_IMAGE") or DEFAULT_BASE
    if docker("image", "inspect", base).returncode != 0 and \
            docker("pull", base, timeout=600).returncode != 0:
        pytest.skip(f"the base image {base} is not here and cannot be pulled; set "
                    "SVARA_TEST_PYTHON_IMAGE to a local image with Python 3.11+ and venv")
    tag = "svara-bot:test"
    built = docker("build", "-q", "--build-arg", f"PYTHON_IMAGE={base}", "-t", tag, str(REPO),
                   timeout=BUILD_TIMEOUT)
    assert built.returncode == 0, built.stderr[-3000:]
    return tag


@pytest.fixture
async def standin() -> AsyncIterator[Sandbox]:
    async with SandboxServer(World(token=TOKEN)) as server:
        yield Sandbox(server)


async def test_the_image_runs_the_bot(image: str, standin: Sandbox) -> None:
    name = f"svara-test-{uuid.uuid4().hex[:8]}"
    volume = f"{name}-data"
    started = docker(
        "run", "-d", "--name", name, "--network", "host", "-v", f"{volume}:/data",
        "-e", f"SVARA_BOT_TOKEN={TOKEN}", "-e", f"SVARA_API_BASE_URL={standin.server.base_url}",
        "-e", "SVARA_RATE_LIMIT=false",
        # The host's network: a free port for /livez and /metrics, not the image's 8080.
        "-e", f"SVARA_HEALTH_PORT={closed_port()}", image,
    )
    assert started.returncode == 0, started.stderr
    try:
        ana = standin.world.user("Ana")
        group = standin.world.group("Boxed", members=[ana])
        async with asyncio.timeout(WAIT):
            # The transcript has no event to wait on: look every 0.2 s until polling starts.
            while not any(c.method == "getUpdates" for c in standin.transcript.calls):  # noqa: ASYNC110
                await asyncio.sleep(0.2)
        await ana.send(group, "/newgame")
        await standin.world.wait_for(lambda: group.bot_messages(), timeout=WAIT)
        assert "Svara" in (group.last_bot_message.text or "")

        user = docker("exec", name, "id", "-u")
        assert user.stdout.strip() not in ("", "0")  # not root
        status = await asyncio.to_thread(docker, "exec", name, "python", "-m", "bot", "status")
        report = json.loads(status.stdout)
        assert status.returncode == 0, status.stderr
        assert report["live"] is True  # its /livez answered
        assert (report["running"], report["database_ok"], report["open_tables"]) == \
            (True, True, 1)
        assert report["database"] == "/data/svara.sqlite3"

        stopped = await asyncio.to_thread(docker, "stop", "-t", "30", name)
        assert stopped.returncode == 0
        code = docker("inspect", "-f", "{{.State.ExitCode}}", name).stdout.strip()
        logs = docker("logs", name)
        assert code == "0", logs.stderr[-2000:]
        assert TOKEN.split(":")[1] not in logs.stdout + logs.stderr
        assert "Traceback" not in logs.stderr
    finally:
        docker("rm", "-f", name)
        docker("volume", "rm", "-f", volume)
