"""A long entry log must not slow the table down: the page reads only the newest entries, the poll one row."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from companion.table import log
from companion.table import view as table_view_module
from companion.extensions import db
from companion.models import Table
from helpers import form_key, make_table

HTMX = {"HX-Request": "true"}


def score(client, token, player, points):
    assert client.post(f"/t/{token}/tiny/score",
                       data={"player": player, "points": points, "key": form_key()}).status_code == 303


def test_recent_entries_and_the_undo_target_come_from_the_newest_entries_only(app, client, monkeypatch):
    token = make_table(app, "tiny", ["Ana", "Ben"], {"target": 10**6})
    for n in range(1, 41):
        score(client, token, n % 2, 1)
    # Undo the last 20 entries one by one: the undo target walks back past a window of voids.
    for target in range(40, 20, -1):
        assert client.post(f"/t/{token}/undo", data={"entry": target, "key": form_key()}).status_code == 303
    with app.test_request_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        monkeypatch.setattr(log, "entries_of", lambda *a, **k: pytest.fail("read the whole log"))
        assert log.last_live_entry(table).seq == 20
        rows = log.history(table, limit=6)
        assert [(entry.seq, undone) for entry, undone in rows] == [(60, False), (59, False), (58, False),
                                                                   (57, False), (56, False), (55, False)]
        assert all(entry.type == "void" for entry, _ in rows)
        monkeypatch.undo()
        everything = log.history(table)
        assert len(everything) == 60 and sum(undone for _, undone in everything) == 20
        assert {entry.seq for entry, undone in everything if undone} == set(range(21, 41))


def test_a_newest_entry_that_was_undone_is_struck_through_in_the_recent_list(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    score(client, token, 0, 5)
    score(client, token, 1, 6)
    client.post(f"/t/{token}/undo", data={"entry": 2, "key": form_key()})
    page = client.get(f"/t/{token}").text
    assert "<del>Ben scored 6</del>" in page and "Undo entry 1" not in page
    assert "/undo?entry=1" in page  # the next undo takes back entry 1


def test_the_unchanged_poll_builds_nothing(app, client, monkeypatch):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    score(client, token, 0, 5)
    from companion.views import tables

    monkeypatch.setattr(tables, "table_or_404", lambda *a, **k: pytest.fail("loaded the table"))
    monkeypatch.setattr(table_view_module, "state_of", lambda *a, **k: pytest.fail("built the state"))
    answer = client.get(f"/t/{token}/live?seen=1", headers=HTMX)
    assert answer.status_code == 204 and answer.data == b""
    with app.app_context():
        watch = db.session.scalar(sa.select(Table.watch_token).where(Table.token == token))
    assert client.get(f"/w/{watch}/live?seen=1", headers=HTMX).status_code == 204
    monkeypatch.undo()
    # Behind, unknown, or a token of the other kind: the region, or a 404.
    assert client.get(f"/t/{token}/live?seen=0", headers=HTMX).status_code == 200
    assert client.get(f"/t/{watch}/live?seen=1", headers=HTMX).status_code == 404
    assert client.get(f"/w/{token}/live?seen=1", headers=HTMX).status_code == 404
    assert client.get("/t/nope/live?seen=1", headers=HTMX).status_code == 404


def test_a_table_page_reads_its_newest_entries_once(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"], {"target": 10**6})
    for n in range(1, 31):
        score(client, token, n % 2, 1)
    client.post(f"/t/{token}/undo", data={"entry": 30, "key": form_key()})
    reads = []
    with app.app_context():
        engine = db.engine
    listen = lambda conn, cursor, statement, *rest: reads.append(statement)  # noqa: E731
    sa.event.listen(engine, "before_cursor_execute", listen)
    try:
        page = client.get(f"/t/{token}").text
    finally:
        sa.event.remove(engine, "before_cursor_execute", listen)
    # The recent list and the undo target come from one read of the newest rows (the bell reads its rings).
    newest = [s for s in reads if "FROM entries" in s and "ORDER BY entries.seq DESC" in s and "entries.type IN" not in s]
    assert len(newest) == 1
    assert "<del>Ana scored 1</del>" in page and "/undo?entry=29" in page
