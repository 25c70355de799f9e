"""A real ``python -m bot`` process against the stand-in, seen as an operator sees it:
``status`` after a crash, ``/livez`` and ``/readyz`` when updates stop or the disk does,
``/metrics`` while a hand is played, and the log it writes meanwhile."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.sandbox import SandboxServer, World
from bot.sandbox.faults import Fault
from bot.sandbox.harness import Sandbox
from bot.sandbox.models import ChatRecord, MessageRecord
from bot.sandbox.players import Player
from tests.bot.proc import TOKEN, clean_env, closed_port, finish, start_bot, unwritable

WAIT = 60.0


@dataclass
class Running:
    server: SandboxServer
    proc: asyncio.subprocess.Process
    db: Path
    env: dict[str, str]
    base: str


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[Running]:
    db = tmp_path / "svara.sqlite3"
    port = closed_port()
    async with SandboxServer(World(token=TOKEN)) as server:
        env = clean_env(SVARA_BOT_TOKEN=TOKEN, SVARA_API_BASE_URL=server.base_url,
                        SVARA_DATABASE=str(db), SVARA_RATE_LIMIT="false",
                        SVARA_HEALTH_PORT=str(port), SVARA_UPDATES_STALE_AFTER="3",
                        SVARA_LOG_FORMAT="json", SVARA_NEXT_HAND_DELAY="30",
                        SVARA_GROUP_PER_MINUTE="6000")
        proc = await start_bot(tmp_path, env)
        try:
            async with asyncio.timeout(WAIT):
                while not any(c.method == "getUpdates" for c in server.transcript.calls):
                    assert proc.returncode is None, (await finish(proc)).err
                    await asyncio.sleep(0.05)
            yield Running(server, proc, db, env, f"http://127.0.0.1:{port}")
        finally:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
                await finish(proc)


def status(cwd: Path, env: dict[str, str]) -> tuple[int, dict[str, object]]:
    done = subprocess.run([sys.executable, "-m", "bot", "status"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=WAIT, check=False)
    return done.returncode, json.loads(done.stdout)


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as reply:
        return reply.status, await reply.text()


async def test_status_says_not_running_after_the_bot_is_killed(
    running: Running, tmp_path: Path
) -> None:
    code, report = await asyncio.to_thread(status, tmp_path, running.env)
    assert (code, report["status"], report["running"]) == (0, "ok", True)
    assert report["live"] is True
    running.proc.kill()  # SIGKILL: no clean-up of any kind
    await finish(running.proc)
    code, report = await asyncio.to_thread(status, tmp_path, running.env)
    assert (code, report["status"], report["running"]) == (1, "not running", False)
    assert report["problem"] == "no bot process holds this database"


async def test_livez_fails_when_updates_stop_and_readyz_when_the_store_cannot_write(
    running: Running, tmp_path: Path
) -> None:
    assert (await get(running.base + "/livez"))[0] == 200
    assert (await get(running.base + "/readyz"))[0] == 200
    # From now on getUpdates gets no answer (as when the network to Telegram is gone).
    running.server.faults.fail_next("getUpdates", Fault.timeout(hold=120.0), times=1000)
    async with asyncio.timeout(WAIT):
        while True:
            reply = await get(running.base + "/livez")
            if reply[0] != 200:
                break
            await asyncio.sleep(0.2)
    assert reply[0] == 503
    assert "getUpdates has not answered" in json.loads(reply[1])["problem"]
    code, report = await asyncio.to_thread(status, tmp_path, running.env)
    assert (code, report["status"], report["running"]) == (1, "not live", True)
    assert (await get(running.base + "/readyz"))[0] == 200  # the store still writes
    with unwritable(running.db):
        await asyncio.sleep(5.5)  # the store check is reused for 5 s
        assert (await get(running.base + "/readyz"))[0] == 503


def table_of(group: ChatRecord) -> MessageRecord:
    return [m for m in group.bot_messages() if m.buttons][-1]


def labels(message: MessageRecord) -> list[str]:
    return [label for row in message.buttons for label in row]


def figures(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


async def play_a_hand(tg: Sandbox, group: ChatRecord, players: list[Player]) -> None:
    """Both fold or decline until one folds: the quickest hand there is."""
    world = tg.world
    for _ in range(12):
        buttoned = [m for m in group.bot_messages() if m.buttons]
        if not buttoned:
            return
        table = buttoned[-1]
        if "Start" not in labels(table) and not {"No blind", "Fold"} & set(labels(table)):
            return
        for label in ("Start", "No blind", "Fold"):
            if label in labels(table):
                for player in players:
                    answer = await (await player.press(table, label)).answer(timeout=10)
                    if answer.text not in ("Not your turn.",):
                        break
                break
        await world.wait_idle()
        await asyncio.sleep(0.3)


async def test_metrics_parse_and_move_when_a_hand_is_played(running: Running) -> None:
    tg = Sandbox(running.server)
    before = figures((await get(running.base + "/metrics"))[1])
    assert before[("svara_hands_settled_total", ())] == 0
    assert before[("svara_open_tables", ())] == 0
    assert before[("svara_outbox_messages_lost_total", ())] == 0  # there before any loss

    ana, boris = tg.world.user("Ana"), tg.world.user("Boris")
    group = tg.world.group("Metrics night", members=[ana, boris])
    running.server.faults.fail_next("editMessageText", Fault.retry_after(0.2))
    await ana.send(group, "/newgame")
    await tg.world.wait_for(lambda: [m for m in group.bot_messages() if m.buttons],
                            timeout=WAIT)
    for player in (ana, boris):
        await player.start_bot()
        await tg.world.wait_idle()
        await (await player.press(table_of(group), "Join")).answer(timeout=10)
    await play_a_hand(tg, group, [ana, boris])

    async with asyncio.timeout(WAIT):
        while True:
            after = figures((await get(running.base + "/metrics"))[1])
            if after[("svara_hands_settled_total", ())] >= 1:
                break
            await asyncio.sleep(0.2)
    assert after[("svara_hands_settled_total", ())] == 1
    assert after[("svara_open_tables", ())] == 1
    assert after[("svara_presses_answered_total", ())] >= 4
    assert after[("svara_press_answer_seconds_count", ())] >= 4
    assert after[("svara_updates_total", ())] > before[("svara_updates_total", ())]
    assert after[("svara_telegram_calls_total", (("method", "sendMessage"),
                                                 ("status", "200")))] >= 1
    assert after[("svara_telegram_429_total", (("method", "editMessageText"),))] == 1
    assert 0 <= after[("svara_last_update_age_seconds", ())] < 30
    # The card messages went out through the sending path, and nothing was lost.
    assert after[("svara_outbox_messages_sent_total", ())] >= 2
    assert after[("svara_outbox_messages_lost_total", ())] == 0
    assert after[("svara_saves_refused_total", ())] == 0
    assert after[("svara_ready", ())] == 1
    assert ("svara_outbox_screens_waiting", ()) in after

    running.proc.send_signal(signal.SIGTERM)
    done = await finish(running.proc)
    assert done.code == 0, done.err
    lines = [json.loads(line) for line in done.err.splitlines() if line.startswith("{")]
    assert lines and len(lines) == len(done.err.splitlines())  # every line is JSON
    infos = [line for line in lines if line["level"] == "INFO"]
    assert not [i for i in infos if i["logger"].startswith("apscheduler")]
    events = [i for i in infos if i["logger"] == "bot.events"]
    chat = group.id
    assert [e["message"].split(" in chat")[0] for e in events[:1]] == ["table 1 opened"]
    assert all(e["chat"] == chat for e in events), events
    joined = [e for e in events if " joined table 1 " in e["message"]]
    assert len(joined) == 2 and all(e["table"] == 1 for e in joined)
    (settled,) = [e for e in events if " settled " in e["message"]]
    assert "pot 20" in settled["message"] and settled["hand"] == 1
    assert settled["table"] == 1 and datetime.fromisoformat(settled["time"]).utcoffset() is not None
    assert [i for i in infos if "429 too many requests on editMessageText" in i["message"]]
