"""The one rate limit under the group pace, the flood guard and the Mini App's presses."""

from __future__ import annotations

import random

import pytest

from bot.ratelimit import Limit


class Watch:
    """A clock moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def goes(limit: Limit[int], key: int, times: int) -> list[bool]:
    return [limit.take(key) == 0.0 for _ in range(times)]


def test_a_burst_is_allowed_at_once_and_the_next_waits_one_over_the_rate() -> None:
    clock = Watch()
    limit: Limit[int] = Limit.bucket(8, 4.0, clock=clock)
    assert goes(limit, 1, 8) == [True] * 8
    assert limit.take(1) == pytest.approx(0.25)
    assert limit.wait(1) == pytest.approx(0.25)
    clock.now += 0.25
    assert goes(limit, 1, 2) == [True, False]


def test_a_bucket_refills_at_its_rate_and_never_past_its_burst() -> None:
    clock = Watch()
    limit: Limit[int] = Limit.bucket(8, 4.0, clock=clock)
    goes(limit, 1, 8)
    clock.now += 1.0  # four tokens back
    assert goes(limit, 1, 5) == [True] * 4 + [False]
    clock.now += 60.0  # long idle: the whole burst, no more
    assert goes(limit, 1, 9) == [True] * 8 + [False]


def test_a_refused_try_uses_nothing_up() -> None:
    clock = Watch()
    limit: Limit[int] = Limit.bucket(2, 1.0, clock=clock)
    goes(limit, 1, 2)
    for _ in range(10):
        clock.now += 0.05
        assert limit.take(1) > 0.0
    clock.now = 1001.0
    assert limit.take(1) == 0.0


def test_a_window_allows_its_count_in_any_window_and_each_comes_back_a_window_later() -> None:
    clock = Watch()
    limit: Limit[int] = Limit.window(3, 10.0, clock=clock)
    assert goes(limit, 1, 1) == [True]
    clock.now += 4.0
    assert goes(limit, 1, 3) == [True, True, False]
    assert limit.wait(1) == pytest.approx(6.0)  # the first of the three goes back first
    clock.now += 6.0
    assert goes(limit, 1, 2) == [True, False]
    assert limit.wait(1) == pytest.approx(4.0)  # the other two come back together


def test_a_window_does_not_refill_steadily_like_a_bucket() -> None:
    clock = Watch()
    limit: Limit[int] = Limit.window(2, 10.0, clock=clock)
    goes(limit, 1, 2)
    clock.now += 9.99
    assert limit.take(1) == pytest.approx(0.01)


def test_one_token_spaces_calls_by_its_hold_and_a_token_given_back_goes_at_once() -> None:
    clock = Watch()
    limit: Limit[int] = Limit(1, 3.0, clock=clock)
    assert limit.wait(1) == 0.0
    assert limit.take(1) == 0.0
    clock.now += 1.0
    assert limit.wait(1) == pytest.approx(2.0)
    limit.give_back(1)
    assert limit.wait(1) == 0.0
    assert limit.take(1) == 0.0
    assert limit.wait(1) == pytest.approx(3.0)  # spaced from this call, not the first


def test_giving_back_returns_only_the_last_token() -> None:
    clock = Watch()
    limit: Limit[int] = Limit.bucket(3, 1.0, clock=clock)
    goes(limit, 1, 3)
    limit.give_back(1)
    assert goes(limit, 1, 2) == [True, False]
    limit.give_back(2)  # a key that took nothing has nothing to give back
    assert goes(limit, 2, 4) == [True, True, True, False]


def test_the_token_given_back_is_the_one_just_taken_not_the_oldest() -> None:
    clock = Watch()
    limit: Limit[int] = Limit.window(2, 10.0, clock=clock)
    limit.take(1)
    clock.now += 5.0
    limit.take(1)
    limit.give_back(1)
    limit.take(1)
    assert limit.wait(1) == pytest.approx(5.0)  # the first still comes back at 10 s


def test_may_go_exactly_when_the_wait_is_over() -> None:
    clock = Watch()
    limit: Limit[int] = Limit(1, 0.5, clock=clock)
    limit.take(1)
    clock.now += limit.wait(1)
    assert limit.wait(1) == 0.0
    assert limit.take(1) == 0.0


def test_keys_are_apart_and_a_forgotten_key_starts_with_all_its_tokens() -> None:
    clock = Watch()
    limit: Limit[str] = Limit.bucket(2, 1.0, clock=clock)
    goes_a = [limit.take("a") == 0.0 for _ in range(3)]
    assert goes_a == [True, True, False]
    assert limit.take("b") == 0.0
    assert "a" in limit and "c" not in limit and len(limit) == 2
    limit.forget("a")
    assert "a" not in limit and limit.take("a") == 0.0
    limit.clear()
    assert len(limit) == 0


def test_a_key_remembers_no_more_times_than_its_burst() -> None:
    clock = Watch()
    limit: Limit[int] = Limit.window(3, 1.0, clock=clock)
    for _ in range(100):
        limit.take(1)
        clock.now += 0.4
    assert len(limit._back[1]) == 3


def test_a_limit_without_a_token_is_refused() -> None:
    with pytest.raises(ValueError):
        Limit(0, 1.0)


def steps(seed: int) -> list[float]:
    """Times of tries: bursts, pauses and everything between (exact binary fractions)."""
    rng, now, times = random.Random(seed), 1000.0, []
    for _ in range(60):
        now += rng.choice([0, 0, 0, 1, 2, 4, 8, 16, 40]) / 64
        times.append(now)
    return times


def went(limit: Limit[int], clock: Watch, times: list[float]) -> list[bool]:
    gone = []
    for now in times:
        clock.now = now
        gone.append(limit.take(1) == 0.0)
    return gone


@pytest.mark.parametrize("seed", range(200))
def test_a_bucket_lets_through_what_a_count_of_tokens_refilled_at_its_rate_would(
        seed: int) -> None:
    times = steps(seed)
    tokens, at, want = 8.0, times[0], []
    for now in times:
        tokens, at = min(8.0, tokens + (now - at) * 4.0), now
        ok = tokens >= 1
        want.append(ok)
        if ok:
            tokens -= 1
    clock = Watch()
    assert went(Limit.bucket(8, 4.0, clock=clock), clock, times) == want


@pytest.mark.parametrize("seed", range(200))
def test_a_window_lets_through_what_a_log_of_the_last_times_would(seed: int) -> None:
    times = steps(seed)
    log: list[float] = []
    want = []
    for now in times:
        ok = sum(1 for t in log if now - t < 3.0) < 6
        want.append(ok)
        if ok:
            log.append(now)
    clock = Watch()
    assert went(Limit.window(6, 3.0, clock=clock), clock, times) == want


@pytest.mark.parametrize(("burst", "hold", "gap"), [(0, 1.0, 0.0), (1, -1.0, 0.0), (1, 1.0, -0.5)])
def test_a_limit_without_a_token_or_with_negative_time_is_refused(
        burst: int, hold: float, gap: float) -> None:
    with pytest.raises(ValueError, match="a limit needs a token and no negative time"):
        Limit(burst, hold, gap=gap)


def test_a_limit_whose_tokens_come_back_at_once_lets_everything_through() -> None:
    limit: Limit[int] = Limit(1, 0.0, clock=lambda: 5.0)
    assert [limit.take(1) for _ in range(3)] == [0.0, 0.0, 0.0]
