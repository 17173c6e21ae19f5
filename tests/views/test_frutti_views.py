"""The Frutti di Mare table page: every form's success and refusal, with and without htmx, seats and the watch view."""

from __future__ import annotations

import html
import re

import pytest
import sqlalchemy as sa

from companion.extensions import db
from companion.models import Entry, Table
from helpers import answered, form_key, make_table

HTMX = {"HX-Request": "true"}
PLAYERS = ["Ana", "Ben", "Cy"]
TABLE = ["shrimp", "oysters", "mussels", "octopus", "sea_urchins"]


def text_of(response) -> str:
    return html.unescape(response.text)


def entry_count(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Entry))


def scores(text: str) -> list[int]:
    return [int(n) for n in re.findall(r'<span class="points">(-?\d+)</span>', text)]


def layout(order=TABLE) -> dict:
    return {f"order-{i}": s for i, s in enumerate(order)}


def post(client, token, action, data, htmx=False):
    return client.post(f"/t/{token}/frutti/{action}", data={"key": form_key(), **data},
                       headers=HTMX if htmx else {})


@pytest.fixture
def table(app, client):
    """A 3-player table whose round-1 dishes are laid out: Ana to play."""
    token = make_table(app, "frutti", PLAYERS, {"first_player": 0})
    assert post(client, token, "dishes", {"how": "table", **layout()}).status_code == 303
    return token


# --- dishes -------------------------------------------------------------------

def test_a_new_table_asks_for_the_dishes_shuffle_or_as_laid_out(app, client):
    token = make_table(app, "frutti", PLAYERS)
    text = text_of(client.get(f"/t/{token}"))
    assert "Dishes for round 1" in text and "Shuffle: the app lays them out" in text
    assert "Keep the current order" not in text  # nothing to keep in round 1
    assert text.count('<select id="layout-order-') == 5 and "Start round 1 with these dishes" in text


@pytest.mark.parametrize("htmx", [False, True])
def test_the_dishes_as_laid_out_draw_the_price_track(app, client, htmx):
    token = make_table(app, "frutti", PLAYERS)
    response = post(client, token, "dishes", {"how": "table", **layout()}, htmx=htmx)
    assert response.status_code == (200 if htmx else 303)
    text = text_of(response if htmx else client.get(f"/t/{token}"))
    assert re.findall(r'<span class="dish-name">([^<]+)</span>', text) == [
        "shrimp", "oysters", "mussels", "octopus", "sea urchins"]
    assert re.findall(r'<span class="price"><span class="visually-hidden">Stall </span>(\d+)</span>', text) == [
        "0", "10", "20", "30", "50"]
    assert "Ana</span> to play" in text


@pytest.mark.parametrize("order, message", [
    (["shrimp", "", "mussels", "octopus", ""], "Choose the dish under the stalls 10, 50."),
    (["shrimp", "octopus", "mussels", "octopus", "sea_urchins"],
     "Octopus are under 10 and 30: each dish lies under exactly one stall."),
    (["shrimp", "crab", "mussels", "octopus", "sea_urchins"], "Choose one of the five seafood under each stall."),
])
@pytest.mark.parametrize("htmx", [False, True])
def test_a_wrong_layout_is_explained_next_to_the_stalls(app, client, order, message, htmx):
    token = make_table(app, "frutti", PLAYERS)
    response = answered(client, post(client, token, "dishes", {"how": "table", **layout(order)}, htmx=htmx), token,
                        "dishes", htmx=htmx)
    text = text_of(response)
    assert f'id="layout-order-error" role="alert">{message}' in text
    assert 'aria-invalid="true" aria-describedby="layout-order-error"' in text
    assert entry_count(app) == 0 and "Dishes for round 1" in text


def test_shuffle_lets_the_app_lay_out_the_five_dishes(app, client):
    token = make_table(app, "frutti", PLAYERS)
    assert post(client, token, "dishes", {"how": "shuffle"}).status_code == 303
    dishes = re.findall(r'<span class="dish-name">([^<]+)</span>', text_of(client.get(f"/t/{token}")))
    assert sorted(dishes) == ["mussels", "octopus", "oysters", "sea urchins", "shrimp"]


def test_keeping_the_order_in_round_1_is_refused_with_the_reason(app, client):
    token = make_table(app, "frutti", PLAYERS)
    response = answered(client, post(client, token, "dishes", {"how": "keep"}), token, "dishes")
    assert "In round 1 there is no earlier dish order to keep." in text_of(response)
    assert entry_count(app) == 0


# --- playing a card -----------------------------------------------------------

def test_without_a_seat_the_phone_plays_for_whoever_is_next(client, table):
    text = text_of(client.get(f"/t/{table}"))
    assert "Waiting for Ana" in text and text.count('name="seafood"') == 5
    for name in ["Shrimp", "Sea urchins", "Oysters", "Octopus", "Mussels"]:
        assert f'<span class="sf-label">{name}</span>' in text
    assert "sells at 30 now" in text  # octopus's price on its button


@pytest.mark.parametrize("htmx", [False, True])
def test_one_tap_plays_a_card_and_moves_the_dishes(app, client, table, htmx):
    response = post(client, table, "play", {"player": 0, "seafood": "octopus"}, htmx=htmx)
    assert response.status_code == (200 if htmx else 303)
    text = text_of(response if htmx else client.get(f"/t/{table}"))
    if htmx:
        assert text.startswith('<div id="live"')
    assert "Octopus 30 → 50, sea urchins 50 → 30" in text
    assert re.search(r"<strong>Ana</strong> played <span class=\"seafood sf-octopus\">.*octopus</span>", text)
    assert "Waiting for Ben" in text and 'class="pile turn" aria-current="step"' in text
    assert "1 played · 6 in hand · worth 50 now" in text


@pytest.mark.parametrize("data, message", [
    ({"player": 1, "seafood": "octopus"}, "It is Ana's turn, not Ben's."),
    ({"player": 0, "seafood": "crab"}, "Not a valid choice."),
    ({"player": 0}, "Tap the seafood of the card played."),
    ({"player": 9, "seafood": "octopus"}, "Number must be between 0 and 5."),
])
@pytest.mark.parametrize("htmx", [False, True])
def test_a_refused_card_is_explained_and_nothing_moves(app, client, table, data, message, htmx):
    response = answered(client, post(client, table, "play", data, htmx=htmx), table, "play-form", htmx=htmx)
    # A refusal for the player whose turn it is sits by the seafood; for another player's, above the actions.
    shown = r'<p class="error"( id="play-error")? role="alert">[^<]*'
    assert re.search(shown + re.escape(message), text_of(response))
    assert entry_count(app) == 1 and "Octopus 30 → 50" not in text_of(response)


def test_a_card_sent_after_the_table_moved_on_says_so(app, client, table):
    post(client, table, "play", {"player": 0, "seafood": "octopus", "seen": 1})
    response = answered(client, post(client, table, "play", {"player": 0, "seafood": "shrimp", "seen": 1}), table,
                        "play-form")
    assert "The table changed while you were entering this: It is Ben's turn, not Ana's." in text_of(response)
    assert entry_count(app) == 2


def test_a_double_tap_plays_one_card(app, client, table):
    key = form_key()
    for _ in range(2):
        client.post(f"/t/{table}/frutti/play", data={"key": key, "player": 0, "seafood": "octopus"})
    assert entry_count(app) == 2  # the dishes and one card


def test_a_seafood_whose_nine_cards_are_out_cannot_be_tapped(app, client, table):
    for turn in range(9):
        post(client, table, "play", {"player": turn % 3, "seafood": "shrimp"})
    text = text_of(client.get(f"/t/{table}"))
    assert re.search(r'value="shrimp" class="sf-button sf-shrimp" disabled>', text) and "all 9 out" in text
    response = answered(client, post(client, table, "play", {"player": 0, "seafood": "shrimp"}), table, "play-form")
    assert "All 9 shrimp are already out this round." in text_of(response)


def test_the_players_phone_shows_its_turn_and_the_others_wait(app, client, table):
    client.post(f"/t/{table}/seat", data={"seat": "0"})
    assert "Your turn, Ana" in text_of(client.get(f"/t/{table}"))
    client.post(f"/t/{table}/seat", data={"seat": "2"})
    text = text_of(client.get(f"/t/{table}"))
    assert "Waiting for Ana" in text and "Play for Ana from this phone" in text
    assert "<details class=\"play-for\">" in text  # closed until wanted


# --- suspended selling ----------------------------------------------------------

def test_suspending_lays_down_the_hand_and_the_player_is_skipped(app, client, table):
    post(client, table, "play", {"player": 0, "seafood": "octopus"})
    text = text_of(client.get(f"/t/{table}"))
    assert "Ben's remaining hand: 7 cards" in text and 'max="7"' in text
    response = post(client, table, "suspend", {"player": 1, "hand-0": "3", "hand-4": "4"}, htmx=True)
    text = text_of(response)
    assert "Waiting for Cy" in text
    assert re.search(r'<strong class="pile-name">Ben</strong>\s*<span class="badge muted-badge">suspended</span>', text)
    assert "Laid down:" in text and "3 shrimp" in text and "4 mussels" in text
    post(client, table, "play", {"player": 2, "seafood": "shrimp"})
    assert "Waiting for Ana" in text_of(client.get(f"/t/{table}"))  # Ben is skipped


@pytest.mark.parametrize("hand, message, where", [
    ({"hand-0": "5", "hand-1": "3"}, "Ana has played 0 cards, so 7 cards are left in hand: lay all 7 down, not 8.",
     "suspend-hand-error"),
    # Every card still held is laid down: one left out would vanish from the scoring.
    ({"hand-0": "5"}, "Ana has played 0 cards, so 7 cards are left in hand: lay all 7 down, not 5.",
     "suspend-hand-error"),
    ({"hand-2": "8"}, "From 0 to 7 cards.", "suspend-hand-2-error"),
    ({"hand-3": "two"}, "Not a valid integer value.", "suspend-hand-3-error"),
])
@pytest.mark.parametrize("htmx", [False, True])
def test_an_impossible_hand_is_explained_next_to_the_field(app, client, table, hand, message, where, htmx):
    response = answered(client, post(client, table, "suspend", {"player": 0, **hand}, htmx=htmx), table, "suspend",
                        htmx=htmx)
    text = text_of(response)
    assert re.search(rf'id="{where}"[^>]*>{re.escape(message)}', text)
    assert '<details id="suspend" class="suspend" open>' in text
    assert entry_count(app) == 1 and "suspended" not in re.sub(r"<details.*?</details>", "", text, flags=re.S)


# --- round end, next round, the end of the game ---------------------------------

def suspend_all(client, token, hands):
    """Each (seat, hand) in turn: the seat suspends, laying down its whole hand ({"hand-0": "7"}…)."""
    for seat, hand in hands:
        assert post(client, token, "suspend", {"player": seat, **hand}).status_code == 303


def test_the_round_end_shows_everyones_money_with_the_arithmetic(app, client, table):
    post(client, table, "play", {"player": 0, "seafood": "octopus"})     # octopus 50, sea urchins 30
    post(client, table, "suspend", {"player": 1, "hand-4": "2", "hand-1": "2", "hand-3": "3"})
    post(client, table, "suspend", {"player": 2, "hand-2": "7"})
    post(client, table, "suspend", {"player": 0, "hand-0": "6"})
    text = text_of(client.get(f"/t/{table}"))
    assert "Round 1 is over" in text
    assert "1 octopus × 50 + 6 shrimp × 0 = 50" in text
    assert "2 sea urchins × 30 + 3 octopuses × 50 + 2 mussels × 20 = 250" in text
    assert "7 oysters × 10 = 70" in text
    assert scores(text) == [50, 250, 70]
    assert "Ben starts round 2." in text and "Start round 2" in text


def test_next_round_is_refused_before_the_round_is_over(app, client, table):
    response = post(client, table, "next-round", {}, htmx=True)
    assert "Round 1 is not over yet." in text_of(response) and entry_count(app) == 1


def test_a_new_round_can_keep_the_dishes_as_they_lie(app, client, table):
    post(client, table, "play", {"player": 0, "seafood": "octopus"})
    suspend_all(client, table, [(1, {"hand-0": "7"}), (2, {"hand-2": "7"}), (0, {"hand-4": "6"})])
    post(client, table, "next-round", {})
    text = text_of(client.get(f"/t/{table}"))
    assert "Dishes for round 2" in text and "Keep the current order" in text and "The dishes as round 1 ended." in text
    post(client, table, "dishes", {"how": "keep"})
    text = text_of(client.get(f"/t/{table}"))
    assert re.findall(r'<span class="dish-name">([^<]+)</span>', text)[3:] == ["sea urchins", "octopus"]
    assert "Waiting for Ben" in text  # round 2 starts left of Ana


def test_after_round_3_the_winner_is_celebrated_and_equal_money_shares_a_rank(app, client):
    token = make_table(app, "frutti", PLAYERS)
    for round_number in range(3):
        post(client, token, "tally", {**layout(), "cards-0-sea_urchins": "2", "cards-0-shrimp": "4",
                                       "cards-0-oysters": "1", "cards-1-sea_urchins": "2", "cards-1-shrimp": "4",
                                       "cards-1-oysters": "1", "cards-2-octopus": "1", "cards-2-oysters": "6"})
        if round_number < 2:
            post(client, token, "next-round", {})
    text = text_of(client.get(f"/t/{token}"))
    assert "Ana and Ben share first place with 330!" in text
    standings = re.search(r'<ol class="standings">(.*?)</ol>', text, re.S).group(1)
    assert re.findall(r'<li value="(\d)"', standings) == ["1", "1", "3"]
    assert "Money by round" in text and "The game is over" in text
    with app.app_context():
        assert db.session.scalar(sa.select(Table)).status == "finished"
    response = answered(client, post(client, token, "play", {"player": 0, "seafood": "octopus"}), token, "play-form")
    assert "This game is finished" in text_of(response) and entry_count(app) == 5


# --- the watch view and undo ----------------------------------------------------

def test_the_watch_view_shows_the_board_without_forms(app, client, table):
    post(client, table, "play", {"player": 0, "seafood": "octopus"})
    with app.app_context():
        watch = db.session.scalar(sa.select(Table)).watch_token
    text = text_of(client.get(f"/w/{watch}"))
    assert "Octopus 30 → 50, sea urchins 50 → 30" in text and 'class="stalls"' in text
    # The only form left is the language switch at the foot of every page.
    assert 'action="/t/' not in text and "frutti-actions" not in text and "Play for" not in text


def test_undo_puts_the_dishes_back(app, client, table):
    post(client, table, "play", {"player": 0, "seafood": "octopus"})
    client.post(f"/t/{table}/undo", data={"entry": 2, "key": form_key()})
    text = text_of(client.get(f"/t/{table}"))
    assert re.findall(r'<span class="dish-name">([^<]+)</span>', text)[3:] == ["octopus", "sea urchins"]
    assert "Waiting for Ana" in text


ANCHORS = {"play": "play-form", "suspend": "suspend", "tally": "table-tally", "dishes": "dishes"}


@pytest.mark.parametrize("action, field", [
    ("play", "player"), ("play", "seen"), ("suspend", "hand-0"), ("tally", "cards-0-shrimp"), ("dishes", "seen"),
])
def test_a_huge_number_is_refused_not_a_crash(app, client, table, action, field):
    data = {"player": 0, "seafood": "octopus", "how": "keep", field: "9" * 400}
    response = post(client, table, action, data)
    # Refused, not a crash: the table page at the form (its form kept for this phone, shown without an error).
    answered(client, response, table, ANCHORS[action])
    assert entry_count(app) == 1
    quick = client.get("/tally/frutti", query_string={"cards-0-shrimp": "9" * 400, "cards-1-octopus": "1"})
    assert quick.status_code == 422 and "From 0 to 7 cards." in quick.text
