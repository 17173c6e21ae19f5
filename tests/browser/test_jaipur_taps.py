"""Every Jaipur recording control records on one tap, on a phone that has sat on the table: the sale of 2 cards,
the sale of 3 with a drawn bonus token (seen by the seller's phone only), the round's end, the camels, the next
round. Each asserted on the acting phone and on the other one: the entry's own sentence and the new scores."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.phone import (choose_seat, create_table, expect_recorded, join_by_code, join_code, newest_entry,
                           sit_on_table, tap_once)

pytestmark = pytest.mark.browser


@pytest.fixture
def table(new_phone):
    """Ana's and Ben's phones at a new Jaipur table, Ana first, bonus tokens drawn by the app."""
    ana = new_phone()
    create_table(ana, "jaipur", ["Ana", "Ben"], starter="Player 1")
    choose_seat(ana, "Ana")
    ben = new_phone()
    join_by_code(ben, join_code(ana))
    choose_seat(ben, "Ben")
    return ana, ben


def choose_sale(phone, seller: str, good: str, cards: int) -> None:
    """Who sells, the good, the number of cards: tapped as a player does, a poll or so apart."""
    form = phone.locator("#sale-form")
    form.get_by_role("group", name="Who sells?").locator("label", has_text=seller).click()
    sit_on_table(phone, polls=1)
    form.get_by_role("group", name="Which good?").locator("label", has_text=good).click()
    sit_on_table(phone, polls=1)
    form.get_by_role("group", name="How many cards?").locator("label", has_text=re.compile(rf"^{cards}$")).click()
    expect(phone.locator("#sale-preview")).to_contain_text("Takes")


def test_a_two_card_sale_records_on_one_tap(table):
    ana, ben = table
    sit_on_table(ana)
    choose_sale(ana, "Ana", "Leather", 2)
    record = ana.get_by_role("button", name="Record: Ana sells 2 leather")
    tapped = tap_once(ana, record)
    expect_recorded([ana, ben], "Ana sold 2 leather for 7 (4 + 3).", ["0 seals", "0 seals"], tapped)
    assert ana.errors == [] and ben.errors == []
