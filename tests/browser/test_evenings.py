"""An evening of three games on three phones: each finished game's results end with the evening's tally and say each
player's change of rating, the home page shows tonight, and the evening's first game reopened on one phone leaves
the tally and the standings on every other phone's next page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser.tables import record_table
from review.test_review_sessions import CARAMBOUILLE, FRUTTI, JAIPUR

pytestmark = pytest.mark.browser
# Names of this test's own: the live server is shared, and other tests' games are part of its evening too.
NAMES = ["Ottilie", "Piet", "Quinn"]


def row_of(phone, name: str) -> list[str]:
    """A player's row of the tally as the phone shows it: its name's cell, its wins of its games, its average place."""
    row = phone.locator(".tally-table tbody tr", has=phone.locator("th", has_text=name))
    # The name alone: the winner's star and its words for a screen reader are the evening's, not the row's.
    return [row.locator("th").inner_text().replace("★", "").replace("(winner)", "").strip(),
            *[cell.strip() for cell in row.locator("td").all_inner_texts()]]


def standing_of(phone, name: str) -> list[str]:
    """A player's row of the standings: place, name, rating (and "provisional"), wins of games."""
    row = phone.locator(".standings-table tbody tr", has=phone.locator("th", has_text=name))
    return [" ".join(cell.split()) for cell in row.locator("td, th").all_inner_texts()]


def test_an_evening_of_three_games_on_three_phones(new_phone, live_server):
    tokens = []
    for slug, players, options, events in (CARAMBOUILLE, FRUTTI, JAIPUR):
        tokens.append(record_table(live_server, slug, NAMES[:len(players)], options, events))
    (carambouille, _), _frutti, (_jaipur, jaipur_watch) = tokens
    first, second, third = new_phone(), new_phone(), new_phone(size={"width": 320, "height": 640})
    first.goto(f"/t/{carambouille}/results")
    second.goto(f"/w/{jaipur_watch}/results")
    third.goto("/")
    # Carambouille won by Ottilie (Quinn second), Frutti di Mare by Quinn, Jaipur by Piet: a win each, and Quinn's
    # places (2, 1) the best on average.
    for phone in (first, second, third):
        heading = phone.locator("#tally-heading")
        expect(heading).to_have_text("Tonight")
        assert row_of(phone, "Quinn") == ["Quinn", "1 of 2", "1.5"]
        assert row_of(phone, "Ottilie") == ["Ottilie", "1 of 3", "2"]
        assert row_of(phone, "Piet") == ["Piet", "1 of 3", "2"]
    expect(third.locator(".tonight-games")).to_contain_text("Won by Quinn")
    assert third.evaluate("document.documentElement.scrollWidth") <= 320
    # The tally's three columns fit the 320 px phone: nothing to swipe.
    assert third.locator(".tally .overflow-auto").evaluate("box => box.scrollWidth <= box.clientWidth")

    # Each finished result says each player's change of rating, and the standings count the three games.
    expect(first.locator(".rating-changes")).to_contain_text("Ottilie +")
    expect(second.locator(".rating-changes")).to_contain_text("Piet +")
    second.goto("/standings")
    assert standing_of(second, "Ottilie")[-1] == "1 of 3"

    # The evening's first game was mis-scored: reopened on the first phone, it is no longer final and counts for
    # no one, on every other phone's next page.
    first.get_by_role("button", name="Reopen").click()
    expect(first).to_have_url(f"{live_server.url}/t/{carambouille}")
    second.reload()
    assert standing_of(second, "Ottilie")[-1] == "0 of 2"
    third.reload()
    assert row_of(third, "Quinn") == ["Quinn", "1 of 1", "1"]
    assert row_of(third, "Ottilie") == ["Ottilie", "0 of 2", "2.5"]
    expect(third.locator(".tonight-games")).not_to_contain_text("Won by Ottilie")
    second.goto(f"/w/{jaipur_watch}/results")
    # The evening's own page, from the tally's link: its sessions in the order they began.
    second.get_by_role("link", name="The evening's").click()
    expect(second.locator("h1")).to_contain_text("The evening of")
    for phone in (first, second, third):
        assert phone.errors == [] and phone.violations == []
