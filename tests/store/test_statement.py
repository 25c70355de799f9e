"""The private /balance statement tells each stay at a table as the table's results
message and the ledger do: over random evenings of hands, rebuys, gifts, top-ups, seats
left and tables closed, every stay's line shows the buy-in, top-ups, rebuys and cash-out
the ledger holds, its net is the results message's, and a closed table is never "still
playing"."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import Translations
from bot.render.history import statement_text
from bot.render.messages import results_text
from bot.render.views import Results
from bot.sandbox.text import parse_html
from bot.store import Store, Table
from bot.store.errors import StoreError
from bot.store.statement import statement
from engine import Hand, SeatIn
from tests.store.conftest import RULES, Clock, play_out

ANTE = RULES.ante
START = 40
REBUY = 60
ALLOWANCE = 10_000
TR = Translations.load().get(None)
OPS = ("hand",) * 5 + ("topup",) * 2 + ("rebuy",) * 3 + ("gift", "house", "leave", "join",
                                                          "close")
DAY = r"\d{4}-\d{2}-\d{2}"
LINE = re.compile(rf"{DAY} · (?P<place>Table \d+): (?P<parts>.*?)(?: · (?P<net>[+-]\d+))?")


@dataclass
class Evening:
    """What the test did, to find the tables and people again."""

    store: Store
    rng: random.Random
    people: list[int]
    table: Table | None = None
    tables: list[int] = field(default_factory=list)
    titles: dict[int, str] = field(default_factory=dict)
    dealer: int = 0

    async def new_table(self) -> None:
        number = len(self.tables) + 1
        chat = -1000 - number
        table = await self.store.tables.open(chat, creator=self.people[0],
                                             rules=RULES.to_json())
        await self.store.history.set_title(chat, f"Table {number}")
        self.table, self.titles[table.id] = table, f"Table {number}"
        self.tables.append(table.id)
        for user in self.people:
            await self.join(user)

    async def join(self, user: int) -> None:
        assert self.table is not None
        balance = await self.store.users.balance(user)
        if balance >= ANTE:  # all he has (up to 100 antes), or some of it
            most = min(balance, 100 * ANTE)
            bring = most if self.rng.random() < 0.8 else self.rng.randint(ANTE, most)
            await self.store.tables.join(self.table.id, user, bring, min_buy_in=ANTE)

    async def seats(self) -> dict[int, int]:
        assert self.table is not None
        return {s.user_id: s.stack for s in await self.store.tables.seats(self.table.id)}

    async def hand(self) -> None:
        assert self.table is not None
        seats = await self.store.tables.seats(self.table.id)
        if sum(1 for s in seats if s.stack >= ANTE) < 2:
            return
        self.dealer += 1
        hand = Hand.start(RULES, [SeatIn(s.user_id, s.stack, s.stack < ANTE, 0)
                                  for s in seats], self.dealer % len(seats),
                          self.rng.randbytes(16))
        hand_id = await self.store.hands.open(self.table.id, hand)
        if hand.is_over:
            await self.store.hands.settle(hand_id, hand)
        await play_out(self.store, hand_id, hand, self.rng)

    async def step(self, op: str) -> None:
        store, rng = self.store, self.rng
        seats = await self.seats()
        someone = rng.choice(self.people)
        other = rng.choice([p for p in self.people if p != someone])
        balance = await store.users.balance(someone)
        assert self.table is not None
        if op == "hand":
            await self.hand()
        elif op == "topup" and someone in seats and balance:
            await store.tables.top_up(self.table.id, someone, rng.randint(1, balance))
        elif op == "rebuy" and seats:
            broke = [u for u, stack in seats.items() if stack < ANTE] or list(seats)
            # Mostly one who is broke; refused when he is not, or his rebuys are taken.
            with contextlib.suppress(StoreError):
                await store.gifts.rebuy(self.table.id, rng.choice(broke), REBUY, most=3,
                                        below=ANTE)
        elif op == "gift" and balance:
            await store.gifts.give(someone, other, rng.randint(1, balance))
        elif op == "house":
            await store.gifts.give_from_house(-1, other, someone, rng.randint(1, 50),
                                              allowance=ALLOWANCE)
        elif op == "leave" and someone in seats:
            await store.tables.leave(self.table.id, someone)
        elif op == "join" and someone not in seats:
            await self.join(someone)
        elif op == "close":
            await store.tables.close(self.table.id)
            await self.new_table()


async def ledger_sum(store: Store, user: int, table: int, kinds: str, account: str) -> int:
    row = await store.db.fetchone(
        f"SELECT ifnull(sum(delta), 0) FROM ledger WHERE user_id = ? AND table_id = ?"
        f" AND account = ? AND kind {kinds}", (user, table, account))
    assert row is not None
    return int(row[0])


async def results_nets(store: Store, table: int, names: dict[int, str]) -> dict[str, str]:
    """The results message of a closed table, as name -> what follows it."""
    nets = await store.users.session(table)
    results = Results(1, tuple((r.user_id, r.net) for r in nets), None,
                      tuple((r.user_id, r.rebuys) for r in nets if r.rebuys))
    lines = parse_html(results_text(TR, names, results)).text.splitlines()[2:]
    return dict(line.split(": ", 1) for line in lines)


def parts_of(text: str) -> dict[str, int]:
    """``buy-in 100, top-ups 5, 2 rebuys (120), cash-out 0`` as a mapping."""
    out: dict[str, int] = {}
    for part in text.split(", "):
        if part == "still playing":
            out["playing"] = 1
        elif found := re.fullmatch(r"(\d+) rebuys? \((\d+)\)", part):
            out["rebuys"], out["rebought"] = int(found[1]), int(found[2])
        else:
            word, number = part.rsplit(" ", 1)
            out[word] = int(number)
    return out


async def evening(ops: list[str], seed: int, folder: Path) -> None:
    store = await Store.open(folder / "svara.sqlite3", clock=Clock())
    try:
        people = [1, 2, 3]
        names = {u: f"P{u}" for u in people}
        for user in people:
            await store.users.ensure(user, names[user], starting_chips=START)
        night = Evening(store, random.Random(seed), people)
        await night.new_table()
        for op in ops:
            await night.step(op)
        closed = set(night.tables[:-1])
        seated = await night.seats()
        assert (await store.audit()).ok
        for user in people:
            found = await statement(store.db, user, entries=1000)
            text = parse_html(statement_text(TR, names[user], found)).text
            lines = text.splitlines()
            assert lines[1] == f"Balance: {found.balance}"
            movements = lines[lines.index("Recent movements") + 1:] if found.entries else []
            assert len(movements) == len(found.entries)
            told: set[int] = set()
            for line in movements:
                stay = LINE.fullmatch(line)
                if stay is None:
                    assert "Table" not in line, line
                    continue
                table = next(t for t, title in night.titles.items()
                             if title == stay["place"])
                assert table not in told, f"two lines for one stay: {text}"
                told.add(table)
                parts = parts_of(stay["parts"])
                stack = (await store.db.fetchone(
                    "SELECT ifnull(sum(delta), 0) FROM ledger WHERE user_id = ? AND"
                    " table_id = ? AND account = 'stack'", (user, table)) or (0,))[0]
                assert parts["buy-in"] == -await ledger_sum(
                    store, user, table, "= 'buy_in'", "balance"), line
                assert parts.get("top-ups", 0) == -await ledger_sum(
                    store, user, table, "= 'top_up'", "balance"), line
                rebought = await ledger_sum(store, user, table, "= 'rebuy'", "stack")
                assert parts.get("rebought", 0) == rebought, line
                back = await ledger_sum(store, user, table, "= 'cash_out'", "balance")
                if "playing" in parts:
                    assert table not in closed, f"a closed table still playing: {line}"
                    assert user in seated and table == night.tables[-1], line
                    assert stay["net"] is None and parts.get("cash-out", 0) == back, line
                    continue
                assert not (table == night.tables[-1] and user in seated), line
                assert parts["cash-out"] == back and stack == 0, line
                net = int(stay["net"])
                # The ledger: what he won and lost in the hands at that table.
                played = await ledger_sum(store, user, table,
                                          "NOT IN ('buy_in', 'top_up', 'rebuy', 'cash_out')",
                                          "stack")
                assert net == played == back - parts["buy-in"] - parts.get(
                    "top-ups", 0) - rebought, line
                if table in closed:
                    shown = (await results_nets(store, table, names))[names[user]]
                    assert shown.split()[0] == (f"{net:+d}" if net else "0"), (line, shown)
            stayed = {int(r[0]) for r in await store.db.fetchall(
                "SELECT DISTINCT table_id FROM ledger WHERE user_id = ? AND table_id IS NOT"
                " NULL AND kind IN ('buy_in', 'rebuy')", (user,))}
            assert told == stayed, text
    finally:
        await store.close()


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(OPS), min_size=15, max_size=60), st.integers(0, 2**32))
def test_the_statement_tells_each_stay_as_the_results_and_the_ledger(
        ops: list[str], seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(evening(ops, seed, Path(folder)))
