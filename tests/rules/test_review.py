"""The shapes every game's review returns: the standings as the pages show them, a team once (``Review.places``)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules.review import Review, Standing, first_placed, ranked


def review_of(scores, sides=()):
    standings = ranked(scores)
    return Review("Round", "Points", "Points", standings, first_placed(standings), (), (), sides=sides)


@pytest.mark.parametrize("scores, sides, places", [
    # Every seat alone: the standings as they are.
    ((10, 30, 20), (), [(1, 1, (1,)), (2, 2, (2,)), (3, 0, (0,))]),
    ((10, 10, 5), (), [(1, 0, (0,)), (1, 1, (1,)), (3, 2, (2,))]),
    # Belote: two teams, each once, second is 2nd (not 3rd as its players are).
    ((162, 20, 162, 20), ((0, 2), (1, 3)), [(1, 0, (0, 2)), (2, 1, (1, 3))]),
    # Three teams, two of them equal: 1, 1, 3.
    ((50, 50, 80, 80, 50, 50), ((0, 1), (2, 3), (4, 5)), [(1, 2, (2, 3)), (2, 0, (0, 1)), (2, 4, (4, 5))]),
    ((9, 9, 9, 9), ((0, 3), (1, 2)), [(1, 0, (0, 3)), (1, 1, (1, 2))]),
])
def test_a_team_stands_once_and_ranks_among_the_teams(scores, sides, places):
    assert [(place.rank, place.seat, seats) for place, seats in review_of(scores, sides).places] == places


@given(st.lists(st.integers(-50, 50), min_size=2, max_size=4).flatmap(
    lambda team_scores: st.permutations(range(2 * len(team_scores))).map(lambda order: (team_scores, order))))
def test_the_places_of_teams_are_the_standings_of_the_teams_alone(case):
    team_scores, order = case
    # Each team of two, its seats anywhere round the table, both scored the team's total.
    sides = tuple(tuple(sorted(order[2 * team:2 * team + 2])) for team in range(len(team_scores)))
    scores = [0] * (2 * len(team_scores))
    for team, seats in enumerate(sides):
        for seat in seats:
            scores[seat] = team_scores[team]
    places = review_of(scores, sides).places
    alone = ranked(team_scores)
    assert sorted(seats for _place, seats in places) == sorted(sides)
    assert [(place.rank, place.score) for place, _seats in places] == [(s.rank, s.score) for s in alone]
    assert all(isinstance(place, Standing) and place.seat in seats for place, seats in places)
