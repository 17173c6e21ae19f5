"""A new entry is checked harder than one read back from the log: what ``complete`` refuses when a phone records
it, and what ``apply`` still reads in a session recorded before (so that every session replays)."""

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules import RuleError, sheet

THREE = ["Ana", "Ben", "Cleo"]
SKAT = {"name": "Skat"}
WONDERS = {"name": "7 Wonders", "mode": "categories", "rows": ["Military", "Science"], "tie_break": "Coins"}


def round_(number, *points):
    return {"type": "round", "round": number, "points": list(points)}


def cells(seat, *pairs):
    return {"type": "cells", "seat": seat, "cells": [list(pair) for pair in pairs]}


SLIPS = [
    (SKAT, round_(1, "--5", "0", "0"), "Two signs in a row, “--”: keep the one you mean.", "points-0", (5, 0, 0)),
    (SKAT, round_(1, "12", "+-5", "0"), "Two signs in a row, “+-”: keep the one you mean.", "points-1", (12, -5, 0)),
    (SKAT, round_(1, "1", "2", "10 - -3"), "Two signs in a row, “--”: keep the one you mean.", "points-2",
     (1, 2, 13)),
    (WONDERS, cells(0, (0, "4"), (1, "3+-1")), "Two signs in a row, “+-”: keep the one you mean.", "cells-1",
     (6, 0, 0)),
    (WONDERS, cells(2, (2, "--7")), "Two signs in a row, “--”: keep the one you mean.", "cells-2", (0, 0, 0)),
]


@pytest.mark.parametrize("options, event, said, field, totals", SLIPS)
def test_a_new_entry_with_two_signs_in_a_row_is_refused_beside_its_field(options, event, said, field, totals):
    state = sheet.new_game(THREE, options)
    kept = copy.deepcopy(state)
    with pytest.raises(RuleError) as refused:
        sheet.complete(state, event)
    assert (str(refused.value), refused.value.field) == (said, field)
    assert state == kept


@pytest.mark.parametrize("options, event, said, field, totals", SLIPS)
def test_the_same_entry_recorded_before_the_slip_was_refused_still_replays(options, event, said, field, totals):
    state = sheet.apply(sheet.new_game(THREE, options), event)
    assert sheet.totals(state) == totals
    assert said not in sheet.describe(sheet.new_game(THREE, options), event)


EMPTY = [
    (round_(1, "", "", ""), "Type each player's points, 0 included.", "points"),
    (round_(1, " ", "", "   "), "Type each player's points, 0 included.", "points"),
    (round_(1, "5", "", ""), "Type the points of Ben and Cleo too, 0 included.", "points-1"),
    (round_(1, "", "26", "0"), "Type the points of Ana too, 0 included.", "points-0"),
    (round_(1, "12+7-3", "-5", " "), "Type the points of Cleo too, 0 included.", "points-2"),
    # A slip in a box is said first, then the boxes left empty.
    (round_(1, "1/2", "", ""), "Only digits, brackets and the signs + − × (also typed - * x X): not “/”.", "points-0"),
]


@pytest.mark.parametrize("event, said, field", EMPTY)
def test_a_new_round_with_a_box_left_empty_is_refused(event, said, field):
    state = sheet.new_game(THREE, SKAT)
    with pytest.raises(RuleError) as refused:
        sheet.complete(state, event)
    assert (str(refused.value), refused.value.field) == (said, field)


@pytest.mark.parametrize("event, said, field", EMPTY[:5])
def test_a_round_recorded_with_boxes_left_empty_still_counts_them_0(event, said, field):
    state = sheet.apply(sheet.new_game(THREE, SKAT), event)
    assert sheet.rounds_played(state) == 1
    assert sheet.totals(state) == tuple(sheet.parse(text).value for text in event["points"])


def test_zeros_typed_are_a_round():
    state = sheet.new_game(THREE, {"name": "Hearts", "rounds": 2})
    event = round_(1, "0", "0", "0")
    state = sheet.apply(state, sheet.complete(state, event))
    assert sheet.rounds_played(state) == 1 and sheet.next_round(state) == 2
    assert sheet.describe(sheet.new_game(THREE, SKAT), event) == "Round 1: Ana 0, Ben 0, Cleo 0."


@pytest.mark.parametrize("options, event", [
    (SKAT, round_(1, "3x4", "2X5", "2*-3")),
    (SKAT, round_(1, "-(3+2)", "+7", "0")),
    (WONDERS, cells(1, (0, "3x3"), (2, ""))),
])
def test_a_new_entry_without_a_slip_is_completed_as_sent(options, event):
    state = sheet.new_game(THREE, options)
    assert sheet.complete(state, event) == event


@pytest.mark.parametrize("event", [
    round_(1, "--5", ""),  # the wrong number of players: apply's refusal, not a slip
    {"type": "round", "round": 1, "points": "--5"},
    cells(0, (0, "--5")),  # a sheet by rounds has no cells
    {"type": "end"},
])
def test_a_malformed_entry_is_left_for_apply_to_refuse(event):
    assert sheet.complete(sheet.new_game(THREE, SKAT), event) == event


TYPED = st.text(alphabet=st.sampled_from("0123456789+-−*×xX() "), max_size=12)


@given(st.lists(TYPED, min_size=3, max_size=3))
def test_what_a_new_round_may_hold_reads_the_same_once_recorded(points):
    state = sheet.new_game(THREE, SKAT)
    event = round_(1, *points)
    try:
        completed = sheet.complete(state, event)
    except RuleError as refused:
        assert str(refused) and refused.field.startswith("points")
        return
    assert completed == event
    assert all(text.strip() for text in points)
    after = sheet.apply(state, completed)
    assert tuple(after.rounds[-1]) == tuple(sheet.parse(text) for text in points)
