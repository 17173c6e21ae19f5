"""The memo card's quick calculator says why a sale it is asked has no value (issue #40), in the four languages.

Five lemons and an Illusion: the rules refuse (an Illusion cannot value a sale past 5 cards), and the
result box says so instead of asking for a product and a number of cards, both of which are chosen.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LANGUAGES = {"en": "en-GB", "fr": "fr-FR", "de": "de-DE", "it": "it-IT"}
NO_VALUE = {
    "en": "No value: Illusion cannot value a sale past 5 cards.",
    "fr": "Pas de valeur : Illusion ne peut pas valoriser une vente au-delà de 5 cartes.",
    "de": "Kein Wert: Illusion kann einen Verkauf nicht über 5 Karten hinaus bewerten.",
    "it": "Nessun valore: Illusione non può valutare una vendita oltre le 5 carte.",
}
CHOOSE = {"en": "Choose a product", "fr": "Choisis un produit", "de": "Wähle eine Ware", "it": "Scegli un prodotto"}


def ask_five_lemons_and_an_illusion(phone) -> None:
    calculator = phone.locator("#calculator")
    calculator.locator("select#calc-product").select_option("lemons")
    calculator.locator("label.pill", has=phone.locator("input[value='5']")).click()
    expect(calculator.locator("input[name=cards][value='5']")).to_be_checked()
    calculator.locator("select#calc-effect-0").select_option("illusion")


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_impossible_illusion_is_explained_where_the_value_would_be(new_phone, live_server, language):
    phone = new_phone(locale=LANGUAGES[language])
    phone.goto("/memo/carambouille")
    ask_five_lemons_and_an_illusion(phone)
    result = phone.locator("#calculator .calc-result")
    expect(result).to_have_text(NO_VALUE[language])
    expect(result).not_to_contain_text(CHOOSE[language])
    # Taken back, the sale has its value again.
    phone.locator("#calculator select#calc-effect-0").select_option("")
    expect(result.locator(".sale-value")).to_contain_text("360")
    assert phone.errors == []


def test_without_javascript_work_it_out_explains_it_too(new_phone, live_server):
    phone = new_phone(java_script_enabled=False, locale="fr-FR")
    phone.goto("/memo/carambouille?product=lemons&cards=5")
    phone.locator("select#calc-effect-0").select_option("illusion")
    phone.locator("#calculator button[type=submit]").click()
    expect(phone.locator("#calculator .calc-result")).to_have_text(NO_VALUE["fr"])


def test_a_change_made_the_moment_an_answer_lands_is_answered(new_phone, live_server):
    """A quick second tap, made as the first one's answer is drawn, is not lost (htmx wires the new form at once)."""
    phone = new_phone(locale="en-GB")
    phone.goto("/memo/carambouille?product=lemons&cards=5")
    # The moment the next answer is in the page, the first sale card is taken back, as a quick thumb would.
    phone.evaluate(
        """() => document.addEventListener("htmx:afterSwap", () => setTimeout(() => {
            const select = document.querySelector("#calc-effect-0");
            select.value = "";
            select.dispatchEvent(new Event("change", {bubbles: true}));
        }, 0), {once: true})"""
    )
    phone.locator("#calculator select#calc-effect-0").select_option("illusion")
    result = phone.locator("#calculator .calc-result")
    expect(result.locator(".sale-value")).to_contain_text("360")
    expect(phone.locator("#calculator select#calc-effect-0")).to_have_value("")
    assert phone.errors == []
