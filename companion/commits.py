"""Whether anything was committed to a SQLite database since a moment, asked without reading a table.

A page kept for a big group is still the group as it is if nothing was written since it was read; asking the
group's version is a read of every session of it (a millisecond at 5,000 sessions, as much as the rest of the
answer). SQLite says whether any other connection committed with ``PRAGMA data_version``: each server thread
keeps one plain connection that never writes, so that any commit, by this process or another, moves the value it
reads. ``mark()`` is that connection and its value: the same mark twice means nothing was committed in between.
PostgreSQL has no such pragma: there ``mark()`` is None, and the version is read every time.
"""

from __future__ import annotations

import threading
import weakref

import sqlalchemy as sa
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


def mark() -> tuple[int, int] | None:
    """This thread's watching connection and the database's data version on it; None where it cannot be asked."""
    engine = db.engine
    if not _usable(engine):
        return None
    try:
        connection = _connection(engine)
        return id(connection), connection.execute("PRAGMA data_version").fetchone()[0]
    except engine.dialect.loaded_dbapi.Error:
        getattr(_local, "connections", {}).pop(engine, None)
        return None
