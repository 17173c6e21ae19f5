"""A phone that answered "Just watching" shows the table and no control that records, in every language;
the pad for everyone (one phone passed round) records for the player whose turn it is, and every watching
phone shows the entry's own sentence and the new scores.

Asserted on what is on the screen: the watching phone's visible buttons, fields and choices in the table's
region (the seat picker's summary aside, which changes only what the phone itself shows).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.phone import scores, sit_on_table, tap_once
from browser.tables import record_table
from browser.test_carambouille_taps import HAND_1, PLAYERS, SALES

pytestmark = pytest.mark.browser
# The answer "Just watching" and what the phone then says of itself, in each language.
WATCHING = {
    "en": ("Just watching", "This phone is just watching"),
    "fr": ("Je regarde seulement", "Ce téléphone regarde seulement"),
    "de": ("Nur zuschauen", "Dieses Handy schaut nur zu"),
    "it": ("Guardo soltanto", "Questo telefono guarda soltanto"),
}
FRUTTI_DISHES = {"type": "dishes", "order": ["shrimp", "oysters", "mussels", "octopus", "sea_urchins"]}
TABLES = {
    "carambouille": (PLAYERS, {"first_trader": 2}, HAND_1 + SALES),
    "frutti": (["Ana", "Ben", "Cleo"], {}, [FRUTTI_DISHES]),
    "jaipur": (["Ana", "Ben"], {"bonus": "draw", "first_player": 0}, []),
}


def controls(phone):
    """What a person could tap or fill in, in the table's region: visible buttons, fields, choices, and what
    opens a form ("Play for Cleo from this phone"), the seat picker aside."""
    shown = phone.locator("#live").locator("button, input:not([type=hidden]), select, textarea, a[role=button], "
                                           "details:not(.seat-picker):has(form) > summary")
    return [text for text in (control.evaluate("c => c.textContent.trim() || c.name || c.id")
                              for control in shown.all() if control.is_visible())]


@pytest.mark.parametrize("game", sorted(TABLES))
@pytest.mark.parametrize("language", sorted(WATCHING))
def test_a_watching_phone_shows_no_control_that_records(new_phone, live_server, game, language):
    players, options, events = TABLES[game]
    token, _watch = record_table(live_server, game, players, options, events)
    answer, said = WATCHING[language]
    phone = new_phone(locale=language)
    phone.goto(f"/t/{token}")
    phone.locator("section.who").get_by_role("button", name=re.compile("^" + answer)).click()
    expect(phone.locator(".seat-picker summary")).to_have_text(said)
    sit_on_table(phone)
    assert controls(phone) == []
    # Nor in the bar: the bell rings only on a phone that records.
    expect(phone.locator("[data-bell-ring]")).to_have_count(0)
    assert phone.errors == []


def test_the_pad_for_everyone_records_and_the_watching_phones_show_it(new_phone, live_server):
    token, _watch = record_table(live_server, "carambouille", PLAYERS, {"first_trader": 2}, HAND_1 + SALES)
    pad = new_phone()
    pad.goto(f"/t/{token}")
    pad.locator("section.who").get_by_role("button", name=re.compile("^The pad for everyone")).click()
    expect(pad.locator(".seat-picker summary")).to_have_text("This phone keeps the pad for everyone")
    watchers = []
    for language in ("fr", "de"):
        phone = new_phone(locale=language)
        phone.goto(f"/t/{token}")
        phone.locator("section.who").get_by_role("button", name=re.compile("^" + WATCHING[language][0])).click()
        watchers.append(phone)
    for phone in (pad, *watchers):
        sit_on_table(phone)
    sale = pad.locator("#sale-form")
    sale.get_by_label("Product").select_option(value="ham")
    sit_on_table(pad, seconds=1)
    sale.locator("label.pill", has_text="2").first.click()
    sit_on_table(pad, seconds=1)
    tap_once(pad, sale.get_by_role("button", name=re.compile(r"^Record the sale")))
    sentences = {"fr": "Ana a vendu 2 jambons pour 125.", "de": "Ana hat 2 Schinken für 125 verkauft."}
    for phone, language in zip(watchers, ("fr", "de")):
        expect(phone.locator(".recent-entries .entries li").first).to_have_text(sentences[language])
        expect(phone.locator(".score-row .points")).to_have_text(["275", "125", "125"])
        assert controls(phone) == []
    expect(scores(pad)).to_have_text(["275", "125", "125"])
    assert all(phone.errors == [] for phone in (pad, *watchers))
