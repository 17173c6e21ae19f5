"""A score sheet's session review on known games: rounds or categories, ranks, highlights, a player's record."""

import pytest

from companion.review import sentences
from companion.rules import replay, sheet
from companion.rules.sheet import review as review_module
from rules.sheet.test_games import (
    BELOTE,
    BELOTE_ROUNDS,
    FOUR,
    HEARTS,
    HEARTS_ROUNDS,
    SKAT,
    SKAT_ROUNDS,
    WONDERS,
    WONDERS_EVENTS,
    cells,
    rounds,
)

THREE = ["Ana", "Ben", "Cleo"]


def lines(state):
    return {h.title: h.text for h in review_module.highlights(state)}


def test_hearts_round_by_round():
    review = review_module.review(replay(sheet, FOUR, HEARTS, HEARTS_ROUNDS))
    assert (review.period_name, review.score_name, review.chart_name) == ("Round", "Points", "Points")
    assert [p.label for p in review.periods] == [f"Round {n}" for n in range(1, 9)]
    assert [(p.gains, p.totals) for p in review.periods[:2]] == [((3, 10, 13, 0), (3, 10, 13, 0)),
                                                                 ((13, 5, 8, 0), (16, 15, 21, 0))]
    assert review.periods[-1].totals == (69, 100, 39, 52)
    assert [p.note for p in review.periods[:5]] == ["Ana dealt", "Ben dealt", "Cleo dealt", "Dan dealt", "Ana dealt"]
    assert [(s.rank, s.seat, s.score) for s in review.standings] == [(1, 2, 39), (2, 3, 52), (3, 0, 69), (4, 1, 100)]
    assert review.winners == (2,)
    assert review.record == ({"score": 69}, {"score": 100}, {"score": 39}, {"score": 52})
    # The players page counts the games won in a column of its own: the sheet's one figure is the average.
    assert [(s.label, s.key, s.how, s.of) for s in review.stats] == [("Average points", "score", "average", None)]


def test_hearts_highlights_the_lowest_round_as_the_best():
    said = lines(replay(sheet, FOUR, HEARTS, HEARTS_ROUNDS))
    # Twelve rounds of 0 points: the first three named, the others counted.
    assert said["Best round"] == "0 points: Dan in round 1; Dan in round 2; Cleo in round 3; and 9 more."
    assert said["Scoring"] == "Lowest total wins. The game ends with the round in which a total reaches 100."
    assert said["How the game ended"] == "Ben reached 100: the game is over."
    assert "Teams" not in said and "Best category" not in said


def test_skat_highlights_the_highest_round_with_its_sum():
    state = replay(sheet, THREE, SKAT, SKAT_ROUNDS)
    said = lines(state)
    assert said["Best round"] == "60 points: Ben in round 5."
    assert said["Scoring"] == "The game lasts 5 rounds."
    assert said["How the game ended"] == "The game is over: all 5 rounds have been played."
    best = lines(replay(sheet, THREE, {"name": "Skat"}, rounds(["24*2", "", ""])))["Best round"]
    assert best == "48 points: Ana in round 1 (24*2 = 48)."


def test_a_plain_sheet_says_nothing_of_its_scoring_and_nothing_before_the_first_round():
    state = sheet.new_game(THREE, {"name": "Rummy"})
    review = review_module.review(state)
    assert review.periods == () and review.winners == (0, 1, 2) and review.sides == ()
    assert lines(state) == {"Best round": "No round has been entered yet."}
    assert review_module.period_number(state) == 1


def test_the_timeline_label_is_the_round_just_entered():
    state = replay(sheet, THREE, SKAT, SKAT_ROUNDS[:3])
    assert review_module.period_number(state) == 3
    assert review_module.period_name(state) == "Round"


def test_a_sheet_by_categories_labels_no_entry_with_a_period():
    # Its rows are filled in any order: "Category 1" on every entry would be wrong.
    state = sheet.new_game(THREE, {"name": "7 Wonders", "mode": "categories", "rows": ["Military", "Science"]})
    assert review_module.period_number(state) is None and review_module.period_name(state) == "Category"


def test_seven_wonders_category_by_category():
    state = replay(sheet, THREE, WONDERS, WONDERS_EVENTS)
    review = review_module.review(state)
    assert review.period_name == "Category"
    assert [p.label for p in review.periods] == WONDERS["rows"]  # the tie-break row is no period
    assert review.periods[0].gains == (9, 6, -2)
    assert review.periods[-1].totals == (60, 66, 41)
    assert not any(p.in_progress for p in review.periods)
    assert [(s.rank, s.seat) for s in review.standings] == [(1, 1), (2, 0), (3, 2)]
    said = lines(state)
    assert said["Best category"] == "32 points: Ben in Science."
    assert said["Tie-break: Coins"] == ("Ana 12, Ben 15, Cleo 9. Not counted in the total: on equal totals, "
                                        "the most wins.")
    assert said["How the game ended"] == "Every row is filled: the game is over."


def test_seven_wonders_being_filled():
    state = replay(sheet, THREE, WONDERS, WONDERS_EVENTS[:1])
    review = review_module.review(state)
    assert review.periods[0].note == "Still to fill: Ana and Cleo"
    assert review.periods[0].in_progress
    assert review.periods[0].gains == (0, 6, 0)
    assert lines(state)["Tie-break: Coins"] == "Nobody has filled it yet."
    blank = sheet.new_game(THREE, WONDERS)
    assert lines(blank)["Best category"] == "No category has been filled yet."


def test_belote_teams_share_the_win():
    last = {"type": "round", "round": 6, "points": ["100", "", "62", "80"]}
    state = replay(sheet, FOUR, BELOTE, BELOTE_ROUNDS + [last])
    review = review_module.review(state)
    assert review.winners == (0, 2)
    # Each player's record is their own points, as the sheet's total row says them; the team's total ranks.
    assert [r["score"] for r in review.record] == [620, 430, 404, 424] == list(sheet.totals(state))
    assert [s.score for s in review.standings] == [1024, 1024, 854, 854]
    assert review.sides == ((0, 2), (1, 3))
    assert [(place.rank, seats, place.score) for place, seats in review.places] == [(1, (0, 2), 1024),
                                                                                   (2, (1, 3), 854)]
    assert lines(state)["Teams"] == "Ana and Cleo 1024; Ben and Dan 854."


def test_a_tie_break_makes_no_shared_win():
    state = replay(sheet, ["Ana", "Ben"], WONDERS, [cells(0, *[(row, "5") for row in range(7)], (7, "4")),
                                                    cells(1, *[(row, "5") for row in range(7)], (7, "6"))])
    assert review_module.review(state).winners == (1,)


@pytest.mark.parametrize("call, said", [
    (lambda: sentences.label(sentences.CATEGORY, 2), "Category 2"),
    (lambda: sentences.count(sentences.CATEGORY, 1), "1 category"),
    (lambda: sentences.count(sentences.CATEGORY, 7), "7 categories"),
    (lambda: sentences.by_period(sentences.CATEGORY, "Points"), "Points category by category"),
    (lambda: sentences.per_period(sentences.CATEGORY, "Points"), "Points per category, running total below each"),
    (lambda: sentences.after_each(sentences.CATEGORY, "Points"), "Points after each category"),
    (lambda: sentences.nothing_yet(sentences.CATEGORY),
     "Nothing has been scored yet: the chart appears after the first category."),
    (lambda: sentences.csv_link(sentences.CATEGORY), "Standings and categories (CSV)"),
])
def test_the_review_pages_have_their_sentences_for_categories(call, said):
    assert review_module.CATEGORY == sentences.CATEGORY
    assert call() == said
