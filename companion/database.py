"""Database settings that keep acknowledged entries safe."""

from __future__ import annotations

import os
from pathlib import Path

import sqlalchemy as sa
from flask import Flask

from .extensions import db


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    # WAL lets the live poll read while an entry is written; synchronous=FULL
    # makes an entry durable before its success answer leaves the server;
    # busy_timeout queues concurrent writers instead of failing them.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=15000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def private_file(url: sa.URL) -> None:
    """Create the SQLite database file 0600 before SQLite would create it 0644: it holds every table's tokens.

    SQLite gives the -wal and -shm files the mode of the database file. A file left 0644 by an
    earlier version is tightened, if this user owns it.
    """
    if url.database in (None, "", ":memory:") or url.database.startswith("file:") or url.query.get("mode") == "memory":
        return
    path = Path(url.database)
    try:
        os.close(os.open(path, os.O_RDONLY | os.O_CREAT, 0o600))
        info = path.stat()
        if info.st_uid == os.getuid() and info.st_mode & 0o077:
            path.chmod(0o600)
    except OSError:
        pass  # a folder that is missing or read-only: SQLite says so itself when it connects


def init_app(app: Flask) -> None:
    """Hook the SQLite pragmas onto every new connection, and keep the database file private."""
    with app.app_context():
        engine = db.engine
        if engine.dialect.name == "sqlite":
            sa.event.listen(engine, "connect", _sqlite_pragmas)
            sa.event.listen(engine, "do_connect", lambda *_: private_file(engine.url))
