"""Every Carambouille recording control records on one tap, on a phone that has sat on the table: the bell
opened and closed, a sale, Illusion, Bargain and Overstock played on it from each player's own phone, a purchase, a Basket, the end of a
sales turn, the deal. Each asserted on the acting phone (Ana's) and on another (Ben's): the entry's own
sentence and the new scores. Previews and helpers follow the choices on screen at once, no "again" tap."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.phone import choose_seat, expect_recorded, scores, sit_on_table, tap_once
from browser.tables import record_table

pytestmark = pytest.mark.browser
PLAYERS = ["Ana", "Ben", "Chloé"]

# Hand 1, Chloé first: each sells and buys; Ana ends up holding an Illusion and a Basket, Ben a Bargain and an
# Overstock. Scores 150, 125, 125; Ana, the next First Trader, is to deal.
HAND_1 = [
    {"type": "market_opened"}, {"type": "market_closed"},
    {"type": "sale", "player": 2, "product": "olive_oil", "cards": 2},
    {"type": "buy", "player": 2, "cards": ["persuasion"]},
    {"type": "end_sales_turn", "player": 2},
    {"type": "sale", "player": 0, "product": "saffron", "cards": 2},
    {"type": "buy", "player": 0, "cards": ["illusion", "basket"]},
    {"type": "end_sales_turn", "player": 0},
    {"type": "sale", "player": 1, "product": "truffles", "cards": 2},
    {"type": "buy", "player": 1, "cards": ["bargain", "overstock"]},
    {"type": "end_sales_turn", "player": 1},
]
DEAL = {"type": "deal", "cards": [3, 3, 3], "hand_sizes": [4, 4, 4]}
OPENED = [DEAL, {"type": "market_opened"}]
SALES = [*OPENED, {"type": "market_closed"}]


def phones_at(new_phone, live_server, events):
    """Ana's and Ben's phones at a table where ``events`` were recorded, each set to its player."""
    token, _ = record_table(live_server, "carambouille", PLAYERS, {"first_trader": 2}, HAND_1 + events)
    ana, ben = new_phone(), new_phone()
    for phone, name in ((ana, "Ana"), (ben, "Ben")):
        phone.goto(f"/t/{token}")
        choose_seat(phone, name)
    return ana, ben


def choose(phone, product: str | None = None, cards: int | None = None, effects: tuple[str, ...] = ()) -> None:
    """The sale's choices, made as a player makes them: a poll or so apart."""
    sale = phone.locator("#sale-form")
    if product is not None:
        sale.get_by_label("Product").select_option(value=product)
        sit_on_table(phone, seconds=1)
    if cards is not None:
        sale.locator("label.pill", has_text=str(cards)).first.click()
        sit_on_table(phone, seconds=1)
    for index, effect in enumerate(effects):
        sale.locator(f"select#sale-effect-{index}").select_option(label=effect)
        sit_on_table(phone, seconds=1)


def record_button(phone):
    return phone.locator("#sale-form").get_by_role("button", name=re.compile(r"^Record the sale"))


def test_the_bell_opens_and_closes_the_market_on_one_tap_each(new_phone, live_server):
    ana, ben = phones_at(new_phone, live_server, [DEAL])
    # Ben reads the score pad at the foot of the page while Ana rings.
    ben.locator("#live").evaluate("live => live.lastElementChild.scrollIntoView()")
    expect(ben.locator("#bell")).not_to_be_in_viewport()
    sit_on_table(ana)
    tapped = tap_once(ana, ana.locator("#bell").get_by_role("button", name=re.compile("Open the market")))
    expect_recorded([ana, ben], "Hand 2: Ana rang the bell: the market is open.", tapped_at=tapped)
    expect(ben.locator("#bell")).to_contain_text("Market open")
    expect(ben.locator("#bell")).to_be_in_viewport()
    sit_on_table(ana)
    tapped = tap_once(ana, ana.locator("#bell").get_by_role("button", name=re.compile("Close the market")))
    expect_recorded([ana, ben], re.compile(r"^Ding-a-Ding! The market closed after \d+ s; Ana sells first\.$"), tapped_at=tapped)
    expect(ben.locator(".turn-heading")).to_have_text("Ana's sales turn")
    assert ana.errors == [] and ben.errors == []


def test_a_plain_sale_records_what_its_button_says_after_a_change_of_mind(new_phone, live_server):
    ana, ben = phones_at(new_phone, live_server, SALES)
    sit_on_table(ana)
    choose(ana, "ham", 1)
    expect(record_button(ana)).to_have_text("Record the sale: +50")
    # Two cards, not one: the preview and the button follow at once.
    choose(ana, cards=2)
    expect(ana.locator(".sale-value")).to_have_text("Ana earns 125 points")
    expect(record_button(ana)).to_have_text("Record the sale: +125")
    # Nothing to work out again by hand: that button is the no-JavaScript path's.
    expect(ana.locator("#sale-form").get_by_role("button", name="Preview again")).to_be_hidden()
    tapped = tap_once(ana, record_button(ana))
    expect_recorded([ana, ben], "Ana sold 2 hams for 125.", ["275", "125", "125"], tapped)
    assert ana.errors == [] and ben.errors == []


def on_sale(phone):
    """The sale on the table as this phone shows it, with the sale cards it offers."""
    return phone.locator("#on-sale")


def test_illusion_then_bargain_each_from_its_players_phone_on_one_tap(new_phone, live_server):
    ana, ben = phones_at(new_phone, live_server, SALES)
    sit_on_table(ana)
    choose(ana, "cheese", 3)
    # The seller's phone names no other player's card: nothing to probe another hand with.
    expect(ana.locator("#sale-form select")).to_have_count(1)  # the product
    expect(ana.locator("#sale-form")).not_to_contain_text("Bargain by Ben")
    tapped = tap_once(ana, record_button(ana))
    expect_recorded([ana, ben], "Ana sold 3 cheeses for 180.", ["330", "125", "125"], tapped)
    # Each phone offers what its own player holds: Ana her Illusion, Ben his Bargain and Overstock.
    expect(on_sale(ana).get_by_role("button")).to_have_text(["Play Illusion: 300"])
    expect(on_sale(ben).get_by_role("button")).to_have_text(["Play Bargain: 90", "Play Overstock: cancelled, 0"])
    sit_on_table(ana)
    tapped = tap_once(ana, on_sale(ana).get_by_role("button", name="Play Illusion: 300"))
    expect_recorded([ana, ben], "Ana played Illusion on their sale of 3 cheeses: 180 → 300.", ["450", "125", "125"],
                    tapped)
    sit_on_table(ben)
    tapped = tap_once(ben, on_sale(ben).get_by_role("button", name="Play Bargain: 150"))
    expect_recorded([ben, ana], "Ben played Bargain on Ana's sale of 3 cheeses: 300 → 150.", ["300", "125", "125"],
                    tapped)
    expect(on_sale(ana).get_by_role("button")).to_have_count(0)  # Ana holds nothing more to play on it
    assert ana.errors == [] and ben.errors == []


def test_an_overstock_from_the_players_phone_cancels_the_sale_on_one_tap(new_phone, live_server):
    ana, ben = phones_at(new_phone, live_server, SALES)
    sit_on_table(ana)
    choose(ana, "hens", 2)
    tapped = tap_once(ana, record_button(ana))
    expect_recorded([ana, ben], "Ana sold 2 hens for 150.", ["300", "125", "125"], tapped)
    sit_on_table(ben)
    tapped = tap_once(ben, on_sale(ben).get_by_role("button", name="Play Overstock: cancelled, 0"))
    expect_recorded([ben, ana], "Ben played Overstock on Ana's sale of 2 hens: cancelled (150 → 0), the cards go "
                    "back to Ana's hand.", ["150", "125", "125"], tapped)
    expect(on_sale(ana)).to_have_count(0)  # cancelled: nothing more is played on it
    assert ana.errors == [] and ben.errors == []


def test_a_purchase_records_on_one_tap(new_phone, live_server):
    ana, ben = phones_at(new_phone, live_server, SALES)
    sit_on_table(ana)
    buy = ana.locator("#buy-form")
    buy.get_by_role("group", name="Card drawn").locator("label", has_text="Bargain").click()
    sit_on_table(ana, seconds=1)
    tapped = tap_once(ana, buy.get_by_role("button", name=re.compile(r"^\+1 card")))
    expect_recorded([ana, ben], "Ana bought 1 Carambouille card for 50 points.", ["100", "125", "125"], tapped)
    assert ana.errors == [] and ben.errors == []


def test_a_basket_is_laid_on_one_tap(new_phone, live_server):
    ana, ben = phones_at(new_phone, live_server, SALES)
    sit_on_table(ana)
    ana.locator("summary", has_text="Carambouille cards").click()
    tapped = tap_once(ana, ana.get_by_role("button", name="Lay a Basket"))
    expect_recorded([ana, ben], "Ana laid a Basket: hand limit 10.", ["150", "125", "125"], tapped)
    assert ana.errors == [] and ben.errors == []


def test_the_end_of_a_sales_turn_records_on_one_tap(new_phone, live_server):
    ana, ben = phones_at(new_phone, live_server, SALES)
    sit_on_table(ana)
    tapped = tap_once(ana, ana.get_by_role("button", name="Done selling — next: Ben"))
    expect_recorded([ana, ben], "Ana ended their sales turn; Ben's turn.", tapped_at=tapped)
    expect(ben.locator(".turn-heading")).to_have_text("Your sales turn, Ben")
    assert ana.errors == [] and ben.errors == []


def test_the_deal_helper_follows_a_changed_hand_and_records_on_one_tap(new_phone, live_server):
    ana, ben = phones_at(new_phone, live_server, [])
    sit_on_table(ana)
    deal = ana.locator("#deal-form")
    give = deal.locator("td.give")
    for number in range(3):
        deal.locator(f"#deal-size-{number}").fill("4")
    sit_on_table(ana, seconds=1)
    expect(give.nth(1)).to_contain_text("3 → 7")
    # Ben counts again: 6 cards, so 2 more reach his limit of 8; the helper says so without another tap.
    deal.locator("#deal-size-1").fill("6")
    sit_on_table(ana, seconds=1)
    expect(give.nth(1)).to_contain_text("2 → 8")
    tapped = tap_once(ana, deal.get_by_role("button", name="Record the deal"))
    expect_recorded([ana, ben], "Hand 2: Ana dealt 8 cards (Ana 3, Ben 2, Chloé 3); 74 left in the stock.", ["150", "125", "125"], tapped)
    assert ana.errors == [] and ben.errors == []
