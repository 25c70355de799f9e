"""No seed, salt or card in any log: hands are played with every logger at DEBUG, then
every log line is searched for the table secret, each hand's key, every player's seed,
every salt of every round, and the cards of every seat that did not show them.

The second test takes the statement filter off aiosqlite's logger: the hand's key is then
in the log (the ``INSERT INTO hands`` statement carries it), which proves the first test
looks in the right place and that the filter is what keeps it out.
"""

from __future__ import annotations

import io
import json

from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from bot.store.db import hide_statements, show_statements
from engine import Action, Hand, Phase, format_hand
from engine.deck import default_seed, position_salt
from engine.events import Dealt, Fold, RoundStarted
from tests.e2e.bed import Bed


async def finish(bed: Bed, group: ChatRecord, by_id: dict[int, Player]) -> None:
    """Play the hand out: no blind, Vera folds, the others call or bet; a svara closes."""
    while (hand := bed.live(group).hand) is not None:
        if hand.phase is Phase.SVARA_JOIN:
            await bed.ring(group)
            continue
        assert hand.to_act is not None
        player = by_id[hand.seats[hand.to_act].player]
        table = await bed.table_message(group)
        labels = [label for row in table.buttons for label in row]
        if "No blind" in labels:
            choice = "No blind"
        elif player.name == "Vera":
            choice = "Fold"
        else:
            choice = next((x for x in labels if x.startswith("Call")), None) or bed.button(
                table, "Bet")
        assert await bed.press(player, group, choice) is None


async def deal_as_in_production(bed: Bed) -> None:
    bed.derive = True
    await bed.restart()


async def play_two_hands(bed: Bed) -> None:
    ana, boris, vera = players = bed.players("Ana", "Boris", "Vera")
    group = bed.group(*players)
    await bed.open_table(group, ana, boris, vera)
    await vera.send(vera.dm, "/seed vera's very own seed")
    assert await bed.press(ana, group, "Start") is None
    await finish(bed, group, {p.id: p for p in players})
    await bed.ring(group)  # the next hand
    await finish(bed, group, {p.id: p for p in players})
    await bed.idle()


async def secrets_of_the_hands(bed: Bed) -> tuple[list[str], list[str]]:
    """(every secret: the table's, each hand's key, each seed, each salt; the cards of
    every seat that folded, as its card message and the proof would write them)."""
    found: list[str] = []
    folded_cards: list[str] = []
    found += [str(r[0]) for r in await bed.store.db.fetchall("SELECT secret FROM table_secrets")]
    found += [str(r[0]) for r in await bed.store.db.fetchall("SELECT seed FROM player_seeds")]
    # A seat with no seed of his own plays one that follows from the table's secret.
    found += [default_seed(str(r[0]), int(r[1])) for r in await bed.store.db.fetchall(
        "SELECT t.secret, s.user_id FROM table_seeds s JOIN table_secrets t"
        " ON t.table_id = s.table_id WHERE s.own = 0")]
    for row in await bed.store.db.fetchall("SELECT id, start FROM hands"):
        start = json.loads(row["start"])
        found.append(start["seed"])
        hand = Hand.replay(start, await bed.store.hands.actions(int(row["id"])))
        key = bytes.fromhex(start["seed"])
        for r in range(1, len(hand.commitments) + 1):
            found += [position_salt(key, r, p) for p in range(1, 33)]
        round_no, out = 0, set()
        for e in hand.events:
            if isinstance(e, RoundStarted):
                round_no = e.round_no
            elif isinstance(e, Fold):
                out.add((round_no, e.seat))
        replayed = Hand.from_start(start)
        for step in [None, *(a.to_json() for a in hand.actions)]:
            events = replayed.apply(Action.from_json(step)) if step else tuple(replayed.events)
            for e in events:
                if isinstance(e, Dealt) and any((e.round_no, s) in out for s in e.seats):
                    for s in e.seats:
                        if (e.round_no, s) in out:
                            cards = replayed.cards(s)
                            folded_cards += [format_hand(cards), format_hand(cards, ascii=True)]
    return found, folded_cards


async def test_debug_logs_hold_no_seed_salt_or_folded_card(
    bed: Bed, debug_log: io.StringIO
) -> None:
    await deal_as_in_production(bed)
    await play_two_hands(bed)
    log = debug_log.getvalue()
    assert "Calling Bot API endpoint" in log and "executing" in log  # DEBUG was on
    secrets, folded = await secrets_of_the_hands(bed)
    assert len(secrets) >= 1 + 3 + 2 + 2 * 32 and folded
    for secret in secrets:
        assert secret not in log, f"{secret!r} is in the log"
    for cards in folded:
        assert cards not in log, f"{cards!r} is in the log"


async def test_without_the_statement_filter_the_hand_key_is_in_the_log(
    bed: Bed, debug_log: io.StringIO
) -> None:
    await deal_as_in_production(bed)
    show_statements()
    try:
        await play_two_hands(bed)
    finally:
        hide_statements()
    log = debug_log.getvalue()
    rows = await bed.store.db.fetchall("SELECT start FROM hands")
    assert rows and all(json.loads(r[0])["seed"] in log for r in rows)
