"""Database settings that keep acknowledged entries safe, and SQLite's writers in turn."""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa
from flask import Flask

from .extensions import db


# SQLite's primary result codes for a connection that can no longer write: the file was read-only
# when it was opened (it then stays read-only for good), or it went away under it.
SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN = 8, 10, 14
CANNOT_WRITE = {SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN}


def _discard_if_it_cannot_write(context: sa.engine.ExceptionContext) -> None:
    """Treat "attempt to write a readonly database" as a lost connection: the pool drops it, and all its peers.

    Without this, the connections opened while the file could not be written stay in the pool
    and refuse writes long after the file is fixed.
    """
    code = getattr(context.original_exception, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in CANNOT_WRITE:
        context.is_disconnect = True


def _note_if_opened_read_only(url: sa.URL):
    def note(_dbapi_connection, record) -> None:
        record.info["opened_read_only"] = _cannot_write(url)
    return note


def _reopen_if_writable_now(url: sa.URL):
    def check(_dbapi_connection, record, _proxy) -> None:
        # A connection SQLite opened read-only never writes; once the file can be written, open a new one.
        if record.info.get("opened_read_only") and not _cannot_write(url):
            raise sa.exc.DisconnectionError("the SQLite file can be written again")
    return check


def _cannot_write(url: sa.URL) -> bool:
    path = url.database
    if not path or path == ":memory:" or path.startswith("file:"):
        return False
    return os.path.exists(path) and not os.access(path, os.W_OK)


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


def _file_of(url: sa.URL) -> str | None:
    """The file of a SQLite ``url``; None for a database in memory."""
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:") or url.query.get("mode") == "memory":
        return None
    return database


def sqlite_file(url: sa.URL) -> str | None:
    """The file of the database at ``url``: None on PostgreSQL, or for a SQLite database in memory."""
    return _file_of(url) if url.get_backend_name() == "sqlite" else None


def private_file(url: sa.URL) -> None:
    """Create the SQLite database file 0600 before SQLite would create it 0644: it holds every table's tokens.

    SQLite gives the -wal and -shm files the mode of the database file. A file left 0644 by an
    earlier version is tightened, if this user owns it. Only a file that does not exist yet is
    opened: closing any descriptor of the database file drops every lock this process holds on it,
    and another connection of this process may be holding one (sqlite.org/howtocorrupt.html, 2.2).
    """
    if (database := _file_of(url)) is None:
        return
    path = Path(database)
    try:
        if not path.exists():
            try:
                os.close(os.open(path, os.O_RDONLY | os.O_CREAT | os.O_EXCL, 0o600))
            except FileExistsError:
                pass  # another connection created it just now: it is SQLite's, not ours to open
        info = path.stat()
        if info.st_uid == os.getuid() and info.st_mode & 0o077:
            path.chmod(0o600)
    except OSError:
        pass  # a folder that is missing or read-only: SQLite says so itself when it connects


# A pooled connection given back less than this many seconds ago is used without a check. It is as
# alive as one checked now: a server that restarts between the two is one that restarts during the
# request, and either way the pool drops its connections and the request says "try again" (503). On a
# busy server most connections come back within it, and the check was a round trip on every request
# (a tenth of a table page rendered on PostgreSQL, docs/performance.md).
IDLE_BEFORE_CHECK = 1.0


def ping_when_idle(engine: sa.Engine) -> None:
    """Check a pooled connection before use when it has lain idle, as ``pool_pre_ping`` does every time:
    one that fails the check is replaced by a new one (the pool's DisconnectionError), unseen."""
    def given_back(dbapi_connection, record) -> None:
        record.info["given_back"] = time.monotonic()

    def taken(dbapi_connection, record, proxy) -> None:
        # The record's ``info`` goes with its DBAPI connection: a new connection has no mark, and needs no check.
        given_back = record.info.pop("given_back", None)
        if given_back is None or time.monotonic() - given_back < IDLE_BEFORE_CHECK:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as error:
            raise sa.exc.DisconnectionError(str(error)) from error

    sa.event.listen(engine, "checkin", given_back)
    sa.event.listen(engine, "checkout", taken)


def reads_only() -> None:
    """This app context's session only reads: on PostgreSQL each of its statements runs on its own (autocommit),
    with no BEGIN before them and no ROLLBACK after, two round trips fewer. At PostgreSQL's READ COMMITTED every
    statement sees its own snapshot anyway, so nothing read differs. Never where something may be written."""
    if db.engine.dialect.name == "postgresql":
        db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})


def init_app(app: Flask) -> None:
    """Hook the SQLite pragmas onto every new connection, and keep the database file private; on a
    database server, check the connections that have lain idle."""
    with app.app_context():
        engine = db.engine
        if engine.dialect.name != "sqlite":
            ping_when_idle(engine)
        else:
            sa.event.listen(engine, "connect", _sqlite_pragmas)
            sa.event.listen(engine, "do_connect", lambda *_: private_file(engine.url))
            sa.event.listen(engine, "connect", _note_if_opened_read_only(engine.url))
            sa.event.listen(engine, "checkout", _reopen_if_writable_now(engine.url))
            sa.event.listen(engine, "handle_error", _discard_if_it_cannot_write)


# --- SQLite's writers in turn: each woken the moment the one before it commits ---------------------
#
# SQLite has one write lock for the whole file. A writer that finds it taken does not wait on it: its
# busy handler sleeps and tries again, 1, 2, 5, 10… up to 100 ms a sleep (sqlite.org, ``busy_timeout``),
# so a lock held for a few milliseconds costs the writers behind it tens, and a newcomer may take it
# before a writer that has slept for long. Measured in the city night (docs/performance.md): at 30
# entries a second, a third of the server's samples were writers asleep in that handler while the
# server's CPU was not all used.
#
# Here the writers of one database file queue on a lock of the kernel's instead (``flock`` on a file
# beside it, and a thread lock for the threads of one process, which share the descriptor), taken
# just before SQLite's write lock and given back once the transaction ends: the next writer is
# woken as soon as it is free, and finds SQLite's lock free too. A writer that does not queue here
# (a migration, a command) is still waited for by SQLite's own handler, as before.
#
# PostgreSQL locks one table's row, not the database: its writers of different tables never wait
# for each other, and nothing is queued here.

_guard = threading.Lock()
# Per database file: this process's thread lock and its descriptor of the queue's file, with the
# process that opened it (a worker forked from a master that opened one opens its own: a descriptor
# shared across a fork is one lock, not two).
_queues: dict[str, tuple[threading.Lock, int, int]] = {}


def queue_path(url: sa.URL) -> str | None:
    """The file writers of ``url`` queue on, beside the database file; None where nothing is queued
    (PostgreSQL, an in-memory SQLite database)."""
    database = sqlite_file(url)
    return f"{database}-writers" if database is not None else None


def _queue(path: str) -> tuple[threading.Lock, int]:
    with _guard:
        kept = _queues.get(path)
        if kept is None or kept[2] != os.getpid():
            # 0600 like the database file: it holds nothing, but it sits in the same private folder.
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            kept = _queues[path] = (threading.Lock(), descriptor, os.getpid())
        return kept[0], kept[1]


@contextmanager
def write_turn() -> Iterator[None]:
    """Wait for this writer's turn at the app's database, and hold it inside (a transaction that ends
    inside, committed or rolled back). Not reentrant: a writer that asks again inside waits for itself."""
    path = queue_path(db.engine.url)
    if path is None:
        yield
        return
    try:
        lock, descriptor = _queue(path)
    except OSError:
        yield  # no file to queue on (a read-only folder): SQLite's own handler, and its own error
        return
    with lock:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(descriptor, fcntl.LOCK_UN)
