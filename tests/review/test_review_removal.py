"""A session can be taken out of the history by a phone of its table (on a home server, any), after a
confirmation: to its group's bin (tests/groups/test_bin.py: restored, and emptied after its days)."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa

from companion.table.state import cache as state_cache
from companion.extensions import db
from companion.models import Entry, Seat, Table
from review.test_review_sessions import CARAMBOUILLE, JAIPUR, record_all


def tables_and_entries(app) -> tuple[int, int, int]:
    with app.app_context():
        count = lambda model: db.session.scalar(sa.select(sa.func.count()).select_from(model))  # noqa: E731
        return count(Table), count(Seat), count(Entry)


def test_removing_asks_first_then_takes_the_session_out_of_every_list(app, client):
    kept = record_all(app, *CARAMBOUILLE)
    token = record_all(app, *JAIPUR)
    with app.app_context():
        watch = db.session.scalar(sa.select(Table.watch_token).where(Table.token == token))
    results = client.get(f"/t/{token}/results").text
    assert f"/t/{token}/remove" in results
    assert f"/t/{token}/remove" not in client.get(f"/w/{watch}/results").text  # the watch link cannot

    asked = client.get(f"/t/{token}/remove")
    assert asked.status_code == 200 and "bin 30 days, every entry kept" in asked.text and "Jaipur" in asked.text
    assert "/players/ana" in client.get("/players").text.lower() or "Ana" in client.get("/players").text

    done = client.post(f"/t/{token}/remove")
    assert done.status_code == 303 and done.headers["Location"].endswith("/history")
    history = client.get("/history").text
    assert "Jaipur session of Ana, Ben is in the bin: it can be restored until" in history
    assert "Sessions 1–1 of 1" in history
    for path in (f"/t/{token}", f"/t/{token}/results", f"/w/{watch}", f"/w/{watch}/results", f"/t/{token}/live?seen=0"):
        assert client.get(path).status_code == 404, path
    players = client.get("/players").text
    assert "Jaipur" not in players and "Carambouille" in players
    assert client.get(f"/t/{kept}/results").status_code == 200
    # In the bin: every seat and entry kept, until its days there are up.
    _, seats, logged = tables_and_entries(app)
    assert seats == 5 and logged == len(CARAMBOUILLE[3]) + len(JAIPUR[3])


def test_a_table_opened_after_a_removal_never_shows_the_removed_one(app, client):
    """SQLite gives a deleted newest id to the next row: the tombstone keeps the id taken, caches stay right."""
    token = record_all(app, *JAIPUR)
    client.get(f"/t/{token}")
    client.post(f"/t/{token}/remove")
    new = record_all(app, "jaipur", ["Zoé", "Yann"], {"bonus": "draw", "first_player": 0}, JAIPUR[3][:5])
    with app.app_context():
        ids = db.session.scalars(sa.select(Table.id).order_by(Table.id)).all()
    assert len(set(ids)) == 2
    page = client.get(f"/t/{new}").text
    assert "Zoé" in page and "Ana" not in page


def test_an_unreadable_session_at_the_edge_of_time_can_be_removed(app, client):
    app.config["TIMEZONE"] = "Asia/Tokyo"
    token = record_all(app, *JAIPUR)
    with app.app_context():
        db.session.execute(sa.update(Table).values(created_at=datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)))
        db.session.commit()
    assert client.get(f"/t/{token}/remove").status_code == 200
    assert client.post(f"/t/{token}/remove").status_code == 303
    assert "No session matches." in client.get("/history").text


def test_only_the_players_link_can_remove(app, client):
    token = record_all(app, *JAIPUR)
    with app.app_context():
        watch = db.session.scalar(sa.select(Table.watch_token).where(Table.token == token))
    assert client.post(f"/w/{watch}/remove").status_code in (404, 405)
    assert client.post(f"/t/{watch}/remove").status_code == 404
    assert tables_and_entries(app)[0] == 1


def test_the_removal_needs_its_csrf_token(tmp_path, tiny):
    from companion import create_app
    from helpers import csrf_token, database_url

    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database_url(tmp_path)})
    with app.app_context():
        db.drop_all()
        db.create_all()
    client = app.test_client()
    token = record_all(app, *JAIPUR)
    assert client.post(f"/t/{token}/remove").status_code in (400, 422)
    assert client.get(f"/t/{token}").status_code == 200
    page = client.get(f"/t/{token}/remove").text
    assert client.post(f"/t/{token}/remove", data={"csrf_token": csrf_token(page)}).status_code == 303
    assert client.get(f"/t/{token}").status_code == 404
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()
    state_cache.clear()
