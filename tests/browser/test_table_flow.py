"""The shared table view in a real browser, on phones: opening, joining, two phones live, undo, errors, no JavaScript."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from browser.phone import choose_seat, create_table, join_by_code, join_code, submit_and_wait

pytestmark = pytest.mark.browser

LIVE_WITHIN_MS = 2000


def add_points(page, player: str, points: str) -> None:
    """Fill and send the score form; wait until the page shows the answer (recorded or refused)."""
    form = page.locator("form.tiny-score")
    form.get_by_label("Player").select_option(label=player)
    form.get_by_label("Points").fill(points)
    submit_and_wait(page, form.get_by_role("button", name="Add points"))


def score_of(page, name: str):
    return page.get_by_role("list", name="Scores").locator("li", has_text=name).locator(".points")


def test_home_page_offers_every_game_and_joining_by_code(new_phone):
    phone = new_phone()
    phone.goto("/")
    expect(phone.get_by_role("heading", name="Table companion", level=1)).to_be_visible()
    for name in ("Carambouille", "Jaipur", "Frutti di Mare"):
        expect(phone.locator("a.game-card", has_text=name)).to_be_visible()
    expect(phone.get_by_label("Join code")).to_be_visible()
    # Nothing wider than the phone: no sideways scrolling.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_wrong_join_code_is_explained_next_to_the_field(new_phone):
    phone = new_phone()
    phone.goto("/")
    phone.get_by_label("Join code").fill("zzzzzz")
    phone.get_by_role("button", name="Join").click()
    field = phone.get_by_label("Join code")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(phone.locator("#code-error")).to_have_text(re.compile("No open table has that code"))
    assert field.get_attribute("aria-describedby") == "code-error"


def test_new_table_form_refuses_one_player_and_keeps_the_names(new_phone):
    phone = new_phone()
    phone.goto("/new/tiny")
    phone.get_by_label(re.compile(r"^Player 1\b")).fill("Ana")
    phone.get_by_role("button", name="Open the table").click()
    expect(phone.locator("#players-error")).to_have_text("Enter at least 2 players.")
    expect(phone.get_by_label(re.compile(r"^Player 1\b"))).to_have_value("Ana")


@pytest.mark.timing
def test_two_phones_join_and_see_each_others_entries_within_two_seconds(new_phone):
    ana = new_phone()
    url = create_table(ana, "tiny", ["Ana", "Ben", "Chloé"])
    code = join_code(ana)
    assert re.fullmatch(r"[A-Z2-9]{6}", code)

    ben = new_phone()
    assert join_by_code(ben, code.lower()) == url
    choose_seat(ben, "Ben")
    expect(score_of(ben, "Ben")).to_have_text("0")

    add_points(ana, "Chloé", "7")
    expect(score_of(ana, "Chloé")).to_have_text("7")
    started = time.monotonic()
    expect(score_of(ben, "Chloé")).to_have_text("7", timeout=LIVE_WITHIN_MS + 1000)
    seen_after_ms = (time.monotonic() - started) * 1000
    assert seen_after_ms < LIVE_WITHIN_MS, f"the other phone saw the entry after {seen_after_ms:.0f} ms"

    # And the other way round: Ben's entry reaches Ana.
    add_points(ben, "Ben", "12")
    started = time.monotonic()
    expect(score_of(ana, "Ben")).to_have_text("12", timeout=LIVE_WITHIN_MS + 1000)
    assert (time.monotonic() - started) * 1000 < LIVE_WITHIN_MS
    expect(ana.locator(".entries li").first).to_have_text("Ben scored 12")
    assert ana.errors == [] and ben.errors == []


def test_undo_asks_once_takes_the_entry_back_on_both_phones(new_phone):
    ana = new_phone()
    create_table(ana, "tiny", ["Ana", "Ben"])
    ben = new_phone()
    join_by_code(ben, join_code(ana))
    add_points(ana, "Ana", "9")
    add_points(ana, "Ben", "4")
    expect(score_of(ben, "Ben")).to_have_text("4")

    ana.get_by_role("button", name="Undo last entry…").click()
    confirm = ana.locator("form.undo-confirm")
    expect(confirm).to_contain_text("Undo entry 2?")
    expect(confirm).to_contain_text("Ben scored 4")
    # The poll must not swap the question away while it is open.
    ana.wait_for_timeout(1500)
    expect(confirm).to_be_visible()
    confirm.get_by_role("button", name="Yes, undo it").click()

    expect(score_of(ana, "Ben")).to_have_text("0")
    expect(score_of(ana, "Ana")).to_have_text("9")
    expect(ana.locator(".entries li.undone del")).to_have_text("Ben scored 4")
    expect(score_of(ben, "Ben")).to_have_text("0", timeout=LIVE_WITHIN_MS + 1000)
    expect(ben.locator(".entries li.undone del")).to_have_text("Ben scored 4")

    ana.get_by_role("link", name="History").click()
    expect(ana.get_by_role("heading", level=1)).to_be_visible()
    expect(ana.locator("del", has_text="Ben scored 4").first).to_be_visible()


def test_keep_it_leaves_the_entry_alone(new_phone):
    ana = new_phone()
    create_table(ana, "tiny", ["Ana", "Ben"])
    add_points(ana, "Ana", "3")
    ana.get_by_role("button", name="Undo last entry…").click()
    ana.locator("form.undo-confirm").get_by_role("button", name="Keep it").click()
    expect(score_of(ana, "Ana")).to_have_text("3")
    expect(ana.locator(".entries li.undone")).to_have_count(0)


def test_a_refused_entry_is_explained_next_to_its_field_and_nothing_is_recorded(new_phone):
    ana = new_phone()
    create_table(ana, "tiny", ["Ana", "Ben"])
    add_points(ana, "Ana", "60")
    field = ana.locator("form.tiny-score").get_by_label("Points")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(ana.locator("#tiny-points-error")).to_have_text("Points go from 1 to 50.")
    assert field.get_attribute("aria-describedby") == "tiny-points-error"
    expect(score_of(ana, "Ana")).to_have_text("0")
    expect(ana.get_by_text("Nothing recorded yet.")).to_be_visible()


def test_without_javascript_a_plain_form_records_and_undoes(new_phone):
    phone = new_phone(java_script_enabled=False)
    url = create_table(phone, "tiny", ["Ana", "Ben"])
    add_points(phone, "Ben", "11")
    # Post/Redirect/Get: back on the table page itself, the entry recorded.
    phone.wait_for_url(url)
    expect(score_of(phone, "Ben")).to_have_text("11")
    phone.reload()
    expect(score_of(phone, "Ben")).to_have_text("11")

    phone.get_by_role("button", name="Undo last entry…").click()
    phone.wait_for_url(re.compile(r"/undo\?entry=1$"))
    phone.get_by_role("button", name="Yes, undo it").click()
    phone.wait_for_url(url)
    expect(score_of(phone, "Ben")).to_have_text("0")

    add_points(phone, "Ana", "0")
    expect(phone.locator("#tiny-points-error")).to_have_text("Points go from 1 to 50.")


def test_watch_view_shows_the_scores_without_any_form(new_phone):
    ana = new_phone()
    create_table(ana, "tiny", ["Ana", "Ben"])
    ana.locator("summary", has_text="Invite the table").click()
    watch_url = ana.get_by_role("link", name="Watch-only view").get_attribute("href")
    tv = new_phone()
    tv.goto(watch_url)
    expect(score_of(tv, "Ana")).to_have_text("0")
    assert tv.locator("main form").count() == 0  # the language switch in the footer records nothing
    add_points(ana, "Ana", "5")
    expect(score_of(tv, "Ana")).to_have_text("5", timeout=LIVE_WITHIN_MS + 1000)


def test_a_disclosure_opened_on_one_phone_stays_open_when_the_other_records(new_phone):
    ana = new_phone()
    url = create_table(ana, "tiny", ["Ana", "Ben"])
    ben = new_phone()
    ben.goto(url)
    picker = ben.locator("details.seat-picker")
    picker.locator("summary").click()
    expect(picker).to_have_attribute("open", "")
    ben.locator("body").click(position={"x": 5, "y": 5})  # nothing focused inside the region
    add_points(ana, "Ana", "4")
    expect(score_of(ben, "Ana")).to_have_text("4", timeout=LIVE_WITHIN_MS + 1000)
    expect(ben.locator("details.seat-picker")).to_have_attribute("open", "")

