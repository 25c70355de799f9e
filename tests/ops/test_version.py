"""The version is written in one place and moves with each release: the package's
metadata comes from it, ``--version`` says it with its schema, and a new migration
cannot ship under the old version."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from bot.ops.version import SCHEMA, VERSION
from bot.store.migrations import LATEST
from tests.bot.proc import REPO, clean_env


def test_pyproject_reads_the_version_from_the_one_place() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "bot.ops.version.VERSION"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION)


def test_a_new_schema_is_a_new_release() -> None:
    assert SCHEMA == LATEST, (
        f"migration {LATEST} ships under version {VERSION} of schema {SCHEMA}: raise VERSION "
        "and SCHEMA in bot/ops/version.py")


def test_a_built_package_and_version_say_the_same(tmp_path: Path) -> None:
    source = tmp_path / "source"
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        source.mkdir(exist_ok=True)
        shutil.copy(REPO / name, source / name)
    for package in ("bot", "engine"):
        shutil.copytree(REPO / package, source / package, ignore=skip)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path),
         str(source)], capture_output=True, text=True, timeout=300, check=False,
        env=clean_env())
    assert done.returncode == 0, done.stderr
    (wheel,) = tmp_path.glob("svara_bot-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        metadata = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        assert f"\nVersion: {VERSION}\n" in archive.read(metadata).decode()
    said = subprocess.run([sys.executable, "-m", "bot", "--version"], capture_output=True,
                          text=True, timeout=60, check=True, env=clean_env(), cwd=tmp_path)
    assert said.stdout.strip() == f"svara-bot {VERSION} (schema {LATEST})"
