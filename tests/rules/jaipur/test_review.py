"""Jaipur's session review on a known match: rounds, seals, biggest sale, bonus tokens, face-down bonuses."""

from companion.rules import jaipur, replay
from companion.rules.jaipur import review as review_module
from review.test_review_sessions import ANA, BEN, JAIPUR, J_NEXT, camels, j_sale


def match(events=None):
    _, players, options, all_events = JAIPUR
    return replay(jaipur, players, options, all_events if events is None else events)


def test_the_three_round_match_round_by_round():
    review = review_module.review(match())
    assert (review.period_name, review.score_name, review.chart_name) == ("Round", "Seals", "Points")
    assert [(s.rank, s.seat, s.score) for s in review.standings] == [(1, BEN, 2), (2, ANA, 1)]
    assert review.winners == (BEN,)
    assert [(p.gains, p.totals, p.note) for p in review.periods] == [
        ((64, 66), (64, 66), "Ben wins 66 to 64"),
        ((17, 8), (81, 74), "Ana wins 17 to 8"),
        ((14, 17), (95, 91), "Ben wins 17 to 14"),
    ]
    # The points behind the seals stand beside the standings: Ana has more, yet Ben won the match.
    assert review.extra == (95, 91) and review.extra_name == "Points"
    # A player's record counts what wins a match: rounds and seals, never points summed over rounds.
    assert review.record == ({"rounds_won": 1, "rounds": 3, "seals": 1, "seals_lost": 2},
                             {"rounds_won": 2, "rounds": 3, "seals": 2, "seals_lost": 1})
    assert [(s.label, s.how) for s in review.stats] == [("Rounds won", "out_of"), ("Seals won–lost", "won_lost")]
    assert review.session_name == "Matches"


def test_the_highlights():
    lines = {h.title: h.text for h in review_module.highlights(match())}
    assert lines == {
        "Biggest sale": "Ana sold 5 spice for 15 and a bonus token of 10: 25, in round 1.",
        "Bonus tokens": "Ana 3 tokens worth 14; Ben 3 tokens worth 9.",
        "Seals of excellence": "Ana 1 (round 2); Ben 2 (rounds 1 and 3).",
        "Camel token": "Ben in rounds 1 and 3.",
    }


def test_a_round_being_played_never_shows_a_bonus_value():
    state = match([j_sale(ANA, "leather", 3, bonus=3), j_sale(BEN, "cloth", 2)])
    review = review_module.review(state)
    assert review.periods[0].in_progress and review.periods[0].gains == (9, 8)  # goods tokens only
    lines = {h.title: h.text for h in review.highlights}
    assert lines["Biggest sale"] == (
        "Ana sold 3 leather for 9 and a bonus token (face down until the round is scored), in round 1.")
    assert "3" not in lines["Bonus tokens"] and lines["Seals of excellence"] == "No round has been scored yet."
    assert [(s.rank, s.score) for s in review.standings] == [(1, 0), (1, 0)]


def test_a_drawn_round_is_named_and_gives_no_seal():
    state = match([j_sale(ANA, "silver", 2), j_sale(BEN, "silver", 2), {"type": "end_round"}, camels(3, 3), J_NEXT])
    lines = {h.title: h.text for h in review_module.highlights(state)}
    assert lines["Seals of excellence"] == "Ana 0; Ben 0. Drawn: round 1, no seal."
    assert lines["Camel token"] == "Nobody: the herds were equal every time."
    assert review_module.period_number(state) == 2
