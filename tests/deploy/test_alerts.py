"""The alert rules as Prometheus reads them: ``promtool check rules`` accepts them, and
``promtool test rules`` runs tests/deploy/alerts_test.yml (the backup alert silent where
no backups are configured, readiness and refused saves paging, the quiet webhook's hours
in UTC). Debian's ``prometheus`` package ships promtool; without it these tests skip."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.bot.proc import REPO

RULES = REPO / "deploy" / "alerts.yml"
RULE_TESTS = REPO / "tests" / "deploy" / "alerts_test.yml"


def promtool(*args: str) -> subprocess.CompletedProcess[str]:
    tool = shutil.which("promtool")
    if tool is None:
        pytest.skip("promtool is missing (Debian: apt-get install prometheus)")
    return subprocess.run([tool, *args], capture_output=True, text=True, timeout=120,
                          check=False, cwd=REPO)


def test_promtool_accepts_the_rules() -> None:
    done = promtool("check", "rules", str(RULES))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS" in done.stdout


def test_the_rules_fire_where_they_should_and_only_there() -> None:
    done = promtool("test", "rules", str(RULE_TESTS))
    assert done.returncode == 0, done.stdout + done.stderr
