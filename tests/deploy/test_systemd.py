"""The example systemd unit passes ``systemd-analyze verify`` and says what the README says."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot.proc import REPO

UNIT = REPO / "deploy" / "svara-bot.service"


def sections(text: str) -> dict[str, dict[str, list[str]]]:
    """The unit's directives by section (a directive may be given more than once)."""
    found: dict[str, dict[str, list[str]]] = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        found.setdefault(section, {}).setdefault(key, []).append(value)
    return found


def test_the_unit_restarts_keeps_state_and_reads_the_token_from_a_file() -> None:
    text = UNIT.read_text(encoding="utf-8")
    for line in ("Restart=on-failure", "StateDirectory=svara-bot",
                 "EnvironmentFile=/etc/svara-bot.env",
                 "ExecStart=/opt/svara/bin/python -m bot"):
        assert line in text.splitlines(), line
    assert "SVARA_BOT_TOKEN=" not in text.replace("# ", "").split("[Unit]")[1]


def test_the_unit_never_gives_up_and_waits_between_tries() -> None:
    unit = sections(UNIT.read_text(encoding="utf-8"))
    # StartLimitIntervalSec=0: no start limit, so a second copy on the token that lives
    # for minutes never leaves the unit failed for good.
    assert unit["Unit"].get("StartLimitIntervalSec") == ["0"]
    assert "StartLimitBurst" not in unit["Unit"]
    assert unit["Service"]["Restart"] == ["on-failure"]
    assert int(unit["Service"]["RestartSec"][0]) >= 30


def test_operator_commands_read_the_same_settings_as_the_unit() -> None:
    text = UNIT.read_text(encoding="utf-8")
    unit = sections(text)
    # Every setting is in the env file, none in the unit: `--env-file` finds the database.
    assert not [v for v in unit["Service"].get("Environment", []) if v.startswith("SVARA_")]
    assert "SVARA_DATABASE=/var/lib/svara-bot/svara.sqlite3" in text  # the install step
    assert "svara-bot status --env-file /etc/svara-bot.env" in text
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "svara-bot status --env-file /etc/svara-bot.env" in readme
    assert "StartLimitIntervalSec=0" in readme


def test_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    # The unit names the install path of the README; here the interpreter running the tests
    # stands in for it, so that verify can check the command exists.
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text(encoding="utf-8").replace(
        "/opt/svara/bin/python", sys.executable))
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "", done.stderr


def test_the_unit_is_hardened_and_has_a_writable_chart_cache(tmp_path: Path) -> None:
    text = UNIT.read_text(encoding="utf-8").splitlines()
    for line in ("CacheDirectory=svara-bot",
                 "Environment=MPLCONFIGDIR=/var/cache/svara-bot/matplotlib", "UMask=0077"):
        assert line in text, line
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text(encoding="utf-8").replace(
        "/opt/svara/bin/python", sys.executable))
    done = subprocess.run([analyze, "security", "--offline=yes", str(unit)],
                          capture_output=True, text=True, timeout=120, check=False)
    if "--offline" in done.stderr or "unrecognized option" in done.stderr:
        pytest.skip("this systemd-analyze cannot rate a unit file offline")
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d)", done.stdout)
    assert found is not None, done.stdout + done.stderr
    assert float(found.group(1)) <= 3.0, done.stdout
