"""Fair dealing, checked only from what the players received.

The bot deals as in production (the table secret, the nonce and the players' seeds). A
hand with a svara, a buy-in and a restart in the middle is played; afterwards every
commitment is taken from the table message as the group saw it before the round's first
decision, every opening from the card messages, the rest from /hand N and from the closed
table, and all of it is checked with the Python function printed in docs/FAIRNESS.md.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import pytest

from bot.sandbox.models import ChatRecord, MessageRecord
from bot.sandbox.players import Player
from engine import Phase, hand_key, seed_hash
from engine.table import Table
from tests.e2e.bed import Bed
from tests.e2e.seeds import best, points_of, replica
from tests.e2e.test_history import reply, steady_clock

DOCS = Path(__file__).resolve().parents[2] / "docs" / "FAIRNESS.md"
VERIFY = "https://example.org/verify.html"
HEX64 = r"[0-9a-f]{64}"
SEED_SET = ("Your seed is now {seed} ({short} in /hand). It counts at every table where you "
            "have not been dealt a hand yet; where you have, your seed stays until the table "
            "closes. Best: set it after a table opens, before its first deal.")
OPENING = re.compile(r"(\d+)\|(\w\w)\|([0-9a-f]{32})")


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def docs_checker() -> dict[str, Any]:
    """The Python check printed in docs/FAIRNESS.md, run as a reader would copy it."""
    text = DOCS.read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S)
    assert code is not None, "docs/FAIRNESS.md lost its Python check"
    space: dict[str, Any] = {}
    exec(compile(code[1], str(DOCS), "exec"), space)
    return space


def versions(message: MessageRecord) -> list[str]:
    return [t for t in [*message.history, message.text] if t]


def one(pattern: str, text: str) -> str:
    found = re.search(pattern, text)
    assert found is not None, (pattern, text)
    return found[1]


def hand_link(messages: list[MessageRecord]) -> str:
    for message in messages:
        for entity in message.entities:
            if entity.get("type") == "text_link" and str(entity["url"]).startswith(VERIFY):
                return str(entity["url"])
    raise AssertionError("no link to the verifier in /hand N")


def ascii_card(card: str) -> str:
    """"10♦" as the proof writes it: "Td"."""
    suit = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}[card[-1]]
    return card[:-1].replace("10", "T") + suit


def fields(link: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in link.partition("#")[2].split("&"))


async def act(bed: Bed, group: ChatRecord, by_id: dict[int, Player], round_no: int) -> None:
    """Whoever's turn it is: no blind, Vera folds in the first round, the others call, or
    bet the first amount offered."""
    live = bed.live(group)
    hand = live.hand
    assert hand is not None and hand.to_act is not None
    player = by_id[hand.seats[hand.to_act].player]
    table = await bed.table_message(group)
    labels = [label for row in table.buttons for label in row]
    if "No blind" in labels:
        choice = "No blind"
    elif player.name == "Vera" and round_no == 1:
        choice = "Fold"
    else:
        choice = next((x for x in labels if x.startswith("Call")), None) or bed.button(
            table, "Bet")
    assert await bed.press(player, group, choice) is None


def svara_story(table: Table, secret: str, seeds: dict[int, str]) -> bool:
    """Hand 1 of `table` with these seeds: Ana and Boris tie once Vera folds, and the
    svara, Vera bought in, has one winner."""
    key = hand_key(secret, 1, [seed_hash(seeds[s.player]) for s in table.seats])
    hand = Table.from_json(table.to_json()).deal(key)
    two = [i for i, s in enumerate(hand.seats) if s.player != VERA[0]]
    first = points_of(hand, 1)
    if first[two[0]] != first[two[1]]:
        return False
    return best(points_of(hand, 2, range(len(hand.seats)))) is not None


VERA: list[int] = []


@dataclass
class Played:
    """What the players of the story received."""

    players: list[Player]
    seeds: dict[int, str]
    table_commitment: str
    """From the lobby's first screen, before anything was decided."""
    screens: list[str]
    """Every version of every table message."""
    secret: str
    """From the closed table."""
    link: str
    """From /hand 1."""
    answer: list[str]
    """The text of /hand 1's messages."""
    seen: dict[str, str]
    """Each player's card messages, as he saw them (their text, one after the other)."""


async def play_story(bed: Bed) -> Played:
    """A hand of three with a svara Vera buys into and a restart in the svara, then
    /endgame and /hand 1."""
    bed.derive = True
    bed.overrides["verify_url"] = VERIFY
    await bed.restart()
    ana, boris, vera = players = bed.players("Ana", "Boris", "Vera")
    by_id = {p.id: p for p in players}
    VERA[:] = [vera.id]
    group = bed.group(*players)
    steady_clock(bed)
    lobby = await bed.open_table(group, ana, boris, vera)
    table_commitment = one(rf"🔐 Table: ({HEX64})", versions(lobby)[0])

    # A seed of Boris's own that makes the first hand a svara (found with the secret,
    # which only the test may read, to tell the story; the check below never uses it).
    row = await bed.store.db.fetchone("SELECT secret FROM table_secrets")
    assert row is not None
    seeds = {ana.id: "ana's own", vera.id: "vera's own"}
    live_table = replica(bed.live(group))
    for n in range(5000):
        seeds[boris.id] = f"boris {n}"
        if svara_story(live_table, str(row[0]), seeds):
            break
    else:
        raise AssertionError("no seed tells the story")
    for p in players:
        assert await reply(bed, p, p.dm, f"/seed {seeds[p.id]}") == [SEED_SET.format(
            seed=seeds[p.id], short=sha(seeds[p.id])[:8] + "…")]

    assert await bed.press(ana, group, "Start") is None
    await act(bed, group, by_id, 1)  # no blind: the cards go out
    while (hand := bed.live(group).hand) is not None and hand.phase is not Phase.SVARA_JOIN:
        await act(bed, group, by_id, 1)
    await bed.idle()
    # The svara opened, Vera may buy in: the table shows the svara's deck already.
    joining = await bed.table_message(group)
    assert "Tie between" in (joining.text or "")
    assert await bed.press(vera, group, bed.button(joining, "Join svara")) is None
    await bed.idle()
    # The bot stops in the middle of the svara and comes back.
    await bed.restart()
    steady_clock(bed)
    while bed.live(group).hand is not None:
        await act(bed, group, by_id, 2)
    await bed.idle()
    await ana.send(group, "/endgame")
    await bed.idle()
    assert bed.games.at(group.id, None) is None
    every = [t for m in group.bot_messages() for t in versions(m) if t.startswith("🃏 Svara")]
    secret = one(rf"🔓 Table secret: ({HEX64})", lobby.text or "")

    before = len(bed.seen(group, boris))
    await boris.send(group, "/hand 1")
    await bed.idle()
    answer = bed.seen(group, boris)[before:]
    seen = {p.name: "\n\n".join(m.text or "" for m in p.inbox if "Points:" in (m.text or ""))
            for p in players}
    return Played(players, seeds, table_commitment, every, secret, hand_link(answer),
                  [m.text or "" for m in answer[1:]], seen)


async def test_a_hand_checks_from_what_the_players_received(bed: Bed) -> None:
    check = docs_checker()
    played = await play_story(bed)
    players, seeds, every, secret = played.players, played.seeds, played.screens, played.secret
    table_commitment, link = played.table_commitment, played.link
    f = fields(link)
    assert check["check"](link.partition("#")[2]) is True

    # Everything the link says, against what was published before it was needed.
    assert sha(secret) == table_commitment == f["t"] and f["s"] == secret
    assert f["p"].split(".") == [sha(seeds[p.id]) for p in players]
    names = [unquote(n) for n in f["a"].split(",")]
    commitments = {r: f[f"c{r}"] for r in (1, 2)}
    assert "c3" not in f
    # Round 1: every screen of hand 1 that could ask for a decision shows its commitment.
    titles = [(t.splitlines()[0], t) for t in every]
    round1 = [t for title, t in titles if title == "🃏 Svara · hand 1" and "Tie between" not in t]
    assert round1 and all(f"🔐 Deck: {commitments[1]}" in t for t in round1), round1
    # The svara's commitment, from the first screen offering to buy in to its end.
    window = [t for title, t in titles if "Tie between" in t or title.endswith("· svara")]
    assert window and all(f"🔐 Deck: {commitments[2]}" in t for t in window), window
    # Card messages: the commitment, and each own card at its position and hash.
    key = hashlib.sha256(
        f"svara-hand|{secret}|{f['k']}|{f['p'].replace('.', ',')}".encode()).digest()
    dealt = 0
    for player in players:
        seat = names.index(player.name)
        for message in player.inbox:
            text = message.text or ""
            if "Points:" not in text:
                continue
            r = 2 if "svara" in text.splitlines()[0] else 1
            deck = check["deck"](key, r)
            raw = f[f"h{r}"]
            hashes = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)).hex()
            assert f"🔐 Deck: {commitments[r]}" in text.splitlines()
            # The seats' seeds, on record in every card message before the hand is played.
            assert " ".join(f["p"].split(".")) in text.splitlines(), text
            order = [int(s) for s in f[f"d{r}"].split(".")]
            held = [k + 1 for k in range(3 * len(order)) if order[k % len(order)] == seat]
            own = [OPENING.fullmatch(line) for line in text.splitlines()]
            opened = [(int(m[1]), m[2], m[3]) for m in own if m]
            assert [q for q, _, _ in opened] == held, (player.name, r)
            shown = one(r"Hand 1: (.+)", text).split()
            assert [ascii_card(c) for c in shown] == [c for _, c, _ in opened], (shown, opened)
            for q, card, salt in opened:
                assert deck[q - 1] == card
                assert sha(f"{q}|{card}|{salt}") == hashes[64 * (q - 1):64 * q]
            dealt += 1
    assert dealt >= 6  # three card messages in the first round, three in the svara


def tamper(fragment: str) -> tuple[str, int]:
    """The proof with the first opened card of the deal changed; and its position."""
    f = dict(part.split("=", 1) for part in fragment.split("&"))
    first, _, rest = f["o1"].partition(".")
    position, card, salt = first.split("-")
    other = "7c" if card != "7c" else "7d"
    f["o1"] = ".".join(x for x in (f"{position}-{other}-{salt}", rest) if x)
    return "&".join(f"{k}={v}" for k, v in f.items()), int(position)


async def test_the_docs_check_refuses_a_changed_card(bed: Bed) -> None:
    check = docs_checker()
    played = await play_story(bed)
    fragment = played.link.partition("#")[2]
    assert check["check"](fragment) is True
    assert check["check"](tamper(fragment)[0]) is False


async def test_every_proof_carries_its_version_and_an_unknown_one_is_refused(bed: Bed) -> None:
    check = docs_checker()["check"]
    played = await play_story(bed)
    fragment = played.link.partition("#")[2]
    assert fragment.startswith("v=2&") and played.answer[0].count("v=2&") == 1
    with pytest.raises(ValueError, match="version '3' of the scheme is unknown"):
        check(fragment.replace("v=2&", "v=3&", 1))
    with pytest.raises(ValueError, match="version None"):
        check(fragment.replace("v=2&", "", 1))


CHROMIUM = Path("/usr/bin/chromium")
DRIVER = Path("/usr/bin/chromedriver")
PAGE = DOCS.parent / "verify.html"
BROWSER = CHROMIUM.exists() and DRIVER.exists()


def without_secret(fragment: str) -> str:
    return "&".join(part for part in fragment.split("&") if not part.startswith("s="))


def swapped(fragment: str, first: int, second: int) -> str:
    """The proof with two places' seals of the deal swapped and its seal recomputed: what
    a forger can do to cards nobody opened."""
    f = dict(part.split("=", 1) for part in fragment.split("&"))
    raw = bytearray(base64.urlsafe_b64decode(f["h1"] + "=" * (-len(f["h1"]) % 4)))
    a, b = slice(32 * (first - 1), 32 * first), slice(32 * (second - 1), 32 * second)
    raw[a], raw[b] = raw[b], raw[a]
    f["h1"] = base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=")
    f["c1"] = sha(" ".join(bytes(raw[q:q + 32]).hex() for q in range(0, 1024, 32)))
    return "&".join(f"{k}={v}" for k, v in f.items())


async def test_the_verifier_page_takes_the_reply_and_never_shows_green_for_a_partial_check(
        bed: Bed) -> None:
    """docs/verify.html in headless Chromium: a played hand verifies in full only with what
    its player saw; the reply text works as the link does; before the secret is out the
    page says what it cannot check yet and never shows green; a changed card, a forged
    deck seal and an unknown version are refused."""
    pytest.importorskip("selenium", reason="selenium is not installed (the dev extra)")
    if not BROWSER:
        pytest.skip(f"no {CHROMIUM} and {DRIVER}: apt-get install chromium chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    played = await play_story(bed)
    fragment = played.link.partition("#")[2]
    tampered, position = tamper(fragment)
    boris = played.players[1]
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)

    def verdict(wanted: str) -> str:
        WebDriverWait(driver, 30).until(
            lambda d: d.find_element(By.ID, "verdict").get_attribute("data-ok") == wanted)
        return str(driver.find_element(By.ID, "verdict").text)

    def paste(proof: str, seen: str = "", seed: str = "") -> None:
        driver.get(PAGE.as_uri())
        for name, value in (("input", proof), ("seen", seen), ("seed", seed)):
            box = driver.find_element(By.ID, name)
            driver.execute_script("arguments[0].value = arguments[1];", box, value)
        driver.find_element(By.ID, "run").click()

    def notes() -> str:
        return str(driver.find_element(By.ID, "notes").text)

    try:
        # The link alone: every card checks, but nothing was compared with what was seen.
        driver.get(f"{PAGE.as_uri()}#{fragment}")
        assert verdict("partial").startswith("Checked so far")
        for round_no in (1, 2):
            rows = driver.find_elements(By.CSS_SELECTOR, f'table[data-round="{round_no}"] tr.ok')
            assert len(rows) == 32, round_no
        assert "✓" in driver.find_element(By.ID, "secret").text
        assert "was not compared with what you saw" in notes()

        # With Boris's card messages and seed: in full. The same from the reply's text.
        seen, seed = played.seen[boris.name], played.seeds[boris.id]
        paste(played.link, seen, seed)
        assert verdict("true").startswith("Verified: all")
        seat = driver.find_element(By.ID, "seat").text
        assert "Boris's seed" in seat
        # All three set seeds of their own, fixed at the same first deal.
        assert "possibly chosen knowing yours: Ana, Vera." in seat, seat
        assert "your card message listed" in driver.find_element(By.ID, "seeds").text
        paste("\n\n".join(played.answer), seen, seed)
        assert verdict("true").startswith("Verified: all")
        # The Mini App adds the seed it keeps to the link's fragment: the seat is found.
        driver.get("about:blank")
        driver.get(f"{PAGE.as_uri()}#{fragment}&my={quote(seed)}")
        assert verdict("partial").startswith("Checked so far")
        assert driver.find_element(By.ID, "seed").get_attribute("value") == seed
        assert "Boris's seed" in driver.find_element(By.ID, "seat").text

        # Before the secret is out: checked so far, with what is not, never green.
        paste(without_secret(fragment), seen, seed)
        assert verdict("partial").startswith("Checked so far")
        assert "the players' seeds, the deal number" in notes()
        # A seat's seed changed: the card messages listed the seeds before the hand.
        f = fields(played.link)
        forged = without_secret(fragment).replace(f["p"].split(".")[0], sha("forged"))
        paste(forged, seen, seed)
        assert verdict("false").startswith("Not verified")
        assert "not the ones your card message listed" in notes()
        # Two unopened places swapped, the seal recomputed: the card message's seal differs.
        shown = {int(o.split("-")[0]) for o in fields(played.link)["o1"].split(".")}
        own = {int(m[1]) for m in OPENING.finditer(seen)}
        free = [p for p in range(1, 33) if p not in shown | own]
        paste(swapped(without_secret(fragment), free[0], free[1]), seen, seed)
        assert verdict("false").startswith("Not verified")
        assert "you saw is in no round of this proof" in notes()

        driver.get(f"{PAGE.as_uri()}#{tampered}")
        assert verdict("false").startswith("Not verified")
        bad = driver.find_elements(By.CSS_SELECTOR, 'table[data-round="1"] tr.bad')
        assert [row.get_attribute("data-position") for row in bad] == [str(position)]
        assert len(driver.find_elements(By.CSS_SELECTOR, 'table[data-round="2"] tr.ok')) == 32

        driver.get(f"{PAGE.as_uri()}#{fragment.replace('v=2', 'v=3', 1)}")
        assert "version 3 of the dealing scheme, which this page does not know" in verdict(
            "false")
    finally:
        driver.quit()


async def test_seed_shows_sets_and_refuses_plainly(bed: Bed) -> None:
    ana = bed.players("Ana")[0]
    group = bed.group(ana)
    steady_clock(bed)
    await ana.start_bot()
    assert await reply(bed, ana, ana.dm, "/seed") == [
        "You have no seed of your own: at each table you get one that follows from its "
        "secret. Set your own with /seed TEXT."]
    for bad in ("/seed " + "x" * 65, "/seed tab\there"):
        assert await reply(bed, ana, group, bad) == [
            "Use /seed TEXT: 1 to 64 characters of your own, mixed into the deals at every "
            "table where you have not been dealt a hand yet."], bad
    assert await bed.store.fairness.seed(ana.id) is None  # nothing changed
    words = "<b>my</b> & words"
    said = await reply(bed, ana, group, f"/seed {words}")
    assert said == [SEED_SET.format(seed=words, short=sha(words)[:8] + "…")]
    assert await reply(bed, ana, ana.dm, "/seed") == [
        f"Your seed: {words} ({sha(words)[:8]}… in /hand).\nChange it with /seed TEXT."]
