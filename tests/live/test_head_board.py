"""The live poll's read of a table's head: on PostgreSQL kept between changes that the database
announces, on SQLite read on every poll; either way a change made anywhere reaches the next polls."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa

from companion.live import heads
from companion.extensions import db
from helpers import make_table

# It measures how soon a change is heard: it runs alone, never beside another test (`make test`).
pytestmark = pytest.mark.timing

HTMX = {"HX-Request": "true"}


def settle(app, client, token: str) -> heads.LiveRead:
    """Poll until the board (if the database has one) is listening and keeps this table's head."""
    reader = heads.of(app)
    deadline = time.monotonic() + 10
    while True:
        assert client.get(f"/t/{token}/live?seen=0", headers=HTMX).status_code == 204
        if reader.board is None or reader.board.get((token, False)) is not None:
            return reader
        assert time.monotonic() < deadline, "the board never started listening"
        time.sleep(0.05)


def change_elsewhere(app, token: str) -> None:
    """Another worker's write: its own connection, nothing said to this process."""
    engine = sa.create_engine(app.config["SQLALCHEMY_DATABASE_URI"], poolclass=sa.pool.NullPool)
    with engine.begin() as connection:
        connection.execute(sa.text("UPDATE tables SET last_seq = last_seq + 1 WHERE token = :token"), {"token": token})
    engine.dispose()


def first_poll_that_sees(client, token: str, seen: int, within: float = 3.0) -> float:
    """Seconds until a poll from entry ``seen`` answers with the table."""
    start = time.monotonic()
    while time.monotonic() - start < within:
        if client.get(f"/t/{token}/live?seen={seen}", headers=HTMX).status_code == 200:
            return time.monotonic() - start
        time.sleep(0.02)
    pytest.fail(f"no poll saw the change within {within} s")


@pytest.fixture
def reads(app, monkeypatch):
    """How many times a head was read from the database."""
    reader = heads.of(app)
    count = {"n": 0}
    real = reader._read

    def counting(*args):
        count["n"] += 1
        return real(*args)

    monkeypatch.setattr(reader, "_read", counting)
    return count


def test_unchanged_polls_read_the_database_once_per_change_on_postgresql_and_every_time_on_sqlite(app, client, reads):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0})
    reader = settle(app, client, token)
    reads["n"] = 0
    for _ in range(5):
        assert client.get(f"/t/{token}/live?seen=0", headers=HTMX).status_code == 204
    if reader.board is not None:
        assert app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql")
        assert reads["n"] == 0
    else:
        assert reads["n"] == 5


def test_a_change_made_by_another_worker_reaches_the_next_polls(app, client):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0})
    settle(app, client, token)
    change_elsewhere(app, token)
    # One poll interval is a second: the change must be seen well within it.
    assert first_poll_that_sees(client, token, seen=0) < 1.0
    assert client.get(f"/t/{token}/live?seen=1", headers=HTMX).status_code == 204


def test_a_lost_listener_forgets_every_head_and_polls_read_the_database(app, client):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0})
    reader = settle(app, client, token)
    if reader.board is not None:
        with app.app_context():
            killed = db.session.scalar(sa.text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = :name"
                " AND pid IN (SELECT pid FROM pg_stat_activity WHERE datname = current_database())"),
                {"name": "companion head board"})
            db.session.commit()
        assert killed >= 1
    # Whatever the listener missed while it was gone, the next polls see the change.
    change_elsewhere(app, token)
    assert first_poll_that_sees(client, token, seen=0) < 1.5
    change_elsewhere(app, token)
    assert first_poll_that_sees(client, token, seen=1) < 1.5


def test_with_the_board_turned_off_every_poll_reads_the_row(tmp_path, tiny, monkeypatch):
    from companion import create_app
    from helpers import database_url

    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_url(tmp_path),
                      "HEAD_BOARD": False})
    with app.app_context():
        db.drop_all()
        db.create_all()
    reader = heads.of(app)
    assert reader.board is None
    count = {"n": 0}
    real = reader._read
    monkeypatch.setattr(reader, "_read", lambda *args: count.__setitem__("n", count["n"] + 1) or real(*args))
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0})
    client = app.test_client()
    for _ in range(5):
        assert client.get(f"/t/{token}/live?seen=0", headers=HTMX).status_code == 204
    assert count["n"] == 5
    reader.close()
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()
