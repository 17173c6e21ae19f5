"""Before a game: the new table's quiet line of each player's chance of winning, OpenSkill's own prediction from the
group's ratings at the game, for the players with history there; on the new table's form, never on a table's
paths."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, strategies as st
from openskill.models import PlackettLuce

from companion.review import ratings
from groups.tables import group_named, member_of, played
from review.test_evenings import text_of
from review.test_ratings import session
from review.test_review_sessions import CARAMBOUILLE, FRUTTI, JAIPUR, record_all


def line_of(response) -> str:
    """The line as the phone shows it, without its tags (an ask's answer is the line alone)."""
    return " ".join(re.sub(r"<[^>]+>", "", text_of(response)).split())


ROWS = ratings.ladder([session(1, ["Ana", "Ben", "Cy"], (1, 2, 3)), session(2, ["Ana", "Ben"], (1, 2)),
                       session(3, ["Cy", "Ben", "Ana"], (1, 2, 3))]).standings()


@pytest.mark.parametrize("seated, named", [
    (["Ana", "Ben", "Cy"], ["Ana", "Ben", "Cy"]),
    (["Cy", "Ana"], ["Cy", "Ana"]),
    (["Ana", "Dario", "Ben"], ["Ana", "Ben"]),  # a newcomer plays at the first rating, unnamed
    (["Ana", "Dario"], []),  # one player with history: no line
    (["Ana", "ana"], []),  # the same person twice: no line
])
def test_the_chances_are_the_packages_own_prediction_for_those_with_history(seated, named):
    model = PlackettLuce()
    known = {row.key: row for row in ROWS}
    expected = model.predict_win([[model.rating(mu=known[name.lower()].mu, sigma=known[name.lower()].sigma)
                                   if name.lower() in known else model.rating()] for name in seated])
    found = ratings.chances(ROWS, seated)
    assert [name for name, _ in found] == named
    assert [chance for _, chance in found] == [chance for name, chance in zip(seated, expected) if name in named]


@given(st.permutations(["Ana", "Ben", "Cy"]))
def test_the_order_of_the_seats_changes_no_ones_chance(order):
    chances = dict(ratings.chances(ROWS, order))
    assert chances == pytest.approx(dict(ratings.chances(ROWS, ["Ana", "Ben", "Cy"])))
    assert sum(chances.values()) == pytest.approx(1)


def test_the_new_tables_form_asks_for_the_line_as_names_are_typed(app, client):
    record_all(app, *JAIPUR)
    page = client.get("/new/jaipur").text
    assert re.search(r'<p id="chances" class="chances" aria-live="polite" hx-get="/new/jaipur/chances"', page)
    assert "/t/" not in re.search(r'<p id="chances"[^>]*>', page).group(0)


def test_the_line_names_each_players_chance_at_that_game(app, client):
    for session_ in (JAIPUR, JAIPUR, CARAMBOUILLE, FRUTTI):
        record_all(app, *session_)
    jaipur = line_of(client.get("/new/jaipur/chances?players-0=Ben&players-1=Ana"))
    assert re.fullmatch(r"Chances from your past games: Ben (\d+)%, Ana (\d+)%", jaipur)
    ben, ana = map(int, re.findall(r"(\d+)%", jaipur))
    assert ben > ana and 99 <= ben + ana <= 101  # Ben won both matches
    # Carambouille's own ratings: Ana won the only game; a newcomer is not named.
    three = line_of(client.get("/new/carambouille/chances?players-0=Cy&players-1=Ana&players-2=Dario"))
    assert three.startswith("Chances from your past games: Cy ") and "Dario" not in three
    for nothing in ("/new/jaipur/chances?players-0=Ben&players-1=Dario", "/new/jaipur/chances",
                    "/new/sheet/chances?players-0=Ana&players-1=Ben",  # a sheet not named yet
                    "/new/sheet/chances?players-0=Ana&players-1=Ben&name=Skat",  # a game never played
                    "/new/frutti/chances?players-0=Ana&players-1=Ben&teams-0=1"):
        answer = client.get(nothing)
        assert answer.status_code == 200 and line_of(answer) == "", nothing
    assert client.get("/new/chess/chances").status_code == 404


def test_the_line_speaks_the_phones_language(app, client):
    record_all(app, *JAIPUR)
    french = client.get("/new/jaipur/chances?players-0=Ben&players-1=Ana", headers={"Accept-Language": "fr"})
    assert re.fullmatch(r"Chances d’après vos parties : Ben \d+ %, Ana \d+ %", line_of(french))


def test_each_group_reads_its_own_ratings_and_no_group_reads_none(app):
    app.config["GROUPS"] = "private"
    otters, badgers = group_named(app, "Otters"), group_named(app, "Badgers")
    played(app, otters, ["Ana", "Ben", "Cy"])
    otter, badger, stranger = app.test_client(), app.test_client(), app.test_client()
    member_of(otter, otters)
    member_of(badger, badgers)
    asked = "/new/frutti/chances?players-0=Ana&players-1=Ben&players-2=Cy"
    assert line_of(otter.get(asked)).startswith("Chances from your past games: Ana")
    assert line_of(badger.get(asked)) == ""  # the same names, another group: nothing of the otters'
    assert stranger.get(asked).status_code == 404
