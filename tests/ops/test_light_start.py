"""The bot starts without loading matplotlib: charts load it on the first chart."""

from __future__ import annotations

import subprocess
import sys

from tests.bot.proc import clean_env


def test_the_bot_starts_without_loading_matplotlib() -> None:
    code = ("import sys; import bot.__main__, bot.app, bot.commands, bot.charts; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=clean_env(), timeout=120, check=True)
    assert done.stdout.strip() == "[]"


def test_the_first_chart_loads_it() -> None:
    code = ("import sys; from bot import charts; "
            "png = charts.chips_chart([(1_700_000_000, 5), (1_700_086_400, -3)], 'Ana', "
            "'Svara night', 'chips'); "
            "print(png[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'matplotlib' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=clean_env(), timeout=120, check=True)
    assert done.stdout.split() == ["True", "True"]
