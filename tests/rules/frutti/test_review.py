"""Frutti di Mare's session review on known games: money per round, ties, best round, most-played seafood."""

from companion.rules import frutti, replay
from companion.rules.frutti import review as review_module
from review.test_review_sessions import FRUTTI, FRUTTI_TIE_EVENTS, TRACK


def game(events):
    return replay(frutti, ["Ana", "Ben", "Cy"], {}, events)


def test_three_rounds_round_by_round():
    review = review_module.review(game(FRUTTI[3]))
    assert (review.period_name, review.score_name) == ("Round", "Money")
    assert [(p.gains, p.totals) for p in review.periods] == [
        ((0, 60, 230), (0, 60, 230)),  # the octopus wrapped round to 0; Cy's 3 mussels at 50, 4 oysters at 20
        ((150, 170, 0), (150, 230, 230)),  # tallied: 2 sea urchins at 50 and 5 oysters at 10; 3 octopus at 30…
        ((0, 90, 170), (150, 320, 400)),
    ]
    assert [p.note for p in review.periods] == ["Ana started", "Ben started, entered at once", "Cy started"]
    assert [(s.rank, s.seat, s.score) for s in review.standings] == [(1, 2, 400), (2, 1, 320), (3, 0, 150)]
    assert review.winners == (2,)


def test_the_highlights():
    lines = {h.title: h.text for h in review_module.highlights(game(FRUTTI[3]))}
    assert lines["Best round"] == "230: Cy in round 1 (3 mussels × 50 + 4 oysters × 20 = 230)."
    assert lines["Most-played seafood"] == "Shrimp: 7 cards played."
    assert lines["Suspended selling"] == "Ana 2 times; Ben 2 times; Cy 2 times."


def test_most_played_counts_the_round_in_progress_and_ties():
    state = game([{"type": "dishes", "order": TRACK},
                  {"type": "play", "player": 0, "seafood": "octopus"},
                  {"type": "play", "player": 1, "seafood": "mussels"}])
    lines = {h.title: h.text for h in review_module.highlights(state)}
    assert lines["Most-played seafood"] == "Octopus and mussels: 1 card played each."
    assert lines["Best round"] == "No round has ended yet."
    assert review_module.review(state).periods == ()


def test_equal_money_shares_first_place_and_the_best_round():
    review = review_module.review(game(FRUTTI_TIE_EVENTS))
    assert [(s.rank, s.seat, s.score) for s in review.standings] == [(1, 0, 330), (1, 1, 330), (3, 2, 270)]
    assert review.winners == (0, 1)
    best = {h.title: h.text for h in review.highlights}["Best round"]
    assert best.startswith("110: Ana in round 1 (4 shrimp × 0 + 2 sea urchins × 50 + 1 oyster × 10 = 110); "
                           "Ben in round 1")
