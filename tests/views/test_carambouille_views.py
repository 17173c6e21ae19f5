"""The Carambouille table page: the board, the sale with its preview, purchases, the cards played, the deal, the end."""

from __future__ import annotations

import html
import re

import pytest
import sqlalchemy as sa

from companion.table import recording
from companion.table.state import state_of
from companion.extensions import db
from companion.models import Entry, Table
from helpers import answered, form_key, make_table

HTMX = {"HX-Request": "true"}
ANA, BEN, CY = 0, 1, 2


def text(response) -> str:
    """The page as a player reads it: tags dropped, entities decoded, spaces squeezed."""
    return text_of(response.text)


def text_of(markup: str) -> str:
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())
    return re.sub(r" ([,.;:!?)/])", r"\1", words)


def new_table(app, players=("Ana", "Ben", "Cy"), first=ANA) -> str:
    return make_table(app, "carambouille", list(players), {"first_trader": first})


def state(app, token):
    with app.app_context():
        table = db.session.scalar(sa.select(Table).filter_by(token=token))
        return state_of(table)


def entry_count(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Entry))


def record(app, token, event):
    """An entry recorded straight through the log (to set a scene quickly)."""
    with app.app_context():
        table = db.session.scalar(sa.select(Table).filter_by(token=token))
        recording.record(table, event)


def post(client, token, action, data, htmx=False):
    return client.post(f"/t/{token}/carambouille/{action}", data={"key": form_key(), **data},
                       headers=HTMX if htmx else {})


def ring(client, token):
    """The First Trader's bell (the bell's own page): opens the market, or closes it."""
    response = client.post(f"/t/{token}/bell/open", data={"bell-key": form_key(), "bell-mode": "hand"})
    assert response.status_code == 303, response.text
    response = client.post(f"/t/{token}/bell/close", data={"bell-key": form_key()})
    assert response.status_code == 303, response.text


def sell(client, token, player, product, cards, *effects, htmx=False):
    data = {"player": player, "product": product, "cards": cards, "step": "confirm"}
    data |= {f"effects-{i}": f"{card}:{by}" for i, (card, by) in enumerate(effects)}
    return post(client, token, "sale", data, htmx)


def buy(client, token, player, *drawn):
    data = {"player": player, "cards": len(drawn), "first": drawn[0]} | ({"second": drawn[1]} if len(drawn) > 1 else {})
    return post(client, token, "buy", data)


def end_turn(client, token, player):
    return post(client, token, "end-turn", {"player": player})


def deal(client, token, sizes):
    return post(client, token, "deal", {f"hand_sizes-{i}": n for i, n in enumerate(sizes)} | {"step": "confirm"})


def in_sales(app, client, token):
    ring(client, token)
    assert state(app, token).phase == "sales"


# --- the board -----------------------------------------------------------------------

def test_new_table_shows_the_exchange_phase_the_bell_and_the_empty_pad(app, client):
    token = new_table(app, first=BEN)
    page = client.get(f"/t/{token}")
    assert page.status_code == 200
    words = text(page)
    assert "Hand 1 Exchange phase — Ben, the First Trader" in words
    assert "Stock 82 product cards" in words and "Carambouille deck 24 of 24" in words
    assert "No product sold yet" in words
    assert 'aria-label="Scores"' in page.text and "Score pad: 1 hand" in words
    assert "Memo card &amp; calculator" in page.text


def test_sales_turn_is_highlighted_and_the_next_seller_named(app, client):
    token = new_table(app)
    in_sales(app, client, token)
    page = client.get(f"/t/{token}")
    words = text(page)
    assert "Sales: Ana's turn, then Ben, Cy." in words
    assert 'class=" turn" aria-current="step"' in page.text
    assert "Done selling — next: Ben" in words


def test_watch_view_shows_the_board_without_any_form(app, client):
    token = new_table(app)
    in_sales(app, client, token)
    with app.app_context():
        watch = db.session.scalar(sa.select(Table.watch_token).filter_by(token=token))
    page = client.get(f"/w/{watch}")
    assert page.status_code == 200
    assert "Sales:" in text(page) and "Score pad" in text(page)
    assert "/carambouille/sale" not in page.text and "<form" not in page.text.split('id="live"')[1].split("Latest entries")[0]
    assert client.get(f"/w/{watch}/pad").status_code == 200


# --- sales ----------------------------------------------------------------------------

def test_sale_preview_without_javascript_shows_the_arithmetic_then_confirm_records(app, client):
    token = new_table(app)
    in_sales(app, client, token)
    before = entry_count(app)
    # Without htmx, the preview is the table page (303 to it, at the sale form), shown to this phone.
    preview = answered(client, post(client, token, "sale", {"player": ANA, "product": "cheese", "cards": 3,
                                                            "step": "preview"}), token, "sale-form")
    assert "3 × cheeses = 180" in text(preview) and "Ana earns 180 points" in text(preview)
    assert "Record the sale: +180" in text(preview)
    assert entry_count(app) == before
    assert sell(client, token, ANA, "cheese", 3).status_code == 303
    assert state(app, token).points == (180, 0, 0)
    assert "Ana sold 3 cheeses for 180." in text(client.get(f"/t/{token}"))


NOT_CONFIRMED = '<sup class="ruling-mark" aria-hidden="true">*</sup><span class="vh"> (not confirmed by the rule text)</span>'


def test_the_unconfirmed_5_card_column_is_flagged_on_the_sale_form(app, client):
    token = new_table(app)
    in_sales(app, client, token)
    preview = answered(client, post(client, token, "sale", {"player": ANA, "product": "cheese", "cards": 5,
                                                            "step": "preview"}), token, "sale-form")
    form = preview.text[preview.text.index('id="sale-form"'):]
    # The "5" button, the arithmetic, the value and the record button all carry the mark, with what it means.
    assert f'<small class="v unconfirmed">480{NOT_CONFIRMED}</small>' in form
    assert f'<li class="unconfirmed">5 × cheeses = 480{NOT_CONFIRMED}</li>' in form
    assert f"earns <strong>480</strong>{NOT_CONFIRMED} points" in form
    assert f"Record the sale: +480{NOT_CONFIRMED}</button>" in form
    assert "5 cards: not confirmed by the rule text; ×12 of the face value is this app's ruling." in text(preview)
    # 4 cards rest on confirmed values: no mark on the arithmetic, the value or the button.
    shown = answered(client, post(client, token, "sale", {"player": ANA, "product": "cheese", "cards": 4,
                                                          "step": "preview"}), token, "sale-form").text
    shown = shown[shown.index('id="sale-form"'):]
    assert '<li>4 × cheeses = 300</li>' in shown and "Record the sale: +300</button>" in shown


def test_a_house_memo_5_card_value_is_the_tables_own_and_not_flagged(app, client):
    token = new_table(app)
    record(app, token, {"type": "house_memo", "memo": {"40": [None, None, None, None, 500]}})
    in_sales(app, client, token)
    preview = answered(client, post(client, token, "sale", {"player": ANA, "product": "cheese", "cards": 5,
                                                            "step": "preview"}), token, "sale-form")
    form = preview.text[preview.text.index('id="sale-form"'):]
    assert '<small class="v">500</small>' in form and "<li>5 × cheeses = 500</li>" in form
    assert "ruling-mark" not in form
    other = answered(client, post(client, token, "sale", {"player": ANA, "product": "wine", "cards": 5,
                                                          "step": "preview"}), token, "sale-form").text
    assert f"<li class=\"unconfirmed\">5 × wines = 600{NOT_CONFIRMED}</li>" in other


def test_sale_preview_with_htmx_is_the_sale_form_alone_with_the_choices_still_possible(app, client):
    token = new_table(app)
    in_sales(app, client, token)
    record(app, token, {"type": "sale", "player": ANA, "product": "wine", "cards": 3})
    response = client.get(f"/t/{token}/carambouille/sale", headers=HTMX,
                          query_string={"player": ANA, "product": "wine", "key": form_key()})
    assert response.status_code == 200 and "HX-Request" in response.headers["Vary"]
    assert response.text.lstrip().startswith('<form id="sale-form"') and "<html" not in response.text
    assert "at most 2 left" in text(response)
    # 3, 4 and 5 wines are no longer possible; the values of 1 and 2 are shown on their buttons.
    assert re.search(r'value="3"\s+disabled', response.text) and not re.search(r'value="2"\s+disabled', response.text)
    assert "wines (50) — 2 left" in text(response)
    # Nothing chosen yet: nothing refused yet.
    assert 'class="error"' not in response.text


def seated(app, token, seat):
    """A phone set to ``seat`` ("pad": the pad for everyone, one phone passed round)."""
    phone = app.test_client()
    with phone.session_transaction() as session:
        session["seats"] = {token: seat}
    return phone


def on_sale(phone, token) -> str:
    """The sale on the table as this phone shows it, with the sale cards it offers."""
    found = re.search(r'<section id="on-sale".*?</section>', phone.get(f"/t/{token}").text, re.S)
    return text_of(found[0]) if found else ""


def anas_turn_in_hand_2(app, client, token):
    """Hand 2, Ana's turn: she holds an Illusion, Ben a Bargain and an Overstock, Cy nothing; she has sold no
    cheeses yet."""
    in_sales(app, client, token)
    record(app, token, {"type": "sale", "player": ANA, "product": "saffron", "cards": 2})  # 250
    record(app, token, {"type": "buy", "player": ANA, "cards": ["illusion"]})
    record(app, token, {"type": "end_sales_turn", "player": ANA})
    record(app, token, {"type": "sale", "player": BEN, "product": "truffles", "cards": 2})  # 225
    record(app, token, {"type": "buy", "player": BEN, "cards": ["bargain", "overstock"]})
    for seat in (BEN, CY):
        record(app, token, {"type": "end_sales_turn", "player": seat})
    record(app, token, {"type": "deal", "cards": [3, 3, 3], "hand_sizes": [5, 5, 5]})
    ring(client, token)
    for seat in (BEN, CY):
        record(app, token, {"type": "end_sales_turn", "player": seat})


def test_sale_cards_are_played_on_the_sale_from_each_players_own_phone(app, client):
    token = new_table(app)
    anas_turn_in_hand_2(app, client, token)
    ana, ben, cy = (seated(app, token, seat) for seat in (ANA, BEN, CY))
    # The sale form names nobody's card: the seller sells, then each player plays theirs.
    form = text(ana.get(f"/t/{token}/carambouille/sale", headers=HTMX,
                        query_string={"player": ANA, "product": "cheese", "cards": 3, "key": form_key()}))
    assert "Illusion by Ana" not in form and "Bargain by Ben" not in form
    assert "once the sale is recorded, each player plays theirs from their own phone" in form
    assert sell(ana, token, ANA, "cheese", 3, htmx=True).status_code == 200
    # Each phone offers what its own player holds, with the sale's value after it; nothing on Cy's.
    assert on_sale(ana, token) == "On the table: Ana's 3 cheeses, 180 Play Illusion: 300"
    assert on_sale(ben, token) == "On the table: Ana's 3 cheeses, 180 Play Bargain: 90 Play Overstock: cancelled, 0"
    assert on_sale(cy, token) == "On the table: Ana's 3 cheeses, 180"
    assert post(ana, token, "on-sale", {"player": ANA, "card": "illusion"}, htmx=True).status_code == 200
    assert on_sale(ben, token) == "On the table: Ana's 3 cheeses, 300 Play Bargain: 150 Play Overstock: cancelled, 0"
    answer = post(ben, token, "on-sale", {"player": BEN, "card": "bargain"}, htmx=True)
    assert "Ben played Bargain on Ana's sale of 3 cheeses: 300 → 150." in text(answer)
    assert state(app, token).points == (250 - 50 + 150, 225 - 100, 0)


def test_the_pad_for_everyone_enters_the_sale_cards_on_the_sale(app, client):
    token = new_table(app)
    anas_turn_in_hand_2(app, client, token)
    pad = seated(app, token, "pad")
    query = {"player": ANA, "product": "cheese", "cards": 3, "effects-0": "illusion:0", "key": form_key()}
    response = pad.get(f"/t/{token}/carambouille/sale", headers=HTMX, query_string=query)
    assert "Illusion by Ana" in response.text and "Bargain by Ben" in response.text
    assert "Bargain by Cy" not in response.text  # Cy holds no Carambouille card at all (a public count)
    query["effects-1"] = "bargain:1"
    response = pad.get(f"/t/{token}/carambouille/sale", headers=HTMX, query_string=query)
    assert "3 × cheeses = 180 Illusion by Ana → 300 Bargain by Ben → 150" in text(response)
    assert sell(pad, token, ANA, "cheese", 3, ("illusion", ANA), ("bargain", BEN), htmx=True).status_code == 200
    assert state(app, token).points == (250 - 50 + 150, 225 - 100, 0)


@pytest.mark.parametrize("holds", [True, False], ids=["Ben holds a Bargain", "Ben holds none"])
@pytest.mark.parametrize("htmx", [False, True])
def test_a_phone_never_learns_what_another_player_holds_not_even_from_a_refusal(app, client, htmx, holds):
    """Ana's phone names Ben's Bargain on her sale, in its preview and its record, and plays his card on the sale:
    the same refusal whether Ben holds one or not, and nothing recorded."""
    token = new_table(app)
    anas_turn_in_hand_2(app, client, token)
    record(app, token, {"type": "sale", "player": ANA, "product": "onions", "cards": 1})
    if not holds:  # Ben plays his only Bargain on it
        with app.app_context():
            table = db.session.scalar(sa.select(Table).filter_by(token=token))
            recording.record(table, {"type": "play_on_sale", "player": BEN, "card": "bargain"})
    ana = seated(app, token, ANA)
    before = entry_count(app)
    refusal = "Only Ben's phone, or the pad for everyone, plays Ben's cards."
    preview = ana.get(f"/t/{token}/carambouille/sale", headers=HTMX, query_string={
        "player": ANA, "product": "cheese", "cards": 2, "effects-0": "bargain:1", "key": form_key()})
    recorded = answered(ana, sell(ana, token, ANA, "cheese", 2, ("bargain", BEN), htmx=htmx), token, "sale-form",
                        htmx=htmx)
    played = answered(ana, post(ana, token, "on-sale", {"player": BEN, "card": "bargain"}, htmx=htmx), token,
                      "on-sale", htmx=htmx)
    for answer in (preview, recorded, played):
        assert refusal in html.unescape(answer.text)
        assert "holds no" not in answer.text and "holds only" not in answer.text
    assert entry_count(app) == before


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("data, field, message", [
    ({"product": "cheese", "cards": 6}, "sale-cards-error", "A sale is 1 to 5 cards."),
    ({"product": "caviar", "cards": 1}, "sale-product-error", "Not a valid choice"),
    ({"product": "cheese", "cards": 2, "effects-0": "bargain:1"}, "sale-effects-error", "Ben holds no Bargain card."),
    ({"product": "cheese", "cards": 2, "effects-0": "illusion:1"}, "sale-effects-error",
     "Only the seller can play Illusion on a sale."),
    ({"product": "cheese", "cards": 2, "effects-0": "magic:1"}, "sale-effects-error", "Choose a sale card from the list."),
])
def test_refused_sale_says_why_next_to_the_field_and_changes_nothing(app, client, htmx, data, field, message):
    """On the pad for everyone (one phone passed round), which enters every player's sale cards."""
    token = new_table(app)
    in_sales(app, client, token)
    pad = seated(app, token, "pad")
    before = entry_count(app)
    response = answered(pad, post(pad, token, "sale", {"player": ANA, "step": "confirm", **data}, htmx=htmx),
                        token, "sale-form", htmx=htmx)
    assert re.search(rf'id="{field}"[^>]*>[^<]*{re.escape(message)}', html.unescape(response.text)), response.text
    assert entry_count(app) == before and state(app, token).points == (0, 0, 0)


def test_sale_of_more_cards_than_are_left_is_refused_by_the_rules(app, client):
    token = new_table(app)
    in_sales(app, client, token)
    record(app, token, {"type": "sale", "player": ANA, "product": "ham", "cards": 4})
    response = answered(client, sell(client, token, ANA, "ham", 2), token, "sale-form")
    assert "Only 1 ham card is left to sell (4 of 5 sold)." in text(response)
    assert state(app, token).points == (375, 0, 0)


def test_a_sale_out_of_turn_is_refused(app, client):
    token = new_table(app)
    in_sales(app, client, token)
    response = answered(client, sell(client, token, BEN, "onions", 1), token, "sale-form")
    assert "It is Ana's sales turn, not Ben's." in text(response)


# --- purchases ----------------------------------------------------------------------------

def test_purchase_buttons_are_off_with_the_reason_when_points_are_short(app, client):
    token = new_table(app)
    in_sales(app, client, token)
    page = text(client.get(f"/t/{token}"))
    assert "Ana has 0 points: 1 Carambouille card costs 50. A score never goes below zero." in page
    record(app, token, {"type": "sale", "player": ANA, "product": "onions", "cards": 3})  # 45
    page = client.get(f"/t/{token}")
    assert "Ana has 45 points" in text(page)
    record(app, token, {"type": "sale", "player": ANA, "product": "garlic", "cards": 3})  # 90
    page = client.get(f"/t/{token}")
    assert "+1 card" in text(page) and re.search(r'value="2"\s+disabled', page.text)
    assert "+2: Ana has 90 points: 2 Carambouille cards cost 100." in text(page)


@pytest.mark.parametrize("htmx", [False, True])
def test_buying_names_the_cards_drawn_and_pays_50_each(app, client, htmx):
    token = new_table(app)
    in_sales(app, client, token)
    record(app, token, {"type": "sale", "player": ANA, "product": "saffron", "cards": 2})  # 250
    response = post(client, token, "buy", {"player": ANA, "cards": 2, "first": "illusion", "second": "bargain"}, htmx)
    assert response.status_code == (200 if htmx else 303)
    assert state(app, token).points == (150, 0, 0)
    page = client.get(f"/t/{token}")
    assert "At most 2 Carambouille cards per sales turn: Ana has already bought 2." in text(page)
    assert "Carambouille deck 22 of 24" in text(page)
    assert "no more sales this turn" in text(page)


@pytest.mark.parametrize("data, field, message", [
    ({"cards": 2, "first": "illusion"}, "buy-second-error", "Tap the type of the second card you drew."),
    ({"cards": 1}, "buy-first-error", "Tap the type of the card you drew."),
    ({"cards": 1, "first": "joker"}, "buy-first-error", "Invalid value"),
    ({"cards": 3, "first": "basket"}, "buy-cards-error", "Number must be between 1 and 2."),
])
def test_refused_purchase_says_why_and_changes_nothing(app, client, data, field, message):
    token = new_table(app)
    in_sales(app, client, token)
    record(app, token, {"type": "sale", "player": ANA, "product": "saffron", "cards": 2})
    before = entry_count(app)
    response = answered(client, post(client, token, "buy", {"player": ANA, **data}), token, "buy-form")
    assert re.search(rf'id="{field}"[^>]*>[^<]*{re.escape(message)}', html.unescape(response.text)), response.text
    assert entry_count(app) == before and state(app, token).points == (250, 0, 0)


def test_purchase_without_the_points_is_refused_by_the_rules(app, client):
    token = new_table(app)
    in_sales(app, client, token)
    response = answered(client, buy(client, token, ANA, "basket"), token, "buy-form")
    assert "Ana has 0 points: 1 Carambouille card costs 50." in text(response)
    assert state(app, token).points == (0, 0, 0)


# --- the Carambouille cards ------------------------------------------------------------------

def test_cards_played_during_the_market_and_a_basket(app, client):
    token = new_table(app)
    in_sales(app, client, token)
    record(app, token, {"type": "sale", "player": ANA, "product": "saffron", "cards": 3})  # 450
    record(app, token, {"type": "buy", "player": ANA, "cards": ["i_lied", "basket"]})
    for seat in (ANA, BEN, CY):
        record(app, token, {"type": "end_sales_turn", "player": seat})
    record(app, token, {"type": "deal", "cards": [3, 3, 3], "hand_sizes": [5, 5, 5]})
    client.post(f"/t/{token}/bell/open", data={"bell-key": form_key(), "bell-mode": "hand"})
    with client.session_transaction() as session:
        session["seats"] = {token: ANA}
    page = client.get(f"/t/{token}")
    assert "Carambouille cards: you hold 2" in text(page)
    assert "Yours, on this phone only: Basket, “I lied!”" in text(page)
    refused = answered(client, post(client, token, "card", {"type": "persuasion", "player": ANA, "target": BEN}),
                       token, "cards-box")
    assert "Ana holds no Persuasion card." in text(refused)
    assert post(client, token, "card", {"type": "i_lied", "player": ANA}).status_code == 303
    assert post(client, token, "card", {"type": "basket", "player": ANA}, htmx=True).status_code == 200
    now = state(app, token)
    assert sum(now.held[ANA]) == 0 and now.played[ANA][0] == 1
    page = text(client.get(f"/t/{token}"))
    assert "Ana laid a Basket: hand limit 10." in page and "max 10" in page
    assert "Ana played “I lied!”." in page


def test_giving_a_card_needs_the_card(app, client):
    token = new_table(app)
    client.post(f"/t/{token}/bell/open", data={"bell-key": form_key(), "bell-mode": "hand"})
    ben = seated(app, token, BEN)
    response = answered(ben, post(ben, token, "give", {"player": BEN, "to": CY, "card": "bargain"}), token,
                        "cards-box")
    assert re.search(r'id="give-card-error"[^>]*>Ben holds no Bargain card\.', response.text)


def test_exchange_cards_wait_for_the_market(app, client):
    token = new_table(app)
    page = text(client.get(f"/t/{token}"))
    assert "are recorded while the market is open" in page


# --- the deal ---------------------------------------------------------------------------------

def test_deal_helper_is_prefilled_says_what_to_give_and_records_the_deal(app, client):
    token = new_table(app)
    in_sales(app, client, token)
    record(app, token, {"type": "sale", "player": ANA, "product": "cheese", "cards": 3})
    for seat in (ANA, BEN, CY):
        record(app, token, {"type": "end_sales_turn", "player": seat})
    page = client.get(f"/t/{token}")
    words = text(page)
    assert "Ben deals the next hand" in words
    assert 'name="hand_sizes-0" type="number" inputmode="numeric" min="0" max="100"\n                   value="3"' in page.text
    # Ana sold 3 of her 6 cards: she gets 3, Ben and Cy 2 each (up to the limit of 8).
    assert "7 cards from the stock; 75 left after the deal." in words
    preview = client.get(f"/t/{token}/carambouille/deal", headers=HTMX,
                         query_string={"hand_sizes-0": 7, "hand_sizes-1": 6, "hand_sizes-2": 8, "key": form_key()})
    assert preview.text.lstrip().startswith('<form id="deal-form"')
    assert "3 cards from the stock; 79 left after the deal." in text(preview)
    assert deal(client, token, [7, 6, 8]).status_code == 303
    now = state(app, token)
    assert (now.hand, now.stock, now.phase) == (2, 79, "opening")
    assert "Hand 2: Ben dealt 3 cards (Ana 1, Ben 2, Cy 0); 79 left in the stock." in text(client.get(f"/t/{token}"))


def test_deal_refusals_stay_next_to_the_hand_sizes(app, client):
    token = new_table(app)
    in_sales(app, client, token)
    for seat in (ANA, BEN, CY):
        record(app, token, {"type": "end_sales_turn", "player": seat})
    before = entry_count(app)
    response = answered(client, post(client, token, "deal", {"hand_sizes-0": 3, "hand_sizes-1": -1, "hand_sizes-2": "",
                                                             "step": "confirm"}), token, "deal-form")
    assert re.search(r'id="deal-size-1-error"[^>]*>Number must be between 0 and 100', response.text)
    assert re.search(r'id="deal-size-2-error"[^>]*>Count the cards in this hand', response.text)
    assert entry_count(app) == before


def test_the_deal_that_empties_the_stock_announces_the_last_hand(app, client):
    token = new_table(app, players=("Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"))
    # 58 cards are in the stock: empty it in a few hands of nobody selling.
    hands = 0
    while state(app, token).stock > 0 and hands < 5:
        ring(client, token)
        now = state(app, token)
        for k in range(7):
            record(app, token, {"type": "end_sales_turn", "player": (now.first_trader + k) % 7})
        # Everyone says 5 cards in hand: 3 each, 21 a deal, while the stock lasts.
        last = "this will be the last hand" in text(client.get(f"/t/{token}/carambouille/deal",
                                                                 query_string={f"hand_sizes-{i}": 5 for i in range(7)}))
        assert last == (state(app, token).stock <= 21)
        assert deal(client, token, [5] * 7).status_code == 303
        hands += 1
    assert state(app, token).last_hand and hands == 3
    assert "last hand" in text(client.get(f"/t/{token}"))


# --- the end ---------------------------------------------------------------------------------

def test_ending_early_shows_the_standings_with_shared_ranks(app, client):
    token = new_table(app)
    in_sales(app, client, token)
    record(app, token, {"type": "sale", "player": ANA, "product": "cheese", "cards": 2})
    record(app, token, {"type": "end_sales_turn", "player": ANA})
    record(app, token, {"type": "sale", "player": BEN, "product": "sausage", "cards": 2})
    assert post(client, token, "end", {}).status_code == 303
    page = client.get(f"/t/{token}")
    words = text(page)
    assert "Ana and Ben share the win with 100 points!" in words
    assert "1. place Ana 100 1. place Ben 100 3. place Cy 0" in words
    assert "Biggest sale: Ana, 2 cheeses for 100 (hand 1)." in words
    with app.app_context():
        assert db.session.scalar(sa.select(Table.status).filter_by(token=token)) == "finished"
    assert "/carambouille/sale" not in page.text


def test_pad_page_has_a_column_per_player_and_a_row_per_hand(app, client):
    token = new_table(app, first=CY)
    in_sales(app, client, token)
    record(app, token, {"type": "sale", "player": CY, "product": "hens", "cards": 1})
    for seat in (CY, ANA, BEN):
        record(app, token, {"type": "end_sales_turn", "player": seat})
    record(app, token, {"type": "deal", "cards": [3, 3, 3], "hand_sizes": [5, 5, 5]})
    page = client.get(f"/t/{token}/pad")
    assert page.status_code == 200
    header = re.search(r"<thead>(.*?)</thead>", page.text, re.S).group(1)
    assert re.findall(r">(Ana|Ben|Cy)</th>", header) == ["Ana", "Ben", "Cy"]
    rows = re.findall(r"<tr class=\"[^\"]*\">(.*?)</tr>", page.text, re.S)
    assert len(rows) == 2 and "now" in rows[1] and "now" not in rows[0]
    assert "First Trader" in rows[0] and "+60" in rows[0]


def test_pad_of_another_game_is_not_found(app, client, tiny):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    assert client.get(f"/t/{token}/pad").status_code == 404


@pytest.mark.parametrize("action", ["sale", "deal"])
def test_a_preview_after_the_hand_moved_on_sends_the_whole_table(app, client, action):
    token = new_table(app)  # the market is not even open: no sale, no deal
    response = client.get(f"/t/{token}/carambouille/{action}", headers=HTMX, query_string={"hand_sizes-0": 3})
    assert response.status_code == 200
    assert response.headers["HX-Retarget"] == "#live" and response.text.lstrip().startswith("<div id=\"live\"")
    assert client.get(f"/t/{token}/carambouille/{action}").status_code == 200


def test_absurd_numbers_are_refused_in_words(app, client):
    token = new_table(app)
    response = answered(client, post(client, token, "card", {"type": "basket", "player": "9" * 40, "seen": "9" * 40}),
                        token, "cards-box")
    assert "That number is far too big." in text(response)
    assert entry_count(app) == 0
