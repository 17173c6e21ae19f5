"""The streams' watcher (companion/live/changes.py): one look per process hears every table's new version.

Run on the test database: a SQLite file (``PRAGMA data_version``, the entries since the last look) or,
in CI's second leg, PostgreSQL (the tables trigger's notifications).
"""

from __future__ import annotations

import pytest

import queue
import time

import sqlalchemy as sa

from companion.extensions import db
from companion.live import changes
from companion.models import REMOVED, Table
from companion.groups import bin
from companion.table import bell, bell_plan, recording
from companion.live import page as live_page

from helpers import make_table

# It measures how soon a change is heard: it runs alone, never beside another test (`make test`).
pytestmark = pytest.mark.timing


def table(token: str) -> Table:
    return db.session.scalar(sa.select(Table).where(Table.token == token))


def watch(app, watched: list[int]) -> tuple[changes.Changes, queue.Queue]:
    heard: queue.Queue = queue.Queue()
    with app.app_context():
        watcher = changes.Changes(db.engine, lambda: list(watched), heard.put)
    watcher.start()
    return watcher, heard


def hear(heard: queue.Queue, table_id: int, version: int, seconds: float = 5.0, status: str | None = None) -> float:
    """Seconds until the watcher reported ``version`` of the table (with ``status``, if given; fails past ``seconds``)."""
    started = time.monotonic()
    while (left := seconds - (time.monotonic() - started)) > 0:
        try:
            versions = heard.get(timeout=left)
        except queue.Empty:
            break
        if table_id in versions and versions[table_id].last_seq == version and status in (None, versions[table_id].status):
            return time.monotonic() - started
    raise AssertionError(f"table {table_id} at version {version} not heard within {seconds} s")


def test_an_entry_recorded_by_another_connection_is_heard_within_a_few_ticks(app):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    other = make_table(app, "tiny", ["Cy", "Di"])
    with app.app_context():
        table_id, other_id = table(token).id, table(other).id
    watcher, heard = watch(app, [table_id])
    try:
        hear(heard, table_id, 0)  # its first look: the version the table is at
        with app.app_context():
            recording.record(table(token), {"type": "score", "player": 0, "points": 10})
            recording.record(table(other), {"type": "score", "player": 0, "points": 3})
        took = hear(heard, table_id, 1)
        assert took < 1.0
        # Nobody here watches the other table: nothing of it is read or reported.
        while not heard.empty():
            assert other_id not in heard.get_nowait()
    finally:
        watcher.stop()


def test_an_entry_recorded_by_this_process_is_heard_at_once_not_at_the_next_tick(app, monkeypatch):
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        # A tick far longer than the test waits: only the poke of the commit can make the watcher look.
        # (PostgreSQL's watcher waits on the notification itself, which comes with the commit.)
        monkeypatch.setattr(changes, "TICK", 30.0)
        monkeypatch.setattr(changes, "RECHECK", 60.0)
    token = make_table(app, "tiny", ["Ana", "Ben"])
    with app.app_context():
        table_id = table(token).id
    watcher, heard = watch(app, [table_id])
    try:
        time.sleep(0.5)  # its connection made
        with app.app_context():
            recording.record(table(token), {"type": "score", "player": 0, "points": 10})
        assert hear(heard, table_id, 1, seconds=2.0) < 2.0
    finally:
        watcher.stop()


def test_what_the_watcher_hears_keys_the_tables_rendering_as_the_database_read_does(app):
    # A worker sends the regions kept under the row the watcher read, without reading it again: a row read
    # apart from the ORM (the bell's plan, JSON, as the driver gives it) must name the same version, or
    # every push would miss the regions rendered for it.
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"])
    with app.app_context():
        table_id = table(token).id
    watcher, heard = watch(app, [table_id])
    try:
        hear(heard, table_id, 0)
        with app.app_context():
            bell.open_bell(table(token), bell_plan.Plan("hidden", low=60, high=180))
            last_seq = table(token).last_seq
        found, deadline = None, time.monotonic() + 5
        while (found is None or found.bell_plan is None) and time.monotonic() < deadline:
            found = heard.get(timeout=5).get(table_id, found)
        assert found.last_seq == last_seq and found.bell_plan["mode"] == "hidden"
        with app.app_context():
            assert live_page.region_version(*found) == live_page.version_now(table_id)
    finally:
        watcher.stop()


def test_a_recheck_reports_only_the_tables_that_moved(app, monkeypatch):
    # A city's worker holds a thousand tables' streams: its loop hears of the one that changed, not of
    # all of them every RECHECK seconds.
    monkeypatch.setattr(changes, "RECHECK", 0.2)
    moving, still = make_table(app, "tiny", ["Ana", "Ben"]), make_table(app, "tiny", ["Cy", "Di"])
    with app.app_context():
        moving_id, still_id = table(moving).id, table(still).id
    watcher, heard = watch(app, [moving_id, still_id])
    try:
        first = heard.get(timeout=5)
        assert first[moving_id].last_seq == first[still_id].last_seq == 0
        with app.app_context():
            recording.record(table(moving), {"type": "score", "player": 0, "points": 10})
        time.sleep(5 * changes.RECHECK)
        reports = []
        while not heard.empty():
            reports.append(heard.get())
        assert [report[moving_id].last_seq for report in reports if moving_id in report] == [1]
        assert not any(still_id in report for report in reports)
        watcher.look_at(still_id)  # a stream opened there again: its version is told, unmoved or not
        assert hear(heard, still_id, 0, seconds=2.0) < 2.0
    finally:
        watcher.stop()


def test_a_table_whose_first_stream_just_opened_is_read_at_the_next_tick(app):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    watched: list[int] = []
    heard: queue.Queue = queue.Queue()
    with app.app_context():
        table_id = table(token).id
        watcher = changes.Changes(db.engine, lambda: list(watched), heard.put)
        recording.record(table(token), {"type": "score", "player": 0, "points": 10})
    watcher.start()
    try:
        time.sleep(3 * changes.TICK)
        watched.append(table_id)
        watcher.look_at(table_id)
        assert hear(heard, table_id, 1, seconds=changes.RECHECK / 2) < changes.RECHECK / 2
    finally:
        watcher.stop()


def closed(connection) -> bool:
    """Whether the watcher's own driver connection (sqlite3 or psycopg) is closed."""
    if hasattr(connection, "closed"):
        return bool(connection.closed)
    try:
        connection.total_changes  # noqa: B018 - sqlite3 refuses this on a closed connection
    except Exception:  # noqa: BLE001
        return True
    return False


def test_a_process_whose_phones_all_left_looks_at_nothing_until_a_stream_opens_again(app, monkeypatch):
    # A laptop left serving after the game: no database look 100 times a second in each worker.
    token = make_table(app, "tiny", ["Ana", "Ben"])
    with app.app_context():
        table_id = table(token).id
    connections, looks = [], []
    connect, rows = changes.Changes._connect, changes.Changes._rows
    monkeypatch.setattr(changes.Changes, "_connect", lambda self: connections.append(connect(self)) or connections[-1])
    monkeypatch.setattr(changes.Changes, "_rows",
                        staticmethod(lambda connection, sql, params=(): looks.append(sql) or rows(connection, sql, params)))
    watched = [table_id]
    watcher, heard = watch(app, watched)
    try:
        hear(heard, table_id, 0)
        watched.clear()  # the table's last stream closed
        deadline = time.monotonic() + 2
        while not closed(connections[-1]):
            assert time.monotonic() < deadline, "the watcher kept its connection with no stream to watch"
            time.sleep(changes.TICK)
        before = len(looks)
        time.sleep(50 * changes.TICK)
        assert len(looks) == before and len(connections) == 1

        # An entry while nobody watches, then a phone opens the table again: it hears where the table is.
        with app.app_context():
            recording.record(table(token), {"type": "score", "player": 0, "points": 10})
        watched.append(table_id)
        watcher.look_at(table_id)
        assert hear(heard, table_id, 1, seconds=2.0) < 2.0
        assert len(connections) == 2 and not closed(connections[-1])
    finally:
        watcher.stop()


def test_a_change_no_entry_carries_is_caught_up_by_the_recheck(app):
    # A table put in the bin, and restored, changes its status without an entry of its own.
    token = make_table(app, "tiny", ["Ana", "Ben"])
    with app.app_context():
        table_id = table(token).id
        recording.record(table(token), {"type": "score", "player": 0, "points": 10})
    watcher, heard = watch(app, [table_id])
    try:
        hear(heard, table_id, 1)
        with app.app_context():
            bin.remove_session(table(token))
        hear(heard, table_id, 1, seconds=changes.RECHECK + 2, status=REMOVED)
        with app.app_context():
            bin.restore_session(db.session.get(Table, table_id))
        hear(heard, table_id, 1, seconds=changes.RECHECK + 2, status="playing")
    finally:
        watcher.stop()


def test_entries_given_the_ids_of_a_removed_sessions_entries_are_heard(app):
    # SQLite gives the ids of deleted newest entries again: a watcher that only read ids above the
    # newest it had seen would miss them until its recheck.
    removed, kept = make_table(app, "tiny", ["Ana", "Ben"]), make_table(app, "tiny", ["Cy", "Di"])
    with app.app_context():
        kept_id = table(kept).id
        for points in (1, 2, 3):
            recording.record(table(removed), {"type": "score", "player": 0, "points": points})
    watcher, heard = watch(app, [kept_id])
    try:
        hear(heard, kept_id, 0)
        with app.app_context():
            bin.remove_session(table(removed))
            bin.empty_session(table(removed).id)
        time.sleep(5 * changes.TICK)
        with app.app_context():
            recording.record(table(kept), {"type": "score", "player": 1, "points": 5})
        assert hear(heard, kept_id, 1, seconds=changes.RECHECK) < 1.0
    finally:
        watcher.stop()
