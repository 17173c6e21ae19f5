"""Every setting and every entry a score sheet refuses: the sentence players see, its field, and nothing changed."""

import copy

import pytest

from companion.rules import RuleError, sheet

THREE = ["Ana", "Ben", "Cleo"]
ROWS = ["Military", "Science", "Guilds"]
BY_CATEGORIES = {"name": "7 Wonders", "mode": "categories", "rows": ROWS}

SEAT = "The first player must be one of the players at the table."
ROUNDS_ONLY = "A sheet by categories ends when every row is filled."
ROWS_ONLY = "Rows are for a sheet by categories."
ROW_COUNT = "Name the sheet's rows: 1 to 30 rows."
TEAMS = "Give each player's team."
TEAM_COUNT = "Players form 2 to 4 teams."
TARGET = "The target is 1 to 1000000 points."
LENGTH = "A game on a sheet lasts 1 to 200 rounds."
BGG = "A BoardGameGeek id is a whole number from 1 to 10000000."
NAME = "Name the game played on this sheet."

OPTIONS = [
    ("not a mapping", ["Skat"], "The table's settings are not readable.", "options"),
    ("unknown key", {"name": "Skat", "colour": "red"}, "A score sheet has no setting 'colour'.", "options"),
    ("no name", None, NAME, "name"),
    ("no name", {}, NAME, "name"),
    ("blank name", {"name": "   "}, NAME, "name"),
    ("name a number", {"name": 7}, NAME, "name"),
    ("name too long", {"name": "S" * 41},
     "A name holds at most 40 characters: “" + "S" * 41 + "” has 41.", "name"),
    ("name with a line break", {"name": "Sk\nat"}, "“Sk\nat” holds a character that cannot be shown.", "name"),
    ("first player a bool", {"name": "Skat", "first_player": True}, SEAT, "first_player"),
    ("first player outside", {"name": "Skat", "first_player": 3}, SEAT, "first_player"),
    ("first player negative", {"name": "Skat", "first_player": -1}, SEAT, "first_player"),
    ("first player text", {"name": "Skat", "first_player": "0"}, SEAT, "first_player"),
    ("unknown mode", {"name": "Skat", "mode": "hands"}, "A sheet counts rounds or categories.", "mode"),
    ("mode a list", {"name": "Skat", "mode": ["rounds"]}, "A sheet counts rounds or categories.", "mode"),
    ("lowest wins as text", {"name": "Hearts", "lowest_wins": "yes"},
     "Say whether the lowest total wins: yes or no.", "lowest_wins"),
    ("lowest wins as 1", {"name": "Hearts", "lowest_wins": 1}, "Say whether the lowest total wins: yes or no.",
     "lowest_wins"),
    ("no rounds", {"name": "Skat", "rounds": 0}, LENGTH, "rounds"),
    ("too many rounds", {"name": "Skat", "rounds": 201}, LENGTH, "rounds"),
    ("rounds a bool", {"name": "Skat", "rounds": True}, LENGTH, "rounds"),
    ("rounds as text", {"name": "Skat", "rounds": "10"}, LENGTH, "rounds"),
    ("rounds a float", {"name": "Skat", "rounds": 10.0}, LENGTH, "rounds"),
    ("target 0", {"name": "Hearts", "target": 0}, TARGET, "target"),
    ("target too high", {"name": "Hearts", "target": 1_000_001}, TARGET, "target"),
    ("target a bool", {"name": "Hearts", "target": True}, TARGET, "target"),
    ("rows by rounds", {"name": "Skat", "rows": ROWS}, ROWS_ONLY, "rows"),
    ("tie-break by rounds", {"name": "Skat", "tie_break": "Coins"}, ROWS_ONLY, "tie_break"),
    ("rounds by categories", {**BY_CATEGORIES, "rounds": 3}, ROUNDS_ONLY, "rounds"),
    ("target by categories", {**BY_CATEGORIES, "target": 100}, ROUNDS_ONLY, "target"),
    ("no rows", {"name": "7 Wonders", "mode": "categories"}, ROW_COUNT, "rows"),
    ("empty rows", {**BY_CATEGORIES, "rows": []}, ROW_COUNT, "rows"),
    ("rows as text", {**BY_CATEGORIES, "rows": "Military"}, ROW_COUNT, "rows"),
    ("31 rows", {**BY_CATEGORIES, "rows": [f"Row {n}" for n in range(31)]}, ROW_COUNT, "rows"),
    ("a blank row", {**BY_CATEGORIES, "rows": ["Military", " "]}, "Every row needs a name.", "rows"),
    ("a row a number", {**BY_CATEGORIES, "rows": ["Military", 3]}, "Every row needs a name.", "rows"),
    ("a row too long", {**BY_CATEGORIES, "rows": ["M" * 41]},
     "A name holds at most 40 characters: “" + "M" * 41 + "” has 41.", "rows"),
    ("a row with a tab", {**BY_CATEGORIES, "rows": ["Mili\ttary"]},
     "“Mili\ttary” holds a character that cannot be shown.", "rows"),
    ("a row twice", {**BY_CATEGORIES, "rows": ["Military", "Science", " military"]},
     "Two rows are named “military”.", "rows"),
    ("a blank tie-break", {**BY_CATEGORIES, "tie_break": ""}, "Name the tie-break row, or leave it out.", "tie_break"),
    ("a tie-break named as a row", {**BY_CATEGORIES, "tie_break": "SCIENCE"},
     "The tie-break row cannot be named like the row “Science”.", "tie_break"),
    ("teams as text", {"name": "Belote", "teams": "0101"}, TEAMS, "teams"),
    ("teams too short", {"name": "Belote", "teams": [0, 1]}, TEAMS, "teams"),
    ("a team a bool", {"name": "Belote", "teams": [0, 1, True]}, TEAMS, "teams"),
    ("a negative team", {"name": "Belote", "teams": [0, 1, -1]}, TEAMS, "teams"),
    ("one team", {"name": "Belote", "teams": [0, 0, 0]}, TEAM_COUNT, "teams"),
    ("a gap between teams", {"name": "Belote", "teams": [0, 2, 2]},
     "Every team needs a player: number the teams without a gap.", "teams"),
    ("bgg id 0", {"name": "Skat", "bgg_id": 0}, BGG, "bgg_id"),
    ("bgg id too high", {"name": "Skat", "bgg_id": 10_000_001}, BGG, "bgg_id"),
    ("bgg id as text", {"name": "Skat", "bgg_id": "6205"}, BGG, "bgg_id"),
    ("bgg id a bool", {"name": "Skat", "bgg_id": True}, BGG, "bgg_id"),
]


@pytest.mark.parametrize("why, options, said, field", OPTIONS, ids=[case[0] for case in OPTIONS])
def test_a_wrong_setting_is_refused(why, options, said, field):
    with pytest.raises(RuleError) as refused:
        sheet.new_game(THREE, options)
    assert (str(refused.value), refused.value.field) == (said, field)


def test_five_teams_are_too_many():
    with pytest.raises(RuleError, match="Players form 2 to 4 teams.") as refused:
        sheet.new_game(["A", "B", "C", "D", "E"], {"name": "Belote", "teams": [0, 1, 2, 3, 4]})
    assert refused.value.field == "teams"


@pytest.mark.parametrize("players", [["Ana"], [f"P{n}" for n in range(13)]])
def test_a_sheet_is_for_2_to_12_players(players):
    with pytest.raises(RuleError, match="A score sheet is for 2 to 12 players.") as refused:
        sheet.new_game(players, {"name": "Skat"})
    assert refused.value.field == "players"


@pytest.mark.parametrize("options", [
    {"name": "Rummy", "rounds": None, "target": None, "teams": None, "bgg_id": None, "rows": None, "tie_break": None},
    {"name": "Belote", "teams": [1, 0, 1]},
    {**BY_CATEGORIES, "rows": ("Military", "Science"), "tie_break": "Coins", "lowest_wins": True, "teams": [0, 1, 1]},
    {"name": "x" * 40, "rounds": 200, "target": 1_000_000, "bgg_id": 10_000_000, "first_player": 2},
])
def test_settings_at_their_limits_or_left_out_are_taken(options):
    assert sheet.new_game(THREE, options).players == tuple(THREE)


def build(options, *events):
    state = sheet.new_game(THREE, options)
    for event in events:
        state = sheet.apply(state, event)
    return state


def round_(number, *points):
    return {"type": "round", "round": number, "points": list(points)}


SKAT = {"name": "Skat", "rounds": 2}
OVER = "The game is over: nothing more can be entered."
NEXT = "The next round to enter is round 1."
POINTS = "Enter a score for each of the 3 players, in seating order."
CELLS = "Enter 1 to 3 rows of Ana: each row and what it scores."
PAIR = "Each cell is a row and what it scores."
ROW = "Choose one of the sheet's rows."

EVENTS = [
    # What no sheet has
    (SKAT, [], "round", "This entry is not readable.", "type"),
    (SKAT, [], {}, "A score sheet has no such entry.", "type"),
    (SKAT, [], {"type": "deal"}, "A score sheet has no such entry.", "type"),
    (SKAT, [], {"type": ["round"]}, "A score sheet has no such entry.", "type"),
    (SKAT, [], {"type": "round", "round": 1, "points": ["", "", ""], "seen": 3},
     "This entry cannot hold 'seen'.", "type"),
    (SKAT, [], {"type": "end", "now": True}, "This entry cannot hold 'now'.", "type"),
    # Rounds
    (SKAT, [], {"type": "round", "points": ["", "", ""]}, NEXT, "round"),
    (SKAT, [], round_(True, "", "", ""), NEXT, "round"),
    (SKAT, [], round_("1", "", "", ""), NEXT, "round"),
    (SKAT, [], round_(201, "", "", ""), NEXT, "round"),
    (SKAT, [], round_(0, "", "", ""), NEXT, "round"),
    (SKAT, [], round_(1, "", ""), POINTS, "points"),
    (SKAT, [], round_(1, "", "", "", ""), POINTS, "points"),
    (SKAT, [], {"type": "round", "round": 1}, POINTS, "points"),
    (SKAT, [], {"type": "round", "round": 1, "points": "123"}, POINTS, "points"),
    (SKAT, [], {"type": "round", "round": 1, "points": {"0": "1"}}, POINTS, "points"),
    (SKAT, [], round_(1, "", 5, ""), "Enter a number, or a sum such as 12+7-3.", "points-1"),
    (SKAT, [], round_(1, "", "", None), "Enter a number, or a sum such as 12+7-3.", "points-2"),
    (SKAT, [], round_(1, "", "", "1/2"), "Only digits, brackets and the signs + − × (also typed - * x X): not “/”.", "points-2"),
    (SKAT, [], round_(1, "12 3", "", ""), "A sign is missing between “12” and “3”.", "points-0"),
    (SKAT, [], {"type": "cells", "seat": 0, "cells": [[0, "1"]]}, "This sheet counts rounds: enter a whole round.",
     "type"),
    # A total past ±1,000,000: a player's, or a team's
    ({"name": "Skat"}, [round_(1, "1000000", "", "")], round_(2, "1", "", ""),
     "The total of Ana would pass 1000000.", "points-0"),
    ({"name": "Skat"}, [round_(1, "", "-1000000", "")], round_(2, "", "-5", "7"),
     "The total of Ben would fall below −1000000.", "points-1"),
    ({"name": "Belote", "teams": [0, 1, 0]}, [round_(1, "600000", "", "")], round_(2, "", "", "400001"),
     "The total of Ana and Cleo would pass 1000000.", "points-2"),
    # Ending
    (SKAT, [], {"type": "end"}, "Nothing has been entered yet: there is no game to end.", "type"),
    (BY_CATEGORIES, [], {"type": "end"}, "Nothing has been entered yet: there is no game to end.", "type"),
    # Over
    (SKAT, [round_(1, "", "", ""), round_(2, "", "", "")], round_(3, "1", "", ""), OVER, "type"),
    (SKAT, [round_(1, "", "", ""), round_(2, "", "", "")], {"type": "end"}, OVER, "type"),
    ({"name": "Hearts", "target": 100}, [round_(1, "100", "", "")], round_(2, "", "", ""), OVER, "type"),
    ({"name": "Rummy"}, [round_(1, "4", "", ""), {"type": "end"}], {"type": "end"}, OVER, "type"),
    ({"name": "Rummy"}, [round_(1, "4", "", ""), {"type": "end"}], round_(2, "", "", ""), OVER, "type"),
    # Cells
    (BY_CATEGORIES, [], round_(1, "", "", ""), "This sheet counts categories: enter each player's rows.", "type"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": 3, "cells": [[0, "1"]]},
     "Choose one of the players at the table.", "seat"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": True, "cells": [[0, "1"]]},
     "Choose one of the players at the table.", "seat"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": "0", "cells": [[0, "1"]]},
     "Choose one of the players at the table.", "seat"),
    (BY_CATEGORIES, [], {"type": "cells", "cells": [[0, "1"]]}, "Choose one of the players at the table.", "seat"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": 0}, CELLS, "cells"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": 0, "cells": []}, CELLS, "cells"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": 0, "cells": "0:1"}, CELLS, "cells"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": 0, "cells": [[0, "1"]] * 4}, CELLS, "cells"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": 0, "cells": [[0, "1", "2"]]}, PAIR, "cells"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": 0, "cells": ["01"]}, PAIR, "cells"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": 0, "cells": [{"0": "1"}]}, PAIR, "cells"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": 0, "cells": [[3, "1"]]}, ROW, "cells"),  # no tie-break row
    (BY_CATEGORIES, [], {"type": "cells", "seat": 0, "cells": [[-1, "1"]]}, ROW, "cells"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": 0, "cells": [[False, "1"]]}, ROW, "cells"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": 0, "cells": [["0", "1"]]}, ROW, "cells"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": 0, "cells": [[1, "1"], [1, "2"]]},
     "The row Science is entered twice.", "cells-1"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": 0, "cells": [[0, "1"], [2, "1+"]]},
     "The entry ends with “+”: a number must follow it.", "cells-2"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": 0, "cells": [[0, 5]]},
     "Enter a number, or a sum such as 12+7-3.", "cells-0"),
    ({**BY_CATEGORIES, "tie_break": "Coins"}, [], {"type": "cells", "seat": 0, "cells": [[3, "1/2"]]},
     "Only digits, brackets and the signs + − × (also typed - * x X): not “/”.", "cells-3"),
    (BY_CATEGORIES, [], {"type": "cells", "seat": 0, "cells": [[0, "1000000"], [1, "1"]]},
     "The total of Ana would pass 1000000.", "cells-0"),
    (BY_CATEGORIES, [{"type": "cells", "seat": 0, "cells": [[0, "1"], [1, "1"], [2, "1"]]}, {"type": "end"}],
     {"type": "cells", "seat": 0, "cells": [[0, "2"]]}, OVER, "type"),
]


@pytest.mark.parametrize("options, before, event, said, field", EVENTS)
def test_a_wrong_entry_is_refused_and_changes_nothing(options, before, event, said, field):
    state = build(options, *before)
    kept = copy.deepcopy(state)
    with pytest.raises(RuleError) as refused:
        sheet.apply(state, event)
    assert (str(refused.value), refused.value.field) == (said, field)
    assert state == kept
    assert sheet.describe(state, event) == f"Refused entry: {said}"


def test_a_full_sheet_by_categories_refuses_every_entry():
    full = [{"type": "cells", "seat": seat, "cells": [[0, "1"], [1, "2"], [2, "3"]]} for seat in range(3)]
    state = build(BY_CATEGORIES, *full)
    assert sheet.finished(state)
    with pytest.raises(RuleError, match=OVER):
        sheet.apply(state, {"type": "cells", "seat": 0, "cells": [[0, ""]]})
