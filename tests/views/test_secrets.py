"""What is secret stays secret: a drawn bonus token, a player's Carambouille cards by type.

Never on another phone, the watch view, an export or the history before the rules reveal it; not
through a kept rendering (one worker, several phones, repeated requests), nor through a refusal.
"""

from __future__ import annotations

import json
from html import unescape
import random
import re

import pytest
import sqlalchemy as sa

from companion.table import recording
from companion.table.state import state_of
from companion.extensions import db
from companion.models import Table
from companion.views import jaipur as jaipur_views
from helpers import answered, form_key, make_table

HTMX = {"HX-Request": "true"}
ANA, BEN = 0, 1
REQUESTS = 16


def table_of(app, token) -> Table:
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        db.session.expunge(table)
        return table


def record(app, token: str, event: dict):
    with app.app_context():
        return recording.record(db.session.scalar(sa.select(Table).where(Table.token == token)), event)


def sit(phone, token, seat, also=False):
    """``also``: the answer to "Ana already has a phone — move the seat to this one?" (yes), asked of a seat's second
    phone: the seat moves to it, and the phone that held it shows no more of it."""
    phone.post(f"/t/{token}/seat", data={"seat": "" if seat is None else str(seat)} | ({"also": "1"} if also else {}))


def sell(phone, token, player, good, cards, headers=None, **extra):
    """Preview a Jaipur sale and record it as previewed: the two taps a player makes (the preview, without htmx,
    on the table page it sends the phone to)."""
    data = {"player": player, "good": good, "cards": cards, "key": form_key(), "step": "preview"}
    shown = answered(phone, phone.post(f"/t/{token}/jaipur/sale", data=data), token, "sale-form").text
    start = shown.index('id="sale-form"')
    form = shown[start:shown.index("</form>", start)]
    fields = dict(re.findall(r'name="(key|seen|previewed)" type="hidden" value="([^"]*)"', form))
    return phone.post(f"/t/{token}/jaipur/sale", headers=headers or {},
                      data=fields | {"player": player, "good": good, "cards": cards, "step": "confirm"} | extra)


def shows_a_bonus(html: str) -> bool:
    return '<strong class="bonus-value">' in html


def every_view(phone, token, watch_token, seen: int) -> list[str]:
    """The page, the htmx page, the live region (asked as a phone behind by one entry would), the watch view."""
    return [
        phone.get(f"/t/{token}").text,
        phone.get(f"/t/{token}", headers=HTMX).text,
        phone.get(f"/t/{token}/live?seen={seen - 1}", headers=HTMX).text,
        phone.get(f"/w/{watch_token}").text,
        phone.get(f"/w/{watch_token}/live?seen={seen - 1}", headers=HTMX).text,
    ]


# --- a drawn Jaipur bonus token, with the kept renderings in play ----------------------------------

@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_a_bonus_recorded_by_a_phone_of_nobody_never_reaches_another_phone_of_nobody(app, monkeypatch, headers):
    monkeypatch.setattr(jaipur_views, "bonus_rng", lambda: random.Random(3))
    token = make_table(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw"})
    table = table_of(app, token)
    recorder, stranger, watcher = app.test_client(), app.test_client(), app.test_client()
    sit(watcher, token, None)  # "Just watching"
    sell(recorder, token, BEN, "cloth", 4, headers=headers)
    seen = table_of(app, token).last_seq
    # The phone that recorded it sees it, behind a tap; it is the one that fills the cache first.
    assert shows_a_bonus(recorder.get(f"/t/{token}").text)
    assert shows_a_bonus(recorder.get(f"/t/{token}", headers=HTMX).text)
    for _ in range(REQUESTS):
        for phone in (stranger, watcher):
            for html in every_view(phone, token, table.watch_token, seen):
                assert not shows_a_bonus(html)


def test_a_bonus_shows_on_the_phone_holding_the_sellers_seat_only_whoever_asks_first(app, monkeypatch):
    monkeypatch.setattr(jaipur_views, "bonus_rng", lambda: random.Random(5))
    token = make_table(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw"})
    table = table_of(app, token)
    ana, ana_tablet, ben, nobody = (app.test_client() for _ in range(4))
    for phone, seat in ((ana, ANA), (ben, BEN)):
        sit(phone, token, seat)
    sell(ben, token, ANA, "spice", 3)  # Ben records Ana's sale: he must not see her token
    seen = table_of(app, token).last_seq
    for phone in (ana, ben, nobody):  # every rendering of this version kept, Ana's first
        every_view(phone, token, table.watch_token, seen)
    assert shows_a_bonus(ana.get(f"/t/{token}").text)
    # Ana picks up her tablet: her seat moves to it, told to the table; her phone shows her token no more.
    sit(ana_tablet, token, ANA, also=True)
    seen = table_of(app, token).last_seq
    for _ in range(REQUESTS):
        for phone in (ben, nobody, ana):
            for html in every_view(phone, token, table.watch_token, seen):
                assert not shows_a_bonus(html)
        assert shows_a_bonus(ana_tablet.get(f"/t/{token}").text)
        assert shows_a_bonus(ana_tablet.get(f"/t/{token}/live?seen={seen - 1}", headers=HTMX).text)
    moved = unescape(ana.get(f"/t/{token}").text)
    assert "Ana's seat moved to another phone." in moved and "Take Ana's seat back" in moved


# --- a refusal never tells what is left in a bonus pile ---------------------------------------------

@pytest.mark.parametrize("posted", ["1", "2", "3", "9"])
def test_a_bonus_value_sent_in_draw_mode_is_neither_taken_nor_checked(app, monkeypatch, posted):
    # A phone sending its own value could choose its token, or probe the pile: "no 3 left" tells
    # that both 3s were drawn. The app draws; whatever is sent is left out.
    monkeypatch.setattr(jaipur_views, "bonus_rng", lambda: random.Random(11))
    token = make_table(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw"})
    phone = app.test_client()
    expected = random.Random(11).choice(sorted((1, 1, 2, 2, 2, 3, 3)))
    answer = sell(phone, token, ANA, "leather", 3, bonus=posted)
    assert answer.status_code == 303, answer.text
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        assert state_of(table).round.sales[0].bonus == expected


# --- the exports: nothing secret while the game goes on ---------------------------------------------

def exports(phone, token, watch_token) -> list[dict]:
    return [json.loads(phone.get(f"/t/{token}/export.json").get_data()),
            json.loads(phone.get(f"/w/{watch_token}/export.json").get_data())]


def test_the_exports_leave_out_a_bonus_token_until_its_round_is_scored(app, client):
    token = make_table(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw"})
    watch = table_of(app, token).watch_token
    for event in ({"type": "sale", "player": ANA, "good": "leather", "cards": 3, "bonus": 3},
                  {"type": "sale", "player": BEN, "good": "cloth", "cards": 2}):
        record(app, token, event)
    for data in exports(client, token, watch):
        sale = data["entries"][0]
        assert "bonus" not in sale["event"] and sale["withheld"] == ["bonus"]
        assert "withheld" not in data["entries"][1] and "withheld" in data
        assert "3" not in json.dumps(sale["event"]).replace('"cards": 3', "")
    record(app, token, {"type": "end_round"})
    record(app, token, {"type": "camels", "counts": [1, 0]})  # the round is scored: every token face up
    record(app, token, {"type": "next_round"})
    record(app, token, {"type": "sale", "player": BEN, "good": "spice", "cards": 4, "bonus": 6})
    for data in exports(client, token, watch):
        assert data["entries"][0]["event"]["bonus"] == 3 and "withheld" not in data["entries"][0]
        assert "bonus" not in data["entries"][-1]["event"] and data["entries"][-1]["withheld"] == ["bonus"]


def carambouille_with_secrets(app) -> str:
    """Ana buys an Illusion and a Basket, then gives the Illusion to Ben in the next hand's market."""
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0})
    for event in ({"type": "market_opened"}, {"type": "market_closed"},
                  {"type": "sale", "player": ANA, "product": "cheese", "cards": 2},
                  {"type": "buy", "player": ANA, "cards": ["illusion", "basket"]},
                  {"type": "end_sales_turn", "player": ANA}, {"type": "end_sales_turn", "player": BEN},
                  {"type": "end_sales_turn", "player": 2},
                  {"type": "deal", "cards": [3, 3, 2], "hand_sizes": [4, 5, 6]}, {"type": "market_opened"},
                  {"type": "give_card", "player": ANA, "to": BEN, "card": "illusion"}):
        record(app, token, event)
    return token


def test_the_exports_leave_out_the_carambouille_cards_a_player_holds_until_the_end(app, client):
    token = carambouille_with_secrets(app)
    watch = table_of(app, token).watch_token
    for data in exports(client, token, watch):
        text = json.dumps(data["entries"])
        assert "illusion" not in text and "basket" not in text
        buy, give = data["entries"][3], data["entries"][9]
        assert buy["withheld"] == ["cards"] and buy["event"] == {"type": "buy", "player": ANA}
        assert give["withheld"] == ["card"] and give["event"] == {"type": "give_card", "player": ANA, "to": BEN}
    record(app, token, {"type": "end_game"})
    for data in exports(client, token, watch):
        assert data["entries"][3]["event"]["cards"] == ["illusion", "basket"] and "withheld" not in data


def test_a_file_exported_during_play_is_refused_by_the_import_and_creates_nothing(app, client, tmp_path):
    token = carambouille_with_secrets(app)
    file = tmp_path / "during-play.json"
    file.write_bytes(client.get(f"/t/{token}/export.json").get_data())
    with app.app_context():
        tables = db.session.scalar(sa.select(sa.func.count()).select_from(Table))
    result = app.test_cli_runner().invoke(args=["import-session", str(file)])
    assert result.exit_code != 0
    assert "exported during play: it leaves out what was still secret at the table" in result.output
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Table)) == tables


# --- an undo refused because of a later entry says nothing secret about it --------------------------

def test_an_undo_refused_by_a_later_trade_does_not_tell_the_card_traded(app, client):
    token = carambouille_with_secrets(app)
    page = client.get(f"/t/{token}/undo?entry=4").text
    key = re.search(r'name="key"[^>]*value="([^"]+)"', page).group(1)
    answer = answered(client, client.post(f"/t/{token}/undo", data={"entry": "4", "key": key, "seen": "10"}),
                      token, "undo-refused")
    text = answer.text.replace("&#39;", "'")
    assert "Undoing that would make entry 10 (Ana gave a Carambouille card to Ben.) impossible: " in text
    assert "Ana would no longer hold the Carambouille card that entry plays or gives." in text
    assert "Illusion" not in text.split("Undoing that would")[1].split("</")[0]
    assert table_of(app, token).last_seq == 10  # nothing written
