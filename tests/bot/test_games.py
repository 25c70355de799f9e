"""`Games` on its own: a real store on a temporary file, and an outbox that only writes down
what it was told (no Telegram, no stand-in)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot import errors
from bot.clock import Ring, WaitKind
from bot.games import Games
from bot.live import Live, Player
from bot.records import TableStatus
from bot.render.views import PrivateHand, SeatView
from bot.store import Store
from bot.table_settings import TableSettings
from engine import Act, Action
from tests.bot.conftest import NOW
from tests.store.conftest import dump

CHAT = -100
SEED = bytes(range(32))
SETTINGS = TableSettings(ante=10, blind=False, max_buy_in_antes=30, autostart=0)
"""Antes of 10, no blind, a buy-in of at most 300."""
STARTING_CHIPS = 1000

ANA = Player(1, "Ana")
BORIS = Player(2, "Boris")


@dataclass(frozen=True)
class Screen:
    """What a table looked like when the outbox was told to show it."""

    status: TableStatus
    seats: tuple[SeatView, ...]
    hand_id: int
    in_hand: bool
    note: str | None


@dataclass
class FakeOutbox:
    """Writes down every call, in order."""

    calls: list[tuple[str, object]] = field(default_factory=list)

    def show(self, live: Live) -> None:
        view = live.view(0.0)
        self.calls.append(("show", Screen(view.status, view.seats, view.hand_id,
                                          view.hand is not None, view.note)))

    def send_cards(self, live: Live, hands: list[tuple[PrivateHand, str | None]], *,
                   hand_id: int, rounds: int) -> None:
        self.calls.append(("cards", (sorted(h.player for h, _ in hands), hand_id, rounds)))

    def remind(self, live: Live, player: int, language: str | None, left: int) -> None:
        self.calls.append(("remind", (player, left)))

    def moved(self, live: Live) -> None:
        self.calls.append(("moved", live.chat_id))

    def evicted(self, live: Live, players: list[tuple[int, str | None]]) -> None:
        self.calls.append(("evicted", [p for p, _ in players]))

    def resume(self, live: Live, *, message_id: int | None, shown: str | None) -> None:
        self.calls.append(("resume", (live.id, message_id, shown)))

    def results_again(self, live: Live) -> None:
        self.calls.append(("results again", live.id))

    def screens(self) -> list[Screen]:
        return [s for kind, s in self.calls if kind == "show" and isinstance(s, Screen)]

    def told(self, kind: str) -> list[object]:
        return [value for k, value in self.calls if k == kind]


@dataclass
class FakeAlarms:
    """Alarms that ring only when a test says so."""

    set_: list[tuple[str, float]] = field(default_factory=list)
    rings: dict[str, tuple[float, Ring]] = field(default_factory=dict)

    def set(self, name: str, at: float, ring: Ring) -> None:
        self.set_.append((name, at))
        self.rings[name] = (at, ring)

    def cancel(self, name: str) -> None:
        self.rings.pop(name, None)

    def at(self, table_id: int) -> float | None:
        held = self.rings.get(f"table-{table_id}")
        return None if held is None else held[0]

    async def ring(self, table_id: int) -> None:
        _, ring = self.rings.pop(f"table-{table_id}")
        await ring()


def games_of(store: Store, outbox: FakeOutbox, alarms: FakeAlarms | None = None) -> Games:
    return Games(store, outbox, defaults=SETTINGS, starting_chips=STARTING_CHIPS,
                 seed_source=lambda: SEED, clock=lambda: NOW[0], alarms=alarms)


def kind_of(live: Live) -> WaitKind | None:
    return None if live.wait is None else live.wait.kind


async def with_private_chat(store: Store, *players: Player) -> None:
    for p in players:
        await store.users.ensure(p.id, p.name, starting_chips=STARTING_CHIPS)
        await store.users.set_private_chat(p.id, True)


async def seated(store: Store, outbox: FakeOutbox) -> tuple[Games, Live]:
    """A lobby with Ana and Boris at it."""
    await with_private_chat(store, ANA, BORIS)
    games = games_of(store, outbox)
    live = await games.open_table(CHAT, None, ANA)
    await games.join(live, ANA)
    await games.join(live, BORIS)
    return games, live


async def test_opening_shows_an_empty_lobby_that_closes_if_nobody_starts_it(
        store: Store) -> None:
    outbox = FakeOutbox()
    live = await games_of(store, outbox).open_table(CHAT, None, ANA)
    assert outbox.calls == [("show", Screen(TableStatus.LOBBY, (), 0, False, None))]
    assert live.wait is not None and live.wait.kind is WaitKind.IDLE
    assert (await store.tables.get(live.id)).status is TableStatus.LOBBY


async def test_joining_seats_the_player_with_his_buy_in(store: Store) -> None:
    outbox = FakeOutbox()
    await seated(store, outbox)
    last = outbox.screens()[-1]
    assert last.seats == (SeatView(1, "Ana", 300), SeatView(2, "Boris", 300))
    assert [await store.users.balance(p.id) for p in (ANA, BORIS)] == [700, 700]


async def test_a_lobby_writes_each_new_wait_with_the_table_and_the_seat_that_made_it(
        store: Store) -> None:
    await with_private_chat(store, ANA, BORIS)
    games = games_of(store, FakeOutbox())
    commits = store.db.commits
    live = await games.open_table(CHAT, None, ANA)
    stored = (await store.tables.get(live.id)).wait
    assert live.wait is not None and stored == live.wait.to_json()
    for player in (ANA, BORIS):
        before = live.wait
        await games.join(live, player)
        assert live.wait != before  # one more seated: the idle clock starts again
        assert (await store.tables.get(live.id)).wait == live.wait.to_json()
    # The table (with its wait and secret) and each seat (with the wait): one write each.
    assert store.db.commits - commits == 3, store.db.writes


async def test_a_refused_join_tells_the_outbox_nothing(store: Store) -> None:
    outbox = FakeOutbox()
    await store.users.ensure(ANA.id, ANA.name, starting_chips=STARTING_CHIPS)
    games = games_of(store, outbox)
    live = await games.open_table(CHAT, None, ANA)
    told = list(outbox.calls)
    with pytest.raises(errors.NeedPrivateChat):
        await games.join(live, BORIS)  # no private chat for his cards yet
    assert outbox.calls == told
    assert live.table.seats == []


async def test_a_hand_is_dealt_played_and_settled(store: Store) -> None:
    outbox = FakeOutbox()
    games, live = await seated(store, outbox)
    before = len(outbox.calls)
    await games.start(live, ANA, is_admin=False)
    hand = live.hand
    assert hand is not None and hand.to_act is not None
    dealt = outbox.calls[before:]
    assert dealt == [
        ("show", Screen(TableStatus.PLAYING, (SeatView(1, "Ana", 300), SeatView(2, "Boris", 300)),
                        live.hand_id, True, None)),
        ("cards", ([1, 2], live.hand_id, 1)),
    ]
    assert live.wait is not None and live.wait.kind is WaitKind.TURN

    folder = hand.seats[hand.to_act].player
    who = ANA if folder == ANA.id else BORIS
    await games.press(live, who, Action(Act.FOLD, 0), hand_id=live.hand_id, seq=0)

    # Each paid the ante of 10; the one left in takes the pot of 20.
    stacks = {folder: 290, ({1, 2} - {folder}).pop(): 310}
    last = outbox.screens()[-1]
    assert last.status is TableStatus.PLAYING and not last.in_hand
    assert {s.player: s.stack for s in last.seats} == stacks
    assert kind_of(live) is WaitKind.NEXT
    assert {s.user_id: s.stack for s in await store.tables.seats(live.id)} == stacks
    assert (await store.hands.get(live.hand_id)).status == "settled"


async def test_a_press_out_of_turn_changes_nothing(store: Store, tmp_path: Path) -> None:
    outbox = FakeOutbox()
    games, live = await seated(store, outbox)
    await games.start(live, ANA, is_admin=False)
    hand = live.hand
    assert hand is not None and hand.to_act is not None
    waiting = BORIS if hand.seats[hand.to_act].player == ANA.id else ANA
    told, rows = list(outbox.calls), dump(tmp_path / "games.sqlite3")
    with pytest.raises(errors.NotYourTurn):
        await games.press(live, waiting, Action(Act.FOLD, 0), hand_id=live.hand_id, seq=0)
    assert outbox.calls == told
    assert dump(tmp_path / "games.sqlite3") == rows
    assert hand.actions == [] and live.hand is hand


async def test_a_restart_gives_the_outbox_what_the_chat_showed(store: Store) -> None:
    _, live = await seated(store, FakeOutbox())
    await store.tables.set_message(live.id, 77)
    await store.tables.set_shown(live.id, "digest")
    outbox = FakeOutbox()
    await games_of(store, outbox).resume_all()
    # Told before the table is shown again, so an unchanged table is not edited.
    assert [k for k, _ in outbox.calls][:2] == ["resume", "show"]
    assert outbox.told("resume") == [(live.id, 77, "digest")]
    assert outbox.screens()[-1].seats == (SeatView(1, "Ana", 300), SeatView(2, "Boris", 300))
