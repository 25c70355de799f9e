"""The README's two commands make and use a virtual environment (a Debian or Ubuntu
system Python refuses a bare ``pip install``), and ``.ci/run`` runs the first one word
for word on such a Python and installs the project as the test command says."""

from __future__ import annotations

import re

from tests.bot.proc import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")
CI = (REPO / ".ci" / "run").read_text(encoding="utf-8")


def commands() -> list[str]:
    section = README.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section)


def test_every_install_command_makes_and_uses_a_virtual_environment() -> None:
    found = commands()
    assert len(found) == 3, found  # run, sandbox, tests
    for command in found:
        assert command.startswith("python3 -m venv .venv && "), command
        steps = command.split(" && ")
        # pip is the environment's own, or runs after the environment is activated.
        assert steps[1].startswith((".venv/bin/pip install", ". .venv/bin/activate")), command
    assert found[0] == ("python3 -m venv .venv && .venv/bin/pip install -e . && "
                        ".venv/bin/python -m bot")


def test_ci_runs_the_first_command_on_an_externally_managed_python() -> None:
    assert "readme_first_command\n" in CI
    assert "EXTERNALLY-MANAGED" in CI and "/usr/bin/python3" in CI
    assert "awk '/^## Two commands/" in CI  # the command is read from the README
    test_command = commands()[2]
    pip = test_command.split(" && ")[2]
    assert pip == 'pip install -r requirements-dev.lock -e ".[dev]"'
    assert f"{pip.replace('pip install', 'pip install --quiet')}\n" in CI
