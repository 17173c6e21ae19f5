"""The home server's one group: what was played before groups existed lands in it, and a table's own
pages, its poll and its pushes ask nothing more of the database for it."""

from __future__ import annotations

import sqlalchemy as sa
from flask_migrate import upgrade

from companion import create_app
from companion.extensions import db
from companion.live import heads
from groups.tables import group_named, played
from helpers import database_url, form_key

BEFORE_GROUPS = "9b3f5c2d1e07"


def test_the_sessions_played_before_groups_land_in_the_home_group(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": database_url(tmp_path),
                      "SERVER_NAME": "companion.test"})
    with app.app_context():
        db.drop_all()
        with db.engine.begin() as connection:
            connection.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        upgrade(revision=BEFORE_GROUPS)
        with db.engine.begin() as connection:
            connection.execute(sa.text(
                "INSERT INTO tables (id, token, watch_token, join_code, game, options, status, created_at, last_seq) "
                "VALUES (7, 'tokentokentoken1', 'watchwatchwatch1', 'ABCDEF', 'frutti', '{}', 'playing', "
                "'2026-11-30 20:05:00', 0)"))
            for position, name in enumerate(["Ana", "Ben"]):
                connection.execute(sa.text("INSERT INTO seats (table_id, position, name) VALUES (7, :p, :n)"),
                                   {"p": position, "n": name})
            connection.execute(sa.text(
                "INSERT INTO entries (table_id, seq, type, event, summary, created_at, device) VALUES "
                "(7, 1, 'seat_taken', '{\"type\": \"seat_taken\", \"seat\": 0}', 'Ana''s phone joined the table.', "
                "'2026-11-30 20:06:00', '')"))
            connection.execute(sa.text("UPDATE tables SET last_seq = 1"))
        upgrade()
        with db.engine.connect() as connection:
            assert connection.execute(sa.text("SELECT group_id FROM tables")).scalars().all() == [1]
            assert connection.execute(sa.text("SELECT id, name, removed FROM groups")).all() == [(1, "", False)]
            # Nothing played is lost on the way (SQLite rebuilds the tables table to add its group).
            assert connection.execute(sa.text("SELECT count(*) FROM seats")).scalar() == 2
            assert connection.execute(sa.text("SELECT count(*) FROM entries")).scalar() == 1
    # Outside the set-up's app context: the request's session ends with its own context.
    history = app.test_client().get("/history").get_data(as_text=True)
    assert "Ana, Ben" in history
    if reader := heads.of(app):
        reader.close()
    with app.app_context():
        db.drop_all()
        with db.engine.begin() as connection:
            connection.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        db.engine.dispose()


def test_a_table_page_its_poll_and_its_entries_never_read_the_groups(app, client):
    token = played(app, group_named(app, ""), ["Ana", "Ben", "Cy"])
    reads: list[str] = []
    with app.app_context():
        engine = db.engine

    def listen(_connection, _cursor, statement, *_rest):
        reads.append(statement)

    sa.event.listen(engine, "before_cursor_execute", listen)
    try:
        client.get(f"/t/{token}")
        client.get(f"/t/{token}/live?seen=1", headers={"HX-Request": "true"})
        client.get(f"/t/{token}/live?seen=999")
        client.post(f"/t/{token}/reopen", data={"key": form_key()})
        client.get(f"/t/{token}/results")
    finally:
        sa.event.remove(engine, "before_cursor_execute", listen)
    assert reads and not [statement for statement in reads if "groups" in statement]
