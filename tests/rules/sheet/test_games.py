"""Whole games on a score sheet, as tables play them: Hearts, a Skat evening, 7 Wonders, Belote in teams."""

import pytest

from companion.rules import RuleError, replay, sheet

FOUR = ["Ana", "Ben", "Cleo", "Dan"]


def rounds(*points):
    return [{"type": "round", "round": n, "points": list(p)} for n, p in enumerate(points, start=1)]


def ranks(state):
    return [(s.rank, s.seat, s.score) for s in sheet.standings(state)]


def history(players, options, events):
    """Each entry's sentence, as the history shows it (worded on the state before it)."""
    state, said = sheet.new_game(players, options), []
    for event in events:
        said.append(sheet.describe(state, event))
        state = sheet.apply(state, event)
    return said


# Hearts: 26 points a round (Cleo shot the moon in round 3), the lowest total wins, over once someone reaches 100.
HEARTS = {"name": "Hearts", "lowest_wins": True, "target": 100}
HEARTS_ROUNDS = rounds(
    ["3", "10", "13", ""],
    ["13", "5", "8", "0"],
    ["26", "26", "0", "26"],
    ["4+5", "4", "0", "13"],
    ["0", "10", "16", "0"],
    ["5", "21", "0", "0"],
    ["13", "0", "0", "13"],
    ["0", "24", "2", "0"],
)


def test_hearts_ends_when_ben_reaches_100_and_the_lowest_total_wins():
    state = replay(sheet, FOUR, HEARTS, HEARTS_ROUNDS)
    assert sheet.finished(state)
    assert sheet.scores(state) == [69, 100, 39, 52]
    assert ranks(state) == [(1, 2, 39), (2, 3, 52), (3, 0, 69), (4, 1, 100)]
    assert sheet.winners(state) == (2,)
    assert sheet.end_reason(state) == "Ben reached 100: the game is over."
    assert sheet.next_round(state) is None and sheet.dealer(state) is None


def test_hearts_round_by_round_in_the_history():
    said = history(FOUR, HEARTS, HEARTS_ROUNDS)
    assert said[0] == "Round 1: Ana 3, Ben 10, Cleo 13, Dan 0."
    assert said[3] == "Round 4: Ana 4+5 = 9, Ben 4, Cleo 0, Dan 13."
    assert said[-1] == "Round 8: Ana 0, Ben 24, Cleo 2, Dan 0. Ben reached 100: the game is over."


def test_an_older_round_undone_moves_the_later_ones_up_and_the_round_entered_again_counts():
    # Round 2 was entered wrong: the table undoes it (its entry is left out of the replay), the rounds after it
    # keep their points a row higher, and the right round 2, entered now, comes last.
    kept = HEARTS_ROUNDS[:1] + HEARTS_ROUNDS[2:4]
    state = replay(sheet, FOUR, HEARTS, kept)
    assert sheet.scores(state) == [38, 40, 13, 39]
    assert sheet.next_round(state) == 4
    again = {"type": "round", "round": 4, "points": ["13", "5", "8", "0"]}
    state = sheet.apply(state, again)
    assert sheet.scores(state) == [51, 45, 21, 39]
    assert history(FOUR, HEARTS, kept + [again])[1] == "Round 2: Ana 26, Ben 26, Cleo 0, Dan 26."


def test_hearts_before_the_end_the_leader_is_the_lowest():
    state = replay(sheet, FOUR, HEARTS, HEARTS_ROUNDS[:3])
    assert not sheet.finished(state) and sheet.end_reason(state) is None
    assert sheet.scores(state) == [42, 41, 21, 26]
    assert sheet.winners(state) == (2,)
    assert sheet.next_round(state) == 4
    assert sheet.dealer(state) == 3  # Ana, Ben and Cleo have dealt
    assert sheet.running_totals(state) == ((3, 10, 13, 0), (16, 15, 21, 0), (42, 41, 21, 26))
    assert sheet.round_words(state)[0] == ("3", "10", "13", "0")


def test_equal_totals_share_a_rank_whichever_way_the_game_is_won():
    events = rounds(["10", "5", "10", "20"])
    lowest = replay(sheet, FOUR, {"name": "Hearts", "lowest_wins": True}, events)
    assert ranks(lowest) == [(1, 1, 5), (2, 0, 10), (2, 2, 10), (4, 3, 20)]
    highest = replay(sheet, FOUR, {"name": "Rummy"}, events)
    assert ranks(highest) == [(1, 3, 20), (2, 0, 10), (2, 2, 10), (4, 1, 5)]


# A Skat evening: three players, five games, scores negative when a game is lost.
SKAT = {"name": "Skat", "rounds": 5, "first_player": 1}
SKAT_ROUNDS = rounds(
    ["24*2", "", ""],
    ["", "−(10*4)", ""],
    ["", "", "23"],
    ["-48", "", ""],
    ["", "60", "25"],
)


def test_a_skat_evening_of_five_games():
    state = replay(sheet, ["Ana", "Ben", "Cleo"], SKAT, SKAT_ROUNDS)
    assert sheet.scores(state) == [0, 20, 48]
    assert ranks(state) == [(1, 2, 48), (2, 1, 20), (3, 0, 0)]
    assert sheet.finished(state)
    assert sheet.end_reason(state) == "The game is over: all 5 rounds have been played."
    assert [sheet.dealer_of(state, n) for n in range(1, 6)] == [1, 2, 0, 1, 2]
    assert sheet.round_words(state)[1] == ("0", "−(10*4) = -40", "0")
    with pytest.raises(RuleError) as refused:
        sheet.apply(state, {"type": "round", "round": 6, "points": ["1", "2", "3"]})
    assert str(refused.value) == "The game is over: nothing more can be entered."


def test_skat_the_dealer_goes_round_the_table():
    state = sheet.new_game(["Ana", "Ben", "Cleo"], SKAT)
    dealers = []
    for event in SKAT_ROUNDS[:4]:
        dealers.append(sheet.dealer(state))
        state = sheet.apply(state, event)
    assert dealers == [1, 2, 0, 1]


def test_a_sheet_without_an_end_ends_when_the_table_says_so():
    events = rounds(["5", "3"], ["2", "2"]) + [{"type": "end"}]
    said = history(["Ana", "Ben"], {"name": "Rummy"}, events)
    assert said[-1] == "The game was ended after round 2."
    state = replay(sheet, ["Ana", "Ben"], {"name": "Rummy"}, events)
    assert sheet.finished(state) and sheet.winners(state) == (0,)


def test_without_a_limit_a_sheet_holds_200_rounds():
    state = replay(sheet, ["Ana", "Ben"], {"name": "Rummy"}, rounds(*[["1", "2"]] * 200))
    assert sheet.finished(state)
    assert sheet.end_reason(state) == "The game is over: a sheet holds at most 200 rounds."


def test_two_players_passing_the_target_in_the_same_round():
    state = replay(sheet, ["Ana", "Ben", "Cleo"], {"name": "Yahtzee", "target": 500},
                   rounds(["300", "450", "100"], ["210", "60", "10"]))
    assert sheet.end_reason(state) == "Ana 510; Ben 510: the target of 500 is reached, the game is over."
    assert ranks(state) == [(1, 0, 510), (1, 1, 510), (3, 2, 110)]


# 7 Wonders: seven rows and the coins as tie-break, filled from three phones in any order.
WONDERS = {"name": "7 Wonders", "mode": "categories", "tie_break": "Coins",
           "rows": ["Military", "Treasury", "Wonder", "Civilian", "Commercial", "Guilds", "Science"]}


def cells(seat, *pairs):
    return {"type": "cells", "seat": seat, "cells": [list(pair) for pair in pairs]}


WONDERS_EVENTS = [
    cells(1, (6, "3*3+4*4+7"), (0, "6")),  # Ben's science first: 3 tablets squared… as he counts them
    cells(0, (0, "9"), (1, "4"), (2, "10"), (3, "14"), (4, "5"), (5, "8"), (6, "10"), (7, "12")),
    cells(2, (0, "-2"), (1, "3"), (2, "5"), (3, "20"), (4, "2"), (5, "0"), (6, "13"), (7, "9")),
    cells(1, (1, "5"), (2, "7"), (3, "9"), (4, "3"), (5, "4"), (7, "15")),
]


def test_seven_wonders_equal_totals_broken_by_coins():
    state = replay(sheet, ["Ana", "Ben", "Cleo"], WONDERS, WONDERS_EVENTS)
    assert sheet.finished(state)
    assert sheet.totals(state) == (60, 66, 41)
    state = replay(sheet, ["Ana", "Ben", "Cleo"], WONDERS, WONDERS_EVENTS[:-1] + [
        cells(1, (1, "5"), (2, "7"), (3, "3"), (4, "3"), (5, "4"), (7, "15"))])
    # Ana and Ben both make 60: Ben has 15 coins to Ana's 12, so Ben is first; coins never add to the total.
    assert sheet.scores(state) == [60, 60, 41]
    assert ranks(state) == [(1, 1, 60), (2, 0, 60), (3, 2, 41)]
    assert sheet.end_reason(state) == "Every row is filled: the game is over."


def test_seven_wonders_with_equal_coins_too_the_rank_is_shared():
    events = [cells(0, *[(row, "5") for row in range(8)]), cells(1, *[(row, "5") for row in range(8)])]
    state = replay(sheet, ["Ana", "Ben"], WONDERS, events)
    assert ranks(state) == [(1, 0, 35), (1, 1, 35)]


def test_coins_break_the_tie_even_when_the_lowest_total_wins():
    options = {"name": "Golf", "mode": "categories", "rows": ["Front", "Back"], "tie_break": "Birdies",
               "lowest_wins": True}
    events = [cells(0, (0, "36"), (1, "38"), (2, "1")), cells(1, (0, "37"), (1, "37"), (2, "3"))]
    assert ranks(replay(sheet, ["Ana", "Ben"], options, events)) == [(1, 1, 74), (2, 0, 74)]


def test_seven_wonders_while_the_sheet_is_filled():
    state = replay(sheet, ["Ana", "Ben", "Cleo"], WONDERS, WONDERS_EVENTS[:1])
    assert sheet.cell_rows(state)[-1] == "Coins"
    assert sheet.cell_words(state)[1] == ("6", "", "", "", "", "", "3*3+4*4+7 = 32", "")
    assert sheet.empty_cells(state)[1] == (1, 2, 3, 4, 5, 7)
    assert sheet.empty_cells(state)[0] == tuple(range(8))
    assert sheet.totals(state) == (0, 38, 0)
    assert sheet.next_round(state) is None and sheet.dealer(state) is None


def test_a_cell_is_corrected_or_cleared():
    state = replay(sheet, ["Ana", "Ben", "Cleo"], WONDERS, WONDERS_EVENTS[:1])
    corrected = sheet.apply(state, cells(1, (6, "3*3+3*3+7")))
    assert sheet.totals(corrected) == (0, 31, 0)
    assert sheet.describe(state, cells(1, (6, "3*3+3*3+7"))) == "Ben: Science 3*3+3*3+7 = 25."
    cleared = sheet.apply(corrected, cells(1, (0, ""), (6, " ")))
    assert sheet.empty_cells(cleared)[1] == tuple(range(8))
    assert sheet.describe(corrected, cells(1, (0, ""), (6, "4"))) == "Ben: Military cleared, Science 4."


def test_seven_wonders_in_the_history():
    said = history(["Ana", "Ben", "Cleo"], WONDERS, WONDERS_EVENTS)
    assert said[0] == "Ben: Science 3*3+4*4+7 = 32, Military 6."
    assert said[2] == ("Cleo: Military -2, Treasury 3, Wonder 5, Civilian 20, Commercial 2, Guilds 0, Science 13, "
                       "Coins 9.")
    assert said[-1].endswith("Coins 15. Every row is filled: the game is over.")


def test_a_sheet_by_categories_ended_before_it_is_full():
    state = replay(sheet, ["Ana", "Ben", "Cleo"], WONDERS, WONDERS_EVENTS[:2] + [{"type": "end"}])
    assert sheet.finished(state)
    assert sheet.end_reason(state) == "The game was ended before every row was filled."


# Belote in two teams (Ana and Cleo against Ben and Dan): each player's points count for the team, first to 1000.
BELOTE = {"name": "Belote", "teams": [0, 1, 0, 1], "target": 1000}
BELOTE_ROUNDS = rounds(
    ["162", "", "90", ""],
    ["", "250", "", "182"],
    ["80+20", "", "152", "0"],
    ["", "160+20", "", "162"],
    ["258", "0", "100", ""],
)


def test_belote_team_totals_are_shared_and_the_first_team_to_1000_wins():
    state = replay(sheet, FOUR, BELOTE, BELOTE_ROUNDS)
    assert sheet.totals(state) == (520, 430, 342, 344)
    assert sheet.team_totals(state) == (862, 774)
    assert not sheet.finished(state)
    state = sheet.apply(state, {"type": "round", "round": 6, "points": ["100", "", "62", "80"]})
    assert sheet.finished(state)
    assert sheet.team_totals(state) == (1024, 854)
    assert sheet.scores(state) == [1024, 854, 1024, 854]
    assert ranks(state) == [(1, 0, 1024), (1, 2, 1024), (3, 1, 854), (3, 3, 854)]
    assert sheet.winners(state) == (0, 2)
    assert sheet.end_reason(state) == "Ana and Cleo reached 1024: the game is over."


def test_belote_teams_as_the_pages_read_them():
    state = sheet.new_game(FOUR, {"name": "Belote", "teams": [1, 0, 0, 1]})
    assert sheet.sides(state) == ((1, 2), (0, 3))
    assert sheet.team_members(state, 1) == (0, 3)
    assert [sheet.side_names(state, team) for team in (0, 1)] == ["Ben and Cleo", "Ana and Dan"]
    assert sheet.side_of(state, 0) == 1


def test_the_settings_are_kept_as_checked():
    state = sheet.new_game(FOUR, {"name": "  Belote ", "teams": [0, 1, 0, 1], "target": 1000, "bgg_id": 6205})
    chosen = sheet.settings(state)
    assert (chosen.name, chosen.mode, chosen.teams, chosen.target, chosen.rounds, chosen.lowest_wins) == (
        "Belote", "rounds", (0, 1, 0, 1), 1000, None, False)
    assert chosen.bgg_id == 6205
    wonders = sheet.settings(sheet.new_game(FOUR, {**WONDERS, "rows": list(WONDERS["rows"])}))
    assert wonders.rows == tuple(WONDERS["rows"]) and wonders.tie_break == "Coins"
    assert wonders.cell_rows[-1] == "Coins"


def test_the_protocol():
    assert (sheet.NAME, sheet.MIN_PLAYERS, sheet.MAX_PLAYERS, sheet.STARTER_OPTION) == ("Any other game", 2, 12,
                                                                                      "first_player")
    assert sheet.STARTER_LABEL == "Deals first"
    assert sheet.title({"name": "Skat", "mode": "rounds"}) == "Skat" and sheet.title({}) == "Any other game"
    assert sheet.SHARED_BOARD is True
    assert sheet.MOVE_KEYS == {"round": ("round",), "end": ()}
    state = sheet.new_game(FOUR, HEARTS)
    event = HEARTS_ROUNDS[1]  # every box typed, as a new round must be
    copy = sheet.complete(state, event)
    assert copy == event and copy is not event


def test_what_is_left_to_fill_and_whose_turn_to_fill_it():
    state = sheet.new_game(["Ana", "Ben"], {"name": "7 Wonders", "mode": "categories", "rows": ["Military", "Science"]})
    assert sheet.cells_left(state) == 4 and sheet.next_to_fill(state) == 0
    state = sheet.apply(state, {"type": "cells", "seat": 0, "cells": [[0, "1"], [1, "2"]]})
    assert sheet.cells_left(state) == 2 and sheet.next_to_fill(state) == 1
