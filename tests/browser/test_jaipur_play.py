"""A whole short Jaipur match played through the UI on two phones: two rounds, two seals, the match over."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.phone import seated_at_a_new_table, submit_and_wait

pytestmark = pytest.mark.browser


def sell(phone, seller: str, good: str, cards: int) -> None:
    """Choose who sells, the good and the number of cards; the preview shows; record it."""
    form = phone.locator("#sale-form")
    form.get_by_role("group", name="Who sells?").locator("label", has_text=seller).click()
    form.get_by_role("group", name="Which good?").locator("label", has_text=good).click()
    form.get_by_role("group", name="How many cards?").locator("label", has_text=re.compile(rf"^{cards}$")).click()
    record = phone.get_by_role("button", name=re.compile(rf"^Record: {seller} sells {cards} {good.lower()}"))
    expect(phone.locator("#sale-preview")).to_contain_text("Takes")
    submit_and_wait(phone, record)


def end_round(phone, number: int, camels: tuple[int, int]) -> None:
    phone.locator("summary", has_text="The market cannot be refilled").click()
    submit_and_wait(phone, phone.get_by_role("button", name=f"Yes, end round {number}"))
    phone.get_by_label("Ana's camels").fill(str(camels[0]))
    phone.get_by_label("Ben's camels").fill(str(camels[1]))
    submit_and_wait(phone, phone.get_by_role("button", name=f"Score round {number}"))


def seals(phone) -> list[str]:
    """Each player's seals, as the scoreboard shows them ("1 seal", "0 seals")."""
    shown = phone.get_by_role("list", name="Scores").locator(".points").all_inner_texts()
    assert all(re.fullmatch(r"1 seal|\d+ seals", text) for text in shown), shown
    return [re.match(r"\d+", text).group() for text in shown]


def test_a_short_jaipur_match_on_two_phones(new_phone):
    ana, ben = seated_at_a_new_table(new_phone, "jaipur", ["Ana", "Ben"])
    play_a_short_match(ana, ben)
    assert ana.errors == [] and ben.errors == []


def play_a_short_match(ana, ben) -> None:
    """Two rounds on Ana's and Ben's phones, each round won by Ana: the match over, two seals to none."""
    # Round 1: Ana sells leather; Ben's phone sees it, ends the round and scores it.
    sell(ana, "Ana", "Leather", 2)
    expect(ana.locator(".entries li").first).to_have_text("Ana sold 2 leather for 7 (4 + 3).")
    expect(ben.locator(".entries li").first).to_have_text("Ana sold 2 leather for 7 (4 + 3).", timeout=3000)
    end_round(ben, 1, (2, 1))
    expect(ben.locator(".round-result .explanation")).to_have_text(re.compile(r"^Ana wins \d+ to \d+\.$"))
    expect(ana.get_by_text(re.compile(r"Ana takes a seal\.")).first).to_be_visible(timeout=3000)
    assert seals(ana) == ["1", "0"]

    # Round 2, started from Ana's phone; Ana sells again and wins the match.
    submit_and_wait(ana, ana.get_by_role("button", name=re.compile(r"^Start round 2")))
    sell(ana, "Ana", "Cloth", 2)
    expect(ben.locator(".entries li").first).to_have_text("Ana sold 2 cloth for 8 (5 + 3).", timeout=3000)
    end_round(ana, 2, (0, 3))
    expect(ana.get_by_text("The match is over.")).to_be_visible()
    assert seals(ana) == ["2", "0"]
    expect(ben.get_by_text("The match is over.")).to_be_visible(timeout=3000)
    assert seals(ben) == ["2", "0"]
