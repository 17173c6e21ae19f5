"""Opening a connection never loosens another connection's hold on the SQLite file.

POSIX locks belong to a process and a file: closing any descriptor of the database file drops every
lock the process holds on it (sqlite.org/howtocorrupt.html, 2.2). Keeping the file private must not
open the live database, or a second process writes under a connection that thinks it holds the
lock: "database disk image is malformed".
"""

from __future__ import annotations

import sqlite3
import stat
import subprocess
import sys

import sqlalchemy as sa

from companion.database import private_file

# A second process asking for the write lock at once: "locked" while this process holds it.
OTHER_WRITER = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], timeout=0, isolation_level=None)
try:
    connection.execute("BEGIN IMMEDIATE")
except sqlite3.OperationalError as error:
    print(error)
else:
    print("got the write lock")
"""


def other_writer(path) -> str:
    return subprocess.run([sys.executable, "-c", OTHER_WRITER, str(path)], capture_output=True, text=True,
                          check=True, timeout=30).stdout.strip()


def test_keeping_the_file_private_never_drops_a_lock_this_process_holds(tmp_path):
    path = tmp_path / "held.sqlite"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")  # this process holds the write lock
    assert other_writer(path) == "database is locked"
    private_file(sa.make_url(f"sqlite:///{path}"))  # another connection of this process is being opened
    assert other_writer(path) == "database is locked"
    holder.rollback()
    holder.close()


def test_a_new_database_file_is_still_created_private(tmp_path):
    path = tmp_path / "new.sqlite"
    private_file(sa.make_url(f"sqlite:///{path}"))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)
    private_file(sa.make_url(f"sqlite:///{path}"))  # an existing file left open to others is tightened
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
