"""A table night as four friends have it: phones join, say who they are, see their move first and never freeze."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from bench.phones import WATCH_VERSIONS, Delays, act, version
from browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from browser.phone import assert_pushed, choose_seat, create_table, scan_qr, submit_and_wait

# It measures how soon phones show what happened: it runs alone, never beside another test (`make test`).
pytestmark = [pytest.mark.browser, pytest.mark.timing]
FRIENDS = ["Ana", "Ben", "Chloé", "Dan"]
WITHIN_MS = 2000


def in_first_screen(phone, locator, height: int = PHONE["height"]) -> bool:
    """Whether the element is wholly on the first screen, with the page scrolled to the top."""
    phone.evaluate("window.scrollTo(0, 0)")
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_four_phones_join_by_the_qr_code_say_who_they_are_and_see_each_entry_at_once(new_phone, live_server):
    ana = new_phone()
    url = create_table(ana, "carambouille", FRIENDS, starter="Ana")
    # The friends scan the code on Ana's phone. It carries the laptop's address on the home network;
    # the tests send nothing off this machine, so the phones open what it says on the loopback address.
    qr = ana.locator("section.invite img.qr")
    ana.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=qr.element_handle())
    scanned = urlsplit(scan_qr(qr))
    assert scanned.path == urlsplit(url).path
    joined = scanned._replace(netloc=urlsplit(live_server.url).netloc).geturl()
    phones = {"Ana": ana}
    for name in FRIENDS[1:]:
        phones[name] = new_phone()
        phones[name].goto(joined)
    for name, phone in phones.items():
        # Asked first thing, with the invitation just below: the phone's own name is one tap away.
        asked = phone.locator("section.who")
        expect(asked).to_contain_text("Who are you?")
        assert in_first_screen(phone, asked.get_by_role("button", name=re.compile(rf"^{name}(\s|$)")))
        expect(phone.locator("section.invite")).to_be_visible()
        choose_seat(phone, name)
        expect(phone.locator("section.who")).to_have_count(0)
        phone.evaluate(WATCH_VERSIONS)
    # Every seat has a phone: the invitation goes, on every phone.
    for phone in phones.values():
        expect(phone.locator("section.invite")).to_have_count(0, timeout=WITHIN_MS)
    expect(ana.locator(".entries")).to_contain_text("Dan's phone joined the table.")

    # A hand: Ana, the First Trader, opens and closes the market; a sale; every sales turn.
    delays = []
    others = lambda name: [phone for other, phone in phones.items() if other != name]  # noqa: E731
    delays += act(ana, ana.locator("#bell").get_by_role("button", name=re.compile("Open the market")), others("Ana"))
    close = ana.locator("#bell").get_by_role("button", name=re.compile("Close the market"))
    expect(close).to_be_enabled()
    delays += act(ana, close, others("Ana"))
    sale = ana.locator("#sale-form")
    sale.get_by_label("Product").select_option(value="cheese")
    sale.locator("label.pill", has_text="2").first.click()
    record = ana.get_by_role("button", name=re.compile(r"^Record the sale: \+\d+"))
    delays += act(ana, record, others("Ana"))
    for name, then in zip(FRIENDS, ["next: Ben", "next: Chloé", "next: Dan", "the hand is over"]):
        phone = phones[name]
        done = phone.get_by_role("button", name=re.compile(rf"^Done selling — {then}"))
        expect(done).to_be_visible(timeout=WITHIN_MS)
        delays += act(phone, done, others(name))

    shown = Delays(delays)
    print(f"\nlive update across phones: {shown}")
    # Pushed by the stream, not polled: every entry on every other phone at once.
    assert_pushed(shown)
    for phone in phones.values():
        expect(phone.locator(".phase-line")).to_contain_text("The hand is over")
        assert phone.errors == []


def open_sales(new_phone, players):
    """A Carambouille table in its first sales turn (Ana's), with a phone for each player."""
    ana = new_phone()
    url = create_table(ana, "carambouille", players, starter="Ana")
    choose_seat(ana, "Ana")
    phones = {"Ana": ana}
    for name in players[1:]:
        phones[name] = new_phone()
        phones[name].goto(url)
        choose_seat(phones[name], name)
    submit_and_wait(ana, ana.locator("#bell").get_by_role("button", name=re.compile("Open the market")))
    close = ana.locator("#bell").get_by_role("button", name=re.compile("Close the market"))
    expect(close).to_be_enabled()
    submit_and_wait(ana, close)
    return phones


def test_a_phone_with_focus_on_a_select_updates_and_keeps_what_was_chosen(new_phone):
    phones = open_sales(new_phone, ["Ana", "Ben", "Chloé"])
    ana, chloe = phones["Ana"], phones["Chloé"]
    expect(chloe.locator(".turn-heading")).to_have_text("Ana's sales turn", timeout=WITHIN_MS)
    # Chloé has just used her phone's picker: focus rests on the select, the form not sent.
    product = chloe.locator("#sale-form").get_by_label("Product")
    product.select_option(value="garlic")
    product.focus()
    before = version(chloe)
    chloe.evaluate(WATCH_VERSIONS)
    sent = ana.evaluate("Date.now()")
    submit_and_wait(ana, ana.get_by_role("button", name=re.compile(r"^Done selling — next: Ben")))
    chloe.wait_for_function("seq => String(seq) in window.seenAt", arg=version(ana), timeout=WITHIN_MS)
    took = chloe.evaluate("seq => window.seenAt[seq]", str(version(ana))) - sent
    print(f"\nthe phone with focus on a select updated {took} ms after the entry was sent")
    assert took <= WITHIN_MS and version(chloe) > before
    # The table moved on around her choice: Ben's turn shows, her choice and focus stay, a line says why.
    expect(chloe.locator(".turn-heading")).to_have_text("Ben's sales turn")
    assert product.input_value() == "garlic"
    assert chloe.evaluate("document.activeElement && document.activeElement.name") == "product"
    expect(chloe.locator("#sale-form [data-notice]")).to_have_text(
        re.compile(r"^Just recorded: Ana ended .*check before you record\.$"))
    # And it keeps updating, whatever has focus.
    submit_and_wait(phones["Ben"], phones["Ben"].get_by_role("button", name=re.compile(r"^Done selling — next: Chloé")))
    expect(chloe.locator(".turn-heading")).to_have_text("Your sales turn, Chloé", timeout=WITHIN_MS)
    assert all(phone.errors == [] for phone in phones.values())


def test_the_seller_sees_the_sale_on_the_first_screen_of_a_seven_player_table(new_phone):
    players = ["Ana", "Ben", "Chloé", "Dan", "Emil", "Fatou", "Gus"]
    phones = open_sales(new_phone, players)
    ana = phones["Ana"]
    expect(ana.locator(".turn-heading")).to_have_text("Your sales turn, Ana")
    assert in_first_screen(ana, ana.get_by_role("list", name="Scores"))
    assert in_first_screen(ana, ana.locator("#sale-form").get_by_label("Product"))
    assert in_first_screen(ana, ana.locator("#sale-form").locator("label.pill", has_text="1").first)
    # The bell's settings are one control in the bar, closed.
    assert ana.locator("[data-bell-controls]").count() == 1
    expect(ana.get_by_text("Keep the screen on")).to_be_hidden()
    assert ana.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("width, height", [(390, 844), (320, 640)])
def test_the_frutti_player_to_act_sees_every_seafood_in_track_order_on_the_first_screen(new_phone, width, height):
    players = ["Ana", "Ben", "Chloé", "Dan", "Emil", "Fatou"]
    size = {"width": width, "height": height}
    ana = new_phone(size=size)
    create_table(ana, "frutti", players, starter="Ana")
    choose_seat(ana, "Ana")
    # One phone passed round the table: the invitation is put away by hand.
    ana.locator("section.invite").get_by_role("button", name="Everyone is in").click()
    expect(ana.locator("section.invite")).to_have_count(0)
    submit_and_wait(ana, ana.get_by_role("button", name="Shuffle: the app lays them out"))
    buttons = ana.locator(".seafood-buttons button")
    expect(buttons).to_have_count(5)
    for index in range(5):
        assert in_first_screen(ana, buttons.nth(index), height), f"seafood button {index + 1} is below the first screen"
    assert ana.evaluate("document.documentElement.scrollWidth") <= width
    # The buttons follow the price track, cheapest first; the one on the 50 stall says where it goes.
    track = [name.strip() for name in ana.locator(".stalls .dish-name").all_inner_texts()]
    labels = [label.strip().lower() for label in ana.locator(".seafood-buttons .sf-label").all_inner_texts()]
    assert labels == track
    expect(buttons.nth(4)).to_contain_text("sells at 50 now; played, it drops to 0")
    assert ana.errors == []


def test_the_jaipur_seller_sees_the_sale_on_the_first_screen(new_phone):
    ana = new_phone()
    create_table(ana, "jaipur", ["Ana", "Ben"], starter="Ana")
    choose_seat(ana, "Ana")
    ana.locator("section.invite").get_by_role("button", name="Everyone is in").click()
    expect(ana.locator("section.invite")).to_have_count(0)
    assert in_first_screen(ana, ana.get_by_role("list", name="Scores"))
    assert in_first_screen(ana, ana.get_by_role("button", name="Preview the sale"))
    assert ana.errors == []


def test_over_plain_http_on_the_home_network_the_screen_stays_on_and_the_bell_sounds_after_one_tap(
        playwright_instance, live_server):
    # A phone on the Wi-Fi opens the laptop by a name that is not this computer: no secure context, so no
    # Screen Wake Lock API. The name is mapped to the loopback server inside this browser: no traffic leaves.
    port = live_server.url.rsplit(":", 1)[1]
    browser = playwright_instance.chromium.launch(
        executable_path=CHROMIUM, headless=True,
        args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP laptop.home 127.0.0.1", "--autoplay-policy=user-gesture-required"])
    try:
        context = browser.new_context(base_url=f"http://laptop.home:{port}", viewport=PHONE, has_touch=True, is_mobile=True)
        phone = context.new_page()
        errors = []
        phone.on("pageerror", lambda error: errors.append(str(error)))
        create_table(phone, "tiny", ["Ana", "Ben"])
        assert phone.evaluate("window.isSecureContext") is False
        assert phone.evaluate("'wakeLock' in navigator") is False
        menu = phone.locator("details.phone-menu")
        # Before any tap on the table page, the phone says what it will do and why (the menu is still closed).
        assert "once you have tapped the page" in menu.locator("[data-bell-words]").text_content()
        assert "Over plain HTTP" in menu.locator("[data-bell-wake-note]").text_content()
        assert "from your first tap" in menu.locator("[data-bell-wake-note]").text_content()
        # One tap (opening the bell's control is one): the sound is awake and the screen kept on.
        menu.locator("summary").click()
        expect(menu.locator("[data-bell-words]")).to_have_text("The bell rings on this phone.")
        expect(menu.locator("[data-bell-wake-note]")).to_contain_text("a silent, invisible video keeps the screen on")
        assert phone.evaluate("typeof window.NoSleep") == "function"
        assert errors == []
    finally:
        browser.close()
