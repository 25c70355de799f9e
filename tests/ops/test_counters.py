"""What an operator's alert rules read: every counter there from the start, refused saves
counted one by one but logged at most once a minute."""

from __future__ import annotations

import logging

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.metrics import OUTBOX_COUNTERS, Metrics
from bot.ops.refusals import Refusals
from bot.store import StorageFailure


def families(metrics: Metrics) -> dict[str, tuple[str, float]]:
    """Each family's type and its one unlabelled sample's value."""
    found = {}
    for family in text_string_to_metric_families(metrics.render().decode()):
        for sample in family.samples:
            if not sample.labels and not sample.name.endswith("_created"):
                found[sample.name] = (family.type, sample.value)
    return found


def test_the_outbox_and_refusal_counters_exist_at_zero_before_any_event() -> None:
    found = families(Metrics())
    for name in OUTBOX_COUNTERS:
        key = f"svara_outbox_{name.replace(' ', '_')}_total"
        assert found.get(key) == ("counter", 0.0), key
    assert found["svara_outbox_messages_lost_total"] == ("counter", 0.0)
    assert found["svara_saves_refused_total"] == ("counter", 0.0)
    assert found["svara_outbox_screens_waiting"] == ("gauge", 0.0)
    assert found["svara_hands_settled_total"] == ("counter", 0.0)


def test_the_figures_move_as_the_outbox_and_the_probe_say() -> None:
    metrics = Metrics()
    metrics.outbox = lambda: {"messages_lost": 2.0, "screens_waiting": 1.0}
    metrics.ready = lambda: False
    metrics.refused = lambda: 7
    found = families(metrics)
    assert found["svara_outbox_messages_lost_total"] == ("counter", 2.0)
    assert found["svara_outbox_screens_waiting"] == ("gauge", 1.0)
    assert found["svara_ready"] == ("gauge", 0.0)
    assert found["svara_saves_refused_total"] == ("counter", 7.0)
    metrics.ready = lambda: True
    assert families(metrics)["svara_ready"] == ("gauge", 1.0)


def test_a_full_disk_logs_one_line_a_minute_with_the_count(
        caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    refusals = Refusals(logging.getLogger("bot.games"), clock=lambda: now[0])
    error = StorageFailure("database or disk is full")
    with caplog.at_level(logging.WARNING, logger="bot.games"):
        for press in range(302):  # 302 refused presses in 80 s
            now[0] = press * 80 / 302
            refusals.saw(4, "fold", error)
    lines = [r.getMessage() for r in caplog.records]
    assert refusals.count == 302
    assert len(lines) == 2, lines
    assert lines[0] == "table 4: could not save fold, undone: database or disk is full"
    # Presses 1 to 226 fall within the minute after the first line; press 227 is at 60.1 s.
    assert lines[1] == ("table 4: could not save fold, undone: database or disk is "
                        "full (226 more refused in the last 60 s)")
