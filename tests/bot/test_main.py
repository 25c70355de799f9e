"""The command line: friendly refusals, dispatch, and a token that never reaches a log."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot import __main__ as entry
from bot.settings import Settings


def fake_token(tail: str = "T") -> str:
    return "4242:" + tail * 35


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(os.environ):
        if name.upper().startswith("SVARA_") or name.upper() == "PORT":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    httpx_level = logging.getLogger("httpx").level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.getLogger("httpx").setLevel(httpx_level)


class FakeApp:
    def __init__(self, error: BaseException | None = None) -> None:
        self.calls: list[Settings] = []
        self.error = error

    def run(self, settings: Settings) -> None:
        self.calls.append(settings)
        if self.error is not None:
            raise self.error


@pytest.fixture
def app(monkeypatch: pytest.MonkeyPatch) -> FakeApp:
    fake = FakeApp()
    module = types.ModuleType("bot.app")
    module.run = fake.run  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.app", module)
    return fake


@pytest.fixture
def store_calls(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    calls: list[list[str]] = []

    def main(argv: list[str]) -> int:
        calls.append(argv)
        return 3 if argv[0] == "audit" else 0

    module = types.ModuleType("bot.store.cli")
    module.main = main  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.store.cli", module)
    return calls


def test_missing_token_explains_how_to_get_one(
    app: FakeApp, capsys: pytest.CaptureFixture[str]
) -> None:
    assert entry.main([]) == 1
    err = capsys.readouterr().err
    for words in ("@BotFather", "/newbot", "SVARA_BOT_TOKEN=", ".env", ".env.example",
                  "python -m bot sandbox"):
        assert words in err
    assert "Traceback" not in err
    assert app.calls == []


def test_malformed_token_is_not_echoed(
    app: FakeApp, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = "4242:" + "s3cret" * 3
    monkeypatch.setenv("SVARA_BOT_TOKEN", bad)
    assert entry.main([]) == 1
    out, err = capsys.readouterr()
    assert "does not look like a bot token" in err
    assert "@BotFather" in err
    assert "s3cret" not in out + err
    assert app.calls == []


def test_other_bad_settings_are_listed(
    app: FakeApp, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SVARA_BOT_TOKEN", fake_token())
    monkeypatch.setenv("SVARA_TURN_TIMEOUT", "-3")
    monkeypatch.setenv("SVARA_RATE_LIMIT", "maybe")
    assert entry.main([]) == 1
    err = capsys.readouterr().err
    assert "SVARA_TURN_TIMEOUT" in err
    assert "SVARA_RATE_LIMIT" in err
    assert "@BotFather" not in err
    assert "Traceback" not in err


def test_runs_the_app_with_the_settings(
    app: FakeApp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / ".env").write_text(f"SVARA_BOT_TOKEN={fake_token()}\nSVARA_TURN_TIMEOUT=7\n")
    assert entry.main([]) == 0
    (settings,) = app.calls
    assert settings.token() == fake_token()
    assert settings.turn_timeout == 7


def test_env_file_option(app: FakeApp, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "staging.env"
    other.write_text(f"SVARA_BOT_TOKEN={fake_token('s')}\n")
    assert entry.main(["--env-file", str(other)]) == 0
    assert app.calls[0].token() == fake_token("s")
    assert entry.main(["--env-file", str(tmp_path / "absent.env")]) == 1
    assert "No settings file" in capsys.readouterr().err


def test_unreadable_env_file(
    app: FakeApp, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".env").write_bytes(b"SVARA_BOT_TOKEN=\xff\xfe\n")
    assert entry.main([]) == 1
    err = capsys.readouterr().err
    assert "Cannot read the settings" in err
    assert "Traceback" not in err


def test_keyboard_interrupt_ends_cleanly(app: FakeApp, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SVARA_BOT_TOKEN", fake_token())
    app.error = KeyboardInterrupt()
    assert entry.main([]) == 0


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        entry.main(["--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    assert "usage: svara-bot" in out
    assert "audit [--db PATH]" in out
    assert "backup PATH [--db PATH]" in out


def test_unknown_argument_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        entry.main(["--frobnicate"])
    assert caught.value.code == 2


def test_store_commands_go_to_the_store(app: FakeApp, store_calls: list[list[str]]) -> None:
    assert entry.main(["audit", "--db", "x.sqlite3"]) == 3
    assert entry.main(["backup", "copy.sqlite3"]) == 0
    assert store_calls == [["audit", "--db", "x.sqlite3"], ["backup", "copy.sqlite3"]]
    assert app.calls == []  # no token needed for ledger work


# -- logging ------------------------------------------------------------------------------


def test_token_is_masked_in_every_part_of_a_record() -> None:
    token = fake_token("k")
    stream = io.StringIO()
    entry.configure_logging(Settings(bot_token=SecretStr(token)), stream)
    log = logging.getLogger("httpx")
    log.warning("HTTP Request: POST %s", f"https://api.telegram.org/bot{token}/getMe")
    logging.getLogger("telegram").error("plain %s", token.replace(":", "%3A"))
    try:
        raise RuntimeError(f"failed https://api.telegram.org/bot{token}/sendMessage")
    except RuntimeError:
        logging.getLogger("telegram.ext").exception("request failed")
    logging.getLogger("bot").warning("look", stack_info=True)
    text = stream.getvalue()
    assert token not in text
    assert token.split(":")[1] not in text
    assert "https://api.telegram.org/bot<token>/getMe" in text
    assert "RuntimeError: failed https://api.telegram.org/bot<token>/sendMessage" in text


def test_token_filter_leaves_other_records_alone() -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "%d chips", (5,), None)
    assert entry.TokenFilter(fake_token()).filter(record)
    assert (record.msg, record.args) == ("%d chips", (5,))


def test_logging_level_and_quiet_httpx() -> None:
    entry.configure_logging(Settings(log_level="WARNING"), io.StringIO())
    assert logging.getLogger().level == logging.WARNING
    assert logging.getLogger("httpx").level == logging.WARNING
    entry.configure_logging(Settings(log_level="DEBUG"), io.StringIO())
    named = [h for h in logging.getLogger().handlers if h.name == entry.HANDLER_NAME]
    assert len(named) == 1  # configuring again replaces our handler


def test_a_missing_token_exits_1_like_every_failed_start(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("SVARA_")}
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(Path(entry.__file__).resolve().parent.parent)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1  # README: a start that cannot succeed exits 1
    assert "@BotFather" in done.stderr
    assert "Traceback" not in done.stderr


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        entry.main(["--version"])
    assert caught.value.code == 0
    from bot.ops.version import SCHEMA, VERSION

    assert capsys.readouterr().out.strip() == f"svara-bot {VERSION} (schema {SCHEMA})"


def test_python_dash_m_bot_version(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--version"], cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(entry.__file__).resolve().parent.parent)},
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0
    assert done.stdout.startswith("svara-bot 0.")


def test_ops_commands_go_to_the_ops_module(
    app: FakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[list[str]] = []

    def main(argv: list[str]) -> int:
        calls.append(argv)
        return 1

    module = types.ModuleType("bot.ops.cli")
    module.main = main  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.ops.cli", module)
    assert entry.main(["status", "--db", "x.sqlite3"]) == 1
    assert entry.main(["restore", "b.sqlite3"]) == 1
    assert calls == [["status", "--db", "x.sqlite3"], ["restore", "b.sqlite3"]]
    assert app.calls == []


def test_a_start_up_failure_is_one_line_without_the_token(
    app: FakeApp, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.ops.startup import StartupError

    token = fake_token("q")
    monkeypatch.setenv("SVARA_BOT_TOKEN", token)
    app.error = StartupError(f"Cannot start: the token `{token}` was rejected; fix it.")
    assert entry.main([]) == 1
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1] == "Cannot start: the token `<token>` was rejected; fix it."
    assert token not in err


def test_an_unexpected_error_ends_in_one_line_without_the_token(
    app: FakeApp, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    token = fake_token("w")
    monkeypatch.setenv("SVARA_BOT_TOKEN", token)
    app.error = RuntimeError(f"boom at https://api.telegram.org/bot{token}/getMe")
    assert entry.main([]) == 1
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert last.startswith("The bot stopped on an unexpected error (RuntimeError: boom")
    assert token not in err
