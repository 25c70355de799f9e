"""The Mini App's login check against Telegram's documented scheme, with a vector worked
out by hand (not by the project's own `sign`), and the join and Mini App links' signatures
the same way."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import quote, urlencode

import pytest

from bot.handling import join_payload, joined_table
from bot.miniapp.initdata import FUTURE_SLACK, BadInitData, check, sign
from bot.miniapp.links import app_payload, app_table

TOKEN = "111111:test-vector-not-a-real-token"
AUTH_DATE = 1767225600
USER = ('{"id":279058397,"first_name":"Vladislav","last_name":"Kibenko",'
        '"language_code":"ru"}')
FIELDS = {"auth_date": str(AUTH_DATE), "query_id": "AAHdF6IQAAAAAN0XohDhrOrc", "user": USER}
HASH = "aab5459db966f26d27390e9baaf4d487653f5b5f2f9af601cea8f7f5fb48009c"
"""hex(HMAC_SHA256(key=HMAC_SHA256(key="WebAppData", msg=TOKEN), msg=the data-check
string)), the data-check string being FIELDS' "key=value" lines sorted by key, joined by
newlines; computed once by hand with hashlib."""
RAW = ("query_id=AAHdF6IQAAAAAN0XohDhrOrc&user=" + quote(USER, safe="")
       + f"&auth_date={AUTH_DATE}&hash={HASH}")
"""As the page hands it over: Telegram's order, not sorted."""
HOUR = 3600.0


def signed(fields: dict[str, str], token: str = TOKEN) -> str:
    """initData signed the documented way, written here apart from the bot's code."""
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    lines = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    digest = hmac.new(secret, lines.encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def test_telegrams_signature_worked_out_by_hand_lets_the_user_in() -> None:
    user = check(RAW, TOKEN, now=AUTH_DATE + 60, max_age=HOUR)
    assert (user.id, user.name, user.language, user.auth_date) == (
        279058397, "Vladislav Kibenko", "ru", AUTH_DATE)
    assert user.start_param is None and user.chat_type is None


def test_the_sandbox_signs_initdata_as_telegram_does() -> None:
    assert f"hash={HASH}" in sign(FIELDS, TOKEN)


def test_the_same_data_for_another_bot_or_with_the_login_widgets_key_is_refused() -> None:
    with pytest.raises(BadInitData, match="signature"):
        check(RAW, "222222:another-bot", now=AUTH_DATE, max_age=HOUR)
    # The Login Widget signs with SHA-256(token) as the key: not a Mini App's login.
    widget_key = hashlib.sha256(TOKEN.encode()).digest()
    lines = "\n".join(f"{k}={FIELDS[k]}" for k in sorted(FIELDS))
    widget_hash = hmac.new(widget_key, lines.encode(), hashlib.sha256).hexdigest()
    with pytest.raises(BadInitData, match="signature"):
        check(urlencode({**FIELDS, "hash": widget_hash}), TOKEN, now=AUTH_DATE, max_age=HOUR)
    # One changed byte of the data breaks it.
    with pytest.raises(BadInitData, match="signature"):
        check(RAW.replace("Vladislav", "Vladislaw"), TOKEN, now=AUTH_DATE, max_age=HOUR)
    with pytest.raises(BadInitData, match="signature"):
        check(RAW.replace(f"hash={HASH}", "hash="), TOKEN, now=AUTH_DATE, max_age=HOUR)


def test_a_field_given_twice_is_refused_even_with_the_same_value() -> None:
    with pytest.raises(BadInitData, match="twice"):
        check(RAW + f"&auth_date={AUTH_DATE}", TOKEN, now=AUTH_DATE, max_age=HOUR)


def test_login_data_is_good_for_the_operators_bound_and_not_from_the_future() -> None:
    assert check(RAW, TOKEN, now=AUTH_DATE + HOUR, max_age=HOUR).id == 279058397
    with pytest.raises(BadInitData, match="expired"):
        check(RAW, TOKEN, now=AUTH_DATE + HOUR + 1, max_age=HOUR)
    assert check(RAW, TOKEN, now=AUTH_DATE - FUTURE_SLACK, max_age=HOUR).id == 279058397
    with pytest.raises(BadInitData, match="future"):
        check(RAW, TOKEN, now=AUTH_DATE - FUTURE_SLACK - 1, max_age=HOUR)


@pytest.mark.parametrize("user", [
    {"id": True, "first_name": "Bool"},
    {"id": "279058397", "first_name": "Text"},
    {"id": 2.5, "first_name": "Float"},
    {"id": 5, "first_name": 7},
    {"id": 5, "first_name": "A", "last_name": ["B"]},
    {"id": 5, "first_name": "A", "language_code": 1},
    {"first_name": "Nobody"},
])
def test_signed_data_without_a_proper_user_is_refused(user: dict[str, object]) -> None:
    raw = signed({"auth_date": str(AUTH_DATE), "user": json.dumps(user)})
    with pytest.raises(BadInitData, match="no user"):
        check(raw, TOKEN, now=AUTH_DATE, max_age=HOUR)


@pytest.mark.parametrize("raw", ["", "x" * 5000, "no-equals-sign", f"auth_date={AUTH_DATE}"])
def test_what_is_no_initdata_is_refused(raw: str) -> None:
    with pytest.raises(BadInitData):
        check(raw, TOKEN, now=AUTH_DATE, max_age=HOUR)


def test_signed_data_with_no_user_field_or_a_bad_date_is_refused() -> None:
    for fields in ({"auth_date": str(AUTH_DATE)}, {"auth_date": "soon", "user": USER},
                   {"auth_date": str(AUTH_DATE), "user": "not json"}):
        with pytest.raises(BadInitData, match="no user"):
            check(signed(fields), TOKEN, now=AUTH_DATE, max_age=HOUR)


def test_a_user_without_names_is_called_by_his_id_and_the_start_param_comes_through() -> None:
    raw = signed({"auth_date": str(AUTH_DATE), "user": '{"id":42}', "start_param": "t1f_x",
                  "chat_type": "group", "chat_instance": "9"})
    user = check(raw, TOKEN, now=AUTH_DATE, max_age=HOUR)
    assert (user.id, user.name, user.language) == (42, "42", None)
    assert (user.start_param, user.chat_type) == ("t1f_x", "group")
    first_only = signed({"auth_date": str(AUTH_DATE), "user": '{"id":42,"first_name":"Ana"}'})
    assert check(first_only, TOKEN, now=AUTH_DATE, max_age=HOUR).name == "Ana"


# ------------------------------------------------------------------ join and Mini App links

LINK_SECRET = b"link-secret-for-tests-32-bytes!!"
# base64url(HMAC_SHA256(LINK_SECRET, "join:31" / "app:31")[:12]), worked out by hand.
JOIN_31 = "j1f_EUkP6rQmjA6K0MK8"
APP_31 = "t1f_-x5OhyWVtg9ehYA8"


def test_join_links_carry_the_documented_signature() -> None:
    assert join_payload(LINK_SECRET, 31) == JOIN_31
    assert joined_table(LINK_SECRET, JOIN_31) == 31
    assert joined_table(b"another install's secret", JOIN_31) is None
    assert joined_table(LINK_SECRET, "j20_" + JOIN_31[4:]) is None


def test_mini_app_links_carry_the_documented_signature() -> None:
    assert app_payload(LINK_SECRET, 31) == APP_31
    assert app_table(LINK_SECRET, APP_31) == 31
    assert app_table(b"another install's secret", APP_31) is None
    assert app_table(LINK_SECRET, JOIN_31) is None  # a join link opens no app
