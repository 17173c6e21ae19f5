"""The database away: a clear 503 "try again" page, no stack trace, and nothing half-written."""

from __future__ import annotations

import os

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import OperationalError

from companion import create_app, database
from companion.table.recording import cache
from companion.extensions import db
from companion.models import Entry, Table
from browser.server import scratch_postgres
from helpers import close_down, form_key, in_ci, make_table, without_csrf

HTMX = {"HX-Request": "true"}
# Nothing listens on port 1: connecting is refused at once.
UNREACHABLE = "postgresql+psycopg://companion@127.0.0.1:1/companion?connect_timeout=2"


def assert_try_again_page(response) -> None:
    assert response.status_code == 503
    assert "The score pad is unavailable" in response.text
    assert "Try again" in response.text
    for leak in ("Traceback", "OperationalError", "psycopg", "sqlalchemy", "127.0.0.1:1", "SELECT"):
        assert leak not in response.text
    assert response.headers["Retry-After"].isdigit()


@pytest.fixture
def away_client(tiny):
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": UNREACHABLE})
    yield app.test_client()
    with app.app_context():
        db.engine.dispose()


@pytest.mark.parametrize("method, path, data", [
    ("get", "/t/someTokenOfTheRightShape", None),
    ("get", "/t/someTokenOfTheRightShape/live?seen=3", None),
    ("get", "/w/someTokenOfTheRightShape", None),
    ("get", "/t/someTokenOfTheRightShape/history", None),
    ("post", "/new/carambouille", {"players-0": "Ana", "players-1": "Ben", "players-2": "Cy", "starter": "random"}),
    ("post", "/join", {"code": "ABCDEF"}),
    ("post", "/t/someTokenOfTheRightShape/undo", {"entry": "1", "key": "0" * 32}),
])
def test_an_unreachable_database_answers_a_clear_503(away_client, method, path, data):
    response = getattr(away_client, method)(path, data=data)
    assert_try_again_page(response)


def test_an_unreachable_database_answers_htmx_with_a_503_too(away_client):
    assert_try_again_page(away_client.get("/t/someTokenOfTheRightShape/live?seen=3", headers=HTMX))


def entries_and_counter(app, token):
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        count = db.session.scalar(sa.select(sa.func.count()).select_from(Entry).where(Entry.table_id == table.id))
        return count, table.last_seq


def test_losing_the_database_at_commit_writes_nothing_and_says_try_again(app, client, monkeypatch):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    assert client.post(f"/t/{token}/tiny/score", data={"player": 0, "points": 5, "key": form_key()}).status_code == 303
    before = entries_and_counter(app, token)
    with app.app_context():
        table_id = db.session.scalar(sa.select(Table.id).where(Table.token == token))
    cached = cache.get(table_id)

    def commit_fails(*args, **kwargs):
        raise OperationalError("COMMIT", {}, Exception("server closed the connection unexpectedly"))

    monkeypatch.setattr(db.session, "commit", commit_fails)
    key = form_key()
    response = client.post(f"/t/{token}/tiny/score", data={"player": 1, "points": 7, "key": key})
    assert_try_again_page(response)
    monkeypatch.undo()

    # Nothing half-written: no entry, the counter not moved, the cached state not advanced.
    assert entries_and_counter(app, token) == before
    assert cache.get(table_id) == cached
    page = client.get(f"/t/{token}")
    assert "Ben scored 7" not in page.text
    # The phone re-sends the same form once the database is back: recorded, once.
    assert client.post(f"/t/{token}/tiny/score", data={"player": 1, "points": 7, "key": key}).status_code == 303
    assert client.post(f"/t/{token}/tiny/score", data={"player": 1, "points": 7, "key": key}).status_code == 303
    assert entries_and_counter(app, token) == (before[0] + 1, before[1] + 1)


def test_losing_the_database_during_an_undo_writes_nothing(app, client, monkeypatch):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    client.post(f"/t/{token}/tiny/score", data={"player": 0, "points": 5, "key": form_key()})
    before = entries_and_counter(app, token)

    def commit_fails(*args, **kwargs):
        raise OperationalError("COMMIT", {}, Exception("disk I/O error"))

    monkeypatch.setattr(db.session, "commit", commit_fails)
    assert_try_again_page(client.post(f"/t/{token}/undo", data={"entry": 1, "key": form_key()}, headers=HTMX))
    monkeypatch.undo()
    assert entries_and_counter(app, token) == before
    assert "<del>" not in client.get(f"/t/{token}").text


# --- A server's connections dropped while they lay in the pool --------------------------------------

POSTGRES = os.environ.get("TEST_POSTGRES_URL")


@pytest.fixture
def server_app(tiny):
    """An app on a PostgreSQL database of its own (a server whose connections can be dropped)."""
    if not POSTGRES:
        if in_ci():
            pytest.fail("TEST_POSTGRES_URL is not set: a server's dropped connections cannot be tested")
        pytest.skip("TEST_POSTGRES_URL is not set (a PostgreSQL server to drop connections of)")
    url, drop = scratch_postgres(POSTGRES)
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        db.create_all()
    yield app
    close_down(app)
    drop()


def drop_the_pools_connections(app) -> None:
    """What a server restart (or a proxy's idle timeout) does to the connections lying in the pool."""
    with app.app_context():
        db.session.remove()
        with sa.create_engine(db.engine.url, poolclass=sa.NullPool).connect() as admin:
            dropped = admin.scalar(sa.text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
    assert dropped >= 1


def test_a_connection_dropped_while_it_lay_idle_is_replaced_unseen(server_app, monkeypatch):
    token = make_table(server_app, "carambouille", ["Ana", "Ben", "Chloé"])
    client = server_app.test_client()
    before = client.get(f"/t/{token}/history")
    assert before.status_code == 200
    drop_the_pools_connections(server_app)
    monkeypatch.setattr(database, "IDLE_BEFORE_CHECK", 0.0)  # as if a second had passed
    answer = client.get(f"/t/{token}/history")
    assert answer.status_code == 200
    assert without_csrf(answer.text) == without_csrf(before.text)
    page = client.get(f"/t/{token}")
    assert page.status_code == 200
    assert "Chloé" in page.text


def test_a_connection_given_back_just_now_is_used_without_a_check(server_app, monkeypatch):
    # The check is a round trip on every request it is made for: one just given back goes without it.
    # (This is also why a connection dropped within that second is not caught: its request answers
    # "try again", as one whose connection is dropped during the request does.)
    token = make_table(server_app, "carambouille", ["Ana", "Ben", "Chloé"])
    client = server_app.test_client()
    checks = []
    with server_app.app_context():
        dialect = db.engine.dialect
    monkeypatch.setattr(dialect, "do_ping", lambda connection: checks.append(connection) or True)
    for _ in range(3):
        assert client.get(f"/t/{token}/history").status_code == 200
    assert checks == []
    monkeypatch.setattr(database, "IDLE_BEFORE_CHECK", 0.0)
    assert client.get(f"/t/{token}/history").status_code == 200
    assert len(checks) >= 1
    monkeypatch.setattr(database, "IDLE_BEFORE_CHECK", 60.0)
    drop_the_pools_connections(server_app)
    assert_try_again_page(client.get(f"/t/{token}/history"))
    assert client.get(f"/t/{token}/history").status_code == 200
