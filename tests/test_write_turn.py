"""SQLite's writers take their turn on a lock of the kernel's, woken as soon as the one before leaves.

What a table would notice without it is speed (docs/performance.md, the city night); what these tests
hold is that the turn is one at a time across threads and processes, given back on an error, private,
and not taken where nothing needs it (PostgreSQL, a database in memory).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
import time

import pytest
import sqlalchemy as sa

from companion import create_app
from companion.extensions import db
from companion.database import queue_path, write_turn

# Another process asks for the turn without waiting: "taken" while a writer of this process holds it.
OTHER_PROCESS = """
import fcntl, os, sys
descriptor = os.open(sys.argv[1], os.O_RDWR)
try:
    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
except BlockingIOError:
    print("taken")
else:
    print("free")
"""


def other_process(path: str) -> str:
    return subprocess.run([sys.executable, "-c", OTHER_PROCESS, path], capture_output=True, text=True,
                          check=True, timeout=30).stdout.strip()


@pytest.mark.parametrize(("url", "queued"), [
    ("sqlite:////srv/companion/instance/companion.sqlite", "/srv/companion/instance/companion.sqlite-writers"),
    ("sqlite://", None),
    ("sqlite:///:memory:", None),
    ("sqlite:///file:shared?mode=memory&uri=true", None),
    ("postgresql+psycopg://companion@db/companion", None),
])
def test_only_a_sqlite_file_queues_its_writers(url, queued):
    assert queue_path(sa.make_url(url)) == queued


@pytest.fixture
def sqlite_app(tmp_path):
    """An app on a SQLite file, whichever database the run's other tests use: the queue is SQLite's."""
    return create_app({"TESTING": True, "SECRET_KEY": "test",
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'queued.sqlite'}"})


def test_another_process_waits_while_a_writer_holds_the_turn(sqlite_app):
    with sqlite_app.app_context():
        path = queue_path(db.engine.url)
        with write_turn():
            assert other_process(path) == "taken"
        assert other_process(path) == "free"
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_a_writer_that_fails_gives_its_turn_back(sqlite_app):
    with sqlite_app.app_context():
        path = queue_path(db.engine.url)
        with pytest.raises(RuntimeError), write_turn():
            raise RuntimeError("a refused entry")
        assert other_process(path) == "free"


def test_the_threads_of_one_process_write_one_at_a_time(sqlite_app):
    inside, most = 0, 0
    count = threading.Lock()

    def writer():
        nonlocal inside, most
        with sqlite_app.app_context(), write_turn():
            with count:
                inside += 1
                most = max(most, inside)
            time.sleep(0.02)
            with count:
                inside -= 1

    threads = [threading.Thread(target=writer) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert most == 1
