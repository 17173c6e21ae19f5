"""The rating: OpenSkill's Plackett-Luce model as the ``openskill`` package computes it, session by session.

Tables of cases against the package itself (ties, teams, a lowest-wins sheet, twelve players, a forgotten
person's seat), and properties: a win never lowers the winner's μ against the same field, the order the seats are
listed in changes nothing, and folding sessions one by one onto a kept ladder equals folding them all again.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from companion.review.ratings import PROVISIONAL, Ladder, ladder, shown
from companion.review.stats import Outcome

T0 = datetime(2026, 10, 2, 20, 0, tzinfo=UTC)
NAMES = ["Ana", "Ben", "Cy", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo", "Kim", "Lea"]


def session(number: int, players, ranks, sides=(), finished=True) -> Outcome:
    winners = tuple(seat for seat, rank in enumerate(ranks) if rank == 1)
    return Outcome(number, "sheet", "Hearts", T0 + timedelta(hours=number), finished, tuple(players), winners, (),
                   "", ranks=tuple(ranks), sides=tuple(tuple(side) for side in sides))


def by_package(teams: list[list[str]], ranks: list[int]) -> dict[str, tuple[float, float]]:
    """What the package itself gives each named player of one session among newcomers."""
    model = PlackettLuce()
    rated = model.rate([[model.rating() for _ in team] for team in teams], ranks=ranks)
    return {name: (new.mu, new.sigma) for team, news in zip(teams, rated) for name, new in zip(team, news)}


def of_ladder(found: Ladder) -> dict[str, tuple[float, float]]:
    return {row.name: (row.mu, row.sigma) for row in found.standings()}


def close_to(found: dict, expected: dict) -> bool:
    return found.keys() == expected.keys() and all(
        abs(found[k][0] - expected[k][0]) < 1e-9 and abs(found[k][1] - expected[k][1]) < 1e-9 for k in found)


# (what, players, places, sides, the teams and places as the package is given them)
CASES = [
    ("three players, three places", NAMES[:3], (2, 1, 3), (), [["Ben"], ["Ana"], ["Cy"]], [1, 2, 3]),
    ("a shared first place is a tie", NAMES[:3], (1, 1, 3), (), [["Ana"], ["Ben"], ["Cy"]], [1, 1, 3]),
    ("two teams of two, rated as teams", NAMES[:4], (2, 1, 2, 1), ((0, 2), (1, 3)),
     [["Ben", "Dan"], ["Ana", "Cy"]], [1, 2]),
    # A sheet of Hearts, the lowest score first: its places are the review's (Dan, with the fewest points, first).
    ("a lowest-wins sheet by its places", NAMES[:4], (4, 2, 3, 1), (), [["Dan"], ["Ben"], ["Cy"], ["Ana"]],
     [1, 2, 3, 4]),
    ("a sheet of twelve, two sharing fifth", NAMES, (1, 2, 3, 4, 5, 5, 7, 8, 9, 10, 11, 12), (),
     [[name] for name in NAMES], [1, 2, 3, 4, 5, 5, 7, 8, 9, 10, 11, 12]),
]


@pytest.mark.parametrize("what, players, places, sides, teams, ranks", CASES, ids=[case[0] for case in CASES])
def test_a_session_rates_as_the_openskill_package_does(what, players, places, sides, teams, ranks):
    found = ladder([session(1, players, places, sides)])
    assert close_to(of_ladder(found), by_package(teams, ranks))


def test_a_forgotten_persons_seat_plays_as_a_newcomer_kept_by_no_name():
    found = ladder([session(1, ["Ana", "Player 2", "Cy"], (2, 1, 3)), session(2, ["Ana", "Player 2", "Cy"], (2, 1, 3))])
    model = PlackettLuce()
    first = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[2, 1, 3])
    # The second time "Player 2" is a newcomer again, not the one who won the first.
    second = model.rate([[first[0][0]], [model.rating()], [first[2][0]]], ranks=[2, 1, 3])
    assert close_to(of_ladder(found), {"Ana": (second[0][0].mu, second[0][0].sigma),
                                       "Cy": (second[2][0].mu, second[2][0].sigma)})


def test_unfinished_sessions_and_one_side_alone_rate_nobody():
    assert ladder([session(1, NAMES[:3], (1, 2, 3), finished=False)]).standings() == []
    assert ladder([session(1, NAMES[:2], (1, 1), sides=((0, 1),))]).standings() == []


def test_the_shown_rating_starts_at_1000_and_a_player_is_provisional_under_five_games():
    model = PlackettLuce()
    assert shown(model.mu, model.sigma) == 1000
    found = ladder([session(i, NAMES[:3], (1, 2, 3)) for i in range(PROVISIONAL)])
    ana = found.standings()[0]
    assert ana.name == "Ana" and ana.games == ana.wins == PROVISIONAL and not ana.provisional
    assert ladder([session(1, NAMES[:3], (1, 2, 3))]).standings()[0].provisional
    # Each session's change of each player's shown rating, as the results page shows it.
    one = ladder([session(1, NAMES[:3], (1, 2, 3))])
    assert one.changes[1]["ana"] == (one.standings()[0].rating - 1000, one.standings()[0].rating)
    assert one.changes[1]["ana"][0] > 0 > one.changes[1]["cy"][0]


def sessions_strategy(max_size=12):
    seat_count = st.integers(2, 5)

    def one(count):
        return st.tuples(st.permutations(NAMES[:6]).map(lambda names: names[:count]),
                         st.lists(st.integers(1, count), min_size=count, max_size=count))

    return st.lists(seat_count.flatmap(one), min_size=1, max_size=max_size)


def as_sessions(drawn) -> list[Outcome]:
    return [session(i, players, ranks) for i, (players, ranks) in enumerate(drawn)]


@given(sessions_strategy(), st.integers(2, 5), st.data())
def test_a_win_never_lowers_the_winners_mu_against_the_same_field(history, count, data):
    field = data.draw(st.permutations(NAMES[:6])).copy()[:count]
    # A win: first alone (a first place shared with a weaker player is a tie, and may cost μ).
    places = [1] + data.draw(st.lists(st.integers(2, count), min_size=count - 1, max_size=count - 1))
    found = ladder(as_sessions(history))
    before = {row.key: row.mu for row in found.standings()}
    found.add(session(len(history), field, places))
    winner = field[0].lower()
    assert found.ratings[winner].mu >= before.get(winner, PlackettLuce().mu) - 1e-9


@given(sessions_strategy(), st.randoms(use_true_random=False))
def test_the_order_the_seats_are_listed_in_changes_nothing(history, random):
    shuffled = []
    for i, (players, ranks) in enumerate(history):
        order = list(range(len(players)))
        random.shuffle(order)
        shuffled.append(session(i, [players[k] for k in order], [ranks[k] for k in order]))
    assert close_to(of_ladder(ladder(shuffled)), of_ladder(ladder(as_sessions(history))))


@given(sessions_strategy(), st.data())
def test_a_kept_ladder_extended_equals_every_session_folded_again_after_any_undo(history, data):
    sessions = as_sessions(history)
    # An undo takes one session out of the rated ones (its result no longer final): the ladder kept up to it is
    # extended by the sessions after it, and equals all of them folded from scratch.
    undone = data.draw(st.integers(0, len(sessions) - 1))
    kept = ladder(sessions[:undone])
    for outcome in sessions[undone + 1:]:
        kept.add(outcome)
    again = ladder(sessions[:undone] + sessions[undone + 1:])
    assert close_to(of_ladder(kept), of_ladder(again))
    assert {row.key: (row.games, row.wins) for row in kept.standings()} == {
        row.key: (row.games, row.wins) for row in again.standings()}
