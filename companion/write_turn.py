"""SQLite's writers in turn: each woken the moment the one before it commits.

SQLite has one write lock for the whole file. A writer that finds it taken does not wait on it: its
busy handler sleeps and tries again, 1, 2, 5, 10… up to 100 ms a sleep (sqlite.org, ``busy_timeout``),
so a lock held for a few milliseconds costs the writers behind it tens, and a newcomer may take it
before a writer that has slept for long. Measured in the city night (docs/performance.md): at 30
entries a second, a third of the server's samples were writers asleep in that handler while the
server's CPU was not all used.

Here the writers of one database file queue on a lock of the kernel's instead (``flock`` on a file
beside it, and a thread lock for the threads of one process, which share the descriptor), taken
just before SQLite's write lock and given back once the transaction ends: the next writer is
woken as soon as it is free, and finds SQLite's lock free too. A writer that does not queue here
(a migration, a command) is still waited for by SQLite's own handler, as before.

PostgreSQL locks one table's row, not the database: its writers of different tables never wait
for each other, and nothing is queued here.
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa

from .extensions import db

_guard = threading.Lock()
# Per database file: this process's thread lock and its descriptor of the queue's file, with the
# process that opened it (a worker forked from a master that opened one opens its own: a descriptor
# shared across a fork is one lock, not two).
_queues: dict[str, tuple[threading.Lock, int, int]] = {}


def queue_path(url: sa.URL) -> str | None:
    """The file writers of ``url`` queue on, beside the database file; None where nothing is queued
    (PostgreSQL, an in-memory SQLite database)."""
    database = url.database
    if url.get_backend_name() != "sqlite" or not database or database == ":memory:" \
            or database.startswith("file:") or url.query.get("mode") == "memory":
        return None
    return f"{database}-writers"


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
    inside, committed or rolled back)."""
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
