"""A new table offers the people of earlier tables: one name per person, most played first."""

from __future__ import annotations

import re

import sqlalchemy as sa

from companion import groups
from companion.extensions import db
from companion.models import REMOVED, Table
from companion.review.history import known_players
from helpers import make_table


def tables(app, *seatings: list[str], game: str = "frutti") -> list[str]:
    return [make_table(app, game, names) for names in seatings]


def test_the_most_played_come_first_then_by_name(app):
    tables(app, ["Cy", "Ben", "Ana"], ["Ben", "Ana"], ["Ana", "Dee"], ["Ana", "Ben"])
    with app.app_context():
        assert known_players(groups.home_group().id) == ["Ana", "Ben", "Cy", "Dee"]


def test_one_person_whatever_the_case_spaces_and_accents_in_the_spelling_used_most(app):
    tables(app, ["chloé", "Ben"], ["Chloé", "Ben"], ["Chloé ", "Ben"], ["CHLOE", "Ana"])
    with app.app_context():
        # Chloé played at four tables, Ben at three: Chloé first, spelled as typed most often.
        assert known_players(groups.home_group().id) == ["Chloé", "Ben", "Ana"]


def test_a_session_removed_from_the_history_is_forgotten_and_the_list_is_bounded(app):
    removed, _kept = tables(app, ["Zed", "Ana"], ["Ana", "Ben"])
    with app.app_context():
        db.session.execute(sa.update(Table).where(Table.token == removed).values(status=REMOVED))
        db.session.commit()
        assert known_players(groups.home_group().id) == ["Ana", "Ben"]
        assert known_players(groups.home_group().id, limit=1) == ["Ana"]


def test_the_new_table_page_offers_them_as_taps_and_as_suggestions_while_typing(app, client):
    tables(app, ["Ben", "Ana"], ["Ana", "Cy"])
    page = client.get("/new/carambouille").get_data(as_text=True)
    assert re.findall(r'data-known-name="([^"]+)"', page) == ["Ana", "Ben", "Cy"]
    assert re.findall(r'<option value="([^"]+)"></option>', page.split('<datalist id="known-players">')[1]
                      .split("</datalist>")[0]) == ["Ana", "Ben", "Cy"]
    assert page.count('list="known-players"') == 7  # every name field of a Carambouille table
    assert "players.js" in page


def test_a_first_table_ever_offers_nothing(client):
    page = client.get("/new/jaipur").get_data(as_text=True)
    assert "known-players" not in page and "players.js" not in page


def test_a_refused_table_still_offers_them(app, client):
    tables(app, ["Ana", "Ben"])
    answer = client.post("/new/jaipur", data={"players-0": "Ana", "starter": "random"})
    assert answer.status_code == 422
    assert re.findall(r'data-known-name="([^"]+)"', answer.get_data(as_text=True)) == ["Ana", "Ben"]
