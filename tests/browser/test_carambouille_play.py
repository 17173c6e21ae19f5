"""A whole short game of Carambouille through the UI on three phones: the bell, a sale, every sales turn, the end."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.phone import choose_seat, create_table, join_by_code, join_code, submit_and_wait

pytestmark = pytest.mark.browser
PLAYERS = ["Ana", "Ben", "Chloé"]


def ring(phone, words: str) -> None:
    """Ding-a-Ding! on the bell panel (its open or close button, by the words under it)."""
    submit_and_wait(phone, phone.locator("#bell").get_by_role("button", name=re.compile(words)))


def done_selling(phone, then: str) -> None:
    submit_and_wait(phone, phone.get_by_role("button", name=re.compile(rf"^Done selling — {then}")))


def points(phone) -> list[str]:
    return phone.get_by_role("list", name="Scores").locator(".points").all_inner_texts()


def test_a_short_carambouille_game_on_three_phones(new_phone):
    ana = new_phone()
    create_table(ana, "carambouille", PLAYERS, starter="Ana")
    choose_seat(ana, "Ana")
    code = join_code(ana)
    phones = {"Ana": ana}
    for name in PLAYERS[1:]:
        phones[name] = new_phone()
        join_by_code(phones[name], code)
        choose_seat(phones[name], name)
    ben, chloe = phones["Ben"], phones["Chloé"]

    # Ana is the First Trader: her bell opens the market, and closes it.
    expect(ana.locator("#bell")).to_contain_text("Market closed")
    ring(ana, "Open the market")
    expect(ben.locator("#bell")).to_contain_text("Market open", timeout=3000)
    ring(ana, "Close the market")

    # Ana's sales turn: 2 cheese, previewed (the value with its arithmetic), then recorded.
    expect(ana.locator(".turn-heading")).to_have_text("Your sales turn, Ana")
    sale = ana.locator("#sale-form")
    sale.get_by_label("Product").select_option(value="cheese")
    sale.locator("label.pill", has_text="2").first.click()
    record = ana.get_by_role("button", name=re.compile(r"^Record the sale: \+\d+"))
    record.wait_for()
    value = int(re.search(r"\+(\d+)", record.inner_text()).group(1))
    expect(ana.locator(".sale-value")).to_contain_text(f"Ana earns {value} points")
    submit_and_wait(ana, record)
    assert points(ana)[0] == str(value)
    expect(chloe.get_by_role("list", name="Scores").locator(".points").first).to_have_text(str(value), timeout=3000)

    # Every sales turn, each on its own phone; then the hand is over.
    done_selling(ana, "next: Ben")
    expect(ben.locator(".turn-heading")).to_have_text("Your sales turn, Ben", timeout=3000)
    done_selling(ben, "next: Chloé")
    expect(chloe.locator(".turn-heading")).to_have_text("Your sales turn, Chloé", timeout=3000)
    done_selling(chloe, "the hand is over")

    # The players stop there: the hand in progress is the pad's last row; the standings show everywhere.
    # (Ben's phone first catches up: a poll swapping the region would close the disclosure under his thumb.)
    expect(ben.locator("#live")).to_have_attribute("data-seen", chloe.locator("#live").get_attribute("data-seen"),
                                                   timeout=3000)
    ben.locator("summary", has_text="End the game now").click()
    submit_and_wait(ben, ben.get_by_role("button", name="End the game now"))
    for phone in phones.values():
        expect(phone.locator(".entries li").first).to_have_text(f"The game is over: Ana wins with {value} points.",
                                                               timeout=3000)
        expect(phone.locator(".table-title mark")).to_have_text("finished", timeout=3000)
        assert points(phone) == [str(value), "0", "0"]
        assert phone.errors == []
