"""Frutti di Mare is worded per phone: its refusals, entries, review, forms and pages go through gettext.

The real catalogs are filled later, so a stub catalog (the ``marked`` fixture) stands in for a language: it
puts every message it is asked for between « and ». Whatever comes out marked went through gettext at the
moment it was shown.
"""

from __future__ import annotations

import html

import pytest

from companion.rules import RuleError, frutti
from companion.rules.frutti import review as frutti_review
from helpers import answered, form_key, make_table

TABLE = ["shrimp", "oysters", "mussels", "octopus", "sea_urchins"]


def playing(players=("Ana", "Bea")):
    return frutti.apply(frutti.new_game(list(players)), {"type": "dishes", "order": TABLE})


def test_a_refusal_is_worded_when_it_is_raised(marked):
    with pytest.raises(RuleError) as refused:
        frutti.apply(playing(), {"type": "play", "player": 1, "seafood": "shrimp"})
    assert refused.value.message == "«It is Ana's turn, not Bea's.»"
    with pytest.raises(RuleError) as refused:
        frutti.apply(playing(), {"type": "suspend", "player": 0, "hand": {"shrimp": 2}})
    # One plural message for the cards left, the cards played worded by their own.
    assert refused.value.message == (
        "«Ana has played «0 cards», so 7 cards are left in hand: lay all 7 down, not 2.»")


def test_entries_and_seafood_names_are_worded_when_shown(marked):
    state = playing()
    text = frutti.describe(state, {"type": "play", "player": 0, "seafood": "octopus"})
    assert text == "«Ana played «octopus»: ««octopus» 30 → 50», ««sea urchins» 50 → 30».»"
    assert frutti.cards_words((2, 0, 1, 0, 0)) == "«2 shrimp», «1 oyster»"
    assert frutti.describe(state, {"type": "next_round"}).startswith("«Refused entry: «Round 1 is not over")


def test_the_review_is_worded_when_it_is_asked_for(marked):
    state = frutti.apply(frutti.new_game(["Ana", "Bea"]), {
        "type": "tally", "order": TABLE, "cards": [{"sea_urchins": 7}, {"shrimp": 7}]})
    review = frutti_review.review(state)
    # The names are English keys the review pages word in whole sentences (companion/review/words.py).
    assert (review.period_name, review.score_name) == ("Round", "Money")
    assert review.periods[0].label == "«Round 1»"
    assert review.periods[0].note == "«Ana started, entered at once»"
    assert {h.title for h in review.highlights} == {"«Best round»", "«Most-played seafood»"}


def test_nothing_is_worded_at_import_or_kept_in_the_state(marked):
    # The tables hold the English sources: they are worded where shown, never when the module loads.
    assert frutti.PLURAL["sea_urchins"] == "sea urchins" and frutti.CARDS["oysters"] == "oyster cards"
    assert frutti_review.PERIOD_NAME == "Round" and frutti.STARTER_LABEL == "Starts the first round"
    # The state (kept in the per-process cache) holds data only; its words are made when read.
    state = frutti.apply(playing(), {"type": "play", "player": 0, "seafood": "octopus"})
    assert "«" not in repr(state)
    assert frutti.last_move_words(state) == "««octopus» 30 → 50», ««sea urchins» 50 → 30»"


def test_the_form_labels_made_at_import_are_worded_per_request(app, marked):
    from companion.forms.frutti import DISH_CHOICES, HOW_CHOICES, CardsRow

    with app.test_request_context():
        assert [str(text) for _, text in DISH_CHOICES[:2]] == ["«Choose…»", "«shrimp»"]
        assert str(HOW_CHOICES[0][1]) == "«Keep the current order»"
        assert str(CardsRow().sea_urchins.label.text) == "«sea urchins»"


def test_the_quick_tally_page_and_its_errors_are_worded(client, marked):
    page = html.unescape(client.get("/tally/frutti").text)
    assert "«Frutti di Mare quick tally»" in page and "«Count the money»" in page
    assert "«Player 1»" in page and ">«oysters»</option>" in page
    refused = html.unescape(client.get("/tally/frutti", query_string={"order-0": "shrimp"}).text)
    assert "«Nothing was counted: check the entries marked below.»" in refused
    assert "«Choose the dish under the stalls 10, 20, 30, 50.»" in refused
    assert "«Enter the cards of at least 2 players.»" in refused


def test_the_table_page_history_and_refusals_are_worded(app, client, marked):
    token = make_table(app, "frutti", ["Ana", "Bea"], {"first_player": 0})
    layout = {f"order-{i}": s for i, s in enumerate(TABLE)}
    client.post(f"/t/{token}/frutti/dishes", data={"key": form_key(), "how": "table", **layout})
    page = html.unescape(client.get(f"/t/{token}").text)
    # A phone of nobody: waiting, Ana's seafood behind "Play for Ana from this phone".
    assert "«Waiting for Ana»" in page and "«Play for Ana from this phone»" in page
    assert "«Round 1 dishes: " in page and "«played, it drops to 0»" in page
    refused = answered(client, client.post(f"/t/{token}/frutti/play", data={"key": form_key(), "player": 1,
                                                                           "seafood": "shrimp"}), token, "play-form")
    assert "«It is Ana's turn, not Bea's.»" in html.unescape(refused.text)
