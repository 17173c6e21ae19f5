"""Before a game: as the players are tapped or typed into a new table's form, one quiet line gives each player's
chance of winning from the group's past games, on a 320 px phone, in the phone's language."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.tables import record_table
from review.test_review_sessions import JAIPUR

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def two_matches(live_server):
    """Ben won two Jaipur matches against Ana."""
    for _ in range(2):
        record_table(live_server, *JAIPUR)


def test_the_chances_follow_the_names_tapped_and_typed(new_phone, live_server, two_matches):
    phone = new_phone(size={"width": 320, "height": 640})
    phone.goto("/new/jaipur")
    line = phone.locator("#chances")
    expect(line).to_be_hidden()  # no names yet: nothing to say
    known = phone.locator("[data-known-players]")
    known.locator('button[data-known-name="Ben"]').tap()
    known.locator('button[data-known-name="Ana"]').tap()
    expect(line).to_have_text(re.compile(r"^Chances from your past games: Ben (\d+)%, Ana (\d+)%\s*$"))
    ben, ana = map(int, re.findall(r"(\d+)%", line.inner_text()))
    assert ben > ana
    # A newcomer in Ana's seat: one player with history is no prediction.
    seats = phone.locator('input[name^="players-"]')
    seats.nth(1).fill("Dario")
    expect(line).to_be_hidden()
    seats.nth(1).fill("")
    seats.nth(1).press_sequentially("ana")
    expect(line).to_have_text(re.compile(r"^Chances from your past games: Ben \d+%, Ana \d+%\s*$"))
    assert phone.evaluate("document.documentElement.scrollWidth") <= 320
    assert phone.errors == [] and phone.violations == []


def test_the_line_speaks_the_phones_language(new_phone, live_server, two_matches):
    phone = new_phone()
    phone.context.add_cookies([{"name": "lang", "value": "de", "url": live_server.url}])
    phone.goto("/new/jaipur")
    seats = phone.locator('input[name^="players-"]')
    seats.nth(0).fill("Ana")
    seats.nth(1).fill("Ben")
    expect(phone.locator("#chances")).to_have_text(
        re.compile(r"^Gewinnchancen nach euren Partien: Ana \d+\s%, Ben \d+\s%\s*$"))
    assert phone.errors == [] and phone.violations == []
