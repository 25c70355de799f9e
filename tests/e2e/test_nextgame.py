"""/nextgame: a private word when the next table of a group opens, once; /nextgame off."""

from __future__ import annotations

from bot.sandbox.players import Player
from tests.e2e.bed import Bed
from tests.e2e.test_history import reply, steady_clock

OPENED = "🃏 A table has opened in Svara night. Join it there."


def told(player: Player) -> int:
    return sum(1 for m in player.inbox if m.text == OPENED)


async def test_the_next_table_is_told_privately_once(bed: Bed) -> None:
    ana, boris, cyril = bed.players("Ana", "Boris", "Cyril")
    group = bed.group(ana, boris, cyril)
    steady_clock(bed)
    await boris.start_bot()
    await cyril.start_bot()
    assert await reply(bed, boris, group, "/nextgame") == [
        "Boris: I will tell you privately when the next table opens here (once). "
        "/nextgame off to cancel."]
    assert await reply(bed, cyril, group, "/nextgame") != []
    assert await reply(bed, cyril, group, "/nextgame off") == [
        "Fine: no word from me about the next table here."]
    assert await reply(bed, ana, group, "/nextgame") == [
        "Open a private chat with me first (press Start there), so I can write to you; then "
        "send /nextgame again."]
    assert await reply(bed, ana, group, "/nextgame soon") == ["Use /nextgame, or /nextgame off."]
    assert await reply(bed, boris, boris.dm, "/nextgame") == ["/nextgame works in a group."]

    await ana.send(group, "/newgame")
    await bed.idle()
    assert told(boris) == 1 and told(cyril) == 0
    assert await reply(bed, ana, group, "/endgame") == [
        "The table was closed; every chip went back."]
    await ana.send(group, "/newgame")
    await bed.idle()
    assert told(boris) == 1  # once
    # A /newgame refused (a table is open) tells nobody either.
    assert await reply(bed, boris, group, "/nextgame") != []
    await cyril.send(group, "/newgame")
    await bed.idle()
    assert told(boris) == 1
