"""The record: /history, /hand and its fairness proof, /balance's statement, /top and
/stats, drawn from the plain rows the store reads."""

from __future__ import annotations

from collections.abc import Sequence

from bot.achievements import BADGES, BY_CODE
from bot.dates import date_text, day_text
from bot.i18n import N_, Html, Translator, escape
from bot.names import group_title
from bot.proof import hand_fields, round_fields, seat_positions
from bot.proof import joined as proof_joined
from bot.proof import link as proof_link
from bot.records import Entry, PlayedHand, PlayerStats, Standing, Statement
from bot.render.table import _said, action_words
from bot.render.views import cards_text, short_name
from bot.texts import movement_text
from engine import Act, Action, Hand, parse_hand
from engine.events import Event, PotWon, Shown, SvaraOpened


def winners_line(tr: Translator, names: dict[int, str], played: PlayedHand) -> Html:
    hand = played.hand
    pots = [e for e in hand.events if isinstance(e, PotWon)]
    pot = sum(e.amount for e in pots)
    main = max(pots, key=lambda e: e.amount)
    who = Html(", ".join(escape(short_name(names.get(hand.seats[w].player, "?")))
                         for w in main.winners))
    if main.points is None:
        line = tr.format("#{id} · {who} takes {pot}", id=played.row.number, who=who, pot=pot)
    else:
        line = tr.format("#{id} · {who} wins {pot} with {points}", id=played.row.number,
                         who=who, pot=pot, points=tr.points(main.points))
    if any(isinstance(e, SvaraOpened) for e in hand.events):
        line = Html(line + " · " + tr.pgettext("history", "svara"))
    return line


ACTS: dict[Act, str] = {
    Act.BLIND: N_("{name} bets {amount} blind"),
    Act.NO_BLIND: N_("{name}: no blind"),
    Act.FOLD: N_("{name} folds"),
    Act.CALL: N_("{name} calls"),
    Act.RAISE: N_("{name} raises to {amount}"),
    Act.ALL_IN: N_("{name} goes all-in"),
    Act.JOIN_SVARA: N_("{name} joins the svara"),
    Act.SKIP_SVARA: N_("{name} skips the svara"),
    Act.CLOSE_SVARA: N_("the svara closes"),
    Act.TIMEOUT: N_("{name} runs out of time"),
    Act.LEAVE: N_("{name} leaves"),
}


def action_line(tr: Translator, names: dict[int, str], played: PlayedHand,
                 action: Action, events: tuple[Event, ...]) -> Html:
    """One action of /hand in the words the table message used for it ("Ana bets 20",
    "Boris: no blind (time)"); an action without a player's move, in its own words."""
    hand = played.hand
    words = [action_words(tr, escape(short_name(
                 names.get(hand.seats[getattr(e, "seat", 0)].player, "?"))), e)
             for e in _said(events, hand.events)]
    said = [w for w in words if w is not None]
    if said:
        return Html(" · ".join(said))
    name = "" if action.seat is None else short_name(
        names.get(hand.seats[action.seat].player, "?"))
    return tr.format(ACTS[action.act], name=name, amount=action.amount or 0)


def hand_text(tr: Translator, names: dict[int, str], played: PlayedHand) -> str:
    """/hand N: the players, every action, the showdown, the pots and how to check."""
    hand, row = played.hand, played.row

    def name(seat: int) -> Html:
        return escape(short_name(names.get(hand.seats[seat].player, "?")))

    lines: list[str] = [
        tr.format("📜 Hand {n} · {date}", n=row.number, date=date_text(row.started_at)),
        tr.format("Dealer {name}; stacks at the start: {stacks}", name=name(hand.dealer),
                  stacks=Html(", ".join(f"{name(i)} {s['stack']}" for i, s in
                                        enumerate(hand.start_json()["seats"])))),
        "",
    ]
    again = Hand.from_start(hand.start_json())  # each action with the events it made
    for n, action in enumerate(hand.actions, start=1):
        lines.append(f"{n}. " + action_line(tr, names, played, action, again.apply(action)))
    shown = [e for e in hand.events if isinstance(e, Shown)]
    if shown:
        lines.append("")
    for show in shown:
        lines.append(tr.format("{name}: {cards} ({points})", name=name(show.seat),
                               cards=cards_text(show.cards), points=show.points))
    lines.append("")
    for won in (e for e in hand.events if isinstance(e, PotWon)):
        who = Html(", ".join(name(w) for w in won.winners))
        if len(won.winners) > 1:
            lines.append(tr.format("🏆 {names} split {pot}", names=who, pot=won.amount))
        elif won.points is None:
            lines.append(tr.format("🏆 {names} takes {pot}", names=who, pot=won.amount))
        else:
            lines.append(tr.format("🏆 {names} wins {pot} with {points}", names=who,
                                   pot=won.amount, points=tr.points(won.points)))
    lines += ["", tr.gettext(
        "🔐 <b>Fair dealing</b> (next messages, one per round): before each round the bot "
        "showed the seal of its deck. Every card's place in the deck has a seal of its own, "
        "so only the shown cards are opened; folded cards stay hidden.")]
    return "\n".join(lines)


def short_hash(value: str) -> str:
    """The first 8 hex digits of a long hash, enough for a player to compare by eye (the
    full value is in the folded proof and on the card message)."""
    return value[:8] + "…"


def _proof_block(tr: Translator, fields: list[tuple[str, str]]) -> str:
    """The proof's fields for the checking page, folded away (a tap opens them)."""
    return ("<blockquote expandable>" + tr.gettext("For the checking page:") + "\n<code>"
            + escape(proof_joined(fields)) + "</code></blockquote>")


def proof_texts(tr: Translator, names: dict[int, str], played: PlayedHand,
                verify_url: str | None = None) -> list[str]:
    """After /hand N: where the hand's cards came from, then one message per round (its
    deck's seal, who held which places, the shown cards). Each message folds its part of
    the proof away whole, so the checking page takes the messages' text as well as the link;
    what a player reads is in plain words, hashes only in a short form."""
    hand, proof = played.hand, played.proof

    def name(seat: int) -> Html:
        return escape(short_name(names.get(hand.seats[seat].player, "?")))

    out: list[str] = []
    lines: list[str] = [tr.format("🔐 Hand {n}: where its cards came from",
                                  n=played.row.number)]
    if proof is not None:
        lines += [tr.format("Table seal, shown before its first hand: <code>{short}</code>",
                            short=short_hash(proof.table_commitment)),
                  tr.format("Deal {k} at this table.", k=proof.nonce)]
        if proof.missing:
            lines.append(tr.format(
                "⚠️ This table has no record of its deals {numbers}: a deal that was not "
                "kept, or the bot's data brought back from an older copy.",
                numbers=", ".join(map(str, proof.missing))))
        lines.append(tr.gettext("Each player's seed, fixed at the first deal at this table:"))
        for i, h in enumerate(proof.seeds):
            default = proof.defaults[i] if i < len(proof.defaults) else None
            if default is None:
                lines.append(tr.format("{name}: own seed <code>{short}</code>", name=name(i),
                                       short=short_hash(h)))
            else:
                lines.append(tr.format("{name}: no own seed, one follows from the table "
                                       "secret", name=name(i)))
        if proof.secret is not None:
            lines.append(tr.gettext("The table secret is out: every card of every deal can "
                                    "be checked."))
        elif proof.closed:
            lines.append(tr.gettext("This table keeps its secret (chosen when it opened): folded "
                                    "cards stay private for good and the deals cannot be "
                                    "recomputed; the shown cards still check."))
        else:
            lines.append(tr.gettext("The table secret comes out when the table closes: then "
                                    "every card of every deal can be checked."))
    parts = round_fields(played)
    if proof is not None:
        lines.append(_proof_block(tr, hand_fields(played, names)))
        out.append("\n".join(lines))
    elif parts:
        # No inputs to show (a hand dealt from a fixed seed): the version and the names
        # travel with the first round.
        first = min(parts)
        parts[first] = hand_fields(played, names) + parts[first]
    for r in played.row.reveal or []:
        round_no = int(r["round"])
        held = seat_positions(played, round_no)
        lines = [tr.format("🔐 Hand {n}, round {round}", n=played.row.number, round=round_no),
                 tr.format("Deck seal: <code>{short}</code>, the same as on your card message",
                           short=short_hash(r["commitment"]))]
        if held:
            lines.append(tr.format("Places in the deck: {seats}", seats=Html(" · ".join(
                f"{name(seat)} {' '.join(map(str, positions))}"
                for seat, positions in held.items()))))
        if r["open"]:
            lines.append(tr.format("Cards shown: {cards}", cards=", ".join(
                f"{p} {cards_text(parse_hand(c))}" for p, c, _ in r["open"])))
        else:
            lines.append(tr.gettext("Nothing was shown in this round: no card is opened."))
        lines.append(_proof_block(tr, parts.get(round_no, [])))
        out.append("\n".join(lines))
    if verify_url and out:
        url = escape(proof_link(verify_url, played, names))
        words = escape(tr.gettext("Check this hand in your browser"))
        out[-1] += "\n\n" + tr.format(
            "✅ {link}: the page checks it on your phone or computer; you may also paste these "
            "messages into it.", link=Html(f'<a href="{url}">{words}</a>'))
    return out


def place_text(tr: Translator, title: str | None) -> Html:
    title = group_title(title)
    return escape(title) if title else Html(tr.gettext("a group"))


def entry_line(tr: Translator, e: Entry) -> Html:
    """One line of the statement: a stay at a table (its buy-in, top-ups, rebuys and
    cash-out, and its net as the table's results message gives it), or one movement."""
    if e.kind != "stay":
        return tr.format("{day} · {delta:+d} {what}", day=day_text(e.at), delta=e.delta,
                         what=movement_text(tr, e.kind))
    parts = [tr.format("buy-in {chips}", chips=e.brought)]
    if e.topped:
        parts.append(tr.format("top-ups {chips}", chips=e.topped))
    if e.rebuys:
        parts.append(tr.nformat("{count} rebuy ({chips})", "{count} rebuys ({chips})", e.rebuys,
                                count=e.rebuys, chips=e.rebought))
    if e.back or not e.playing:
        parts.append(tr.format("cash-out {chips}", chips=e.back))
    if e.playing:
        parts.append(tr.gettext("still playing"))
        return tr.format("{day} · {place}: {parts}", day=day_text(e.at),
                         place=place_text(tr, e.title), parts=Html(", ".join(parts)))
    return tr.format("{day} · {place}: {parts} · {net:+d}", day=day_text(e.at),
                     place=place_text(tr, e.title), parts=Html(", ".join(parts)), net=e.delta)


def standing_line(tr: Translator, s: Standing) -> Html:
    hands = tr.nformat("{count} hand", "{count} hands", s.played, count=s.played)
    return tr.format("{rank}. {name}: {net:+d} · {hands}, {won} won · biggest pot "
                     "{biggest}", rank=s.rank, name=short_name(s.name), net=s.net,
                     hands=hands, won=s.won, biggest=s.biggest)


def history_text(tr: Translator, names: dict[int, str], hands: list[PlayedHand]) -> str:
    """/history: the chat's last hands, one line each."""
    lines = [tr.gettext("<b>The last hands here</b> (details: /hand NUMBER)")]
    lines += [winners_line(tr, names, p) for p in hands]
    return "\n".join(lines)


def statement_text(tr: Translator, name: str, found: Statement) -> str:
    """/balance in private: where the chips are, and the recent movements."""
    at_tables = sum(t.stack for t in found.tables)
    lines: list[str] = [
        tr.format("🏦 <b>{name}</b>: {total}", name=name,
                  total=tr.chips(found.balance + at_tables)),
        tr.format("Balance: <b>{balance}</b>", balance=found.balance)]
    lines += [tr.format("At the table of {place}: {stack}", place=place_text(tr, t.title),
                        stack=t.stack) for t in found.tables]
    if found.entries:
        lines += ["", tr.gettext("<b>Recent movements</b>")]
        lines += [entry_line(tr, e) for e in found.entries]
    return "\n".join(lines)


def leaderboard_text(tr: Translator, board: list[Standing], mine: Standing | None, *,
                     everywhere: bool) -> str:
    """/top: the best nets, and the asker's own line when he is further down."""
    title = (tr.gettext("<b>Leaderboard, every chat</b>") if everywhere
             else tr.gettext("<b>Leaderboard of this chat</b>"))
    lines: list[str] = [title, *(standing_line(tr, s) for s in board)]
    if mine is not None and mine.rank > len(board):
        lines += ["…", standing_line(tr, mine)]
    elif mine is None:
        lines += ["", tr.gettext("You have not played a hand here yet.")]
    return "\n".join(lines)


def stats_text(tr: Translator, name: str, stats: PlayerStats,
               badges: Sequence[str] = ()) -> str:
    """/stats: a player's figures, then the badges he holds (codes, in the order he earned
    them), each with its rule (the chart follows as a picture)."""
    return "\n".join([
        tr.format("📊 <b>{name}</b>", name=name),
        tr.format("Hands played {played}, won {won} · net {net:+d}", played=stats.played,
                  won=stats.won, net=stats.net),
        tr.format("Biggest pot won: {pot}", pot=stats.biggest),
        tr.format("Svaras played {played}, won {won}", played=stats.svaras,
                  won=stats.svaras_won),
        tr.format("Best hand shown: {points}", points=stats.best
                  if stats.best is not None else "–"),
        tr.format("Longest winning streak: {n}", n=stats.streak),
        *badges_lines(tr, badges),
    ])


def badges_lines(tr: Translator, codes: Sequence[str]) -> list[str]:
    """The badges part of /stats: how many of all, then one line each with its rule."""
    held = [BY_CODE[c] for c in codes if c in BY_CODE]
    if not held:
        return []
    return [tr.format("🏅 Badges: {count} of {total}", count=len(held), total=len(BADGES)),
            *(tr.format("{emoji} <b>{badge}</b>: {rule}", emoji=b.emoji,
                        badge=tr.gettext(b.name), rule=tr.gettext(b.rule)) for b in held)]
