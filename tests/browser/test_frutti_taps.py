"""Every Frutti di Mare recording control records on one tap, on a phone that has sat on the table: a card
played, a hand laid down (suspended selling), the round's end, the next round's dishes. Each asserted on the
acting phone and on another: the entry's own sentence and the money. After each, focus stays with the move."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.phone import choose_seat, expect_recorded, newest_entry, sit_on_table, tap_once
from browser.tables import record_table

pytestmark = pytest.mark.browser
TABLE = ["shrimp", "oysters", "mussels", "octopus", "sea_urchins"]


def phones_at(new_phone, live_server, events, players=("Ana", "Ben"), seated=("Ana", "Ben")):
    """A phone for each of ``seated`` at a Frutti table of ``players`` where ``events`` were recorded."""
    token, _ = record_table(live_server, "frutti", list(players), {"first_player": 0},
                            [{"type": "dishes", "order": TABLE}, *events])
    phones = []
    for name in seated:
        phone = new_phone()
        phone.goto(f"/t/{token}")
        choose_seat(phone, name)
        phones.append(phone)
    return phones


def seafood(phone, name: str):
    return phone.locator(".play-form").get_by_role("button", name=re.compile(rf"^{name}"))


def suspend(phone, **hand: int):
    box = phone.locator("details.suspend")
    box.locator("summary").click()
    for name, count in hand.items():
        box.get_by_label(name).fill(str(count))
    return box.get_by_role("button", name="Suspend selling and lay down these cards")


def test_a_card_played_records_on_one_tap(new_phone, live_server):
    ana, ben = phones_at(new_phone, live_server, [])
    sit_on_table(ana)
    tapped = tap_once(ana, seafood(ana, "Octopus"))
    expect_recorded([ana, ben], "Ana played octopus: Octopus 30 → 50, sea urchins 50 → 30.", tapped_at=tapped)
    expect(ben.locator(".turn-heading")).to_have_text("Your turn, Ben")
    # Ana's move is over: her phone's focus is on what just happened, not lost to the page.
    assert ana.evaluate("document.activeElement !== document.body")
    assert ana.errors == [] and ben.errors == []


def test_suspended_selling_and_the_rounds_end_record_on_one_tap(new_phone, live_server):
    ana, ben = phones_at(new_phone, live_server, [{"type": "play", "player": 0, "seafood": "shrimp"},
                                                  {"type": "play", "player": 1, "seafood": "octopus"}])
    sit_on_table(ana)
    tapped = tap_once(ana, suspend(ana, Shrimp=3, Oysters=3))
    expect_recorded([ana, ben], re.compile(r"^Ana suspended selling"), tapped_at=tapped)
    sit_on_table(ben)
    tapped = tap_once(ben, suspend(ben, Mussels=3, Octopus=3))
    expect_recorded([ben, ana], "Ben suspended selling, laying down 3 octopuses, 3 mussels.", tapped_at=tapped)
    for phone in (ana, ben):
        expect(phone.get_by_role("heading", name="Round 1 is over")).to_be_visible()
    assert ana.errors == [] and ben.errors == []


def test_the_next_round_and_its_dishes_record_on_one_tap_and_focus_lands_on_the_seafood(new_phone, live_server):
    ana, ben = phones_at(new_phone, live_server, [
        {"type": "play", "player": 0, "seafood": "shrimp"}, {"type": "play", "player": 1, "seafood": "octopus"},
        {"type": "suspend", "player": 0, "hand": {"shrimp": 3, "oysters": 3}},
        {"type": "suspend", "player": 1, "hand": {"mussels": 3, "octopus": 3}}])
    sit_on_table(ben)
    tapped = tap_once(ben, ben.get_by_role("button", name="Start round 2"))
    expect_recorded([ben, ana], "Round 2 starts with Ben.", tapped_at=tapped)
    sit_on_table(ben)
    tapped = tap_once(ben, ben.get_by_role("button", name="Keep the current order"))
    expect_recorded([ben, ana], "Round 2 dishes: oysters 0, shrimp 10, mussels 20, sea urchins 30, octopus 50.",
                    tapped_at=tapped)
    # Ben starts round 2: after his tap, the next Tab is his seafood, focus on the first of them.
    expect(ben.locator(".turn-heading")).to_have_text("Your turn, Ben")
    assert ben.evaluate("document.activeElement.closest('.play-form') !== null")
    assert ana.errors == [] and ben.errors == []


def passed_round(new_phone, token: str):
    """The pad for everyone (one phone passed round the table), sat on the table: Ana's turn, her seafood out of
    reach until the phone is handed to her."""
    phone = new_phone()
    phone.goto(f"/t/{token}")
    phone.get_by_role("button", name=re.compile("^The pad for everyone")).click()
    expect(phone.locator(".turn-heading")).to_have_text("Waiting for Ana")
    sit_on_table(phone, seconds=1)
    expect(seafood(phone, "Octopus")).to_be_hidden()
    return phone


def test_the_pad_for_everyone_opens_a_players_seafood_on_purpose_and_a_watching_phone_has_none(new_phone, live_server):
    token, _ = record_table(live_server, "frutti", ["Ana", "Ben"], {"first_player": 0},
                            [{"type": "dishes", "order": TABLE}])
    pad = passed_round(new_phone, token)
    # Recording for Ana from here is deliberate: it opens, and then it records.
    pad.locator("summary", has_text="Play for Ana from this phone").click()
    tapped = tap_once(pad, seafood(pad, "Octopus"))
    expect_recorded([pad], "Ana played octopus: Octopus 30 → 50, sea urchins 50 → 30.", tapped_at=tapped)
    # Passed round: Ben's buttons are open for him, focused.
    expect(pad.locator(".turn-heading")).to_have_text("Waiting for Ben")
    expect(pad.locator("details.play-for")).to_have_attribute("open", "")
    assert pad.evaluate("document.activeElement.closest('.play-form') !== null")
    tap_once(pad, seafood(pad, "Shrimp"))
    expect(newest_entry(pad)).to_have_text(re.compile(r"^Ben played shrimp"))
    # Another pad phone, which never played, still has every control closed.
    other = passed_round(new_phone, token)
    # A watching phone has no way to play at all, and shows the move in its own words.
    watcher = new_phone()
    watcher.goto(f"/t/{token}")
    watcher.get_by_role("button", name=re.compile("^Just watching")).click()
    expect(newest_entry(watcher)).to_have_text(re.compile(r"^Ben played shrimp"))
    expect(watcher.locator("summary", has_text="Play for")).to_have_count(0)
    expect(watcher.locator(".play-form")).to_have_count(0)
    assert pad.errors == [] and other.errors == [] and watcher.errors == []


@pytest.mark.timing  # its phone polls on a clock that another test beside it would slow
def test_a_refused_tap_for_a_player_whose_turn_has_passed_closes_what_it_refused(new_phone, live_server):
    ana, chloe = phones_at(new_phone, live_server, [], players=("Ana", "Ben", "Chloé"), seated=("Ana", "Chloé"))
    # Chloé's phone will not have heard yet when Ana plays: a phone whose stream cannot be held (it
    # polls; its stream would bring Ana's card at once), and whose polls are then held.
    chloe.context.route("**/stream", lambda route: route.abort())
    chloe.reload()
    chloe.wait_for_timeout(1_000)
    chloe.locator("summary", has_text="Play for Ana from this phone").click()
    chloe.route("**/live?*", lambda route: route.abort())
    tap_once(ana, seafood(ana, "Shrimp"))
    expect(ana.locator(".turn-heading")).to_have_text("Waiting for Ben")
    chloe.locator(".play-for .play-form").get_by_role("button", name=re.compile("^Octopus")).click()
    chloe.unroute("**/live?*")
    # Refused, in words, above; Ana's card counted once; Ben's turn, with his controls closed on Chloé's phone.
    expect(chloe.locator(".frutti-actions > p.error")).to_have_text(
        "The table changed while you were entering this: It is Ben's turn, not Ana's.")
    expect(chloe.locator(".turn-heading")).to_have_text("Waiting for Ben")
    expect(ana.locator(".recent-entries .entries li").first).to_have_text(re.compile(r"^Ana played shrimp"))
    assert chloe.locator("details.play-for[open]").count() == 0
    assert ana.errors == [] and chloe.errors == []
