"""Whether anything a group's review reads was committed since a moment, asked without reading its sessions.

A page kept for a big group is still the group as it is if nothing was written since it was read; asking the
group's version is a read of every session of it (a millisecond at 5,000 sessions, as much as the rest of the
answer). ``mark()`` is cheaper, and the same mark twice means nothing it covers was committed in between:

- SQLite says whether any other connection committed with ``PRAGMA data_version``: each server thread keeps one
  plain connection that never writes, so that any commit, by this process or another, moves the value it reads.
  The mark is that connection and its value (each thread's own).
- PostgreSQL announces every change to a table's row, a table added and a change of a season (its triggers,
  ``companion.models``), and each worker's head board counts what it heard (``companion.live.board``; the live
  machinery lends the count here: ``lend_ticket``). The mark is that count, read without asking the database;
  none while the board is not trusted (its listener away): the version is then read every time, as where there
  is no board at all. A commit of another process is heard a moment after it (as by a table page).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Hashable

import sqlalchemy as sa
from flask import Flask, current_app

from .extensions import db

_local = threading.local()


def _usable(engine: sa.Engine) -> bool:
    # An in-memory database exists once per connection: another connection would see nothing of it.
    return (engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:")
            and "mode=memory" not in str(engine.url))


def _connection(engine: sa.Engine):
    found = getattr(_local, "connections", None)
    if found is None:
        # Per engine, gone with it: a later engine (another app) never finds a connection to another file.
        found = _local.connections = weakref.WeakKeyDictionary()
    if (connection := found.get(engine)) is None:
        pooled = engine.raw_connection()  # through the engine: its connect hooks (the pragmas) run
        connection = pooled.driver_connection
        pooled.detach()  # the pool forgets it: this thread keeps it, for this pragma alone
        connection.isolation_level = None
        found[engine] = connection
    return connection


def lend_ticket(app: Flask, ticket: Callable[[], int | None]) -> None:
    """What counts the changes PostgreSQL announced to this process (None while it cannot be trusted)."""
    app.extensions["commit_ticket"] = ticket


def _announced() -> tuple | None:
    ticket = current_app.extensions.get("commit_ticket")
    if ticket is None or (heard := ticket()) is None:
        return None
    return "announced", heard


def mark() -> tuple[Hashable, Hashable] | None:
    """A mark of what was committed (see above), as (where it was read, what it says); None where it cannot be
    asked."""
    engine = db.engine
    if engine.dialect.name == "postgresql":
        return _announced()
    if not _usable(engine):
        return None
    try:
        connection = _connection(engine)
        return id(connection), connection.execute("PRAGMA data_version").fetchone()[0]
    except engine.dialect.loaded_dbapi.Error:
        getattr(_local, "connections", {}).pop(engine, None)
        return None
