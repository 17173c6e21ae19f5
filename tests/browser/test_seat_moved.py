"""A seat taken over, seen on three phones: Ana's and Ben's at a Jaipur table, then a third phone picks up Ben's
cards. Every phone reads "Ben's seat moved to another phone." as the table's newest entry, the moment it is
tapped; Ben's own phone says so at once, shows none of his secrets (a drawn bonus token) and offers the seat
back, and taking it back is told the same way, the third phone now saying so."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.phone import expect_recorded, seated_at_a_new_table, sit_on_table, tap_once
from browser.test_jaipur_taps import choose_sale

pytestmark = pytest.mark.browser

MOVED = "Ben's seat moved to another phone."


def test_a_seat_taken_over_is_told_on_every_phone_and_taken_back(new_phone):
    ana, ben = seated_at_a_new_table(new_phone, "jaipur", ["Ana", "Ben"])
    for phone in (ana, ben):
        sit_on_table(phone, seconds=1)
    choose_sale(ben, "Ben", "Leather", 3)
    tap_once(ben, ben.get_by_role("button", name="Record: Ben sells 3 leather"))
    expect(ben.locator(".bonus-reveal .bonus-value")).to_have_text(re.compile(r"^[123]$"))
    drawn = ben.locator(".bonus-reveal .bonus-value").inner_text()

    third = new_phone()
    third.goto(ben.url)
    third.locator("section.who").get_by_role("button", name=re.compile(r"^Ben\s+has a phone")).click()
    expect(third.get_by_role("heading", name="Ben already has a phone — move the seat to this one?")).to_be_visible()
    sit_on_table(third, seconds=1)
    tapped = tap_once(third, third.get_by_role("button", name="Yes, move Ben's seat here"))
    expect_recorded([third, ana, ben], MOVED, tapped_at=tapped)
    expect(third.locator(".bonus-reveal .bonus-value")).to_have_text(drawn)
    moved = ben.locator(".seat-moved")
    expect(moved).to_contain_text(MOVED)
    expect(moved).to_contain_text("This phone no longer shows what only Ben may see.")
    # Ben's phone, left on the table a few seconds: still nothing of his.
    sit_on_table(ben, seconds=3)
    assert ben.locator(".bonus-value").count() == 0

    tapped = tap_once(ben, moved.get_by_role("button", name="Take Ben's seat back"))
    expect(ben.locator("summary", has_text="This phone is Ben's")).to_be_attached()
    expect_recorded([ben, ana, third], MOVED, tapped_at=tapped)
    expect(ben.locator(".bonus-reveal .bonus-value")).to_have_text(drawn)
    expect(third.locator(".seat-moved")).to_contain_text(MOVED)
    assert third.locator(".bonus-value").count() == 0
    for phone in (ana, ben, third):
        assert phone.errors == [] and phone.violations == []
