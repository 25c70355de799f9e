"""The Mini App's settings and signed table payloads."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import SecretStr, ValidationError

from bot.miniapp.links import app_payload, app_table, group_link, page_url
from bot.settings import Settings

TOKEN = "12345:" + "x" * 35


def settings(**values: Any) -> Settings:
    return Settings(bot_token=SecretStr(TOKEN), _env_file=None,  # type: ignore[call-arg]
                    **values)


def test_the_public_url_must_be_https_and_loses_its_trailing_slash() -> None:
    assert settings().public_url is None
    assert settings(public_url="").public_url is None
    assert settings(public_url="https://svara.example/").public_url == "https://svara.example"
    for bad in ("http://svara.example", "svara.example", "https://"):
        with pytest.raises(ValidationError, match="https"):
            settings(public_url=bad)
    with pytest.raises(ValidationError):
        settings(miniapp_max_age=0)


def test_a_payload_names_its_table_only_with_our_signature() -> None:
    secret, other = b"k" * 32, b"o" * 32
    payload = app_payload(secret, 0x1f)
    assert payload.startswith("t1f_") and len(payload) <= 64
    assert all(c.isalnum() or c in "_-" for c in payload)
    assert app_table(secret, payload) == 0x1f
    assert app_table(other, payload) is None
    assert app_table(secret, "t20_" + payload[4:]) is None
    for bad in ("", "t", "t_", "tzz_abc", "j1f_" + payload[4:], payload + "x", "t" + "1" * 13):
        assert app_table(secret, bad) is None, bad
    assert group_link("svara_bot", payload) == f"https://t.me/svara_bot?startapp={payload}"
    assert page_url("https://svara.example", payload) == \
        f"https://svara.example/app/?t={payload}"
