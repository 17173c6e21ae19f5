"""Which tables changed, looked up once per process for all of its streams, never once per phone.

One thread per worker process holding streams (``companion.server.streaming``) keeps a connection
of its own and learns of every entry recorded by any process or host:

- on SQLite, ``PRAGMA data_version`` (one call, no table read) says whether any other connection
  committed since the last look, every TICK seconds, and at once when this process commits
  (``poke``); only then are the entries added since read, by their ids, with their tables' versions;
- on PostgreSQL, the notifications the ``tables`` trigger already sends (``companion.live.board``):
  several app hosts behind one proxy all hear every table's change.

Every RECHECK seconds, and for the tables whose first stream just opened, the versions of every
table with a stream here are read whole: a notice lost while the connection was being made again,
or a change no entry carries (a table removed from the history), is caught up within that time. Only
the tables that moved since they were last reported (and those whose first stream just opened) are.
What the watcher learns it hands to ``report`` as {table id: ``Heard``}: the table's row as a rendering
of it reads it, so that a worker whose phones' regions are already rendered sends them without asking
the database again.

A process that holds no stream (every phone gone home) does nothing: the watcher closes its
connection and sleeps until a stream opens here again, which then reads its table whole.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any, NamedTuple

import sqlalchemy as sa

from ..models import CHANNEL

TICK = 0.01
RECHECK = 2.0
CHUNK = 500

log = logging.getLogger(__name__)


class Heard(NamedTuple):
    """A table's row as the watcher read it: its newest entry (the version its streams are told) and the
    rest of what a rendering of the table is keyed on (``page.region_version``)."""

    last_seq: int
    status: str
    bell_seq: int | None
    bell_plan: dict[str, Any] | None


Report = Callable[[dict[int, Heard]], None]
# This process's watchers: an entry committed here has them look at once (``poke``).
_watchers: weakref.WeakSet[Changes] = weakref.WeakSet()


def poke() -> None:
    """This process just committed a change: its watchers look now, not at their next tick.

    The phones whose streams this process holds then hear of it a tick sooner (on SQLite; on
    PostgreSQL the notification is as quick).
    """
    for watcher in list(_watchers):
        watcher.poked.set()


class Changes:
    """The watcher thread: ``watched()`` names the tables to look at, ``report`` is told their new versions."""

    def __init__(self, engine: sa.Engine, watched: Callable[[], list[int]], report: Report) -> None:
        self.engine = engine
        self.watched = watched
        self.report = report
        self.postgres = engine.dialect.name == "postgresql"
        self._stop = threading.Event()
        self.poked = threading.Event()
        # Set when a stream opens here (and to stop): the watcher resumes after a time with none.
        self._wanted = threading.Event()
        self._fresh: set[int] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        _watchers.add(self)
        self._thread = threading.Thread(target=self._run, name="stream-changes", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.poked.set()
        self._wanted.set()
        _watchers.discard(self)

    def look_at(self, table_id: int) -> None:
        """A table's first stream here opened: read its version at the next tick (it may have moved meanwhile)."""
        with self._lock:
            self._fresh.add(table_id)
        self._wanted.set()

    def _idle(self) -> bool:
        """Whether no stream is held here: nothing to watch."""
        with self._lock:
            if self._fresh:
                return False
        return not self.watched()

    # --- the thread ----------------------------------------------------------------

    def _connect(self):
        pooled = self.engine.raw_connection()  # through the engine: its connect hooks (SQLite pragmas) run
        connection = pooled.driver_connection
        pooled.detach()
        connection.rollback()
        if self.postgres:
            connection.autocommit = True
            connection.execute(f"LISTEN {CHANNEL}")
        else:
            connection.isolation_level = None
        return connection

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wait_for_streams()
            if self._stop.is_set():
                return
            connection = None
            try:
                connection = self._connect()
                self._watch(connection)
            except Exception as error:  # noqa: BLE001 - any failure: reconnect; the recheck catches up
                log.warning("stream watcher lost its database (%s); reconnecting", str(error).strip())
                self._stop.wait(1.0)
            finally:
                if connection is not None:
                    try:
                        connection.close()
                    except Exception:  # noqa: BLE001
                        pass

    def _wait_for_streams(self) -> None:
        """Sleep while no stream is held here: no tick, no connection (a laptop's server left on idles)."""
        while not self._stop.is_set():
            self._wanted.clear()
            # Looked at after the clear: a stream opened meanwhile has set it again (look_at).
            if not self._idle():
                return
            self._wanted.wait()

    def _watch(self, connection) -> None:
        last_entry = self._newest_entry(connection)
        data_version = None
        recheck_at = 0.0
        told: dict[int, Heard] = {}  # what was last reported of each table (since this connection)
        while not self._stop.is_set():
            if self._idle():
                # The last stream here closed. (On PostgreSQL, a listener that reads nothing would
                # let the server's notification queue fill: the connection is closed instead.)
                return
            changed: set[int] = set()
            if self.postgres:
                changed.update(int(notice.payload) for notice in connection.notifies(timeout=TICK))
            else:
                self.poked.wait(TICK)
                self.poked.clear()
                now_version = self._one(connection, "PRAGMA data_version")
                if now_version != data_version:
                    data_version = now_version
                    rows = self._rows(connection, "SELECT id, table_id FROM entries WHERE id > ?", (last_entry,))
                    if rows:
                        last_entry = max(row[0] for row in rows)
                        changed.update(row[1] for row in rows)
                    elif (newest := self._newest_entry(connection)) < last_entry:
                        # The newest entries were deleted (a session removed): SQLite gives their ids
                        # again, maybe already to an entry of a watched table. Look at them all now.
                        last_entry = newest
                        changed.update(self.watched())
            with self._lock:
                fresh, self._fresh = self._fresh, set()
            changed |= fresh
            now = time.monotonic()
            recheck = now >= recheck_at
            if recheck:
                recheck_at = now + RECHECK
                changed.update(self.watched())
            if changed:
                watched = set(self.watched())
                versions = self._versions(connection, [table_id for table_id in changed if table_id in watched])
                # What moved since it was last reported, and every table whose first stream just opened: a
                # recheck reads all of a city's tables every 2 s, and the loop need not hear of the unmoved.
                news = {table_id: heard for table_id, heard in versions.items()
                        if table_id in fresh or told.get(table_id) != heard}
                told.update(news)
                if recheck:
                    told = {table_id: heard for table_id, heard in told.items() if table_id in watched}
                if news:
                    self.report(news)

    def _versions(self, connection, table_ids: list[int]) -> dict[int, Heard]:
        versions: dict[int, Heard] = {}
        columns = "id, last_seq, status, bell_seq, bell_plan"
        for start in range(0, len(table_ids), CHUNK):
            chunk = table_ids[start:start + CHUNK]
            if self.postgres:
                rows = self._rows(connection, f"SELECT {columns} FROM tables WHERE id = ANY(%s)", (chunk,))
            else:
                marks = ",".join("?" * len(chunk))
                rows = self._rows(connection, f"SELECT {columns} FROM tables WHERE id IN ({marks})", chunk)
            for table_id, last_seq, status, bell_seq, plan in rows:
                # The driver's own connection: sqlite3 gives the JSON column as its text, psycopg decoded.
                plan = json.loads(plan) if isinstance(plan, str) else plan
                versions[table_id] = Heard(last_seq, status, bell_seq, plan)
        return versions

    def _newest_entry(self, connection) -> int:
        if self.postgres:
            return 0
        return self._one(connection, "SELECT COALESCE(MAX(id), 0) FROM entries") or 0

    @staticmethod
    def _rows(connection, sql: str, params=()) -> list:
        cursor = connection.execute(sql, params)
        try:
            # fetchall ends the statement: SQLite would otherwise hold its read snapshot open.
            return cursor.fetchall()
        finally:
            cursor.close()

    def _one(self, connection, sql: str):
        rows = self._rows(connection, sql)
        return rows[0][0] if rows else None
