"""Database settings that keep acknowledged entries safe."""

from __future__ import annotations

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


def init_app(app: Flask) -> None:
    """Hook the SQLite pragmas onto every new connection."""
    with app.app_context():
        engine = db.engine
        if engine.dialect.name == "sqlite":
            sa.event.listen(engine, "connect", _sqlite_pragmas)
