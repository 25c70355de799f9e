"""Where tables, their clock and the store meet: each defect once seen there, as a test.

`Games` runs on a real store over a temporary file with a clock the test moves and alarms
that ring only when the test says so.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot import errors
from bot.clock import WaitKind
from bot.games import Games
from bot.i18n import Translations
from bot.live import Live, Player
from bot.records import TableStatus
from bot.store import StorageFailure, Store
from bot.store import errors as store_errors
from bot.table_settings import TableSettings
from engine import Act, Action, Phase, TieRule
from tests.bot.conftest import NOW
from tests.bot.test_games import (
    ANA,
    BORIS,
    CHAT,
    SEED,
    STARTING_CHIPS,
    FakeAlarms,
    FakeOutbox,
    with_private_chat,
)
from tests.e2e.seeds import find_seed

CYRIL = Player(3, "Cyril")
TURN = 45.0


def games(store: Store, alarms: FakeAlarms | None = None,
          settings: TableSettings | None = None) -> Games:
    return Games(store, FakeOutbox(), defaults=settings or TableSettings(
        ante=10, blind=False, max_buy_in_antes=30, autostart=0, turn_timeout=TURN),
        starting_chips=STARTING_CHIPS, seed_source=lambda: SEED, clock=lambda: NOW[0],
        alarms=alarms)


async def playing(store: Store, alarms: FakeAlarms | None = None) -> tuple[Games, Live]:
    """Ana and Boris in a hand, its first turn begun at 1000."""
    await with_private_chat(store, ANA, BORIS, CYRIL)
    g = games(store, alarms)
    live = await g.open_table(CHAT, None, ANA)
    await g.join(live, ANA)
    await g.join(live, BORIS)
    await g.start(live, ANA, is_admin=False)
    return g, live


async def three_playing(store: Store, alarms: FakeAlarms | None = None
                        ) -> tuple[Games, Live, Player]:
    """Ana, Boris and Cyril in a hand; and the one whose turn it is."""
    await with_private_chat(store, ANA, BORIS, CYRIL)
    g = games(store, alarms)
    live = await g.open_table(CHAT, None, ANA)
    for p in (ANA, BORIS, CYRIL):
        await g.join(live, p)
    await g.start(live, ANA, is_admin=False)
    hand = live.hand
    assert hand is not None and hand.to_act is not None
    acting = next(p for p in (ANA, BORIS, CYRIL) if p.id == hand.seats[hand.to_act].player)
    return g, live, acting


def fails_once(target: Any, name: str) -> None:
    """Make `target.name` raise a storage failure the next time it is called."""
    real = getattr(target, name)
    state = {"failed": False}

    async def once(*args: Any, **kwargs: Any) -> Any:
        if not state["failed"]:
            state["failed"] = True
            raise StorageFailure("disk I/O error")
        return await real(*args, **kwargs)

    setattr(target, name, once)


def status_of(live: Live) -> TableStatus:
    return live.status


def to_act(live: Live) -> Player:
    hand = live.hand
    assert hand is not None and hand.to_act is not None
    return ANA if hand.seats[hand.to_act].player == ANA.id else BORIS


# --------------------------------------------------------------------- 1. one clock


async def test_item1_a_spectator_joining_does_not_move_the_turn_clock(store: Store) -> None:
    alarms = FakeAlarms()
    g, live = await playing(store, alarms)
    assert live.wait is not None and live.wait.deadline == 1000 + TURN
    armed = len(alarms.set_)
    NOW[0] += 40
    await g.join(live, CYRIL)
    assert live.wait.deadline == 1000 + TURN
    assert alarms.at(live.id) == 1000 + TURN
    assert len(alarms.set_) == armed  # nothing scheduled again


async def test_item1_the_grief_loop_does_not_extend_a_turn_by_one_second(store: Store) -> None:
    alarms = FakeAlarms()
    g, live = await playing(store, alarms)
    for _ in range(20):
        NOW[0] += 2
        await g.join(live, CYRIL)
        NOW[0] += 2
        await g.leave(live, CYRIL)
    assert live.wait is not None and live.wait.kind is WaitKind.TURN
    assert live.wait.deadline == 1000 + TURN
    assert alarms.at(live.id) == 1000 + TURN


async def test_item1_the_autostart_window_keeps_its_deadline_when_a_third_joins(
        store: Store) -> None:
    alarms = FakeAlarms()
    await with_private_chat(store, ANA, BORIS, CYRIL)
    g = games(store, alarms, TableSettings(ante=10, blind=False, max_buy_in_antes=30,
                                           autostart=60))
    live = await g.open_table(CHAT, None, ANA)
    await g.join(live, ANA)
    await g.join(live, BORIS)
    assert live.wait is not None and live.wait.kind is WaitKind.AUTOSTART
    NOW[0] += 50
    await g.join(live, CYRIL)
    assert live.wait.deadline == 1060 and alarms.at(live.id) == 1060
    assert live.view(NOW[0]).autostart_seconds == 10


async def test_item1_another_players_leave_does_not_restart_the_turn(store: Store) -> None:
    g, live, acting = await three_playing(store)
    hand = live.hand
    assert hand is not None and live.wait is not None
    deadline = live.wait.deadline
    other = next(p for p in (ANA, BORIS, CYRIL) if p != acting)
    NOW[0] += 30
    await g.leave(live, other)
    assert live.hand is hand and not hand.is_over
    assert live.wait.deadline == deadline


# --------------------------------------------------------------------- 2. restarts


async def test_item2_a_restart_keeps_the_deadline_the_table_showed(store: Store) -> None:
    _, live = await playing(store)
    NOW[0] = 1030
    alarms = FakeAlarms()
    again = games(store, alarms)
    await again.resume_all()
    back = again.tables[live.id]
    assert back.wait is not None and back.wait.kind is WaitKind.TURN
    assert back.wait.deadline == 1000 + TURN
    assert alarms.at(live.id) == 1000 + TURN
    assert back.view(NOW[0]).wait_seconds == 15


async def test_item2_a_deadline_that_passed_while_down_rings_and_the_turn_moves_on(
        store: Store) -> None:
    _, live = await playing(store)
    NOW[0] = 5000
    alarms = FakeAlarms()
    again = games(store, alarms)
    await again.resume_all()
    back = again.tables[live.id]
    assert alarms.at(live.id) == 1000 + TURN  # in the past: the job queue rings it at once
    await alarms.ring(live.id)
    assert back.hand is None and back.wait is not None and back.wait.kind is WaitKind.NEXT


# --------------------------------------------------------------------- 4. endgame


async def test_item4_endgame_with_a_failed_close_does_not_strand_the_table(
        store: Store) -> None:
    alarms = FakeAlarms()
    g, live = await playing(store, alarms)
    await g.end(live, ANA, is_admin=False)
    fails_once(store.tables, "close")
    folder = to_act(live)
    await g.press(live, folder, Action(Act.FOLD, 0), hand_id=live.hand_id, seq=0)
    # The fold was settled: the presser is not told that nothing changed.
    assert (await store.hands.get(live.hand_id)).status == "settled"
    assert live.status is TableStatus.PLAYING and live.hand is None
    assert live.wait is not None and alarms.at(live.id) is not None
    await alarms.ring(live.id)
    assert status_of(live) is TableStatus.CLOSED
    assert (await store.tables.get(live.id)).status is TableStatus.CLOSED


# --------------------------------------------------------------------- 5. timers


async def test_item5_a_join_racing_a_seats_change_cannot_stop_the_table(store: Store) -> None:
    alarms = FakeAlarms()
    g, live = await playing(store, alarms)
    await g.press(live, to_act(live), Action(Act.FOLD, 0), hand_id=live.hand_id, seq=0)
    assert live.wait is not None and live.wait.kind is WaitKind.NEXT
    real = store.chats.set_settings
    joining: list[asyncio.Task[int]] = []

    async def racing(chat_id: int, values: Any) -> Any:
        # Cyril presses Join while the change is between its check and its write.
        joining.append(asyncio.create_task(g.join(live, CYRIL)))
        for _ in range(20):
            await asyncio.sleep(0)
        return await real(chat_id, values)

    store.chats.set_settings = racing  # type: ignore[method-assign, assignment]
    await g.change_settings(CHAT, "seats", "2")
    with pytest.raises(errors.TableFull):
        await joining[0]
    await alarms.ring(live.id)
    assert [s.player for s in live.table.seats] == [ANA.id, BORIS.id]
    assert live.hand is not None and live.settings.max_seats == 2


@pytest.mark.parametrize("step", ["open", "settle", "record", "seats", "last", "set_rules"])
async def test_item5_whatever_step_of_a_timer_fails_the_table_moves_on(
        store: Store, step: str) -> None:
    alarms = FakeAlarms()
    g, live = await playing(store, alarms)
    await g.press(live, to_act(live), Action(Act.FOLD, 0), hand_id=live.hand_id, seq=0)
    await g.change_settings(CHAT, "turn", "90")  # a pending change to take at the deal
    target = {"open": store.hands, "settle": store.hands, "record": store.hands,
              "seats": store.tables, "last": store.hands, "set_rules": store.tables}[step]
    real = getattr(target, step)
    broken = {"left": 1}

    async def bug(*args: Any, **kwargs: Any) -> Any:
        if broken["left"]:
            broken["left"] -= 1
            raise RuntimeError(f"a bug in {step}")
        return await real(*args, **kwargs)

    setattr(target, step, bug)
    for _ in range(4):  # the next hand, and its first turn's timeout
        NOW[0] += 100
        await alarms.ring(live.id)
        assert live.wait is not None and alarms.at(live.id) is not None
    assert (await store.audit()).ok


# --------------------------------------------------------------------- 6. settings


async def test_item6_a_settings_change_survives_a_failed_write(store: Store) -> None:
    alarms = FakeAlarms()
    g, live = await playing(store, alarms)
    await g.change_settings(CHAT, "turn", "90")
    await g.press(live, to_act(live), Action(Act.FOLD, 0), hand_id=live.hand_id, seq=0)
    fails_once(store.tables, "set_rules")
    await alarms.ring(live.id)
    await alarms.ring(live.id)
    assert live.settings.turn_timeout == 90
    assert live.hand is not None


async def test_item9_two_admins_saving_two_settings_keep_both(store: Store) -> None:
    g, _ = await playing(store)
    await asyncio.gather(g.change_settings(CHAT, "turn", "90"),
                         g.change_settings(CHAT, "ante", "20"))
    saved = await g.chat_settings(CHAT)
    assert saved.turn_timeout == 90 and saved.ante == 20


# --------------------------------------------------------------------- 7. /newgame


async def test_item7_a_failed_write_during_newgame_leaves_memory_and_store_agreeing(
        store: Store) -> None:
    await with_private_chat(store, ANA, BORIS)
    g = games(store)
    fails_once(store.tables, "open")
    with pytest.raises(StorageFailure):
        await g.open_table(CHAT, None, ANA)
    live = await g.open_table(CHAT, None, ANA)
    await g.join(live, BORIS)
    assert g.at(CHAT, None) is live
    assert [t.id for t in await store.tables.live_tables()] == [live.id]


async def test_item7_a_table_the_store_has_but_memory_lost_is_held_again(
        store: Store) -> None:
    await with_private_chat(store, ANA, BORIS)
    g = games(store)
    row = await store.tables.open(CHAT, creator=ANA.id, thread_id=None,
                                  rules=TableSettings().model_dump(mode="json"))
    with pytest.raises(errors.TableExists):
        await g.open_table(CHAT, None, ANA)
    live = g.at(CHAT, None)
    assert live is not None and live.id == row.id
    await g.join(live, BORIS)
    assert [s.user_id for s in await store.tables.seats(row.id)] == [BORIS.id]


# --------------------------------------------------------------------- leaving


async def test_a_failed_leave_write_leaves_nothing_half_done(store: Store) -> None:
    g, live, acting = await three_playing(store)
    other = next(p for p in (ANA, BORIS, CYRIL) if p != acting)
    fails_once(store.hands, "record")
    with pytest.raises(errors.StoreBusy):
        await g.leave(live, other)
    seats = {s.user_id: s.leaving for s in await store.tables.seats(live.id)}
    assert seats[other.id] is False
    assert live.hand is not None and not live.hand.seats[live.hand.seat_of(other.id) or 0].leaving


# --------------------------------------------------------------------- 9. one error story


def test_item9_a_store_refusal_is_answered_with_its_own_words() -> None:
    tr = Translations.load().get("en")
    assert errors.refusal(store_errors.TableFull(1, 10)).text(tr) == "The table is full."
    assert errors.refusal(StorageFailure("disk full")).text(tr) == \
        "I could not save that, so nothing changed. Please try again later."
    # A refusal no player should meet is a bug: not "try again later".
    assert isinstance(errors.refusal(store_errors.UnknownHand(5)), errors.Failed)


# --------------------------------------------------------------------- tests that bite


async def test_a_press_and_a_timer_at_once_apply_once(store: Store) -> None:
    g, live, presser = await three_playing(store)
    inside, release = asyncio.Event(), asyncio.Event()
    real = store.hands.record

    async def held(*args: Any, **kwargs: Any) -> Any:
        inside.set()
        await release.wait()  # the first press waits here, inside the table's lock
        return await real(*args, **kwargs)

    store.hands.record = held  # type: ignore[method-assign]
    first = asyncio.create_task(g.press(live, presser, Action(Act.FOLD, 0),
                                        hand_id=live.hand_id, seq=0))
    await inside.wait()
    second = asyncio.create_task(g.press(live, presser, Action(Act.FOLD, 0),
                                         hand_id=live.hand_id, seq=0))
    # The turn's timer rings while the fold is being saved: it must not act on the turn
    # the fold has not finished with.
    assert live.wait is not None
    timer = asyncio.create_task(g.on_timer(live.id, live.wait))
    await asyncio.sleep(0.01)
    release.set()
    await first
    with pytest.raises(errors.Expired):
        await second
    await timer
    assert [a["act"] for a in await store.hands.actions(live.hand_id)] == ["fold"]


async def test_a_settings_change_during_a_hand_survives_a_restart(store: Store) -> None:
    alarms = FakeAlarms()
    g, live = await playing(store, alarms)
    await g.change_settings(CHAT, "turn", "90")
    assert live.settings.turn_timeout == TURN  # this hand keeps its rules
    again = games(store, alarms)
    await again.resume_all()
    back = again.tables[live.id]
    hand = back.hand
    assert hand is not None and hand.to_act is not None
    folder = ANA if hand.seats[hand.to_act].player == ANA.id else BORIS
    await again.press(back, folder, Action(Act.FOLD, 0), hand_id=back.hand_id, seq=0)
    await alarms.ring(live.id)  # the next hand is dealt with the new setting
    assert back.settings.turn_timeout == 90 and back.hand is not None


async def test_the_svara_window_keeps_its_deadline_when_someone_joins(store: Store) -> None:
    dora = Player(4, "Dora")
    alarms = FakeAlarms()
    await with_private_chat(store, ANA, BORIS, CYRIL, dora)
    seed_box: list[bytes] = []
    g = Games(store, FakeOutbox(), defaults=TableSettings(
        ante=10, blind=False, max_buy_in_antes=30, autostart=0, turn_timeout=TURN,
        tie=TieRule.SVARA),
        starting_chips=STARTING_CHIPS, seed_source=lambda: seed_box[0], clock=lambda: NOW[0],
        alarms=alarms)
    live = await g.open_table(CHAT, None, ANA)
    for p in (ANA, BORIS, CYRIL):
        await g.join(live, p)
    # Ana and Boris tie; Cyril folds and may then buy into their svara.
    seed, _ = find_seed(live.table, lambda h: h.points(0) == h.points(1))
    seed_box.append(seed)
    await g.start(live, ANA, is_admin=False)
    hand = live.hand
    assert hand is not None
    by_seat = {0: ANA, 1: BORIS, 2: CYRIL}
    for _ in range(12):  # Cyril folds, the other two bet and call until the tie shows
        if hand.phase is Phase.SVARA_JOIN:
            break
        legal = hand.legal()
        assert legal is not None
        if legal.seat == 2:
            act = Action(Act.FOLD, 0)
        elif legal.call is not None:
            act = Action(Act.CALL, 0)
        else:
            assert legal.raise_to is not None
            act = Action(Act.RAISE, 0, legal.raise_to[0])
        await g.press(live, by_seat[legal.seat], act, hand_id=live.hand_id,
                      seq=len(hand.actions))
    assert live.wait is not None and live.wait.kind is WaitKind.SVARA
    deadline = live.wait.deadline
    NOW[0] += 10
    await g.join(live, dora)  # a newcomer sits down during the window
    assert live.wait.deadline == deadline and alarms.at(live.id) == deadline
