"""At 320 px a board keeps in sight what a player reads on it (issue #40), in the four languages.

The acting player's card shows "(you)" beside the name and the turn's badge ("selling") without one
covering the other; the finished Frutti di Mare table's "Money by round" shows its Total column, and at
200 % zoom, where it cannot, says to swipe the table sideways.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser.phone import take_seat
from browser.tables import record_table
from review.test_review_sessions import FRUTTI

pytestmark = pytest.mark.browser

LANGUAGES = {"en": "en-GB", "fr": "fr-FR", "de": "de-DE", "it": "it-IT"}
NARROW = {"width": 320, "height": 640}
ZOOMED = {"width": 195, "height": 422}  # a 390 px phone at 200 %
SELLING = {"en": "selling", "fr": "vend", "de": "verkauft", "it": "vende"}
YOU = {"en": "(you)", "fr": "(toi)", "de": "(du)", "it": "(tu)"}
TOTAL = {"en": "Total", "fr": "Total", "de": "Summe", "it": "Totale"}
SWIPE = {"en": "Swipe the table sideways to see all of it →",
         "fr": "Fais défiler le tableau sur le côté pour tout voir →",
         "de": "Wische die Tabelle zur Seite, um alles zu sehen →",
         "it": "Scorri la tabella di lato per vederla tutta →"}


def overlap(one: dict, other: dict) -> bool:
    return not (one["x"] + one["width"] <= other["x"] or other["x"] + other["width"] <= one["x"]
                or one["y"] + one["height"] <= other["y"] or other["y"] + other["height"] <= one["y"])


@pytest.mark.parametrize("seller", ["Alice", "Maximilian"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_selling_badge_never_covers_the_sellers_name_or_you(new_phone, live_server, language, seller):
    players = [seller, "Bernard", "Dieter", "Giulia"]
    token, _ = record_table(live_server, "carambouille", players, {"first_trader": 0},
                            [{"type": "market_opened"}, {"type": "market_closed"}])
    phone = new_phone(size=NARROW, locale=LANGUAGES[language])
    phone.goto(f"/t/{token}")
    take_seat(phone, 0)
    card = phone.locator(".caram-scores li.turn")
    badge, name, you = card.locator(".badge"), card.locator(".name"), card.locator(".name small")
    expect(badge).to_have_text(SELLING[language])
    expect(you).to_have_text(YOU[language])
    expect(name).to_contain_text(seller)
    assert not overlap(badge.bounding_box(), you.bounding_box()), f"“{SELLING[language]}” covers “{YOU[language]}”"
    assert not overlap(badge.bounding_box(), name.bounding_box()), f"“{SELLING[language]}” covers {seller}"
    assert phone.errors == []


@pytest.fixture(scope="module")
def frutti_finished(live_server) -> str:
    return record_table(live_server, "frutti", ["Bernard", "Dieter", "Giulia"], FRUTTI[2], FRUTTI[3])[0]


@pytest.mark.parametrize("language", LANGUAGES)
def test_money_by_round_shows_its_total_at_320_px(new_phone, frutti_finished, language):
    phone = new_phone(size=NARROW, locale=LANGUAGES[language])
    phone.goto(f"/t/{frutti_finished}")
    total = phone.locator(".by-round thead th").filter(has_text=TOTAL[language])
    total.scroll_into_view_if_needed()
    expect(total).to_be_in_viewport(ratio=1)
    box = total.bounding_box()
    assert box["x"] + box["width"] <= 320
    assert phone.locator(".by-round tbody tr").last.locator("td").last.inner_text() == "400"  # Giulia's, in sight
    expect(phone.locator(".by-round tbody tr td").last).to_be_in_viewport(ratio=1)
    expect(phone.locator(".final .scroll-hint")).to_be_hidden()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_at_200_percent_zoom_money_by_round_says_to_swipe_for_its_total(new_phone, frutti_finished, language,
                                                                        javascript):
    phone = new_phone(size=ZOOMED, locale=LANGUAGES[language], java_script_enabled=javascript)
    phone.goto(f"/t/{frutti_finished}")
    hint = phone.locator(".final .scroll-hint")
    expect(hint).to_be_visible()
    expect(hint).to_have_text(SWIPE[language])
    assert phone.evaluate("document.documentElement.scrollWidth") <= 195
