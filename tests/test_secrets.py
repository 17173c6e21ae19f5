"""What is secret stays secret: a drawn bonus token, a player's Carambouille cards by type.

Never on another phone, the watch view, an export or the history before the rules reveal it; not
through a kept rendering (one worker, several phones, repeated requests), nor through a refusal.
"""

from __future__ import annotations

import json
import random
import re

import pytest
import sqlalchemy as sa

from companion import entries
from companion.extensions import db
from companion.models import Table
from companion.views import jaipur as jaipur_views
from helpers import form_key, make_table

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
        return entries.record(db.session.scalar(sa.select(Table).where(Table.token == token)), event)


def sit(phone, token, seat):
    phone.post(f"/t/{token}/seat", data={"seat": "" if seat is None else str(seat)})


def sell(phone, token, player, good, cards, headers=None, **extra):
    """Preview a Jaipur sale and record it as previewed: the two taps a player makes."""
    data = {"player": player, "good": good, "cards": cards, "key": form_key(), "step": "preview"}
    shown = phone.post(f"/t/{token}/jaipur/sale", data=data).text
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


def test_a_bonus_shows_on_the_sellers_phones_only_whoever_asks_first(app, monkeypatch):
    monkeypatch.setattr(jaipur_views, "bonus_rng", lambda: random.Random(5))
    token = make_table(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw"})
    table = table_of(app, token)
    ana, ana_tablet, ben, nobody = (app.test_client() for _ in range(4))
    for phone, seat in ((ana, ANA), (ana_tablet, ANA), (ben, BEN)):
        sit(phone, token, seat)
    sell(ben, token, ANA, "spice", 3)  # Ben records Ana's sale: he must not see her token
    seen = table_of(app, token).last_seq
    for _ in range(REQUESTS):
        for phone in (ben, nobody):
            for html in every_view(phone, token, table.watch_token, seen):
                assert not shows_a_bonus(html)
        assert shows_a_bonus(ana.get(f"/t/{token}").text)
        assert shows_a_bonus(ana_tablet.get(f"/t/{token}/live?seen={seen - 1}", headers=HTMX).text)


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
        assert entries.state_of(table).round.sales[0].bonus == expected
