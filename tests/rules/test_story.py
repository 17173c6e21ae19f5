"""What a game's story reads in its scores: the lead and its changes, the hand that decided it, the closest moment, a
comeback (``companion.rules.story``), as tables of cases and properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.rules import story
from companion.rules.story import Moment


def moments(*rows, periods=None):
    """One moment per row of scores, entry numbers from 1; each its own period unless ``periods`` says."""
    periods = periods or list(range(1, len(rows) + 1))
    return [Moment(seq, period, tuple(row)) for seq, (period, row) in enumerate(zip(periods, rows), start=1)]


def test_a_tie_leads_nobody_and_one_place_alone_leads():
    assert story.leader((0, 0, 0)) is None
    assert story.leader((5, 3, 5)) is None
    assert story.leader((5, 3, 4)) == 0
    assert story.leader((5, 3, 4), lowest_wins=True) == 1


# (scores after each entry, lowest wins, the entries at which the lead changed hands)
LEADS = [
    # Ana leads from the first entry to the end: the first lead taken is no change.
    ([(3, 0), (5, 2), (9, 4)], False, []),
    # Ana, then Ben, then Ana again.
    ([(3, 0), (3, 5), (10, 5)], False, [2, 3]),
    # A tie between two leads by the same player changes nothing; one between two players' is one change.
    ([(3, 0), (3, 3), (6, 3), (6, 6), (6, 9)], False, [5]),
    # Hearts: the lowest total leads.
    ([(3, 10), (16, 15), (16, 15)], True, [2]),
    # Nothing scored yet is no lead.
    ([(0, 0, 0), (0, 0, 0)], False, []),
]


def test_the_lead_changes_hands_only_when_another_place_alone_leads():
    for rows, lowest, changed in LEADS:
        assert [m.seq for m in story.lead_changes(moments(*rows), lowest)] == changed, rows


def test_the_lead_taken_for_good_is_the_first_moment_the_winner_leads_alone_to_the_end():
    found = moments((3, 0), (3, 5), (10, 5), (10, 10), (12, 10), (20, 10))
    assert story.took_for_good(found, 0).seq == 5
    assert story.took_for_good(found, 1) is None
    # A tie at the very end: nobody kept the lead.
    assert story.took_for_good(moments((3, 0), (3, 3)), 0) is None


def test_the_decider_is_the_hand_that_moved_the_final_gap_most_the_winners_way():
    # Two entries a hand; the gap (Ana − Ben) after each hand: 5, −5, 15, 20: hand 3 swung it by 20.
    found = moments((5, 0), (5, 0), (5, 10), (5, 10), (25, 10), (25, 10), (30, 10), (30, 10),
                    periods=[1, 1, 2, 2, 3, 3, 4, 4])
    decided = story.decider(found, 0, 1)
    assert (decided.moment.seq, decided.moment.period, decided.by) == (6, 3, 20)
    # One hand decides nothing worth saying.
    assert story.decider(moments((5, 0), (9, 0), periods=[1, 1]), 0, 1) is None


def test_the_closest_moment_is_the_smallest_gap_at_the_top_before_the_last_hand():
    found = moments((0, 0), (10, 4), (20, 18), (30, 30), (50, 31))
    closest = story.closest(found)
    assert (closest.moment.seq, closest.by) == (4, 0)
    # Before anything is scored the table is level, but no closer for it.
    assert story.closest(moments((0, 0), (10, 4), (50, 31))).moment.seq == 2


def test_a_comeback_is_the_deepest_the_winner_stood_behind_before_the_last_hand():
    found = moments((0, 40), (20, 45), (60, 50), (90, 50))
    back = story.comeback(found, 0)
    assert (back.moment.seq, back.by, back.ahead) == (1, 40, 1)
    assert story.comeback(moments((10, 0), (20, 5)), 0) is None


scores = st.lists(st.lists(st.integers(-5, 5), min_size=3, max_size=3), min_size=1, max_size=30)


def running(steps):
    totals, rows = [0, 0, 0], []
    for step in steps:
        totals = [a + b for a, b in zip(totals, step)]
        rows.append(tuple(totals))
    return rows


@given(scores, st.booleans())
def test_the_lead_changes_as_often_as_the_sole_leader_is_another_one(steps, lowest):
    rows = running(steps)
    leaders = []
    for row in rows:
        best = (min if lowest else max)(row)
        if row.count(best) == 1:
            leaders.append(row.index(best))
    expected = sum(1 for before, after in zip(leaders, leaders[1:]) if before != after)
    assert len(story.lead_changes(moments(*rows), lowest)) == expected


@given(scores)
def test_the_lead_taken_for_good_holds_alone_to_the_end_and_not_just_before(steps):
    found = moments(*running(steps))
    for place in range(3):
        taken = story.took_for_good(found, place)
        if taken is None:
            assert story.leader(found[-1].scores) != place
            continue
        at = found.index(taken)
        assert all(story.leader(m.scores) == place for m in found[at:])
        assert at == 0 or story.leader(found[at - 1].scores) != place


@given(scores)
def test_the_decider_swung_the_gap_the_most_of_any_hand(steps):
    rows = running(steps)
    found = moments(*rows)
    winner, runner_up = story.order(rows[-1])[:2]
    gaps = [0] + [row[winner] - row[runner_up] for row in rows]
    swings = [after - before for before, after in zip(gaps, gaps[1:])]
    decided = story.decider(found, winner, runner_up)
    if len(rows) < 2 or max(swings) <= 0:
        assert decided is None
    else:
        assert decided.by == max(swings)
