"""A seat taken over is told: taking a seat another phone holds moves it, by an entry of the table's log that every
phone reads; the phone that held it says so at once, shows none of that player's secrets any more (whatever the
caches kept), and offers to take it back, which is told the same way."""

from __future__ import annotations

import html
import random

import sqlalchemy as sa

from companion.extensions import db
from companion.models import Entry, Table
from companion.views import jaipur as jaipur_views
from helpers import make_table
from views.test_secrets import ANA, BEN, HTMX, every_view, sell, shows_a_bonus, sit, table_of

MOVED = "Ben's seat moved to another phone."


def page(phone, token) -> str:
    """The table page as the phone's player reads it (entities unescaped)."""
    return html.unescape(phone.get(f"/t/{token}").text)


def sentences(app, token) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(sa.select(Entry.summary).join(Table).where(Table.token == token)
                                       .order_by(Entry.seq)))


def test_a_seat_taken_is_asked_then_moved_and_told_to_every_phone(app):
    token = make_table(app, "jaipur", ["Ana", "Ben"])
    ana, ben, third = (app.test_client() for _ in range(3))
    sit(ana, token, ANA)
    sit(ben, token, BEN)
    asked = third.post(f"/t/{token}/seat", data={"seat": str(BEN)}, headers=HTMX).text
    assert "Ben already has a phone — move the seat to this one?" in asked
    assert "everyone at the table is told that the seat moved" in asked
    assert sentences(app, token)[-1] == "Ben's phone joined the table."  # asking told nobody anything
    third.post(f"/t/{token}/seat", data={"seat": str(BEN), "also": "1"}, headers=HTMX)
    assert sentences(app, token)[-1] == "Ben's seat moved to another phone."
    for phone in (ana, ben, third):
        assert MOVED in page(phone, token)
    ben_page = page(ben, token)
    assert "Take Ben's seat back" in ben_page and "This phone is Ben's" not in ben_page
    assert "This phone is Ben's" in page(third, token)
    # Taken back: told the same way, and the third phone is the one that says so now.
    ben.post(f"/t/{token}/seat", data={"seat": str(BEN), "also": "1"}, headers=HTMX)
    assert sentences(app, token)[-2:] == ["Ben's seat moved to another phone."] * 2
    assert "Take Ben's seat back" in page(third, token)
    assert "This phone is Ben's" in page(ben, token)


def test_a_seat_moved_twice_at_once_from_the_same_phone_is_told_once(app):
    token = make_table(app, "jaipur", ["Ana", "Ben"])
    ben, third = app.test_client(), app.test_client()
    sit(ben, token, BEN)
    for _ in range(2):
        third.post(f"/t/{token}/seat", data={"seat": str(BEN), "also": "1"})
    assert sentences(app, token).count("Ben's seat moved to another phone.") == 1


def test_the_phone_that_lost_a_seat_sees_none_of_its_secrets_whatever_was_kept(app, monkeypatch):
    monkeypatch.setattr(jaipur_views, "bonus_rng", lambda: random.Random(5))
    token = make_table(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw"})
    table = table_of(app, token)
    ana, ben, third = (app.test_client() for _ in range(3))
    sit(ana, token, ANA)
    sit(ben, token, BEN)
    sell(ana, token, BEN, "cloth", 4)  # Ben's bonus, drawn: on Ben's phone only
    seen = table_of(app, token).last_seq
    for phone in (ben, ana, third):
        every_view(phone, token, table.watch_token, seen)  # every rendering kept, Ben's own among them
    assert shows_a_bonus(page(ben, token))
    third.post(f"/t/{token}/seat", data={"seat": str(BEN), "also": "1"})
    seen = table_of(app, token).last_seq
    # The phone that picked up Ben's cards sees what Ben sees; Ben's old phone, however it asks, does not.
    assert shows_a_bonus(page(third, token))
    for _ in range(8):
        for html in every_view(ben, token, table.watch_token, seen):
            assert not shows_a_bonus(html)
        for html in every_view(ana, token, table.watch_token, seen):
            assert not shows_a_bonus(html)
