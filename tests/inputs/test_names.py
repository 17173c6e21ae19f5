"""Names that look alike are one name: NFC, no invisible characters, matched whatever the case and accents."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from companion.inputs import names
from companion.extensions import db
from companion.models import Seat
from review.test_review_exchange import export, upload
from review.test_review_sessions import JAIPUR, record_all


@pytest.mark.parametrize("typed, kept", [
    ("Ann\u200b", "Ann"),                  # zero-width space
    ("\ufeffAnn", "Ann"),                  # byte order mark
    ("A\u202enn", "Ann"),                  # right-to-left override
    ("\u2066Ann\u2069", "Ann"),            # isolate controls
    ("Zoe\u0301", "Zoé"),                  # decomposed accent, composed
    ("  Ann   Lee ", "Ann Lee"),
    ("Ma\u00adrie", "Marie"),              # soft hyphen
    ("\U0001F469\u200d\U0001F467", "\U0001F469\u200d\U0001F467"),  # an emoji sequence keeps its joiner
])
def test_a_name_is_kept_in_one_visible_spelling(typed, kept):
    assert names.clean(typed) == kept


@pytest.mark.parametrize("one, other", [("Ann", "ann\u200b"), ("Zoé", "ZOE"), ("Zoe\u0301", "zoé"), ("Ana", "Àna"),
                                        ("Straße", "STRASSE")])
def test_names_that_look_alike_are_one_player(one, other):
    assert names.key(one) == names.key(other)


def test_a_table_refuses_two_players_who_look_the_same(client):
    response = client.post("/new/jaipur", data={"players-0": "Ann", "players-1": "Ann\u200b", "starter": "0",
                                                "bonus": "draw"})
    assert response.status_code == 422 and "Each player needs a different name" in response.text
    response = client.post("/new/jaipur", data={"players-0": "Léa", "players-1": "Lea", "starter": "0", "bonus": "draw"})
    assert response.status_code == 422


def test_invisible_characters_never_reach_the_table(app, client):
    response = client.post("/new/jaipur", data={"players-0": "A\u202enn", "players-1": "Zoe\u0301\u200b",
                                                "starter": "0", "bonus": "draw"})
    assert response.status_code == 303
    with app.app_context():
        assert db.session.scalars(sa.select(Seat.name).order_by(Seat.position)).all() == ["Ann", "Zoé"]


def test_an_imported_file_is_cleaned_the_same_way_and_counted_as_the_same_players(app, client):
    token = record_all(app, *JAIPUR)
    data = json.loads(export(client, token))
    data["players"] = ["ana\u200b", "B\u202een"]
    data["created_at"] = data["created_at"].replace("+00:00", "+01:00")  # another session
    assert upload(client, json.dumps(data).encode()).status_code == 303
    players = client.get("/players").text
    assert players.count('href="/players/') == 2, players  # Ana and Ben, twice each
    assert "\u200b" not in players and "\u202e" not in players
    assert client.get("/players/ANA").status_code == 200 and client.get("/players/%C3%81na").status_code == 200


@pytest.mark.parametrize("start, name, found", [
    ("an", "Ana", True), ("AN", "ana", True), ("  An ", "Ana", True),
    ("an", "Marie Anne", True), ("e", "Éloïse", True), ("chlo", "Chloé", True),
    ("na", "Ana", False), ("anna", "Ana", False), ("", "Ana", False), ("   ", "Ana", False),
])
def test_a_name_is_found_by_its_start_or_the_start_of_one_of_its_words(start, name, found):
    assert names.starting_with(start)(name) is found
