"""Jaipur's table page: the token bank, sales with their preview, the bonus token's secrecy, rounds and seals."""

from __future__ import annotations

import random
import re

import pytest
import sqlalchemy as sa

from companion.table import state as table_state
from companion.extensions import db
from companion.models import Entry, Table
from companion.views import jaipur as jaipur_views
from helpers import answered, form_key, make_table

HTMX = {"HX-Request": "true"}
ANA, BEN = 0, 1


# --- helpers --------------------------------------------------------------------

def new_table(app, bonus="draw", first=0) -> str:
    return make_table(app, "jaipur", ["Ana", "Ben"], {"bonus": bonus, "first_player": first})


def table_of(app, token) -> Table:
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        db.session.expunge(table)
        return table


def state_of(app, token):
    with app.app_context():
        return table_state.state_of(db.session.scalar(sa.select(Table).where(Table.token == token)))


def entry_count(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Entry))


def events(app) -> list[dict]:
    with app.app_context():
        return [entry.event for entry in db.session.scalars(sa.select(Entry).order_by(Entry.seq))]


def sit(client, token, seat):
    client.post(f"/t/{token}/seat", data={"seat": "" if seat is None else str(seat)})


def seen(app, token) -> int:
    return table_of(app, token).last_seq


def sale_form_html(html: str) -> str:
    start = html.index('id="sale-form"')
    return html[start:html.index("</form>", start)]


def preview(client, token, player, good, cards, headers=None, **extra):
    """The preview as the phone shows it: with htmx the answer; without, the table page it is sent to
    (303 to /t/<token>#sale-form), where the form kept for this phone holds the preview."""
    data = {"player": player, "good": good, "cards": cards, "key": form_key(), "step": "preview"} | extra
    return answered(client, client.post(f"/t/{token}/jaipur/sale", data=data, headers=headers or {}), token,
                    "sale-form", htmx=bool(headers))


def sale_answer(client, token, response):
    """A sale refused or shown again without htmx: the table page at the sale form, as this phone sees it."""
    return answered(client, response, token, "sale-form")


def confirm_data(html: str, **extra) -> dict:
    """What the phone sends when "Record" is tapped on a shown preview."""
    form = sale_form_html(html)
    fields = dict(re.findall(r'name="(key|seen|previewed)" type="hidden" value="([^"]*)"', form))
    for name in ("player", "good", "cards", "bonus"):
        checked = re.search(rf'name="{name}" value="([^"]*)" checked', form)
        if checked:
            fields[name] = checked.group(1)
    return fields | {"step": "confirm"} | extra


def sell(client, token, player, good, cards, headers=None, bonus=None):
    """Preview a sale, then record it as shown: the two taps a player makes."""
    shown = preview(client, token, player, good, cards, **({} if bonus is None else {"bonus": bonus}))
    assert shown.status_code == 200, shown.text
    data = confirm_data(shown.text)
    return client.post(f"/t/{token}/jaipur/sale", data=data, headers=headers or {})


def post(client, token, action, headers=None, **data):
    return client.post(f"/t/{token}/jaipur/{action}", data={"key": form_key(), "seen": ""} | data,
                       headers=headers or {})


def text_of(html: str) -> str:
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")
    return re.sub(r" ([,.;:!?)])", r"\1", words)


# --- the token bank -------------------------------------------------------------

def test_the_page_shows_the_token_bank_as_on_the_table(app, client):
    token = new_table(app)
    page = client.get(f"/t/{token}")
    assert page.status_code == 200
    words = text_of(page.text)
    for good in ("Diamonds", "Gold", "Silver", "Cloth", "Spice", "Leather"):
        assert f'{good} tokens left, top first' in page.text
    assert 'class="stack good-diamonds"' in page.text and 'class="stack good-leather"' in page.text
    diamonds = re.search(r'aria-label="Diamonds tokens left, top first">(.*?)</ol>', page.text, re.S).group(1)
    assert re.findall(r'class="token">(\d+)<', diamonds) == ["7", "7", "5", "5", "5"]
    assert "3 cards 1–3 7 left" in words and "4 cards 4–6 6 left" in words and "5 or more cards 8–10 5 left" in words
    assert "Camel token (5)" in words
    assert "first to 2 wins the match · 3 of the 3 seals are still to be won" in words
    assert "Round 1 · Ana started it" in words
    assert "Bonus tokens: drawn by the app." in words


def test_taken_tokens_are_gone_from_their_stack(app, client):
    token = new_table(app)
    response = sell(client, token, ANA, "diamonds", 3)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{token}")
    page = client.get(f"/t/{token}")
    diamonds = re.search(r'aria-label="Diamonds tokens left, top first">(.*?)</ol>', page.text, re.S).group(1)
    assert re.findall(r'class="token">(\d+)<', diamonds) == ["5", "5"]
    assert "3 cards 1–3 6 left" in text_of(page.text)
    assert "Ana sold 3 diamonds for 19 (7 + 7 + 5) and a bonus token (1–3)." in page.text


# --- the sale form and its preview ----------------------------------------------

def test_preview_without_javascript_shows_the_tokens_and_records_nothing(app, client):
    token = new_table(app)
    shown = preview(client, token, ANA, "diamonds", 3)
    assert shown.status_code == 200 and "<html" in shown.text
    form = text_of(sale_form_html(shown.text))
    assert "Takes 7 7 5 = 19" in form
    assert "And a bonus token 1–3, drawn by the app: only the seller sees its value." in form
    assert "Record: Ana sells 3 diamonds" in form
    assert entry_count(app) == 0


def test_preview_with_htmx_answers_the_form_alone_with_the_possible_card_counts(app, client):
    token = new_table(app)
    response = client.get(f"/t/{token}/jaipur/sale/preview",
                          query_string={"player": 1, "good": "silver", "cards": 5, "key": form_key()},
                          headers=HTMX)
    assert response.status_code == 200 and "<html" not in response.text
    assert response.text.lstrip().startswith("{#") is False and 'id="sale-form"' in response.text
    words = text_of(response.text)
    assert "Takes 5 5 5 5 5 = 25" in words and "And a bonus token 8–10" in words
    assert "Record: Ben sells 5 silver" in words
    counts = re.findall(r'name="cards" value="(\d)"', response.text)
    assert counts == ["2", "3", "4", "5", "6"]  # silver: 2 at least, 6 cards exist
    assert 'hx-get="/t/' in response.text and 'hx-trigger="change"' in response.text
    assert entry_count(app) == 0


def test_preview_page_without_htmx_is_the_whole_table(app, client):
    token = new_table(app)
    response = client.get(f"/t/{token}/jaipur/sale/preview", query_string={"good": "cloth", "cards": 2})
    assert response.status_code == 200 and "<html" in response.text
    assert "Takes 5 3 = 8" in text_of(response.text)
    assert "No bonus token: that needs 3 cards or more." in response.text


def test_the_preview_says_when_no_bonus_token_is_left(app, client, monkeypatch):
    monkeypatch.setattr(jaipur_views, "bonus_rng", lambda: random.Random(1))
    token = new_table(app)
    for good in ("cloth", "spice", "leather", "leather"):
        assert sell(client, token, ANA, good, 5).status_code == 303
    # Four sales of 5 took four of the five tokens of the 5-card pile; the next takes the last.
    shown = preview(client, token, BEN, "gold", 5)
    assert "And a bonus token 8–10" in text_of(shown.text)
    assert sell(client, token, BEN, "gold", 5).status_code == 303
    shown = preview(client, token, ANA, "silver", 5)
    assert "No bonus token left in the pile for 5 or more cards." in text_of(shown.text)
    assert "Record: Ana sells 5 silver" in text_of(shown.text)


def test_the_last_tokens_of_a_stack_and_cards_beyond_them(app, client):
    token = new_table(app)
    assert sell(client, token, ANA, "leather", 7).status_code == 303
    shown = preview(client, token, BEN, "leather", 3)
    words = text_of(sale_form_html(shown.text))
    assert "Takes 1 1 = 2" in words and "1 card takes no token: the stack runs out." in words
    # Only 3 of the 10 leather cards are left to sell.
    assert re.findall(r'name="cards" value="(\d)"', shown.text) == ["1", "2", "3"]


def test_a_precious_good_at_1_card_is_refused_next_to_the_cards(app, client):
    token = new_table(app)
    shown = preview(client, token, ANA, "gold", 1)
    form = sale_form_html(shown.text)
    assert 'id="sale-cards-error">Gold must be sold at least 2 at a time.' in form
    assert 'aria-describedby="sale-cards-error"' in form
    assert "Record:" not in form and entry_count(app) == 0
    # Sent anyway (an old page): refused by the rules, next to the same field, nothing recorded.
    data = {"player": ANA, "good": "gold", "cards": 1, "key": form_key(), "seen": 0,
            "previewed": "0:gold:1", "step": "confirm"}
    refused = sale_answer(client, token, client.post(f"/t/{token}/jaipur/sale", data=data))
    assert 'id="sale-cards-error">Gold must be sold at least 2 at a time.' in refused.text
    assert entry_count(app) == 0 and state_of(app, token).round.sales == ()
    htmx = client.post(f"/t/{token}/jaipur/sale", data=data | {"key": form_key()}, headers=HTMX)
    assert htmx.status_code == 200 and "<html" not in htmx.text
    assert "Gold must be sold at least 2 at a time." in htmx.text and entry_count(app) == 0


def test_a_sale_needs_its_seller_named_next_to_the_field(app, client):
    token = new_table(app)
    data = {"good": "cloth", "cards": 2, "key": form_key(), "seen": 0, "previewed": ":cloth:2", "step": "confirm"}
    refused = sale_answer(client, token, client.post(f"/t/{token}/jaipur/sale", data=data))
    assert 'id="sale-player-error">Choose who sells.' in refused.text
    assert entry_count(app) == 0


@pytest.mark.parametrize("data", [
    {"player": "x", "good": "cloth", "cards": "2"},
    {"player": "0", "good": "camels", "cards": "2"},
    {"player": "0", "good": "cloth", "cards": "99"},
    {"player": "5", "good": "cloth", "cards": "-1", "bonus": "77"},
    {"player": "0", "good": "<b>", "cards": "two", "step": "bogus"},
    {},
])
def test_nonsense_is_refused_without_an_error_page(app, client, data):
    token = new_table(app)
    for step in ("preview", "confirm"):
        sent = {"key": form_key(), "seen": "0", "previewed": "", "step": step} | data
        sent["previewed"] = ":".join(str(sent.get(name, "")) for name in ("player", "good", "cards"))
        response = client.post(f"/t/{token}/jaipur/sale", data=sent)
        assert "<b>" not in response.text
        # A preview or a refusal: the table page at the sale form, no error page, nothing sent shown raw.
        assert "<b>" not in sale_answer(client, token, response).text
        query = client.get(f"/t/{token}/jaipur/sale/preview", query_string=data, headers=HTMX)
        assert query.status_code == 200
    assert entry_count(app) == 0


def test_the_form_offers_the_seller_of_this_phone_first(app, client):
    token = new_table(app)
    sit(client, token, BEN)
    form = sale_form_html(client.get(f"/t/{token}").text)
    assert 'name="player" value="1" checked' in form and 'name="player" value="0" checked' not in form
    assert "Ben <small>(you)</small>" in form


def test_a_preview_holds_when_only_a_phone_joined_the_table_since(app, client):
    # A phone saying who it is changes nothing a preview showed: the sale is recorded as shown.
    token = new_table(app)
    shown = preview(client, token, ANA, "diamonds", 2)
    assert app.test_client().post(f"/t/{token}/seat", data={"seat": str(BEN)}).status_code == 303
    assert client.post(f"/t/{token}/jaipur/sale", data=confirm_data(shown.text)).status_code == 303
    assert [sale.goods_tokens for sale in state_of(app, token).round.sales] == [(7, 7)]


def test_a_changed_choice_is_previewed_again_before_it_is_recorded(app, client):
    token = new_table(app)
    shown = preview(client, token, ANA, "cloth", 2)
    data = confirm_data(shown.text, cards="3")
    again = sale_answer(client, token, client.post(f"/t/{token}/jaipur/sale", data=data))
    assert entry_count(app) == 0
    words = text_of(sale_form_html(again.text))
    assert "The choice changed: check the tokens it takes, then record it." in words
    assert "Takes 5 3 3 = 11" in words
    assert client.post(f"/t/{token}/jaipur/sale", data=confirm_data(again.text)).status_code == 303
    assert entry_count(app) == 1 and state_of(app, token).round.sales[0].cards == 3


def test_a_preview_made_stale_by_another_entry_is_shown_again(app, client):
    token = new_table(app)
    shown = preview(client, token, ANA, "diamonds", 2)
    assert "Takes 7 7 = 14" in text_of(shown.text)
    other = app.test_client()
    assert sell(other, token, BEN, "diamonds", 2).status_code == 303
    again = sale_answer(client, token, client.post(f"/t/{token}/jaipur/sale", data=confirm_data(shown.text)))
    assert entry_count(app) == 1
    words = text_of(sale_form_html(again.text))
    assert "The table changed since this preview" in words and "Takes 5 5 = 10" in words
    assert client.post(f"/t/{token}/jaipur/sale", data=confirm_data(again.text)).status_code == 303
    assert [sale.goods_tokens for sale in state_of(app, token).round.sales] == [(7, 7), (5, 5)]


def test_a_sale_sent_twice_is_recorded_once(app, client):
    token = new_table(app)
    data = confirm_data(preview(client, token, ANA, "spice", 2).text)
    assert client.post(f"/t/{token}/jaipur/sale", data=data).status_code == 303
    assert client.post(f"/t/{token}/jaipur/sale", data=data).status_code == 303
    assert entry_count(app) == 1


def test_recording_with_htmx_answers_the_live_region_with_a_fresh_form(app, client):
    token = new_table(app)
    data = confirm_data(preview(client, token, ANA, "cloth", 1).text)
    response = client.post(f"/t/{token}/jaipur/sale", data=data, headers=HTMX)
    assert response.status_code == 200 and response.text.lstrip().startswith('<div id="live"')
    assert "Ana sold 1 cloth for 5." in response.text
    form = sale_form_html(response.text)
    assert "checked" not in form.replace('name="player" value="0" checked', "")
    assert data["key"] not in form
    assert entry_count(app) == 1


def test_a_good_with_no_cards_left_cannot_be_chosen(app, client):
    token = new_table(app)
    assert sell(client, token, ANA, "gold", 5).status_code == 303
    form = sale_form_html(client.get(f"/t/{token}").text)
    assert re.search(r'id="sale-good-gold"[^>]*disabled', form)
    assert "Gold <small>all sold</small>" in form


# --- the bonus token: the seller's eyes only ------------------------------------

def test_the_drawn_bonus_is_revealed_to_the_seller_only(app, monkeypatch):
    monkeypatch.setattr(jaipur_views, "bonus_rng", lambda: random.Random(7))
    token = new_table(app)
    ana, ben, shared = app.test_client(), app.test_client(), app.test_client()
    sit(ana, token, ANA)
    sit(ben, token, BEN)
    assert sell(ben, token, ANA, "diamonds", 3).status_code == 303  # Ben records Ana's sale
    value = state_of(app, token).round.sales[0].bonus
    assert value in (1, 2, 3)

    mine = ana.get(f"/t/{token}").text
    assert re.search(rf'Your bonus token \(pile for 3 cards\) <strong class="bonus-value">{value}</strong>', mine)
    assert re.search(rf'<strong>{value}</strong> <small class="muted">\(only you see this\)', mine)

    theirs = ben.get(f"/t/{token}").text
    assert "bonus-value" not in theirs
    assert "Ana's bonus token lies face down: Ana sees its value on a phone set to Ana" in text_of(theirs)
    assert "1 face down" in theirs

    watch = ana.get(f"/w/{table_of(app, token).watch_token}").text
    assert "bonus-value" not in watch and "1 face down" in watch and "only you see this" not in watch
    history = ben.get(f"/t/{token}/history").text
    assert "Ana sold 3 diamonds for 19 (7 + 7 + 5) and a bonus token (1–3)." in history
    # The entries' clock times left out: at 2 PM, "2:07:34 PM" after the sentence would read as a 2 told.
    told = re.sub(r"\d{1,2}:\d{2}(:\d{2})?( [AP]M)?", "", text_of(history).replace("1–3", ""))
    assert not re.search(rf"bonus token\D*{value}\b", told)
    assert "bonus-value" not in shared.get(f"/t/{token}").text


def test_a_phone_of_nobody_shows_the_bonus_it_recorded_behind_a_tap(app, monkeypatch):
    monkeypatch.setattr(jaipur_views, "bonus_rng", lambda: random.Random(3))
    token = new_table(app)
    shared = app.test_client()
    response = sell(shared, token, BEN, "cloth", 4, headers=HTMX)
    value = state_of(app, token).round.sales[0].bonus
    assert "<summary>Ben: tap to see your bonus token</summary>" in response.text
    assert f'<strong class="bonus-value">{value}</strong>' in response.text
    assert "bonus-value" not in app.test_client().get(f"/t/{token}").text


def test_bonus_tokens_are_all_shown_once_the_round_is_scored(app, monkeypatch):
    monkeypatch.setattr(jaipur_views, "bonus_rng", lambda: random.Random(2))
    token = new_table(app)
    client = app.test_client()
    sell(client, token, ANA, "cloth", 3)
    sell(client, token, BEN, "spice", 4)
    post(client, token, "end-round")
    post(client, token, "camels", camels_0="2", camels_1="2")
    sales = state_of(app, token).round.sales
    watch = text_of(client.get(f"/w/{table_of(app, token).watch_token}").text)
    assert f"Bonus tokens (1) {sales[0].bonus} Camel token" in watch
    assert f"Bonus tokens (1) {sales[1].bonus} Camel token" in watch
    assert "face down" not in watch.replace("Bonus tokens face down", "")


# --- entering the physical bonus token's value ----------------------------------

def test_enter_mode_asks_the_value_printed_on_the_pile(app, client):
    token = new_table(app, bonus="enter")
    shown = preview(client, token, ANA, "cloth", 3)
    form = sale_form_html(shown.text)
    assert re.findall(r'name="bonus" value="(\d+)"', form) == ["1", "2", "3"]
    assert "take it from the pile and choose its value above" in text_of(form)

    missing = sale_answer(client, token, client.post(f"/t/{token}/jaipur/sale", data=confirm_data(shown.text)))
    assert entry_count(app) == 0
    assert ('id="sale-bonus-error">Enter the value of the bonus token taken from the pile for 3 cards (1–3).'
            in missing.text)
    assert 'aria-describedby="sale-bonus-error"' in missing.text

    wrong = sale_answer(client, token, client.post(f"/t/{token}/jaipur/sale",
                                                   data=confirm_data(shown.text, bonus="9")))
    assert entry_count(app) == 0
    assert 'id="sale-bonus-error">There is no bonus token of 9 left in the pile for 3 cards (1–3).' in wrong.text

    right = client.post(f"/t/{token}/jaipur/sale", data=confirm_data(shown.text, bonus="3"))
    assert right.status_code == 303 and events(app)[-1]["bonus"] == 3
    data = confirm_data(preview(client, token, BEN, "spice", 3).text, bonus="3")
    assert client.post(f"/t/{token}/jaipur/sale", data=data).status_code == 303
    # Both 3s are taken, face down: the form still offers 1, 2 and 3 (what is left would tell what was
    # taken); a 3 entered by mistake is refused.
    shown = preview(client, token, ANA, "leather", 3)
    assert re.findall(r'name="bonus" value="(\d+)"', sale_form_html(shown.text)) == ["1", "2", "3"]
    third = sale_answer(client, token, client.post(f"/t/{token}/jaipur/sale",
                                                   data=confirm_data(shown.text, bonus="3")))
    assert "There is no bonus token of 3 left in the pile for 3 cards (1–3)." in third.text
    assert entry_count(app) == 2
    assert "bonus-reveal" not in client.get(f"/t/{token}").text


# --- the end of a round, the camels, the next round -------------------------------

def test_the_market_cannot_be_refilled_asks_once_then_wants_the_camels(app, client):
    token = new_table(app)
    page = client.get(f"/t/{token}").text
    assert "<summary>The market cannot be refilled…</summary>" in page and "Yes, end round 1" in page
    response = post(client, token, "end-round", seen=0)
    assert response.status_code == 303
    page = text_of(client.get(f"/t/{token}").text)
    assert "Round 1 is over: the market could not be refilled. Count your camels." in page
    assert "Ana's camels" in page and "Ben's camels" in page and "Score round 1" in page
    assert "Record a sale" not in page
    again = answered(client, post(client, token, "end-round"), token, "end-round")
    assert "Round 1 has ended: enter both camel counts to score it." in again.text
    assert entry_count(app) == 1


@pytest.mark.parametrize("counts, message", [
    ({"camels_0": "8", "camels_1": "5"}, "There are only 11 camels, not 13."),
    ({"camels_0": "12", "camels_1": "0"}, "A herd holds 0 to 11 camels."),
    ({"camels_0": "", "camels_1": "3"}, "Count this player's camels (0 if none)."),
    ({"camels_0": "two", "camels_1": "3"}, "Not a valid integer value."),
])
def test_impossible_camel_counts_are_refused_next_to_the_counts(app, client, counts, message):
    token = new_table(app)
    post(client, token, "end-round")
    refused = answered(client, post(client, token, "camels", **counts), token, "camels-form")
    assert message in text_of(refused.text)
    assert 'aria-invalid="true"' in refused.text
    assert entry_count(app) == 1 and state_of(app, token).round.result is None
    htmx = post(client, token, "camels", headers=HTMX, **counts)
    assert htmx.status_code == 200 and message in text_of(htmx.text) and entry_count(app) == 1


def test_the_round_result_explains_the_tie_break(app, client):
    token = new_table(app, bonus="enter")
    # Both at 24, by hand: Ana 5+3+3 + 5+3+3 + bonus 1 + 1; Ben 6+6+5 + 4 + bonus 3. Ana has 2 bonus tokens, Ben 1.
    for player, good, cards, bonus in [
        (ANA, "cloth", 3, "1"), (ANA, "spice", 3, "1"),
        (BEN, "gold", 3, "3"), (BEN, "leather", 1, None),
    ]:
        shown = preview(client, token, player, good, cards, **({"bonus": bonus} if bonus else {}))
        assert client.post(f"/t/{token}/jaipur/sale", data=confirm_data(shown.text)).status_code == 303
    post(client, token, "end-round")
    assert post(client, token, "camels", camels_0="3", camels_1="3").status_code == 303
    page = text_of(client.get(f"/t/{token}").text)
    assert "Equal at 24; Ana wins with 2 bonus tokens to 1." in page
    assert "Ana takes a seal. Camels: Ana 3, Ben 3; equal herds, no camel token." in page
    assert "Ben starts round 2 (the loser starts)." in page
    assert "Start round 2 Ben starts" in page
    assert state_of(app, token).seals == (1, 0)


def test_next_round_only_when_the_round_is_scored(app, client):
    token = new_table(app)
    refused = answered(client, post(client, token, "next-round"), token, "next-round-form")
    assert "Round 1 is still going" in refused.text
    assert entry_count(app) == 0


def test_undo_puts_the_tokens_back(app, client):
    token = new_table(app)
    sell(client, token, ANA, "diamonds", 2)
    last = state_of(app, token)
    assert last.round.goods_left[0] == (5, 5, 5)
    assert client.post(f"/t/{token}/undo", data={"entry": 1, "key": form_key()}).status_code == 303
    assert state_of(app, token).round.goods_left[0] == (7, 7, 5, 5, 5)


# --- the table setting ----------------------------------------------------------

def test_a_new_jaipur_table_asks_who_draws_the_bonus_tokens(app, client):
    page = client.get("/new/jaipur").text
    assert "<legend>Bonus tokens</legend>" in page
    assert 'name="bonus" value="draw" checked' in page
    response = client.post("/new/jaipur", data={"players-0": "Ana", "players-1": "Ben", "starter": "1",
                                                "bonus": "enter"})
    assert response.status_code == 303
    created = table_of(app, response.headers["Location"].rsplit("/", 1)[1])
    assert created.options == {"first_player": 1, "bonus": "enter"}
    assert "taken from the real piles, their values entered here" in client.get(response.headers["Location"]).text
    refused = client.post("/new/jaipur", data={"players-0": "Ana", "players-1": "Ben", "starter": "0",
                                               "bonus": "maybe"})
    assert refused.status_code == 422 and 'id="bonus-error"' in refused.text


def test_other_games_do_not_get_the_bonus_setting(app, client):
    assert "Bonus tokens" not in client.get("/new/tiny").text
    response = client.post("/new/tiny", data={"players-0": "Ana", "players-1": "Ben", "starter": "0"})
    assert table_of(app, response.headers["Location"].rsplit("/", 1)[1]).options == {"first_player": 0}


def test_the_watch_view_shows_the_board_without_forms(app, client):
    token = new_table(app)
    sell(client, token, ANA, "diamonds", 3)
    watch = client.get(f"/w/{table_of(app, token).watch_token}")
    # No form to record anything (the language switch at the foot of every page is the only one).
    assert watch.status_code == 200 and watch.text.count("<form") == watch.text.count('class="language-switch"') == 1
    assert "Diamonds tokens left, top first" in watch.text and "1 face down" in watch.text
    assert "Choose whose phone" not in watch.text


def test_the_scores_say_1_seal_and_0_seals(app, client):
    token = new_table(app)
    post(client, token, "end-round")
    post(client, token, "camels", camels_0="2", camels_1="1")  # Ana's camel token wins the round
    row = re.search(r'<ol class="score-row"[^>]*>(.*?)</ol>', client.get(f"/t/{token}").text, re.S).group(1)
    assert re.findall(r'<span class="points">(\d+) <small class="unit">(\w+)</small>', row) == [
        ("1", "seal"), ("0", "seals")]
