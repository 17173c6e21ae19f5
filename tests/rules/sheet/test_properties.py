"""What holds on any score sheet, whatever is entered (hypothesis): totals, undo, ranks both ways, purity."""

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import RuleError, replay, sheet

NAMES = ["Ana", "Ben", "Cleo", "Dan", "Eve"]
# A value and one way a player may type it.
POINTS = st.integers(-300, 300).flatmap(lambda n: st.sampled_from([
    (n, str(n)), (n, f"{n - 7}+7"), (n, f" {n} "), (n, f"({n})*1"), (-n, f"−({n})")]))


@st.composite
def by_rounds(draw):
    """A sheet by rounds (with teams, sometimes, lowest wins, sometimes) and its rounds as typed."""
    players = draw(st.integers(2, 5))
    options = {"name": "Rummy", "lowest_wins": draw(st.booleans())}
    if players >= 4 and draw(st.booleans()):
        options["teams"] = [seat % 2 for seat in range(players)]
    typed = draw(st.lists(st.lists(POINTS, min_size=players, max_size=players), max_size=12))
    events = [{"type": "round", "round": n, "points": [text for _value, text in points]}
              for n, points in enumerate(typed, start=1)]
    return NAMES[:players], options, events, typed


@st.composite
def by_categories(draw):
    """A sheet by categories and its cells entered in any order, some corrected or cleared."""
    players = draw(st.integers(2, 4))
    rows = draw(st.integers(1, 4))
    options = {"name": "7 Wonders", "mode": "categories", "rows": [f"Row {n}" for n in range(rows)],
               "lowest_wins": draw(st.booleans())}
    if draw(st.booleans()):
        options["tie_break"] = "Coins"
    cells = rows + ("tie_break" in options)
    entries = st.one_of(POINTS.map(lambda point: point[1]), st.just(""))
    events = draw(st.lists(st.builds(
        lambda seat, chosen: {"type": "cells", "seat": seat, "cells": [[row, text] for row, text in chosen]},
        st.integers(0, players - 1),
        st.lists(st.tuples(st.integers(0, cells - 1), entries), min_size=1, max_size=cells, unique_by=lambda c: c[0]),
    ), max_size=10))
    return NAMES[:players], options, events


def fold(players, options, events):
    """Each state along the way (the first is the blank sheet), stopping where an entry is refused."""
    states = [sheet.new_game(players, options)]
    for event in events:
        try:
            states.append(sheet.apply(states[-1], event))
        except RuleError:
            break
    return states


@settings(max_examples=150, deadline=None)
@given(by_rounds())
def test_a_total_is_the_sum_of_the_entries_kept(game):
    players, options, events, typed = game
    states = fold(players, options, events)
    state = states[-1]
    played = typed[:len(states) - 1]
    assert sheet.totals(state) == tuple(sum(points[seat][0] for points in played) for seat in range(len(players)))
    assert all(entry.value == value for entries, points in zip(state.rounds, played)
               for entry, (value, _text) in zip(entries, points))
    assert sheet.running_totals(state)[-1:] == ((sheet.totals(state),) if played else ())
    teams = options.get("teams")
    if teams:
        team = [sum(t for seat, t in enumerate(sheet.totals(state)) if teams[seat] == side) for side in (0, 1)]
        assert sheet.scores(state) == [team[teams[seat]] for seat in range(len(players))]


@settings(max_examples=150, deadline=None)
@given(by_categories())
def test_a_total_by_categories_is_the_sum_of_the_filled_rows(game):
    players, options, events = game
    state = fold(players, options, events)[-1]
    rows = len(options["rows"])
    for seat, cells in enumerate(state.cells):
        assert sheet.totals(state)[seat] == sum(cell.value for cell in cells[:rows] if cell is not None)
        assert sheet.empty_cells(state)[seat] == tuple(i for i, cell in enumerate(cells) if cell is None)


@settings(max_examples=100, deadline=None)
@given(st.one_of(by_rounds().map(lambda g: g[:3]), by_categories()), st.data())
def test_replaying_a_prefix_gives_the_sheet_as_it_was(game, data):
    players, options, events = game
    states = fold(players, options, events)
    kept = len(states) - 1
    cut = data.draw(st.integers(0, kept))
    assert replay(sheet, players, options, events[:cut]) == states[cut]
    # Undoing the last entry is replaying without it.
    if kept:
        assert replay(sheet, players, options, events[:kept - 1]) == states[kept - 1]


def negated(events, tie=None):
    """The same entries with every value's sign turned, but for the tie-break row (row ``tie``)."""
    def turned(text):
        return f"-({text})" if text.strip() else ""

    if events and events[0]["type"] == "round":
        return [{**event, "points": [turned(text) for text in event["points"]]} for event in events]
    return [{**event, "cells": [[row, text if row == tie else turned(text)] for row, text in event["cells"]]}
            for event in events]


def places(state):
    return {standing.seat: standing.rank for standing in sheet.standings(state)}


@settings(max_examples=150, deadline=None)
@given(st.one_of(by_rounds().map(lambda g: g[:3]), by_categories()))
def test_lowest_wins_ranks_as_highest_wins_on_negated_totals(game):
    players, options, events = game
    options = {**options, "lowest_wins": True}
    events = events[:len(fold(players, options, events)) - 1]
    lowest = replay(sheet, players, options, events)
    # The coins are not turned: more coins break a tie whichever way the totals go.
    tie = len(options["rows"]) if options.get("tie_break") else None
    turned = negated(events, tie)
    highest = replay(sheet, players, {**options, "lowest_wins": False}, turned)
    assert sheet.scores(highest) == [-score for score in sheet.scores(lowest)]
    assert places(highest) == places(lowest)


@settings(max_examples=100, deadline=None)
@given(st.one_of(by_rounds().map(lambda g: g[:3]), by_categories()))
def test_apply_never_changes_the_sheet_or_the_entry_it_is_given(game):
    players, options, events = game
    state = sheet.new_game(players, options)
    for event in events:
        before, sent = copy.deepcopy(state), copy.deepcopy(event)
        try:
            after = sheet.apply(state, event)
        except RuleError:
            after = state
        sheet.describe(state, event)
        assert state == before and event == sent
        state = after
