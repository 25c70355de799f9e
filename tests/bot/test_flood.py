"""The flood guard answers as many commands as a person types, and holds off the rest."""

from __future__ import annotations

from bot.flood import BURST, KEPT, WINDOW, CommandGuard, Verdict


class Watch:
    """A clock moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def verdicts(guard: CommandGuard, user: int, times: int) -> list[Verdict]:
    return [guard.check(user) for _ in range(times)]


def test_the_flood_guard_answers_six_commands_a_window() -> None:
    # The documented burst: six commands at once are all answered, the seventh is told
    # to slow down, and what follows is ignored.
    guard = CommandGuard(Watch())
    assert verdicts(guard, 1, 6) == [Verdict.ANSWER] * 6
    assert guard.check(1) is Verdict.WARN
    assert verdicts(guard, 1, 3) == [Verdict.IGNORE] * 3
    assert guard.ignored == 3


def test_commands_spread_wider_than_the_window_are_all_answered() -> None:
    clock = Watch()
    guard = CommandGuard(clock)
    for _ in range(40):
        assert guard.check(1) is Verdict.ANSWER
        clock.now += WINDOW / BURST + 0.01  # a little slower than the burst allows
    assert guard.ignored == 0


def test_a_flooder_is_ignored_for_the_quiet_time_then_answered_again() -> None:
    clock = Watch()
    guard = CommandGuard(clock)
    verdicts(guard, 1, BURST)
    assert guard.check(1) is Verdict.WARN
    # Ignored for the 30 seconds the README promises.
    clock.now += 29.5
    assert guard.check(1) is Verdict.IGNORE
    clock.now += 0.5
    # Back from the quiet: a fresh burst, warned only past it again.
    assert verdicts(guard, 1, BURST) == [Verdict.ANSWER] * BURST
    assert guard.check(1) is Verdict.WARN


def test_one_users_flood_costs_another_user_nothing() -> None:
    guard = CommandGuard(Watch())
    verdicts(guard, 1, BURST + 5)
    assert verdicts(guard, 2, BURST) == [Verdict.ANSWER] * BURST
    assert guard.ignored == 4


def test_a_burst_that_began_before_the_window_is_no_flood() -> None:
    clock = Watch()
    guard = CommandGuard(clock)
    guard.check(1)
    clock.now += WINDOW  # the first is a whole window old when the burst fills up
    assert verdicts(guard, 1, BURST) == [Verdict.ANSWER] * BURST


def test_a_flood_after_a_long_calm_conversation_is_caught_at_the_same_command() -> None:
    clock = Watch()
    guard = CommandGuard(clock)
    for _ in range(20):
        assert guard.check(1) is Verdict.ANSWER
        clock.now += WINDOW
    assert verdicts(guard, 1, BURST) == [Verdict.ANSWER] * BURST
    assert guard.check(1) is Verdict.WARN


def test_the_guard_remembers_as_many_users_as_it_keeps_then_forgets_the_quietest() -> None:
    for others, verdict in ((KEPT - 1, Verdict.IGNORE), (KEPT, Verdict.ANSWER)):
        guard = CommandGuard(Watch())
        verdicts(guard, 1, BURST + 1)  # warned: ignored for a while
        for user in range(2, others + 2):
            guard.check(user)
        # Still remembered among the kept, he is still ignored; past them, forgotten.
        assert guard.check(1) is verdict


def test_a_new_user_is_answered_even_when_the_clock_starts_at_zero() -> None:
    assert CommandGuard(now=lambda: 0.0).check(1) is Verdict.ANSWER


def test_a_command_past_the_burst_is_a_flood_however_soon_the_window_reopens() -> None:
    now = [0.0]
    guard = CommandGuard(now=lambda: now[0])
    assert [guard.check(1) for _ in range(BURST)] == [Verdict.ANSWER] * BURST
    now[0] = WINDOW - 0.5  # the burst's first command leaves the window half a second later
    assert guard.check(1) is Verdict.WARN


def test_after_his_quiet_time_a_flooder_starts_afresh() -> None:
    now = [0.0]
    guard = CommandGuard(now=lambda: now[0], burst=2, window=10.0, quiet=1.0)
    assert [guard.check(1) for _ in range(3)] == [Verdict.ANSWER, Verdict.ANSWER, Verdict.WARN]
    now[0] = 1.5  # quiet over, still inside the window of his earlier commands
    assert [guard.check(1) for _ in range(2)] == [Verdict.ANSWER, Verdict.ANSWER]


def test_a_user_forgotten_past_the_kept_number_starts_afresh() -> None:
    guard = CommandGuard(now=lambda: 0.0)
    assert [guard.check(1) for _ in range(BURST)] == [Verdict.ANSWER] * BURST
    for other in range(2, KEPT + 3):  # every other user pushes the oldest out
        guard.check(other)
    assert guard.check(1) is Verdict.ANSWER
