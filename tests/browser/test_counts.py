"""Counts on the pages read as each language counts (issue #40), in the four languages.

Jaipur's bonus tokens lying face down ("2 faces cachées"); Carambouille's products with one card left
to sell ("ne resta 1") and the sale form's "at most 1 left"; a two-player results table that fits the
phone asks nobody to swipe.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser.phone import take_seat
from browser.tables import record_table
from review.test_review_sessions import JAIPUR

pytestmark = pytest.mark.browser

LANGUAGES = {"en": "en-GB", "fr": "fr-FR", "de": "de-DE", "it": "it-IT"}
FACE_DOWN = {"en": "2 face down", "fr": "2 faces cachées", "de": "2 verdeckt", "it": "2 coperti"}
ONE_LEFT = {"en": "1 left", "fr": "reste 1", "de": "noch 1", "it": "ne resta 1"}
AT_MOST_ONE = {"en": "(at most 1 left)", "fr": "(au plus 1 restante)", "de": "(höchstens 1 übrig)",
               "it": "(al massimo 1 rimasta)"}


@pytest.fixture(scope="module")
def tables(live_server) -> dict[str, tuple[str, str]]:
    """Jaipur under way (bonus tokens face down) and finished; Carambouille with 4 of the 5 cheeses sold, Ben to sell."""
    cheese = [{"type": "market_opened"}, {"type": "market_closed"},
              {"type": "sale", "player": 0, "product": "cheese", "cards": 4}, {"type": "end_sales_turn", "player": 0}]
    return {
        "jaipur under way": record_table(live_server, *JAIPUR[:3], JAIPUR[3][:5]),
        "jaipur finished": record_table(live_server, *JAIPUR),
        "one cheese left": record_table(live_server, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0}, cheese),
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_bonus_tokens_face_down_are_counted_in_the_plural(new_phone, tables, language):
    phone = new_phone(locale=LANGUAGES[language])
    phone.goto(f"/w/{tables['jaipur under way'][1]}")
    expect(phone.locator(".face-down").first).to_have_text(FACE_DOWN[language])


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_card_left_to_sell_is_counted_in_the_singular(new_phone, tables, language):
    phone = new_phone(locale=LANGUAGES[language])
    phone.goto(f"/t/{tables['one cheese left'][0]}")
    take_seat(phone, 1)
    product = phone.locator("select#sale-product")
    expect(product.locator("option[value=cheese]")).to_contain_text(f"— {ONE_LEFT[language]}")
    product.select_option("cheese")
    expect(phone.locator("#sale-form fieldset legend").first).to_contain_text(AT_MOST_ONE[language])
    assert phone.errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_two_players_results_fit_the_phone_and_ask_nobody_to_swipe(new_phone, tables, language):
    phone = new_phone(locale=LANGUAGES[language])
    phone.goto(f"/w/{tables['jaipur finished'][1]}/results")
    expect(phone.locator(".breakdown table")).to_be_visible()
    # Neither the breakdown nor the evening's tally under it asks to swipe.
    expect(phone.locator(".scroll-hint:visible")).to_have_count(0)
    hint = phone.locator(".table-scroll", has=phone.locator(".breakdown")).locator(".scroll-hint")
    assert "2" not in hint.inner_text()  # "for all 2 players" no more
