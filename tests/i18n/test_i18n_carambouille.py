"""Carambouille speaks each phone's language: its refusals, history sentences, card and product names and pages
all go through gettext when shown, and nothing is worded once at import.

The real catalogs are filled elsewhere; here the stub catalog (the ``marked`` fixture) marks every message it words
with «…», so a test sees which text went through it (and English stays the source when no catalog is installed).
"""

from __future__ import annotations

import pytest

from companion.forms import carambouille as forms
from companion.rules import RuleError
from companion.rules import carambouille as game
from companion.rules.carambouille import review
from helpers import make_table


def selling(players=("Ana", "Ben", "Cy")):
    state = game.new_game(list(players))
    for event in ({"type": "market_opened"}, {"type": "market_closed", "seconds": 75}):
        state = game.apply(state, event)
    return state


def test_a_refusal_is_worded_when_raised(marked):
    with pytest.raises(RuleError) as refused:
        game.apply(selling(), {"type": "sale", "player": 1, "product": "cheese", "cards": 3})
    assert refused.value.message == "«It is Ana's sales turn, not Ben's.»"


def test_where_the_hand_stands_is_worded_inside_the_refusal(marked):
    with pytest.raises(RuleError) as refused:
        game.apply(game.new_game(["Ana", "Ben", "Cy"]), {"type": "end_sales_turn", "player": 0})
    assert refused.value.message == (
        "«Ending a sales turn happens in the sales phase; now «Ana has not rung the bell to open the market yet».»")


def test_a_history_sentence_words_the_cards_and_the_products(marked):
    sale = {"type": "sale", "player": 0, "product": "truffles", "cards": 2,
            "effects": [{"card": "illusion", "player": 0}]}
    said = game.describe(selling(), sale)
    assert said == "«Ana sold «2 «truffles»» for 225, ««Illusion» by Ana → 405».»"
    assert game.describe(selling(), {"type": "market_closed", "seconds": 75}).startswith(
        "«Ding-a-Ding! The market closed after «1 min 15 s»")


def test_the_review_is_worded_when_asked(marked):
    state = game.apply(selling(), {"type": "sale", "player": 0, "product": "onions", "cards": 1})
    drawn = review.review(state)
    # The names are English keys the review pages word in whole sentences (companion/review/words.py).
    assert drawn.period_name == "Hand" and drawn.periods[0].label == "«Hand 1»"
    assert {h.title for h in drawn.highlights} >= {"«Biggest sale»", "«Longest market»"}


def test_without_a_catalog_the_source_english_is_shown():
    assert game.describe(selling(), {"type": "i_lied", "player": 2}) == "Cy played “I lied!”."
    assert game.card_name("bargain") == "Bargain"


def test_nothing_is_worded_at_import(app, marked):
    # The tables kept at module level hold the English keys; they are worded only where shown.
    assert game.CARD_NAMES["bargain"] == "Bargain" and game.card_name("bargain") == "«Bargain»"
    assert game.STARTER_LABEL == "First Trader (takes the bell)"
    assert game.PRODUCT_BY_SLUG["cheese"].name == "cheese" and game.PRODUCT_BY_SLUG["cheese"].label() == "«cheeses»"
    # The forms' labels and choices, built at import, are lazy: worded in the request that shows them.
    assert not isinstance(forms.CARD_CHOICES[0][1], str) and not isinstance(forms.PRODUCT_CHOICES[0][1], str)
    with app.test_request_context():
        form = forms.SaleForm(formdata=None)
        assert str(form.product.label.text) == "«Product»"
        assert str(forms.CARD_CHOICES[1][1]) == "«“I lied!”»"


def test_the_table_page_words_its_labels_and_the_rules_sentences(app, client, marked):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0})
    page = client.get(f"/t/{token}/carambouille/sale?product=cheese&cards=3&player=0")
    assert page.status_code == 200
    # A button of the page, a card's name, and a refusal of the rules (a sale before the market), all through gettext.
    assert "«End the game now»" in page.text and "«Basket» <strong>0</strong>/4" in page.text
    assert "«Selling happens in the sales phase; now «Ana has not rung the bell to open the market yet».»" in page.text
    memo = client.get(f"/t/{token}/memo?product=cheese&cards=3")
    assert "«Quick calculator»" in memo.text and "«cheeses» (40)" in memo.text and "<li>«3 × «cheeses» = 180»</li>" in memo.text
