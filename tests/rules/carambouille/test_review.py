"""Carambouille's session review on known games: per-hand rows, standings with ties, the highlights."""

from companion.rules import carambouille, replay
from companion.rules.carambouille import review as review_module
from review.test_review_sessions import ANA, BEN, CY, CARAMBOUILLE, OPEN, c_sale, close, end


def test_the_eleven_hand_game_hand_by_hand():
    _, players, options, events = CARAMBOUILLE
    review = review_module.review(replay(carambouille, players, options, events))
    assert (review.period_name, review.score_name) == ("Hand", "Points")
    assert [(s.rank, players[s.seat], s.score) for s in review.standings] == [
        (1, "Ana", 920), (2, "Cy", 485), (3, "Ben", 460)]
    assert review.winners == (ANA,)
    rows = review.periods
    assert [row.label for row in rows] == [f"Hand {n}" for n in range(1, 12)]
    assert [row.gains for row in rows[:3]] == [(80, 25, 50), (0, 0, 75), (90, 75, 0)]
    assert rows[-1].gains == (750, 360, 360) and rows[-1].totals == (920, 460, 485)
    assert [row.note for row in rows[:3]] == ["Ana was First Trader", "Ben was First Trader", "Cy was First Trader"]
    assert review.progression[0] == ("Start", (0, 0, 0))
    assert review.progression[-1] == ("Hand 11", (920, 460, 485))
    assert review.record == ({"score": 920}, {"score": 460}, {"score": 485})
    assert [s.label for s in review.stats] == ["Best points", "Average points"]


def test_the_highlights_say_who_did_it():
    _, players, options, events = CARAMBOUILLE
    lines = {h.title: h.text for h in review_module.highlights(replay(carambouille, players, options, events))}
    assert lines["Biggest sale"] == "Ana sold 4 saffron for 750 in hand 11."
    assert lines["Most Carambouille cards played"] == "Ana: 4 cards."
    assert lines["Longest market"] == "Hand 1: 2 min of trading."
    assert lines["Best hand"] == "750 points: Ana in hand 11."


def test_a_biggest_sale_names_the_cards_played_on_it():
    state = replay(carambouille, ["Ana", "Ben", "Cy"], None, CARAMBOUILLE[3][:10])
    sale = state.sales[0]
    assert review_module.sale_words(state, sale) == "Ana sold 3 cheeses for 180 in hand 1."
    _, players, options, events = CARAMBOUILLE
    state = replay(carambouille, players, options, events)
    hens = next(s for s in state.sales if s.product == "hens")
    assert review_module.sale_words(state, hens) == "Cy sold 2 hens for 75 in hand 2, with Bargain by Ana."


def test_ties_share_a_rank_and_the_card_count():
    players = ["Ana", "Ben", "Cy"]
    events = [OPEN, close(), c_sale(ANA, "cheese", 1), end(ANA), c_sale(BEN, "sausage", 1), end(BEN), end(CY)]
    state = replay(carambouille, players, None, events)
    review = review_module.review(state)
    assert [(s.rank, s.seat, s.score) for s in review.standings] == [(1, ANA, 40), (1, BEN, 40), (3, CY, 0)]
    assert review.winners == (ANA, BEN)
    lines = {h.title: h.text for h in review.highlights}
    assert lines["Best hand"] == "40 points: Ana in hand 1; Ben in hand 1."
    assert lines["Longest market"] == "No market was timed by the bell."
    assert lines["Most Carambouille cards played"] == "Nobody has played a Carambouille card."


def test_a_new_game_has_nothing_to_show_yet():
    review = review_module.review(carambouille.new_game(["Ana", "Ben", "Cy"]))
    assert [(p.label, p.totals, p.in_progress) for p in review.periods] == [("Hand 1", (0, 0, 0), True)]
    assert [(s.rank, s.score) for s in review.standings] == [(1, 0), (1, 0), (1, 0)]
    assert {h.title: h.text for h in review.highlights}["Biggest sale"] == "Nothing has been sold yet."


def test_a_hand_in_progress_is_the_last_row():
    state = replay(carambouille, ["Ana", "Ben", "Cy"], None, [OPEN, close(30), c_sale(ANA, "cheese", 3)])
    rows = review_module.review(state).periods
    assert len(rows) == 1 and rows[0].in_progress and rows[0].totals == (180, 0, 0)
    assert review_module.period_number(state) == 1
