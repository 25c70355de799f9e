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
from bot.miniapp.initdata import (
    FUTURE_SLACK,
    MAX_LENGTH,
    BadInitData,
    check,
    sign,
    user_fields,
)
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


def refused(raw: str, reason: str, *, token: str = TOKEN, now: float = AUTH_DATE) -> None:
    """`raw` is refused with `reason`, the words the page's 401 answer carries."""
    with pytest.raises(BadInitData) as refusal:
        check(raw, token, now=now, max_age=HOUR)
    assert refusal.value.reason == reason and str(refusal.value) == reason


def test_telegrams_signature_worked_out_by_hand_lets_the_user_in() -> None:
    user = check(RAW, TOKEN, now=AUTH_DATE + 60, max_age=HOUR)
    assert (user.id, user.name, user.language, user.auth_date) == (
        279058397, "Vladislav Kibenko", "ru", AUTH_DATE)
    assert user.start_param is None and user.chat_type is None


def test_the_sandbox_signs_initdata_as_telegram_does() -> None:
    assert f"hash={HASH}" in sign(FIELDS, TOKEN)


def test_the_same_data_for_another_bot_or_with_the_login_widgets_key_is_refused() -> None:
    refused(RAW, "bad signature", token="222222:another-bot")
    # The Login Widget signs with SHA-256(token) as the key: not a Mini App's login.
    widget_key = hashlib.sha256(TOKEN.encode()).digest()
    lines = "\n".join(f"{k}={FIELDS[k]}" for k in sorted(FIELDS))
    widget_hash = hmac.new(widget_key, lines.encode(), hashlib.sha256).hexdigest()
    refused(urlencode({**FIELDS, "hash": widget_hash}), "bad signature")
    # One changed byte of the data breaks it.
    refused(RAW.replace("Vladislav", "Vladislaw"), "bad signature")
    refused(RAW.replace(f"hash={HASH}", "hash="), "bad signature")
    refused(RAW.replace(f"&hash={HASH}", ""), "bad signature")


def test_a_field_given_twice_is_refused_even_with_the_same_value() -> None:
    refused(RAW + f"&auth_date={AUTH_DATE}", "a field given twice")


def test_login_data_is_good_for_the_operators_bound_and_not_from_the_future() -> None:
    assert check(RAW, TOKEN, now=AUTH_DATE + HOUR, max_age=HOUR).id == 279058397
    refused(RAW, "expired", now=AUTH_DATE + HOUR + 1)
    assert check(RAW, TOKEN, now=AUTH_DATE - FUTURE_SLACK, max_age=HOUR).id == 279058397
    refused(RAW, "from the future", now=AUTH_DATE - FUTURE_SLACK - 1)


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
    refused(signed({"auth_date": str(AUTH_DATE), "user": json.dumps(user)}), "no user")


@pytest.mark.parametrize(("raw", "reason"), [
    ("", "missing or too long"), ("a=" + "x" * MAX_LENGTH, "missing or too long"),
    ("no-equals-sign", "not a query string"), (RAW + "&&x=1", "not a query string"),
    (f"auth_date={AUTH_DATE}", "bad signature"),
])
def test_what_is_no_initdata_is_refused(raw: str, reason: str) -> None:
    refused(raw, reason)


def padded(fields: dict[str, str], length: int) -> str:
    """`fields` signed, with a filler field that makes the initData `length` long."""
    base = len(signed({**fields, "pad": ""}))
    return signed({**fields, "pad": "p" * (length - base)})


def test_initdata_up_to_its_longest_is_read_and_one_character_more_is_not() -> None:
    fields = {"auth_date": str(AUTH_DATE), "user": '{"id":42}'}
    longest = padded(fields, MAX_LENGTH)
    assert len(longest) == MAX_LENGTH
    assert check(longest, TOKEN, now=AUTH_DATE, max_age=HOUR).id == 42
    refused(padded(fields, MAX_LENGTH + 1), "missing or too long")


def test_empty_fields_are_part_of_what_telegram_signs() -> None:
    raw = signed({"auth_date": str(AUTH_DATE), "user": '{"id":42}', "start_param": ""})
    assert check(raw, TOKEN, now=AUTH_DATE, max_age=HOUR).start_param == ""


def test_thirty_two_fields_are_read_and_more_are_refused() -> None:
    fields = {"auth_date": str(AUTH_DATE), "user": '{"id":42}'}
    fields |= {f"f{n}": "v" for n in range(29)}  # with the hash: 32
    assert check(signed(fields), TOKEN, now=AUTH_DATE, max_age=HOUR).id == 42
    refused(signed({**fields, "f29": "v"}), "not a query string")


def test_signed_data_with_no_user_field_or_a_bad_date_is_refused() -> None:
    for fields in ({"auth_date": str(AUTH_DATE)}, {"auth_date": "soon", "user": USER},
                   {"auth_date": str(AUTH_DATE), "user": "not json"}):
        refused(signed(fields), "no user")


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


def test_the_sandboxs_user_fields_read_back_as_the_user_who_opened_the_app() -> None:
    fields = user_fields(42, "Ana", language="bg", auth_date=AUTH_DATE, start_param=APP_31,
                         chat_type="supergroup")
    # Compact JSON, as Telegram sends it.
    assert fields["user"] == '{"id":42,"first_name":"Ana","language_code":"bg"}'
    assert fields["chat_instance"] == "1"
    user = check(signed(fields), TOKEN, now=AUTH_DATE, max_age=HOUR)
    assert (user.id, user.name, user.language, user.start_param, user.chat_type) == (
        42, "Ana", "bg", APP_31, "supergroup")
    bare = user_fields(43, "Boris", auth_date=AUTH_DATE)
    assert set(bare) == {"user", "auth_date"}
    assert json.loads(bare["user"]) == {"id": 43, "first_name": "Boris"}
    assert check(signed(bare), TOKEN, now=AUTH_DATE, max_age=HOUR).language is None
