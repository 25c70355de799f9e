"""What a real-limits run measured, told from the stand-in's transcript and the bot's log,
its targets, and the lines the bench prints about it."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.bench.botprocess import BotLog
from bot.bench.common import peak_rss_mb, percentile
from bot.bench.losses import MESSAGE_METHODS, PIN_METHODS, Losses, count_losses
from bot.bench.real import (
    CALLBACK_TIMEOUT,
    RAMP_MAX,
    RAMP_PER_TABLE,
    SEATS,
    SLOW,
    THINK,
    Clock,
    Plan,
    RealTable,
)
from bot.bench.screens import SCREEN_METHODS, first_showing, sent_in, table_screens
from bot.callback_data import Button
from bot.sandbox.harness import Sandbox
from bot.sandbox.limits import FLOOD_METHODS
from bot.sandbox.transcript import Call

TARGET_ANSWER_MS, TARGET_LAG_S, TARGET_GROUP_CALLS, TARGET_429 = 250.0, 3.5, 19, 0
TARGET_LOST, TARGET_TRANSACTIONS = 0, 12.0

WINDOW = 60.0
"""Telegram's group limit counts messages over any minute."""

REMINDER = "Your turn at "
"""How the private reminder of a waiting turn begins (`render.nudge_text`; the bench's
people read English)."""


@dataclass
class RealResult:
    tables: int
    plan: Plan
    hands_each: int
    wall: float
    """Seconds from the first /newgame to the end of the drain, on the run's clock."""
    outcomes: Counter[str]
    hands_done: int
    hands_dealt: int
    """Hands the bot dealt, the last one of each table (played out by its timers) too."""
    presses: int
    cards_presses: int
    refused: list[str]
    answers: list[float]
    """Seconds from each press to its answer; never answered counts until the run's end."""
    late: int
    """Presses answered after Telegram's 15 s, or never."""
    lags: list[float]
    unshown: int
    group_max: int
    """The stand-in's count: most calls into one group in any sliding 60 s."""
    group_max_admin: int
    """The same over the groups where the bot is an admin (and pins)."""
    group_total: int
    group_calls: dict[int, int]
    """The stand-in's count of calls into each group against its limit."""
    flood: Counter[str]
    """429s by limit (group, global, private)."""
    flood_methods: Counter[str]
    """429s by method."""
    losses: Losses
    messages: Counter[str]
    """Messages and edits that reached the stand-in, by kind."""
    pins: Counter[str]
    """Successful pins and unpins, and the groups with pins."""
    reminders: int
    calls: int
    transcript: list[Call]
    """Every call the bot made, for checks after the run."""
    log: BotLog
    rss_mb: float
    bot_exit: int | None
    load: tuple[float, float, float]
    slowest: list[str] = field(default_factory=list)
    """The slowest screens, each with the group's calls around it."""

    @property
    def answer_p99_ms(self) -> float:
        return percentile(self.answers, 0.99) * 1000

    @property
    def lag_p99(self) -> float:
        return percentile(self.lags, 0.99)

    @property
    def too_many(self) -> int:
        return sum(self.flood.values())

    @property
    def hands(self) -> int:
        """Hands the bot dealt: its own count (`Hands.open`) when it logged one, else the
        hands the people saw."""
        return self.log.by_writer.get("Hands.open") or self.hands_dealt

    @property
    def per_hand(self) -> float:
        return sum(self.messages.values()) / max(1, self.hands)

    @property
    def transactions_per_hand(self) -> float | None:
        if self.log.transactions is None:
            return None
        return self.log.transactions / max(1, self.hands)

    def misses(self) -> list[str]:
        """The targets this run missed."""
        out = []
        if self.answer_p99_ms > TARGET_ANSWER_MS:
            out.append(f"answer p99 {self.answer_p99_ms:.0f} > {TARGET_ANSWER_MS:.0f} ms")
        if self.lag_p99 > TARGET_LAG_S:
            out.append(f"screen lag p99 {self.lag_p99:.1f} > {TARGET_LAG_S} s")
        if self.group_max > TARGET_GROUP_CALLS:
            out.append(f"group calls/min {self.group_max} > {TARGET_GROUP_CALLS}")
        if self.too_many > TARGET_429:
            out.append(f"{self.too_many} 429s")
        if self.losses.lost > TARGET_LOST:
            out.append(f"{self.losses.lost} messages lost")
        finished = self.outcomes["done"] + self.outcomes["closed early"]
        if finished < self.tables:
            out.append(f"{self.tables - finished} tables did not finish")
        return out

    def headline(self) -> str:
        return (f"real limits: tables {self.tables}, answer p99 {self.answer_p99_ms:.0f} ms, "
                f"screen lag p99 {self.lag_p99:.1f} s, group calls/min max {self.group_max}, "
                f"429s {self.too_many}, lost {self.losses.lost}, "
                f"messages/hand {self.per_hand:.1f}")


def _kind(call: Call, groups: set[int]) -> str:
    where = "group" if call.chat_id in groups else "private"
    what = "edits" if call.method.startswith("edit") else "messages"
    return f"{where} {what}"


def measure(tables: Sequence[RealTable], tg: Sandbox, clock: Clock, started: float,
            ended: float, hands: int, log: BotLog, bot_exit: int | None) -> RealResult:
    calls = tg.transcript.calls
    answer_calls: dict[str, Call] = {}
    for c in calls:
        if c.method == "answerCallbackQuery":
            answer_calls.setdefault(str(c.params.get("callback_query_id")), c)
    answers, lags, refused = [], [], []
    slow: list[tuple[float, RealTable, float, float]] = []
    late = unshown = cards = 0
    group_total = 0
    for table in tables:
        screens = table_screens(sent_in(calls, table.group.id))
        for p in table.pressed:
            query = p.query
            answer = answer_calls.get(query.id)
            # Told from what the bot sent: an answer given too late is still its answer.
            at = ended if answer is None else answer.at
            answers.append(at - query.created)
            if answer is None or at - query.created > CALLBACK_TIMEOUT:
                late += 1
            if p.press is not None and p.press.button is Button.CARDS:
                cards += 1
                continue  # the cards come as an alert: no refusal
            if answer is not None and (str(answer.params.get("show_alert")).lower() == "true"
                                       or answer.params.get("url")):
                said = answer.params.get("text") or answer.params.get("url")
                refused.append(f"table {table.number}: {query.data} by "
                               f"{query.user.first_name}: {said}")
                continue
            if not p.turn or p.press is None:
                continue
            shown = first_showing(query.created, (p.press.hand, p.press.seq), screens)
            if shown is None:
                unshown += 1
                shown = ended
            lags.append(shown - query.created)
            slow.append((shown - query.created, table, query.created, shown))
        group_total += sum(1 for c in calls
                           if c.chat_id == table.group.id and c.method in SCREEN_METHODS)
    flood = tg.flood
    groups = {t.group.id for t in tables}
    delivered = [c for c in calls if c.ok and c.result is not None]
    messages = Counter(_kind(c, groups) for c in delivered if c.method in MESSAGE_METHODS)
    pins = Counter(c.method for c in delivered if c.method in PIN_METHODS)
    pins["groups"] = len({c.chat_id for c in delivered if c.method == "pinChatMessage"})
    reminders = sum(1 for c in delivered if c.method == "sendMessage"
                    and c.chat_id not in groups
                    and str(c.params.get("text", "")).startswith(REMINDER))
    return RealResult(
        tables=len(tables), plan=tables[0].plan if tables else Plan(), hands_each=hands,
        wall=ended - started,
        outcomes=Counter(t.outcome for t in tables),
        hands_done=sum(t.hands_done for t in tables),
        hands_dealt=sum(len(t.hand_ids) for t in tables),
        presses=sum(len(t.pressed) for t in tables), cards_presses=cards, refused=refused,
        answers=answers, late=late, lags=lags, unshown=unshown,
        group_max=max((flood.group_peak.get(g, 0) for g in groups), default=0),
        group_max_admin=max((flood.group_peak.get(t.group.id, 0) for t in tables
                             if t.group.bot_status == "administrator"), default=0),
        group_total=group_total, group_calls={g: flood.group_calls[g] for g in groups},
        flood=flood.refused_by_rule(),
        flood_methods=flood.refused_by_method(), losses=count_losses(calls),
        messages=messages, pins=pins, reminders=reminders,
        calls=sum(1 for c in calls if c.method != "getUpdates"), transcript=calls, log=log,
        rss_mb=peak_rss_mb(), bot_exit=bot_exit, load=os.getloadavg(),
        slowest=[_around(lag, table, pressed, shown, calls)
                 for lag, table, pressed, shown in sorted(
                     slow, key=lambda x: x[0], reverse=True)[:SLOWEST]],
    )


SLOWEST = 3
"""The slowest screens the report shows, each with what went into its group meanwhile."""


def _around(lag: float, table: RealTable, pressed: float, shown: float,
            calls: Sequence[Call]) -> str:
    """One slow screen: the group's calls from a few seconds before the press to the
    screen, in seconds from the press (what took the group's slots)."""
    near = ", ".join(f"{c.method} {c.at - pressed:+.1f}" for c in calls
                     if c.chat_id == table.group.id and c.method.lower() in FLOOD_METHODS
                     and pressed - 4.0 <= c.at <= shown)
    return f"{lag:.1f} s at table {table.number}: {near}"


# ----------------------------------------------------------------------------- report


def describe_real(r: RealResult) -> list[str]:
    ms = [x * 1000 for x in r.answers]
    plan = r.plan
    clock = "real clock" if plan.scale == 1 else \
        f"clock x{plan.scale:g} (figures in simulated time)"
    where = "bot in this process" if plan.in_process else "bot in its own process"
    outcomes = ", ".join(f"{n} {what}" for what, n in r.outcomes.most_common())
    flood = ", ".join(f"{rule} {n}" for rule, n in r.flood.most_common()) or "none"
    methods = ", ".join(f"{m} {n}" for m, n in r.flood_methods.most_common()) or "none"
    kinds = ", ".join(f"{k} {n / max(1, r.hands):.1f}"
                      for k, n in sorted(r.messages.items()))
    tph = r.transactions_per_hand
    transactions = ("not logged" if tph is None else
                    f"{tph:.1f} per hand ({r.log.transactions} in all: {r.log.writers})")
    lost = r.losses
    load = " ".join(f"{x:.2f}" for x in r.load)
    lines = [
        f"== real limits, {r.tables} table{'s' if r.tables != 1 else ''} x {r.hands_each} "
        f"hands, {clock}, {where}"
        f"{', overall limit lifted' if plan.lift_global else ''}: {r.wall:.1f} s "
        f"({r.wall / plan.scale:.1f} s real); tables: {outcomes}; {r.hands_done} hands "
        f"played out by the people, {r.hands_dealt} seen dealt, {r.hands} dealt by the bot",
        f"  answer       p50 {percentile(ms, 0.5):7.0f} ms  p90 {percentile(ms, 0.9):7.0f} ms  "
        f"p99 {percentile(ms, 0.99):7.0f} ms  max {max(ms, default=0):7.0f} ms  "
        f"({r.presses} presses, {r.cards_presses} of them My cards; {r.late} answered after "
        f"{CALLBACK_TIMEOUT:.0f} s or never)",
        f"  screen lag   p50 {percentile(r.lags, 0.5):7.1f} s   "
        f"p90 {percentile(r.lags, 0.9):7.1f} s   p99 {r.lag_p99:7.1f} s   "
        f"max {max(r.lags, default=0):7.1f} s   ({len(r.lags)} accepted turn presses; "
        f"{r.unshown} never shown)",
        f"  group calls  max {r.group_max} in any {WINDOW:.0f} s window of one group "
        f"(messages, edits, pins, unpins, 429s included; {r.group_max_admin} where the bot "
        f"is an admin and pins); {r.group_total} sendMessage + "
        f"editMessageText into groups, {r.calls} API calls in all",
        f"  pins         {r.pins['pinChatMessage']} pins, {r.pins['unpinChatMessage']} unpins "
        f"in {r.pins['groups']} groups",
        f"  429s         {r.too_many} (by limit: {flood}; by method: {methods})",
        f"  lost         {lost.lost} messages never delivered; {lost.retried} delivered by a "
        f"retry, {lost.superseded} edits superseded; the bot logged 'lost' "
        f"{r.log.lost_lines} times",
        f"  messages     {r.per_hand:.1f} per hand the bot dealt, lobby and closing "
        f"included ({kinds}; reminders {r.reminders / max(1, r.hands):.1f})",
        f"  transactions {transactions}",
        f"  refused presses {len(r.refused)}, exceptions {r.log.errors}, warnings "
        f"{r.log.counts['WARNING']}, bench peak RSS {r.rss_mb:.0f} MB"
        f"{'' if plan.in_process else f', bot exit code {r.bot_exit}'}",
        f"  machine      load average {load} (1, 5, 15 min) on {os.cpu_count()} cores, "
        "shared with whatever else runs",
        *(f"  slowest      {line}" for line in r.slowest),
    ]
    for sample in [*r.refused[:3], *r.log.samples]:
        lines.append(f"    ! {sample}")
    return lines


_CARDS = {
    "private": "in the private chat (My cards shows them in the group, to the presser alone)",
    "group": "into the group for each player's eyes only (the bot an admin of every group), "
             "the private message without a sound",
    "both": "into the group for each player's eyes only (the bot an admin of every group) "
            "and in the private chat",
}


def preamble(plan: Plan) -> list[str]:
    where = ("the real Application in this process" if plan.in_process else
             "`python -m bot` in its own process (SVARA_API_BASE_URL at the stand-in)")
    return [
        f"svara-bot under Telegram's limits: {where}, with its production rate limiter, "
        "against the stand-in answering 429 as Telegram does"
        f"{' (its overall limit lifted)' if plan.lift_global else ''},",
        f"  {'on the real clock' if plan.scale == 1 else f'on a clock {plan.scale:g} times faster'}"
        f"; production timers; {SEATS[0]}-{SEATS[1]} players a table, the bot an admin "
        "(pinning) in every other group;",
        f"  cards dealt {_CARDS[plan.cards]};",
        f"  players think {THINK[0]}-{THINK[1]} s once they see their turn, "
        f"{plan.slow_share:.0%} of turns {SLOW[0]:.0f}-{SLOW[1]:.0f} s, and press a random "
        f"legal button; {plan.cards_share:.0%} of them press My cards after a deal;",
        f"  tables open {RAMP_PER_TABLE:g} s apart (over {RAMP_MAX:.0f} s at most); a run "
        f"ends when every table has played its hands or after {plan.cap:.0f} s.",
        "  answer = press to answerCallbackQuery; screen lag = accepted turn press to the "
        "first table message stored with a later turn (or hand);",
        "  group calls/min = the stand-in's most calls into one group in any sliding 60 s; "
        "429s = every 429 the stand-in answered; lost = messages cut off (429, no answer) "
        "and never delivered after.",
        f"targets: answer p99 <= {TARGET_ANSWER_MS:.0f} ms, screen lag p99 <= "
        f"{TARGET_LAG_S} s, group calls/min <= {TARGET_GROUP_CALLS}, 429s = {TARGET_429}, "
        f"lost = {TARGET_LOST}; transactions/hand <= {TARGET_TRANSACTIONS:g} (not a "
        "verdict of a run).",
    ]
