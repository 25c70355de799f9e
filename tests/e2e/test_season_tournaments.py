"""A season through the stand-in with two tournaments played to their end and a hand of
real play: /season's standings are the published formula's sums (10, 6 and 3 for a
tournament's 1st, 2nd and 3rd place, nothing for its hands; 1 for a hand won at a real
table), and a tie on points goes by hands won, then by who reached his points first."""

from __future__ import annotations

from bot.sandbox.models import ChatRecord
from bot.sandbox.players import Player
from tests.e2e.bed import Bed
from tests.e2e.test_history import reply, steady_clock
from tests.e2e.test_season import plain, play, this_month
from tests.e2e.test_tournament import plan, play_out


async def tournament(bed: Bed, group: ChatRecord, players: list[Player], *, first: Player,
                     second: Player, third: Player) -> None:
    """A tournament of the three to its end in two hands: buy-in 100, a stack of 200, ante
    10. In the first `first` and `third` go all-in and `third` is out; in the second
    `first` and `second` go all-in and `first` wins it."""
    opener = players[0]
    await opener.send(group, "/tournament 100 200 50")
    table = await bed.table_message(group)
    for p in players:
        answer = await (await p.press(table, "Join")).answer()
        assert not answer.show_alert, answer.text
    await bed.idle()
    await plan(bed, group, first, third)
    await bed.press(opener, group, "Start")
    await play_out(bed, group, players, all_in=(first, third))
    await plan(bed, group, first, second)
    await bed.ring(group)
    await play_out(bed, group, players, all_in=(first, second))
    await bed.idle()


async def test_a_seasons_standings_after_two_tournaments_are_the_formula_by_hand(
        bed: Bed) -> None:
    first_day, last_day, _ = this_month()
    ana, boris, vera = players = bed.players("Ana", "Boris", "Vera")
    group = bed.group(*players)
    steady_clock(bed)
    for p in players:
        await p.start_bot()
        await bed.idle()

    await tournament(bed, group, players, first=vera, second=boris, third=ana)
    await tournament(bed, group, players, first=ana, second=boris, third=vera)
    rows = await bed.store.db.fetchall(
        "SELECT t.status, p.place, p.user_id FROM tournament_places p"
        " JOIN tournaments t ON t.table_id = p.table_id ORDER BY p.table_id, p.place")
    assert [tuple(r) for r in rows] == [
        ("finished", 1, vera.id), ("finished", 2, boris.id), ("finished", 3, ana.id),
        ("finished", 1, ana.id), ("finished", 2, boris.id), ("finished", 3, vera.id)]
    # Then a hand of real play: Boris beats Ana at the showdown, Vera folds.
    await bed.open_table(group, ana, boris, vera)
    await play(bed, group, players, plain, winner=boris, folder=vera, first=True)

    answer = await reply(bed, vera, group, "/season")
    lines = answer[0].splitlines()
    assert lines[0] == f"🏆 This season: {first_day} – {last_day}"
    # Boris: 2nd (6) + 2nd (6) + 1 hand won (1) = 13
    # Vera: 1st (10) + 3rd (3) + no hand won (0; her tournament hands score nothing) = 13
    # Ana: 3rd (3) + 1st (10) + no hand won (0) = 13
    # All three on 13: Boris has won a hand, the others none; Vera reached 13 with the
    # second tournament's first hand (she was out 3rd), Ana only with its last one, so
    # Vera ranks above Ana though Ana's user id is the lower.
    assert ana.id < vera.id
    assert lines[3:6] == [
        "1. Boris: 13 points · 1 won",
        "2. Vera: 13 points · 0 won",
        "3. Ana: 13 points · 0 won",
    ]
