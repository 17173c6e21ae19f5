"""Two phones at one Carambouille table record the same sale at the same instant: it counts once, and the
phone that came second says why."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from browser.phone import (choose_seat, create_table, expect_answer, join_by_code, join_code, submit_and_wait,
                           wait_for_answer)

# It presses Record on two phones within 20 ms: it runs alone, never beside another test (`make test`).
pytestmark = [pytest.mark.browser, pytest.mark.timing]
PLAYERS = ["Ana", "Ben", "Pia"]
TOGETHER_MS = 20
SENTENCE = "Already recorded from another phone: “Pia sold 2 onions for 25.” It counts once."

# Each phone presses Record at the same moment of the shared clock (both pages run on this machine):
# a timer wakes a little before it, then the last milliseconds are waited out exactly.
PRESS_AT = """([selector, at]) => {
  const now = () => performance.timeOrigin + performance.now();
  setTimeout(() => {
    while (now() < at) {}
    window.pressedAt = now();
    document.querySelector(selector).click();
  }, Math.max(0, at - now() - 40));
}"""


def points(phone) -> list[str]:
    return phone.get_by_role("list", name="Scores").locator(".points").all_inner_texts()


def test_the_same_sale_recorded_on_two_phones_at_once_counts_once(new_phone, live_server):
    pia = new_phone()
    url = create_table(pia, "carambouille", PLAYERS, starter="Pia")
    choose_seat(pia, "Pia")
    ben = new_phone()
    join_by_code(ben, join_code(pia))
    choose_seat(ben, "Ben")

    # Pia, the First Trader, opens and closes the market: her sales turn, on both phones.
    for words in ("Open the market", "Close the market"):
        submit_and_wait(pia, pia.locator("#bell").get_by_role("button", name=re.compile(words)))
    before = int(pia.locator("#live").get_attribute("data-seen"))
    expect(ben.locator("#live")).to_have_attribute("data-seen", str(before))
    phones = (pia, ben)

    # Both phones fill in the same sale, Pia's 2 onions, and see its value.
    for phone in phones:
        sale = phone.locator("#sale-form")
        expect(sale.locator(".form-title")).to_have_text("Sale by Pia")
        sale.get_by_label("Product").select_option(value="onions")
        sale.locator("label.pill", has_text="2").first.click()
        expect(phone.get_by_role("button", name="Record the sale: +25")).to_be_visible()

    # Record, pressed on both phones within a few milliseconds of each other.
    at = pia.evaluate("performance.timeOrigin + performance.now()") + 2000
    for phone in phones:
        expect_answer(phone)
        phone.evaluate(PRESS_AT, ['#sale-form button[name="step"][value="confirm"]', at])
    for phone in phones:
        wait_for_answer(phone)
    pressed = [phone.evaluate("window.pressedAt") for phone in phones]
    assert abs(pressed[0] - pressed[1]) <= TOGETHER_MS, f"Record was pressed {abs(pressed[0] - pressed[1]):.1f} ms apart"

    # One sale on the table: 25 for Pia on both phones, in the scores and on the score pad.
    for phone in phones:
        expect(phone.locator("#live")).to_have_attribute("data-seen", str(before + 1))
        assert points(phone) == ["0", "0", "25"]
        assert phone.locator("table.pad tbody tr").last.locator(".total").all_text_contents() == ["0", "0", "25"]
        expect(phone.locator(".recent-entries li", has_text="Pia sold 2 onions for 25.")).to_have_count(1)
        assert phone.errors == []
    engine = sa.create_engine(live_server.database_url)
    with engine.connect() as connection:
        sales = connection.execute(sa.text(
            "SELECT count(*) FROM entries e JOIN tables t ON t.id = e.table_id WHERE t.token = :token "
            "AND e.type = 'sale'"), {"token": url.rsplit("/", 1)[1]}).scalar()
    engine.dispose()
    assert sales == 1

    # The phone that came second says why, at the top of its sale form, now blank for the next sale.
    refused = [phone for phone in phones if phone.locator("#sale-form .error").count()]
    assert len(refused) == 1
    expect(refused[0].locator("#sale-form .error")).to_have_text(SENTENCE)
    expect(refused[0].locator("#sale-form select#sale-product")).to_have_value("")
    other = phones[1 - phones.index(refused[0])]
    expect(other.locator("#live")).not_to_contain_text("Already recorded")
