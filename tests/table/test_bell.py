"""The bell's timing logic: plans, durations, the hidden draw, and the automatic close through the entry log."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa

from companion.live import bell_panel
from companion.table import bell, bell_plan, log, recording
from companion.table.state import state_of
from companion.rules.words import duration_words
from companion.extensions import db
from companion.models import Entry, Table
from companion.rules import RuleError
from helpers import make_table


@pytest.mark.parametrize("seconds, words, face", [
    (0, "0 s", "0:00"), (7, "7 s", "0:07"), (60, "1 min", "1:00"), (125, "2 min 05 s", "2:05"),
    (600, "10 min", "10:00"), (-3, "0 s", "0:00"), (59.9, "59 s", "0:59"),
])
def test_durations_read_as_players_say_them(seconds, words, face):
    assert duration_words(seconds) == words
    assert bell_plan.clock_face(seconds) == face


@pytest.mark.parametrize("mode, minutes, low, high, plan", [
    ("hand", None, None, None, bell_plan.Plan()),
    ("fixed", 1, None, None, bell_plan.Plan("fixed", seconds=60)),
    ("fixed", 10, 1, 3, bell_plan.Plan("fixed", seconds=600)),
    ("hidden", 3, 1, 3, bell_plan.Plan("hidden", low=60, high=180)),
    ("hidden", None, 9, 10, bell_plan.Plan("hidden", low=540, high=600)),
])
def test_the_opening_form_chooses_a_plan(mode, minutes, low, high, plan):
    assert bell_plan.plan_from(mode, minutes, low, high) == plan


@pytest.mark.parametrize("mode, minutes, low, high, field, message", [
    ("fixed", 0, None, None, "minutes", "1 to 10"),
    ("fixed", 11, None, None, "minutes", "1 to 10"),
    ("fixed", None, None, None, "minutes", "1 to 10"),
    ("hidden", None, 0, 3, "low", "from 1 to 10"),
    ("hidden", None, 3, 3, "high", "after the earliest"),
    ("hidden", None, 5, 2, "high", "after the earliest"),
    ("loud", None, None, None, "mode", "by hand"),
])
def test_impossible_plans_are_refused_with_the_field_at_fault(mode, minutes, low, high, field, message):
    with pytest.raises(RuleError) as refused:
        bell_plan.plan_from(mode, minutes, low, high)
    assert refused.value.field == field and message in refused.value.message


def test_the_hidden_moment_is_drawn_inside_the_range_and_never_shown():
    plan = bell_plan.Plan("hidden", low=60, high=180)
    draws = {plan.delay() for _ in range(400)}
    assert min(draws) >= 60 and max(draws) <= 180 and len(draws) > 50
    assert plan.public() == {"mode": "hidden", "low": 60, "high": 180}
    assert "between 1 min and 3 min" in plan.words("market")


def test_fixed_and_hand_plans_are_what_they_say():
    assert bell_plan.Plan("fixed", seconds=120).delay() == 120
    assert bell_plan.Plan().delay() is None
    assert bell_plan.Plan.read(None) == bell_plan.Plan() == bell_plan.Plan.read({"mode": "nonsense"})
    assert bell_plan.Plan.read({"mode": "fixed", "seconds": 60}).words("timer") == "The timer closes by itself after 1 min."


def load(token: str) -> Table:
    return db.session.scalar(sa.select(Table).where(Table.token == token))


def test_a_hidden_close_fires_once_at_its_moment(app, clock, monkeypatch):
    monkeypatch.setattr(bell_plan.secrets, "randbelow", lambda n: 37)
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"])
    with app.app_context():
        table = load(token)
        opened = bell.open_bell(table, bell_plan.Plan("hidden", low=60, high=180), key="k" * 32)
        due = bell.aware(opened.created_at) + timedelta(seconds=97)
        assert bell.aware(load(token).bell_due_at) == due
        assert "bell_due_at" not in str(opened.event) and opened.event == {"type": "market_opened"}
        clock.at(due - timedelta(milliseconds=1))
        assert bell.fire_if_due(load(token)) is False
        clock.at(due)
        stale = load(token)
        db.session.expunge(stale)
        assert bell.fire_if_due(load(token)) is True
        # A second request that read the row before the first one fired finds the close recorded.
        db.session.add(stale)
        bell.fire_if_due(stale)
        assert bell.fire_if_due(load(token)) is False
        closes = db.session.scalars(sa.select(Entry).where(Entry.type == "market_closed")).all()
        assert [entry.event for entry in closes] == [{"type": "market_closed", "seconds": 97}]
        table = load(token)
        assert table.bell_due_at is None and table.bell_plan is None
        state = state_of(table)
        assert (state.phase, state.turn) == ("sales", 0)


def test_an_undone_opening_takes_its_hidden_close_with_it(app, clock):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"])
    with app.app_context():
        opened = bell.open_bell(load(token), bell_plan.Plan("fixed", seconds=60))
        recording.void(load(token), opened.seq)
        clock.at(bell.aware(opened.created_at) + timedelta(minutes=5))
        assert bell.fire_if_due(load(token)) is False
        assert load(token).bell_due_at is None
        assert state_of(load(token)).phase == "opening"
        assert not db.session.scalars(sa.select(Entry).where(Entry.type == "market_closed")).all()


def test_a_re_sent_opening_never_draws_a_new_hidden_moment(app, monkeypatch):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"])
    draws = iter([10, 100])
    monkeypatch.setattr(bell_plan.secrets, "randbelow", lambda n: next(draws))
    with app.app_context():
        first = bell.open_bell(load(token), bell_plan.Plan("hidden", low=60, high=300), key="a" * 32)
        due = load(token).bell_due_at
        again = bell.open_bell(load(token), bell_plan.Plan("hidden", low=60, high=300), key="a" * 32)
        assert again.seq == first.seq and load(token).bell_due_at == due


def test_the_table_timer_is_a_table_entry_the_game_never_sees(app, clock, tiny):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    with app.app_context():
        started = bell.open_bell(load(token), bell_plan.Plan("fixed", seconds=120), player=1)
        assert started.type == "timer_started" and started.event["plan"] == {"mode": "fixed", "seconds": 120}
        assert started.summary == "Ben rang the bell: the table timer is running. The timer closes by itself after 2 min."
        with pytest.raises(RuleError, match="already running"):
            bell.open_bell(load(token), bell_plan.Plan())
        clock.at(bell.aware(started.created_at) + timedelta(seconds=120))
        assert bell.fire_if_due(load(token)) is True
        stopped = db.session.scalars(sa.select(Entry).where(Entry.type == "timer_stopped")).one()
        # How it ended is in the entry, so an imported log writes the same sentence.
        assert stopped.event == {"type": "timer_stopped", "seconds": 120, "ending": "fixed"}
        assert stopped.summary == "Ding-a-Ding! The table timer stopped after 2 min: time is up."
        with pytest.raises(RuleError, match="not running"):
            bell.close_bell(load(token))
        # Never folded through the game, never offered for undo.
        assert state_of(load(token)).points == (0, 0)
        assert log.last_live_entry(load(token)) is None
        with pytest.raises(RuleError, match="no such entry"):
            recording.void(load(token), started.seq)


def test_the_bell_view_counts_from_the_ring_and_knows_the_fixed_deadline(app, clock):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"])
    with app.app_context():
        opened = bell.open_bell(load(token), bell_plan.Plan("fixed", seconds=180))
        ring = bell.aware(opened.created_at) + bell.LEAD
        clock.at(ring + timedelta(seconds=75))
        table = load(token)
        view = bell_panel.view_of(table, state_of(table))
        assert view.is_open and view.ring_id == opened.seq and view.ring_at_ms == bell.epoch_ms(ring)
        assert view.open_since_ms == bell.epoch_ms(ring) and view.open_clock == "1:15"
        assert view.deadline_ms == bell.epoch_ms(ring + timedelta(seconds=180))
        assert view.warning_ms == view.deadline_ms - 10_000
        assert view.server_now_ms == bell.epoch_ms(ring + timedelta(seconds=75))
