"""Every Jaipur recording control records on one tap, on a phone that has sat on the table: the sale of 2 cards,
the sale of 3 with a drawn bonus token (seen by the seller's phone only), the round's end, the camels, the next
round. Each asserted on the acting phone and on the other one: the entry's own sentence and the new scores."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.phone import expect_recorded, seated_at_a_new_table, sit_on_table, tap_once

pytestmark = pytest.mark.browser


@pytest.fixture
def table(new_phone):
    """Ana's and Ben's phones at a new Jaipur table, Ana first, bonus tokens drawn by the app."""
    return seated_at_a_new_table(new_phone, "jaipur", ["Ana", "Ben"])


def choose_sale(phone, seller: str, good: str, cards: int) -> None:
    """Who sells, the good, the number of cards: tapped as a player does, a poll or so apart."""
    form = phone.locator("#sale-form")
    form.get_by_role("group", name="Who sells?").locator("label", has_text=seller).click()
    sit_on_table(phone, seconds=1)
    form.get_by_role("group", name="Which good?").locator("label", has_text=good).click()
    sit_on_table(phone, seconds=1)
    form.get_by_role("group", name="How many cards?").locator("label", has_text=re.compile(rf"^{cards}$")).click()
    expect(phone.locator("#sale-preview")).to_contain_text("Takes")


def test_a_two_card_sale_records_on_one_tap(table):
    ana, ben = table
    sit_on_table(ana)
    choose_sale(ana, "Ana", "Leather", 2)
    record = ana.get_by_role("button", name="Record: Ana sells 2 leather")
    tapped = tap_once(ana, record)
    expect_recorded([ana, ben], "Ana sold 2 leather for 7 (4 + 3).", ["0 seals", "0 seals"], tapped)
    assert ana.errors == [] and ben.errors == []


def test_a_three_card_sale_draws_a_bonus_token_only_the_sellers_phone_sees(table):
    ana, ben = table
    sit_on_table(ana)
    choose_sale(ana, "Ana", "Leather", 3)
    expect(ana.locator("#sale-preview")).to_contain_text("And a bonus token 1–3, drawn by the app")
    tapped = tap_once(ana, ana.get_by_role("button", name="Record: Ana sells 3 leather"))
    expect_recorded([ana, ben], "Ana sold 3 leather for 9 (4 + 3 + 2) and a bonus token (1–3).",
                    ["0 seals", "0 seals"], tapped)
    expect(ana.locator(".bonus-reveal .bonus-value")).to_have_text(re.compile(r"^[123]$"))
    # Ben's phone, having sat on the table, says the token lies face down and holds no value of it.
    sit_on_table(ben, seconds=2)
    expect(ben.locator(".bonus-reveal")).to_have_text(re.compile(r"^Ana's bonus token lies face down"))
    assert ben.locator(".bonus-value").count() == 0
    assert ana.errors == [] and ben.errors == []


def test_the_rounds_end_the_camels_and_the_next_round_each_record_on_one_tap(table):
    ana, ben = table
    sit_on_table(ana)
    choose_sale(ana, "Ana", "Leather", 2)
    tap_once(ana, ana.get_by_role("button", name="Record: Ana sells 2 leather"))
    expect_recorded([ana, ben], "Ana sold 2 leather for 7 (4 + 3).")

    # Ben ends the round: one tap on the confirmation.
    sit_on_table(ben)
    ben.locator("summary", has_text="The market cannot be refilled").click()
    tapped = tap_once(ben, ben.get_by_role("button", name="Yes, end round 1"))
    expect_recorded([ben, ana], "Round 1 ended: the market could not be refilled.", tapped_at=tapped)

    # The camels, typed on Ben's phone: Ana's bigger herd takes the camel token and the round.
    sit_on_table(ben)
    ben.get_by_label("Ana's camels").fill("2")
    ben.get_by_label("Ben's camels").fill("1")
    tapped = tap_once(ben, ben.get_by_role("button", name="Score round 1"))
    expect_recorded([ben, ana], "Camels: Ana 2, Ben 1, the camel token to Ana. Ana wins 12 to 0 and takes a seal "
                    "(1 of 2).", ["1 seal", "0 seals"], tapped)

    # The next round, from Ana's phone.
    sit_on_table(ana)
    tapped = tap_once(ana, ana.get_by_role("button", name=re.compile(r"^Start round 2")))
    expect_recorded([ana, ben], "Round 2 began; Ben starts.", ["1 seal", "0 seals"], tapped)
    expect(ben.locator("#sale-form")).to_be_visible()
    assert ana.errors == [] and ben.errors == []


def test_a_phone_taking_a_seat_that_has_one_is_asked_and_sees_its_secret_only_after_yes(table, new_phone):
    ana, ben = table
    sit_on_table(ben)
    choose_sale(ben, "Ben", "Leather", 3)
    tap_once(ben, ben.get_by_role("button", name="Record: Ben sells 3 leather"))
    expect(ben.locator(".bonus-reveal .bonus-value")).to_have_text(re.compile(r"^[123]$"))
    drawn = ben.locator(".bonus-reveal .bonus-value").inner_text()

    stranger = new_phone()
    stranger.goto(ben.url)
    stranger.locator("section.who").get_by_role("button", name=re.compile(r"^Ben\s+has a phone")).click()
    expect(stranger.get_by_role("heading", name="Ben already has a phone — move the seat to this one?")).to_be_visible()
    assert stranger.locator(".bonus-value").count() == 0
    # No: asked again who it is; still nothing of Ben's on it, after a poll or two.
    stranger.get_by_role("button", name="No, choose again").click()
    expect(stranger.get_by_role("heading", name="Who are you?")).to_be_visible()
    sit_on_table(stranger, seconds=2)
    assert stranger.locator(".bonus-value").count() == 0
    # Yes: Ben's seat moves to this phone, which shows his bonus token; Ben's own phone says so and shows it no more.
    stranger.locator("section.who").get_by_role("button", name=re.compile(r"^Ben\s+has a phone")).click()
    stranger.get_by_role("button", name="Yes, move Ben's seat here").click()
    expect(stranger.locator("summary", has_text="This phone is Ben's")).to_be_attached()
    expect(stranger.locator(".bonus-reveal .bonus-value")).to_have_text(drawn)
    expect(ben.locator(".seat-moved")).to_contain_text("Ben's seat moved to another phone.")
    assert ben.locator(".bonus-value").count() == 0
    assert stranger.errors == [] and ben.errors == []


def test_a_preview_stays_whole_when_another_phone_records_and_its_tap_records(table):
    ana, ben = table
    sit_on_table(ana)
    choose_sale(ana, "Ana", "Leather", 2)
    record = ana.get_by_role("button", name="Record: Ana sells 2 leather")
    expect(record).to_be_visible()
    # Ben rings the bell (the table timer) while Ana looks at her preview: her next poll brings a new table.
    seen = int(ana.locator("#live").get_attribute("data-seen"))
    ben.locator("#bell [data-bell-ring]").click()
    ana.wait_for_function("seen => Number(document.getElementById('live').dataset.seen) > seen", arg=seen)
    # The preview and its button are as Ana left them, with a word that the table changed.
    expect(ana.locator("#sale-form [data-notice]")).to_have_text(re.compile(r"^Just recorded: Ben rang the bell"))
    expect(ana.locator("#sale-preview .preview-tokens .token")).to_have_text(["4", "3"])
    tapped = tap_once(ana, record)
    expect_recorded([ana, ben], "Ana sold 2 leather for 7 (4 + 3).", ["0 seals", "0 seals"], tapped)
    assert ana.errors == [] and ben.errors == []


def test_a_preview_under_another_phones_sale_is_checked_again_before_it_records(table):
    ana, ben = table
    sit_on_table(ana)
    choose_sale(ana, "Ana", "Leather", 2)
    expect(ana.get_by_role("button", name="Record: Ana sells 2 leather")).to_be_visible()
    # Ben sells leather first, from his phone: the leather tokens Ana's preview showed are gone.
    sit_on_table(ben)
    choose_sale(ben, "Ben", "Leather", 2)
    tap_once(ben, ben.get_by_role("button", name="Record: Ben sells 2 leather"))
    expect_recorded([ben, ana], "Ben sold 2 leather for 7 (4 + 3).")
    expect(ana.locator("#sale-form [data-notice]")).to_have_text(
        "Just recorded: Ben sold 2 leather for 7 (4 + 3) — check before you record.")
    # Ana's tap is refused with a sentence and the preview worked out again; the next tap records it.
    ana.get_by_role("button", name="Record: Ana sells 2 leather").click()
    expect(ana.locator("#sale-preview")).to_contain_text("The table changed since this preview")
    expect(ana.locator("#sale-preview .preview-tokens .token")).to_have_text(["2", "1"])
    tapped = tap_once(ana, ana.get_by_role("button", name="Record: Ana sells 2 leather"))
    expect_recorded([ana, ben], "Ana sold 2 leather for 3 (2 + 1).", ["0 seals", "0 seals"], tapped)
    assert ana.errors == [] and ben.errors == []
