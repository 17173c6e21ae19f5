"""The results page at 320 px: the breakdown of 7 players scrolls in its own box and says so; the page never does."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser.tables import record_table

pytestmark = pytest.mark.browser
PLAYERS = ["Ana", "Ben", "Chloé", "Dario", "Elif", "Fatou", "Gus"]


def gus_wins() -> list[dict]:
    """One hand: Gus, the First Trader, sells 3 cheese; the game ends. The winner has the last column."""
    events = [{"type": "market_opened"}, {"type": "market_closed"},
              {"type": "sale", "player": 6, "product": "cheese", "cards": 3}]
    events += [{"type": "end_sales_turn", "player": seat} for seat in (6, 0, 1, 2, 3, 4, 5)]
    return events + [{"type": "end_game"}]


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_at_320_px_the_breakdown_says_to_swipe_and_the_page_stays_320_wide(new_phone, live_server, javascript):
    _, watch = record_table(live_server, "carambouille", PLAYERS, {"first_trader": 6}, gus_wins())
    narrow = new_phone(size={"width": 320, "height": 640}, java_script_enabled=javascript)
    narrow.goto(f"/w/{watch}/results")
    # The breakdown's hint (the evening's tally under the result fits, and asks nothing).
    hint = narrow.locator(".table-scroll", has=narrow.locator(".breakdown")).locator(".scroll-hint")
    expect(hint).to_be_visible()
    expect(hint).to_have_text("Swipe the table sideways to see all of it →")
    assert narrow.evaluate("document.documentElement.scrollWidth") <= 320  # only the table's box scrolls
    box = narrow.locator(".breakdown")
    assert box.evaluate("box => box.scrollWidth > box.clientWidth")
    # Swiped to the end, the winner's column shows, marked; the hand column stays in sight.
    box.scroll_into_view_if_needed()
    box.evaluate("box => box.scrollLeft = box.scrollWidth")
    expect(narrow.locator(".breakdown thead th.winner")).to_be_in_viewport()
    expect(narrow.locator(".breakdown thead th.winner")).to_contain_text("Gus ★")
    expect(narrow.locator(".breakdown tbody th").first).to_be_in_viewport()
    assert narrow.errors == []


def test_on_a_wide_screen_nothing_asks_to_swipe(new_phone, live_server):
    _, watch = record_table(live_server, "carambouille", PLAYERS, {"first_trader": 6}, gus_wins())
    wide = new_phone(size={"width": 1280, "height": 800})
    wide.goto(f"/w/{watch}/results")
    expect(wide.locator(".breakdown thead th.winner")).to_be_visible()
    expect(wide.locator(".scroll-hint:visible")).to_have_count(0)
