"""Undoing an older entry from the history, JavaScript on: History → Undo… → Yes, undo it takes the entry back,
on the phone that asked and on another phone at the table (issue #21: the undo page's form used to aim htmx at
a live region the page does not have, and sent nothing)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser.phone import choose_seat, scores
from browser.tables import record_table

pytestmark = pytest.mark.browser

CARAMBOUILLE = ["Ana", "Ben", "Chloé"]
# Hand 1, Chloé first: Chloé sells 2 olive oil (entry 3), then Ana 2 saffron; nothing after depends on Chloé's sale.
CARAMBOUILLE_EVENTS = [
    {"type": "market_opened"}, {"type": "market_closed"},
    {"type": "sale", "player": 2, "product": "olive_oil", "cards": 2},
    {"type": "end_sales_turn", "player": 2},
    {"type": "sale", "player": 0, "product": "saffron", "cards": 2},
]
JAIPUR = ["Ana", "Ben"]
# Ana sells 2 leather (entry 1), Ben 2 spice (entry 2), Ana 2 cloth (entry 3).
JAIPUR_EVENTS = [
    {"type": "sale", "player": 0, "good": "leather", "cards": 2},
    {"type": "sale", "player": 1, "good": "spice", "cards": 2},
    {"type": "sale", "player": 0, "good": "cloth", "cards": 2},
]


def at_table(new_phone, token: str, name: str):
    """A phone with JavaScript on, at the table, set to its player."""
    phone = new_phone()
    phone.goto(f"/t/{token}")
    choose_seat(phone, name)
    return phone


def undo_from_history(phone, seq: int) -> str:
    """All entries → Undo… on entry ``seq`` → Yes, undo it; the entry's sentence as the history said it."""
    phone.get_by_role("link", name="All entries").click()
    row = phone.locator(f'ol.entries li[value="{seq}"]')
    sentence = row.evaluate("li => li.firstChild.textContent").strip()
    row.get_by_role("link", name="Undo…").click()
    expect(phone.locator("form.undo-confirm")).to_contain_text(f"Undo entry {seq}?")
    phone.get_by_role("button", name="Yes, undo it").click()
    return sentence


def undone_on_both(ana, ben, token: str, seq: int, sentence: str) -> None:
    """Back on the table page, each phone reads the entry as undone, the undo as the newest entry."""
    ana.wait_for_url(f"**/t/{token}*")
    for phone in (ana, ben):
        expect(phone.locator(f'.recent-entries li[value="{seq}"] del')).to_have_text(sentence)
        expect(phone.locator(".recent-entries .entries li").first).to_have_text(f"Undid entry {seq}: {sentence}")


def test_an_older_carambouille_sale_is_undone_from_the_history(new_phone, live_server):
    token, _ = record_table(live_server, "carambouille", CARAMBOUILLE, {"first_trader": 2}, CARAMBOUILLE_EVENTS)
    ana, ben = at_table(new_phone, token, "Ana"), at_table(new_phone, token, "Ben")
    expect(scores(ben).nth(2)).not_to_have_text("0")

    sentence = undo_from_history(ana, 3)

    undone_on_both(ana, ben, token, 3, sentence)
    assert sentence.startswith("Chloé sold 2 olive oil")
    for phone in (ana, ben):
        # Chloé's sale no longer counts; Ana's, recorded after it, still does.
        expect(scores(phone).nth(2)).to_have_text("0")
        expect(scores(phone).nth(0)).not_to_have_text("0")
    assert not ana.errors and not ben.errors


def test_an_older_jaipur_sale_is_undone_from_the_history(new_phone, live_server):
    token, _ = record_table(live_server, "jaipur", JAIPUR, {}, JAIPUR_EVENTS)
    ana, ben = at_table(new_phone, token, "Ana"), at_table(new_phone, token, "Ben")
    leather = ".stack.good-leather .token"
    expect(ben.locator(leather)).to_have_count(7)

    sentence = undo_from_history(ana, 1)

    undone_on_both(ana, ben, token, 1, sentence)
    assert sentence.startswith("Ana sold 2 leather")
    for phone in (ana, ben):
        # The two leather tokens Ana took are back on their stack; Ben's spice sale still stands.
        expect(phone.locator(leather)).to_have_count(9)
        expect(phone.locator(".stack.good-spice .token")).to_have_count(5)
    assert not ana.errors and not ben.errors
