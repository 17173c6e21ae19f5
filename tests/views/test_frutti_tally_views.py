"""Frutti di Mare tallies: the quick-tally page (no table) and a table's round entered from a tally."""

from __future__ import annotations

import html
import re

import pytest
import sqlalchemy as sa

from companion.extensions import db
from companion.models import Entry
from helpers import answered, form_key, make_table

HTMX = {"HX-Request": "true"}
# The rule text's example: octopus 10, mussels 30, sea urchins (its "sea chestnuts") 50.
FINAL = ["shrimp", "octopus", "oysters", "mussels", "sea_urchins"]


def text_of(response) -> str:
    return html.unescape(response.text)


def entry_count(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Entry))


def order(dishes=FINAL) -> dict:
    return {f"order-{i}": s for i, s in enumerate(dishes)}


# --- the quick-tally page --------------------------------------------------------

def test_the_home_page_links_the_quick_tally(client):
    assert "/tally/frutti" in client.get("/").text


def test_the_empty_quick_tally_asks_for_dishes_and_six_players(client):
    response = client.get("/tally/frutti")
    text = text_of(response)
    assert response.status_code == 200 and "Frutti di Mare quick tally" in text
    assert text.count('<select id="quick-order-') == 5 and text.count('name="cards-5-mussels"') == 1
    assert 'class="error"' not in text and "Money this round" not in text


@pytest.mark.parametrize("htmx", [False, True])
def test_the_quick_tally_counts_everyones_money_with_the_arithmetic(client, htmx):
    query = {**order(), "cards-0-name": "Ana", "cards-0-mussels": "2", "cards-0-sea_urchins": "2",
             "cards-0-octopus": "3", "cards-2-shrimp": "7", "cards-3-name": "Dan", "cards-3-octopus": "1",
             "cards-3-oysters": "6"}
    response = client.get("/tally/frutti", query_string=query, headers=HTMX if htmx else {})
    assert response.status_code == 200
    text = text_of(response)
    if htmx:
        assert text.startswith('<div id="tally"') and "<html" not in text
    assert "2 sea urchins × 50 + 3 octopuses × 10 + 2 mussels × 30 = 190" in text
    assert "7 shrimp × 0 = 0" in text and "6 oysters × 20 + 1 octopus × 10 = 130" in text
    standings = re.findall(r'<span class="rank">(\d)\.</span> <span class="name">([^<]+)</span> <span class="money">(\d+)</span>', text)
    assert standings == [("1", "Ana", "190"), ("2", "Dan", "130"), ("3", "Player 3", "0")]
    assert 'value="Ana"' in text  # the form keeps what was entered


@pytest.mark.parametrize("query, message, where", [
    ({**order(), "cards-0-shrimp": "1"}, "Enter the cards of at least 2 players.", "quick-cards-error"),
    ({**order(), "cards-0-shrimp": "5", "cards-0-octopus": "2", "cards-1-shrimp": "5", "cards-1-oysters": "2"},
     "There are only 9 shrimp, not 10.", "quick-cards-error"),
    ({**order(), "cards-0-shrimp": "9", "cards-1-octopus": "1"}, "From 0 to 7 cards.", "quick-cards-0-shrimp-error"),
    ({**order(), "cards-0-shrimp": "4", "cards-0-octopus": "4", "cards-1-octopus": "7"},
     "Player 1 has 8 cards: every player sells exactly 7 a round (played and laid down).", "quick-cards-error"),
    # Fewer than 7 is refused too: a card left out would vanish from the money.
    ({**order(), "cards-0-name": "Ana", "cards-0-shrimp": "7", "cards-1-name": "Bea", "cards-1-octopus": "1"},
     "Bea has 1 card: every player sells exactly 7 a round (played and laid down).", "quick-cards-error"),
    ({**order(["shrimp", "shrimp", "oysters", "mussels", "octopus"]), "cards-0-shrimp": "1", "cards-1-octopus": "1"},
     "Shrimp are under 0 and 10: each dish lies under exactly one stall.", "quick-order-error"),
    ({"cards-0-shrimp": "1", "cards-1-octopus": "1"},
     "Choose the dish under the stalls 0, 10, 20, 30, 50.", "quick-order-error"),
    ({**order(), "cards-0-name": "A\x01", "cards-0-shrimp": "1", "cards-1-octopus": "1"},
     "Names cannot contain control characters.", "cards-0-name-error"),
])
@pytest.mark.parametrize("htmx", [False, True])
def test_an_impossible_quick_tally_is_explained_next_to_the_field(client, query, message, where, htmx):
    response = client.get("/tally/frutti", query_string=query, headers=HTMX if htmx else {})
    assert response.status_code == (200 if htmx else 422)
    text = text_of(response)
    assert re.search(rf'id="{where}"[^>]*>{re.escape(message)}', text)
    assert "Nothing was counted: check the entries marked below." in text  # said at the top, where the page opens
    assert "Money this round" not in text


# --- a table's round from a tally ---------------------------------------------------

def test_a_new_round_offers_entering_it_from_a_tally(app, client):
    token = make_table(app, "frutti", ["Ana", "Ben", "Cy"])
    text = text_of(client.get(f"/t/{token}"))
    assert "Enter this round from a tally…" in text
    assert "Ana's 7 cards" in text and "Cy's 7 cards" in text and 'name="cards-3-shrimp"' not in text


@pytest.mark.parametrize("htmx", [False, True])
def test_a_tallied_round_is_saved_to_the_table(app, client, htmx):
    token = make_table(app, "frutti", ["Ana", "Ben", "Cy"])
    data = {"key": form_key(), **order(), "cards-0-mussels": "2", "cards-0-sea_urchins": "2",
            "cards-0-octopus": "3", "cards-1-shrimp": "7", "cards-2-oysters": "7"}
    response = client.post(f"/t/{token}/frutti/tally", data=data, headers=HTMX if htmx else {})
    assert response.status_code == (200 if htmx else 303)
    text = text_of(client.get(f"/t/{token}"))
    assert "Round 1 money" in text and "(entered from a tally)" in text
    assert "2 sea urchins × 50 + 3 octopuses × 10 + 2 mussels × 30 = 190" in text
    assert "7 oysters × 20 = 140" in text
    assert [int(n) for n in re.findall(r'<span class="points">(\d+)</span>', text)] == [190, 0, 140]
    assert "Round 1 is over" in text and "Enter this round from a tally" not in text


@pytest.mark.parametrize("data, message, where", [
    ({"cards-0-shrimp": "7", "cards-1-shrimp": "3", "cards-1-octopus": "4"}, "There are only 9 shrimp, not 10.",
     "tally-cards-error"),
    ({"cards-0-shrimp": "7", "cards-1-octopus": "4"},
     "Ben has 4 cards: every player sells exactly 7 a round (played and laid down).", "tally-cards-error"),
    ({"cards-0-shrimp": "-1"}, "From 0 to 7 cards.", "tally-cards-0-shrimp-error"),
])
def test_an_impossible_tally_is_refused_next_to_the_field_and_nothing_is_saved(app, client, data, message, where):
    token = make_table(app, "frutti", ["Ana", "Ben"])
    response = answered(client, client.post(f"/t/{token}/frutti/tally", data={"key": form_key(), **order(), **data}),
                        token, "table-tally")
    text = text_of(response)
    assert re.search(rf'id="{where}"[^>]*>{re.escape(message)}', text)
    assert '<details id="table-tally" class="table-tally" open>' in text and entry_count(app) == 0


def test_a_tally_is_refused_once_a_card_is_played(app, client):
    token = make_table(app, "frutti", ["Ana", "Ben"])
    client.post(f"/t/{token}/frutti/dishes", data={"key": form_key(), "how": "table", **order()})
    client.post(f"/t/{token}/frutti/play", data={"key": form_key(), "player": 0, "seafood": "shrimp"})
    assert "Enter this round from a tally" not in text_of(client.get(f"/t/{token}"))
    response = answered(client, client.post(f"/t/{token}/frutti/tally", data={"key": form_key(), **order(),
                                                                             "cards-0-shrimp": "1"}), token, "table-tally")
    assert "A whole round can be entered only at its start, before any card is played." in text_of(response)
    assert entry_count(app) == 2
