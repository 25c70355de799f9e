"""Every line the bot writes goes through its log format: JSON lines carry a time with
its zone, and a library's warning is a log line too, never raw text on stderr."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime

from tests.bot.proc import clean_env

PROGRAM = """
import logging, warnings
from telegram.warnings import PTBUserWarning
from bot.__main__ import configure_logging
from bot.settings import Settings
configure_logging(Settings(log_format="{format}", _env_file=None))
logging.getLogger("bot.events").info("hand 1 settled", extra={{"table": 3}})
warnings.warn("Tasks created via `Application.create_task` while the application is not "
              "running won't be automatically awaited!", PTBUserWarning, stacklevel=1)
"""


def run(log_format: str, zone: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROGRAM.format(format=log_format)],
                          env=clean_env(TZ=zone), capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout == ""
    return done.stderr.splitlines()


def test_json_lines_carry_their_zone_and_the_table() -> None:
    first, warning = (json.loads(line) for line in run("json", "Europe/Sofia"))
    when = datetime.fromisoformat(first["time"])
    assert when.utcoffset() is not None and first["time"][-6:] in ("+02:00", "+03:00")
    assert first["table"] == 3
    assert warning["level"] == "WARNING" and warning["logger"] == "py.warnings"
    assert "PTBUserWarning" in warning["message"]


def test_text_lines_carry_their_zone_and_warnings_follow_the_format() -> None:
    lines = run("text", "UTC")
    assert len(lines) == 2, lines
    assert lines[0].split(" INFO ")[0].endswith("+0000")
    assert " WARNING py.warnings: " in lines[1]
