"""The bell in real browsers: two phones at one table ring within a second of each other."""

from __future__ import annotations

import math

import pytest
from playwright.sync_api import expect

from browser.phone import choose_seat, create_table

# It measures how soon phones show what happened: it runs alone, never beside another test (`make test`).
pytestmark = [pytest.mark.browser, pytest.mark.timing]

RINGS = 10
WITHIN_MS = 1000


def rung(page, after: str | None) -> tuple[str, int]:
    """Wait until the page rings a ring other than ``after``; its id and when it rang (ms)."""
    page.wait_for_function(
        "after => document.body.dataset.lastRing && document.body.dataset.lastRing !== after", arg=after,
        timeout=6000)
    return page.evaluate("[document.body.dataset.lastRing, Number(document.body.dataset.rungAt)]")


def test_two_phones_ring_within_a_second_of_each_other(new_phone):
    ana, ben = new_phone(), new_phone()
    url = create_table(ana, "tiny", ["Ana", "Ben"])
    ben.goto(url)
    expect(ben.locator("#bell")).to_be_visible()
    for phone in (ana, ben):
        # On by default; the phone's first tap on the page wakes its sound.
        phone.locator("#live h1").click()
        phone.locator("details.phone-menu summary").click()
        expect(phone.locator("[data-bell-words]")).to_have_text("The bell rings on this phone.")
        phone.locator("details.phone-menu summary").click()
    gaps, last = [], None
    for number in range(RINGS):
        ringer = ana if number % 2 == 0 else ben
        ringer.locator("#bell [data-bell-ring]").click()
        (ring_a, at_a), (ring_b, at_b) = rung(ana, last), rung(ben, last)
        assert ring_a == ring_b, "both phones rang the same ring"
        gaps.append(abs(at_a - at_b))
        last = ring_a
    gaps.sort()
    p95 = gaps[math.ceil(0.95 * len(gaps)) - 1]
    assert p95 < WITHIN_MS, f"rings apart by {gaps} ms"
    # Started and stopped five times each: the timer is off, the history has the ten rings.
    expect(ana.locator("#bell")).not_to_have_class("is-open")
    assert ana.errors == [] and ben.errors == []


def test_the_first_trader_opens_and_closes_the_market_on_every_phone(new_phone):
    ana, ben = new_phone(), new_phone()
    url = create_table(ana, "carambouille", ["Ana", "Ben", "Cy"], starter="Ana")
    choose_seat(ana, "Ana")
    ben.goto(url)
    choose_seat(ben, "Ben")
    expect(ben.locator("#bell")).to_contain_text("Ring in a pinch for Ana")
    ana.locator("#bell").get_by_role("button", name="Ding-a-Ding! Open the market").click()
    (ring_a, at_a), (ring_b, at_b) = rung(ana, None), rung(ben, None)
    assert ring_a == ring_b and abs(at_a - at_b) < WITHIN_MS
    for phone in (ana, ben):
        expect(phone.locator("#bell")).to_contain_text("Market open")
    clock = ben.locator("[data-bell-clock]")
    first = clock.inner_text()
    expect(clock).not_to_have_text(first, timeout=3000)  # it counts up
    ana.locator("#bell").get_by_role("button", name="Ding-a-Ding! Close the market").click()
    (closed_a, _), (closed_b, _) = rung(ana, ring_a), rung(ben, ring_b)
    assert closed_a == closed_b != ring_a
    expect(ben.locator("#bell")).not_to_contain_text("Market open")
    assert ana.errors == [] and ben.errors == []


def test_without_javascript_the_bell_is_a_plain_form(new_phone):
    ana = new_phone(java_script_enabled=False)
    create_table(ana, "tiny", ["Ana", "Ben"])
    expect(ana.locator("details.phone-menu")).to_be_hidden()
    ana.locator("#bell [data-bell-ring]").click()
    expect(ana.locator("#bell")).to_contain_text("Table timer running")
    ana.locator("#bell [data-bell-ring]").click()
    expect(ana.locator("#bell")).to_contain_text("Last timer:")
