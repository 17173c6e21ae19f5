"""Without JavaScript, a refused form or a preview answers Post/Redirect/Get: 303 to the table page at the form's
anchor; the next page shows the values chosen and each sentence next to its field, once, to that phone only
(issue #21: the answer used to be the page itself at the form's address, opening at the top)."""

from __future__ import annotations

import html
import re

import pytest
import sqlalchemy as sa

from companion.extensions import db
from companion.models import Entry
from helpers import form_key, make_table

HTMX = {"HX-Request": "true"}


def entry_count(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Entry))


def sent_to(response, token: str, anchor: str) -> str:
    """The answer is a 303 to the table page itself, at ``anchor``; its address."""
    assert response.status_code == 303
    assert response.headers["Location"] == f"/t/{token}#{anchor}"
    return response.headers["Location"]


def page_text(client, token: str) -> str:
    page = client.get(f"/t/{token}")
    assert page.status_code == 200
    return html.unescape(page.text)


def test_a_refused_jaipur_preview_lands_at_the_sale_form_with_the_sentence_next_to_the_cards(app, client):
    token = make_table(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw", "first_player": 0})
    answer = client.post(f"/t/{token}/jaipur/sale", data={"player": 0, "good": "diamonds", "cards": 1,
                                                         "key": form_key(), "seen": 0, "step": "preview"})
    sent_to(answer, token, "sale-form")
    shown = page_text(client, token)
    assert re.search(r'id="sale-cards-error">Diamonds must be sold at least 2 at a time\.', shown)
    # The choices made are still chosen.
    assert re.search(r'id="sale-good-diamonds" name="good" value="diamonds"[^>]*checked', shown)
    assert entry_count(app) == 0
    # Shown once: a reload is the table as it stands.
    again = page_text(client, token)
    assert "Diamonds must be sold" not in again and not re.search(r'id="sale-good-diamonds"[^>]*checked', again)


def test_a_jaipur_preview_without_javascript_is_shown_on_the_table_page_and_records_when_confirmed(app, client):
    token = make_table(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw", "first_player": 0})
    data = {"player": 0, "good": "leather", "cards": 2, "key": form_key(), "seen": 0, "step": "preview"}
    sent_to(client.post(f"/t/{token}/jaipur/sale", data=data), token, "sale-form")
    shown = client.get(f"/t/{token}").text
    previewed = re.search(r'name="previewed"[^>]*value="([^"]*)"', shown)[1]
    assert previewed == "0:leather:2" and entry_count(app) == 0
    confirmed = client.post(f"/t/{token}/jaipur/sale", data=data | {"step": "confirm", "previewed": previewed})
    assert confirmed.status_code == 303 and entry_count(app) == 1
    assert "Ana sold 2 leather" in page_text(client, token)


def test_a_refused_frutti_suspend_lands_at_the_suspend_box_open_with_the_hand_entered(app, client):
    token = make_table(app, "frutti", ["Ana", "Ben", "Cy"], {"first_player": 0})
    order = {f"order-{i}": s for i, s in enumerate(["shrimp", "oysters", "mussels", "octopus", "sea_urchins"])}
    client.post(f"/t/{token}/frutti/dishes", data={"key": form_key(), "how": "table", **order})
    answer = client.post(f"/t/{token}/frutti/suspend", data={"key": form_key(), "player": 0, "hand-0": "5"})
    sent_to(answer, token, "suspend")
    shown = page_text(client, token)
    assert re.search(r'id="suspend-hand-error"[^>]*>Ana has played 0 cards, so 7 cards are left in hand: '
                     r'lay all 7 down, not 5\.', shown)
    assert '<details id="suspend" class="suspend" open>' in shown
    assert re.search(r'name="hand-0"[^>]*value="5"', shown)
    assert entry_count(app) == 1
    assert "lay all 7 down" not in page_text(client, token)


def test_a_refused_carambouille_purchase_lands_at_the_buy_form(app, client):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0})
    for event in ("market_opened", "market_closed"):
        client.post(f"/t/{token}/bell/{'open' if event == 'market_opened' else 'close'}",
                    data={"bell-key": form_key(), "bell-mode": "hand"})
    # Ana has no points yet: 50 points a card is more than she has.
    answer = client.post(f"/t/{token}/carambouille/buy", data={"key": form_key(), "player": 0, "cards": "illusion"})
    sent_to(answer, token, "buy-form")
    count = entry_count(app)
    shown = page_text(client, token)
    form = shown[shown.index('id="buy-form"'):]
    form = form[:form.index("</form>")]
    assert 'class="error"' in form
    assert entry_count(app) == count


def test_a_refused_bell_lands_at_the_bell(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    answer = client.post(f"/t/{token}/bell/open", data={"bell-key": form_key(), "bell-mode": "fixed",
                                                       "bell-minutes": "99"})
    sent_to(answer, token, "bell")
    shown = page_text(client, token)
    assert "Choose a number of minutes from the list, 1 to 10." in shown
    assert entry_count(app) == 0


def test_a_refusal_kept_for_one_phone_is_never_shown_to_another_nor_kept_for_it(app, client):
    token = make_table(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw", "first_player": 0})
    other = app.test_client()
    for phone in (client, other):
        phone.post(f"/t/{token}/seat", data={"seat": "0"})
        phone.get(f"/t/{token}")  # the seat's rendering is kept
    count = entry_count(app)
    answer = client.post(f"/t/{token}/jaipur/sale", data={"player": 0, "good": "gold", "cards": 1,
                                                         "key": form_key(), "seen": 0, "step": "preview"})
    sent_to(answer, token, "sale-form")
    refusal = "Gold must be sold at least 2 at a time."
    # The other phone of the same seat, before and after: the kept rendering, without the refusal.
    assert refusal not in other.get(f"/t/{token}").text
    shown = page_text(client, token)
    assert refusal in shown and re.search(r'id="sale-good-gold"[^>]*checked', shown)
    assert refusal not in other.get(f"/t/{token}").text
    assert refusal not in client.get(f"/t/{token}").text
    assert refusal not in other.get(f"/t/{token}/live?seen=-1", headers=HTMX).text
    assert entry_count(app) == count


def test_htmx_still_gets_the_live_region_with_the_refusal(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    answer = client.post(f"/t/{token}/tiny/score", headers=HTMX,
                         data={"player": 0, "points": 99, "key": form_key()})
    assert answer.status_code == 200 and "<html" not in answer.text
    assert "Points go from 1 to 50." in answer.text
    # Nothing was kept for the next page.
    assert "Points go from 1 to 50." not in client.get(f"/t/{token}").text


def test_a_move_recorded_from_another_phone_is_said_on_the_fresh_form(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    data = {"player": 0, "points": 5, "seen": 0}
    assert client.post(f"/t/{token}/tiny/score", data=data | {"key": form_key()}).status_code == 303
    other = app.test_client()
    sent_to(other.post(f"/t/{token}/tiny/score", data=data | {"key": form_key()}), token, "live")
    assert entry_count(app) == 1
    assert "Already recorded from another phone: “Ana scored 5” It counts once." in page_text(other, token)


def test_a_form_kept_for_one_table_waits_for_that_table(app, client):
    one = make_table(app, "tiny", ["Ana", "Ben"])
    two = make_table(app, "tiny", ["Cy", "Dee"])
    client.post(f"/t/{one}/tiny/score", data={"player": 0, "points": 99, "key": form_key()})
    assert "Points go from 1 to 50." not in client.get(f"/t/{two}").text
    assert "Points go from 1 to 50." in client.get(f"/t/{one}").text


def test_a_refused_carambouille_sale_keeps_what_the_seller_chose(app, client):
    """On the pad for everyone, which enters every player's sale cards on the sale."""
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0})
    with client.session_transaction() as session:
        session["seats"] = {token: "pad"}
    for action in ("open", "close"):
        client.post(f"/t/{token}/bell/{action}", data={"bell-key": form_key(), "bell-mode": "hand"})
    answer = client.post(f"/t/{token}/carambouille/sale", data={"key": form_key(), "player": 0, "product": "cheese",
                                                                "cards": 2, "effects-0": "bargain:1",
                                                                "step": "confirm"})
    sent_to(answer, token, "sale-form")
    shown = page_text(client, token)
    form = shown[shown.index('id="sale-form"'):]
    form = form[:form.index("</form>")]
    assert re.search(r'id="sale-effects-error"[^>]*>[^<]*Ben holds no Bargain card\.', form)
    # The product, the number of cards and the sale card chosen are still chosen.
    assert '<option value="cheese" selected' in form and re.search(r'name="cards" value="2" checked', form)
    assert '<option value="bargain:1" selected' in form
    assert entry_count(app) == 2
