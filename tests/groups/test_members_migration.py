"""The migration that brought memberships to the server, on a library of a private server as it was: two groups
(one removed before), their sessions and the phones that recorded them, a session removed before. Nothing is
changed on the way; the phones whose cookies name a group come in as its members, once, the group's oldest
phone keeping it; a session removed before stays gone (no bin brings it back)."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from flask_migrate import upgrade

from companion import create_app
from companion.extensions import db
from companion.models import Member
from helpers import close_down, database_url

BEFORE_MEMBERS = "c4d1a7e93b52"
OLDEST, LATER = "a1a1a1a1a1a1a1a1", "b2b2b2b2b2b2b2b2"


def _library(connection) -> None:
    """Groups 1 (the home one, unused), 2 (Otters: two sessions, one removed before) and 3 (removed before)."""
    connection.execute(sa.text(
        "INSERT INTO groups (id, name, invite_token, join_code, created_at, removed) VALUES "
        "(2, 'Otters', 'inviteinviteinvite2', 'OTTERS', '2026-11-01 20:00:00', false), "
        "(3, '', 'inviteinviteinvite3', 'GONEGO', '2026-11-01 20:00:00', true)"))
    tables = [(7, "playing", "2026-11-30 20:05:00"), (8, "removed", "2026-11-29 20:05:00")]
    for table_id, status, created in tables:
        connection.execute(sa.text(
            "INSERT INTO tables (id, group_id, token, watch_token, join_code, game, options, status, created_at, "
            "last_seq) VALUES (:id, 2, :token, :watch, :code, 'frutti', '{}', :status, :created, 0)"),
            {"id": table_id, "token": f"tokentokentoken{table_id}", "watch": f"watchwatchwatch{table_id}",
             "code": f"CODE{table_id}X", "status": status, "created": created})
    for position, name in enumerate(["Ana", "Ben"]):
        connection.execute(sa.text("INSERT INTO seats (table_id, position, name) VALUES (7, :p, :n)"),
                           {"p": position, "n": name})
    for seq, (device, when) in enumerate([(OLDEST, "2026-11-30 20:06:00"), (LATER, "2026-11-30 20:07:00")], 1):
        connection.execute(sa.text(
            "INSERT INTO entries (table_id, seq, type, event, summary, created_at, device) VALUES "
            "(7, :seq, 'seat_taken', :event, 'joined', :when, :device)"),
            {"seq": seq, "event": json.dumps({"type": "seat_taken", "seat": seq - 1}), "when": when, "device": device})
    connection.execute(sa.text("UPDATE tables SET last_seq = 2 WHERE id = 7"))


def _rows(connection) -> dict[str, list]:
    return {name: [tuple(row) for row in connection.execute(sa.text(f"SELECT * FROM {name} ORDER BY 1, 2"))]
            for name in ("tables", "seats", "entries")}


def test_members_come_in_by_their_cookies_once_and_nothing_played_is_changed(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": database_url(tmp_path),
                      "SERVER_NAME": "companion.test", "GROUPS": "private", "WTF_CSRF_ENABLED": False})
    with app.app_context():
        db.drop_all()
        with db.engine.begin() as connection:
            connection.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        upgrade(revision=BEFORE_MEMBERS)
        with db.engine.begin() as connection:
            _library(connection)
            before = _rows(connection)
        upgrade()
        with db.engine.connect() as connection:
            after = _rows(connection)
            assert connection.execute(sa.text("SELECT count(*) FROM members")).scalar() == 0
            assert connection.execute(sa.text("SELECT invited_at FROM groups WHERE id = 2")).scalar() is None
    # What was played is as it was, but the new columns (nothing in the bin).
    assert [row[:len(before["tables"][0])] for row in after["tables"]] == before["tables"]
    assert after["seats"] == before["seats"] and after["entries"] == before["entries"]

    later, oldest, stranger = app.test_client(), app.test_client(), app.test_client()
    for phone, device in ((later, LATER), (oldest, OLDEST)):
        with phone.session_transaction() as cookie:
            cookie["device"], cookie["groups"] = device, [2, 3]
    # The first phone back keeps the group; the phone that recorded its first entry keeps it too.
    assert "Ana, Ben" in later.get("/history").text
    assert "Ana, Ben" in oldest.get("/history").text
    assert "Ana, Ben" not in stranger.get("/history").text
    with app.app_context():
        rows = {member.device: member for member in db.session.scalars(sa.select(Member))}
        assert set(rows) == {LATER, OLDEST} and all(row.group_id == 2 and row.keeper for row in rows.values())
    # The group removed before stays gone; so does the session removed before, bin or not.
    assert "Otters" in later.get("/groups").text and "Removed groups you keep" not in later.get("/groups").text
    assert later.get("/t/tokentokentoken8").status_code == 404
    assert "tokentokentoken8" not in later.get("/group").text
    with later.session_transaction() as cookie:
        assert "groups" not in cookie
    close_down(app, drop_tables=True)


@pytest.mark.parametrize("keeper_first", [True, False])
def test_a_new_invitation_ends_the_cookies_of_those_days(tmp_path, keeper_first):
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": database_url(tmp_path),
                      "SERVER_NAME": "companion.test", "GROUPS": "private", "WTF_CSRF_ENABLED": False})
    with app.app_context():
        db.drop_all()
        with db.engine.begin() as connection:
            connection.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        upgrade(revision=BEFORE_MEMBERS)
        with db.engine.begin() as connection:
            _library(connection)
        upgrade()
    keeper, late = app.test_client(), app.test_client()
    for phone, device in ((keeper, OLDEST), (late, LATER)):
        with phone.session_transaction() as cookie:
            cookie["device"], cookie["groups"] = device, [2]
    if not keeper_first:
        assert "Ana, Ben" in late.get("/history").text
    assert keeper.post("/group/invitation", data={"unseen_days": ""}).status_code == 303
    assert ("Ana, Ben" in late.get("/history").text) is (not keeper_first)
    close_down(app, drop_tables=True)
