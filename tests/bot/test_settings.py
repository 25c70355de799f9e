"""Settings: defaults, environment, .env, validation, and the token kept secret."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr, ValidationError

from bot.settings import Settings, derive_file_url, describe_errors, looks_like_token


def fake_token(tail: str = "A") -> str:
    return "123456:" + tail * 35


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No SVARA_* or PORT from the machine running the tests, and no stray .env."""
    import os

    for name in list(os.environ):
        if name.upper().startswith("SVARA_") or name.upper() == "PORT":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def test_defaults() -> None:
    settings = Settings()
    assert settings.bot_token is None
    assert settings.api_base_url == "https://api.telegram.org/bot"
    assert settings.file_url == "https://api.telegram.org/file/bot"
    assert settings.database == Path("svara.sqlite3")
    assert settings.webhook_url is None
    assert not settings.uses_webhook
    assert (settings.webhook_listen, settings.webhook_port) == ("0.0.0.0", 8443)
    assert settings.webhook_secret is None
    assert settings.turn_timeout == 45
    assert settings.blind_timeout == 20
    assert settings.svara_join_timeout == 30
    assert settings.next_hand_delay == 5
    assert settings.lobby_autostart == 0
    assert (settings.starting_chips, settings.default_ante) == (1000, 10)
    assert settings.rate_limit is True
    assert settings.log_level == "INFO"


def test_reads_prefixed_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SVARA_BOT_TOKEN", fake_token())
    monkeypatch.setenv("SVARA_TURN_TIMEOUT", "0.5")
    monkeypatch.setenv("SVARA_RATE_LIMIT", "false")
    monkeypatch.setenv("SVARA_DATABASE", "/data/svara.sqlite3")
    monkeypatch.setenv("svara_log_level", "debug")
    settings = Settings()
    assert settings.token() == fake_token()
    assert settings.turn_timeout == 0.5
    assert settings.rate_limit is False
    assert settings.database == Path("/data/svara.sqlite3")
    assert settings.log_level == "DEBUG"


def test_reads_dotenv_in_current_folder(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        f"SVARA_BOT_TOKEN={fake_token('b')}\nSVARA_DEFAULT_ANTE=25\nUNRELATED=1\n"
    )
    settings = Settings()
    assert settings.token() == fake_token("b")
    assert settings.default_ante == 25


def test_environment_beats_dotenv(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("SVARA_STARTING_CHIPS=500\n")
    monkeypatch.setenv("SVARA_STARTING_CHIPS", "700")
    assert Settings().starting_chips == 700


def test_from_env_none_ignores_dotenv(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("SVARA_STARTING_CHIPS=500\n")
    assert Settings.from_env(None).starting_chips == 1000
    other = tmp_path / "prod.env"
    other.write_text("SVARA_STARTING_CHIPS=600\n")
    assert Settings.from_env(other).starting_chips == 600


def test_empty_values_mean_unset(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SVARA_BOT_TOKEN", "")
    (tmp_path / ".env").write_text(
        "SVARA_WEBHOOK_PORT=\nSVARA_WEBHOOK_SECRET=\nSVARA_TURN_TIMEOUT=\n"
    )
    settings = Settings()
    assert settings.webhook_port == 8443
    assert settings.webhook_secret is None
    assert settings.turn_timeout == 45
    assert Settings(bot_token=SecretStr("  ")).bot_token is None
    assert settings.bot_token is None
    with pytest.raises(LookupError):
        settings.token()


@pytest.mark.parametrize(
    "token",
    [
        "123456",
        "123456:",
        "abc:" + "A" * 35,
        "123456:" + "A" * 10,
        "123456:" + "A" * 34 + "!",
        "123456:" + "A" * 34 + "é",
        "123456 :" + "A" * 35,
    ],
)
def test_malformed_token_is_refused_without_echo(token: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Settings(bot_token=SecretStr(token))
    assert token not in str(caught.value)
    assert describe_errors(caught.value)[0].startswith("SVARA_BOT_TOKEN: does not look like")


def test_token_never_shown() -> None:
    settings = Settings(bot_token=SecretStr(fake_token("x")))
    assert fake_token("x") not in repr(settings)
    assert fake_token("x") not in str(settings)
    assert fake_token("x") not in settings.model_dump_json()


def test_token_shape() -> None:
    assert looks_like_token(fake_token("-"))
    assert looks_like_token("1:" + "a_B-9" * 7)
    assert not looks_like_token(" " + fake_token())
    assert not looks_like_token("١٢٣:" + "A" * 35)  # non-ASCII digits


def test_surrounding_spaces_are_trimmed() -> None:
    assert Settings(bot_token=SecretStr(f"  {fake_token()}\n")).token() == fake_token()


def test_port_from_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "5000")
    assert Settings().webhook_port == 5000
    monkeypatch.setenv("SVARA_WEBHOOK_PORT", "6000")
    assert Settings().webhook_port == 6000
    assert Settings(webhook_port=80).webhook_port == 80


def test_bad_platform_port_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "http")
    with pytest.raises(ValidationError) as caught:
        Settings()
    assert describe_errors(caught.value)[0].startswith("SVARA_WEBHOOK_PORT (or PORT):")


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("turn_timeout", 0, "greater than 0"),
        ("blind_timeout", -1, "greater than 0"),
        ("svara_join_timeout", 0, "greater than 0"),
        ("next_hand_delay", -0.5, "greater than or equal to 0"),
        ("lobby_autostart", -1, "greater than or equal to 0"),
        ("starting_chips", 0, "greater than 0"),
        ("default_ante", 0, "greater than 0"),
        ("webhook_port", 70000, "less than or equal to 65535"),
        ("log_level", "LOUD", "'DEBUG'"),
        ("api_base_url", "api.telegram.org/bot", "http:// or https://"),
        ("webhook_url", "ftp://example.org", "http:// or https://"),
        ("webhook_secret", "has spaces", "1-256 characters"),
    ],
)
def test_range_checks(field: str, value: object, words: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Settings.model_validate({field: value})
    (line,) = describe_errors(caught.value)
    assert line.startswith(f"SVARA_{field.upper()}")
    assert words in line


def test_ante_above_starting_chips() -> None:
    with pytest.raises(ValidationError) as caught:
        Settings(starting_chips=5, default_ante=10)
    assert (
        "default ante (10) is more than the starting chips (5)" in describe_errors(caught.value)[0]
    )


def test_webhook() -> None:
    settings = Settings(
        webhook_url="https://example.org/hook", webhook_secret=SecretStr("s3cr-et_")
    )
    assert settings.uses_webhook
    assert settings.webhook_secret is not None
    assert settings.webhook_secret.get_secret_value() == "s3cr-et_"
    assert Settings(webhook_url="").webhook_url is None


def test_self_hosted_server() -> None:
    settings = Settings(api_base_url="http://127.0.0.1:8081/bot")
    assert settings.file_url == "http://127.0.0.1:8081/file/bot"
    explicit = Settings(api_base_url="http://h/bot", api_base_file_url="http://files/bot")
    assert explicit.file_url == "http://files/bot"


def test_derive_file_url() -> None:
    assert derive_file_url("https://api.telegram.org/bot") == "https://api.telegram.org/file/bot"
    assert derive_file_url("http://localhost:9000/bot/") == "http://localhost:9000/file/bot"
    assert derive_file_url("http://localhost:9000/api") == "http://localhost:9000/api/file/bot"


def test_frozen() -> None:
    settings = Settings()
    with pytest.raises(ValidationError):
        settings.turn_timeout = 1


def test_env_example_lists_every_setting_and_loads() -> None:
    example = Path(__file__).resolve().parents[2] / ".env.example"
    text = example.read_text(encoding="utf-8")
    for field in Settings.model_fields:
        assert f"SVARA_{field.upper()}=" in text, f"{field} missing from .env.example"
    settings_lines = [line.lstrip("# ") for line in text.splitlines()]
    uncommented = "\n".join(line for line in settings_lines if line.startswith("SVARA_"))
    copy = Path("uncommented.env")
    copy.write_text(uncommented, encoding="utf-8")
    settings = Settings.from_env(copy)
    assert settings.bot_token is None
    assert settings.webhook_url == "https://example.org/svara"
    assert settings.turn_timeout == 45
