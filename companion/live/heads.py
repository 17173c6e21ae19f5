"""A table's head (its row, without seats or entries), read on a connection each server thread keeps.

Every phone asks once a second whether its table changed; the answer is in one indexed row, and so
is whether the rendering kept for the phone is still the table as it is. Checking a connection out
of SQLAlchemy's pool and executing through the ORM cost more than the rest of such a request
(docs/performance.md), so each thread keeps one plain DBAPI connection, in autocommit mode (one
round trip, no transaction left open), for this read alone. A connection that fails is dropped and
the request takes the ordinary path, which reconnects or answers 503. On PostgreSQL the heads read
are kept until the database says their table changed (``companion.live.board``).
"""

from __future__ import annotations

import threading
import weakref
from datetime import datetime
from typing import Any, NamedTuple

import sqlalchemy as sa
from flask import Flask, current_app

from .. import commits
from ..extensions import db
from . import changes
from .board import HeadBoard
from ..models import REMOVED, Table
from ..table import signals


class Head(NamedTuple):
    """What a table's row says of its version: enough to answer a poll or serve a kept rendering."""

    id: int
    group_id: int
    last_seq: int
    status: str
    bell_seq: int | None
    bell_plan: dict[str, Any] | None
    bell_due_at: datetime | None


COLUMNS = [getattr(Table, name) for name in Head._fields]


def _query(watch: bool) -> sa.Select:
    column = Table.watch_token if watch else Table.token
    # A session in the bin has no head: its phones' polls reach the view, which says it was removed. (Written into
    # the statement: the live read sends the token alone.)
    return sa.select(*COLUMNS).where(column == sa.bindparam("token"), Table.status != sa.literal_column(f"'{REMOVED}'"))


class LiveRead:
    """The head of a table by its token, read on this thread's own connection."""

    def __init__(self, engine: sa.Engine, *, board: bool = True) -> None:
        self.engine = engine
        dialect = engine.dialect
        self._local = threading.local()
        self._opened: list = []
        self._lock = threading.Lock()
        self._error = dialect.loaded_dbapi.Error
        self._sql = {}
        for watch in (False, True):
            compiled = _query(watch).compile(dialect=dialect)
            self._sql[watch] = str(compiled)
            self._positional = compiled.positional
        # SQLite hands back moments and JSON as text: SQLAlchemy's own conversion for each column.
        self._convert = [column.type.dialect_impl(dialect).result_processor(dialect, None) for column in COLUMNS]
        # PostgreSQL says when a table changes: heads are kept between changes (companion/live/board.py).
        self.board = HeadBoard(engine) if board and dialect.name == "postgresql" else None

    def _connection(self):
        connection = getattr(self._local, "connection", None)
        if connection is None:
            pooled = self.engine.raw_connection()  # through the engine: its connect hooks (SQLite pragmas) run
            connection = pooled.driver_connection
            pooled.detach()  # the pool forgets it: this thread keeps it
            connection.rollback()
            if self.engine.dialect.name == "sqlite":
                connection.isolation_level = None
            else:
                connection.autocommit = True
            self._local.connection = connection
            with self._lock:
                self._opened.append(connection)
        return connection

    def head(self, token: str, watch: bool) -> Head | None:
        """The head of the table with this token; None if there is none or the read failed."""
        if self.board is None:
            return self._read(token, watch)
        if (kept := self.board.get((token, watch))) is not None:
            return kept
        ticket = self.board.ticket()
        head = self._read(token, watch)
        if head is not None:
            self.board.keep((token, watch), head.id, head, ticket)
        return head

    def changed(self, table_id: int) -> None:
        """This process changed the table's row: no kept head of it may answer again."""
        if self.board is not None:
            self.board.forget(table_id)

    def _read(self, token: str, watch: bool) -> Head | None:
        params = (token,) if self._positional else {"token": token}
        try:
            cursor = self._connection().cursor()
            try:
                cursor.execute(self._sql[watch], params)
                # fetchall ends the statement: SQLite would otherwise hold its read snapshot open.
                rows = cursor.fetchall()
            finally:
                cursor.close()
        except self._error:
            self._drop()
            return None
        if not rows:
            return None
        return Head(*(convert(value) if convert and value is not None else value
                      for convert, value in zip(self._convert, rows[0])))

    def _drop(self) -> None:
        connection = getattr(self._local, "connection", None)
        self._local.connection = None
        if connection is not None:
            with self._lock:
                if connection in self._opened:
                    self._opened.remove(connection)
            try:
                connection.close()
            except self._error:
                pass

    def close(self) -> None:
        """Close every thread's connection (a test's app going away; threads of a server never need it)."""
        if self.board is not None:
            self.board.close()
        with self._lock:
            opened, self._opened = self._opened, []
        for connection in opened:
            try:
                connection.close()
            except Exception:  # noqa: BLE001 - another thread's SQLite connection refuses; it dies with it
                pass
        self._local = threading.local()


def _usable(engine: sa.Engine) -> bool:
    # An in-memory SQLite database exists once per connection: a second one would be empty.
    if engine.dialect.name == "sqlite":
        return engine.url.database not in (None, "", ":memory:") and "mode=memory" not in str(engine.url)
    return engine.dialect.name == "postgresql"


def of(app: Flask | None = None) -> LiveRead | None:
    """The app's live read, if its database has one."""
    return (app or current_app).extensions.get("live_read")


def changed(app: Flask, table_id: int) -> None:
    """This process has just committed a change to the table's row: its streams hear of it now (the house
    announces it, ``companion.table.signals.table_changed``; this listens)."""
    if (reader := of(app)) is not None:
        reader.changed(table_id)
    changes.poke()


def head(token: str, watch: bool = False) -> Head | None:
    """The head of the table with this token (through the ORM's connection where there is no live read)."""
    if (reader := of()) is not None:
        return reader.head(token, watch)
    row = db.session.execute(_query(watch), {"token": token}).first()
    return Head(*row) if row is not None else None


def init_app(app: Flask) -> None:
    """Give the app its live read (file SQLite and PostgreSQL), and have it hear of the changes the house
    announces."""
    signals.table_changed.connect(changed)
    with app.app_context():
        if _usable(db.engine):
            reader = app.extensions["live_read"] = LiveRead(db.engine, board=bool(app.config["HEAD_BOARD"]))
            if reader.board is not None:
                # What the board heard also says when a group's review may be kept (``companion.commits``).
                commits.lend_ticket(app, reader.board.ticket)
            # An app that goes away (tests make many) takes its connections and listener with it.
            weakref.finalize(app, reader.close)
