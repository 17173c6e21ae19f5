"""A whole short game of Frutti di Mare through the UI on two phones: three rounds, each player on their own phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.phone import seated_at_a_new_table, submit_and_wait

pytestmark = pytest.mark.browser


def tap(phone, seafood: str) -> None:
    """The player whose turn it is taps a seafood button on their own phone."""
    expect(phone.locator(".turn-heading")).to_contain_text("Your turn")
    submit_and_wait(phone, phone.locator(".play-form").get_by_role("button", name=re.compile(rf"^{seafood}")))


def suspend(phone, **hand: int) -> None:
    """Lay down the rest of the hand: the cards by seafood."""
    expect(phone.locator(".turn-heading")).to_contain_text("Your turn")
    box = phone.locator("details.suspend")
    box.locator("summary").click()
    for seafood, count in hand.items():
        box.get_by_label(seafood).fill(str(count))
    submit_and_wait(phone, box.get_by_role("button", name="Suspend selling and lay down these cards"))


def money(phone) -> list[int]:
    return [int(text) for text in phone.get_by_role("list", name="Scores").locator(".points").all_inner_texts()]


def test_a_short_frutti_game_on_two_phones(new_phone):
    ana, ben = seated_at_a_new_table(new_phone, "frutti", ["Ana", "Ben"])

    totals = [0, 0]
    for number, (first, second) in enumerate([(ana, ben), (ben, ana), (ana, ben)], start=1):
        expect(first.get_by_role("heading", name=f"Dishes for round {number}")).to_be_visible(timeout=3000)
        submit_and_wait(first, first.get_by_role("button", name="Shuffle: the app lays them out"))
        # Each plays one card, then lays the other six down.
        tap(first, "Shrimp")
        expect(second.locator(".turn-heading")).to_contain_text("Your turn", timeout=3000)
        tap(second, "Octopus")
        expect(first.locator(".turn-heading")).to_contain_text("Your turn", timeout=3000)
        suspend(first, Shrimp=3, Oysters=3)
        expect(second.locator(".turn-heading")).to_contain_text("Your turn", timeout=3000)
        suspend(second, Mussels=3, Octopus=3)
        for phone in (ana, ben):
            expect(phone.get_by_role("heading", name=re.compile(rf"Round {number} is over|The game is over"))
                   ).to_be_visible(timeout=3000)
        now = money(ana)
        assert now[0] >= totals[0] and now[1] >= totals[1] and sum(now) > sum(totals)
        totals = now
        if number < 3:
            submit_and_wait(second, second.get_by_role("button", name=f"Start round {number + 1}"))

    expect(ana.get_by_role("heading", name="The game is over")).to_be_visible()
    expect(ben.get_by_role("heading", name="The game is over")).to_be_visible(timeout=3000)
    assert money(ben) == totals
    assert ana.errors == [] and ben.errors == []
