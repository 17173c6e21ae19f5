"""`make run`'s backups of a SQLite library: one at start and one a day after, by a process beside gunicorn's master.

gunicorn's master starts it (``companion/server/gunicorn_conf.py``), so a server takes one backup a day
whatever its number of workers, and no request waits for it. It is a process, not a thread of the
master: the master forks its workers, and a fork made while a thread holds the database open hands the
worker that thread's descriptors of the file. It runs the app's own settings (``create_app``), and stops
when the master's end of a pipe closes, as it does even for a master that is killed.
"""

from __future__ import annotations

import logging
import os
import select
import signal
import subprocess
import sys
from typing import BinaryIO

from flask import Flask

from .. import create_app
from . import backup
from .backup_commands import backup_into, described, library_file

DAY_SECONDS = 24 * 3600

_process: subprocess.Popen | None = None


def start() -> subprocess.Popen | None:
    """Start the backups of this server, from gunicorn's master: unless its environment turns them off."""
    global _process
    # The environment's word wins over instance/config.py: no process is started at all then (the tests'
    # and the benchmarks' servers say it).
    if os.environ.get("COMPANION_BACKUPS_KEPT", "").strip() == "0":
        return None
    # Its stdin is a pipe whose other end only the master and the workers it forks hold.
    _process = subprocess.Popen([sys.executable, "-m", __name__], stdin=subprocess.PIPE)
    return _process


def stop() -> None:
    """Tell the backups to stop, from gunicorn's master as it exits: a backup under way is finished first."""
    if _process is not None:
        _process.stdin.close()


def back_up(app: Flask) -> None:
    """One backup into the backup folder, and the newest BACKUPS_KEPT kept; a failure is logged, never raised."""
    try:
        library = backup_into(app)
    except backup.BackupRefused as refusal:
        app.logger.error("No backup was taken: %s", refusal)
        return
    except Exception:  # whatever it was, the server serves on and the next day's backup is tried
        app.logger.exception("No backup was taken")
        return
    app.logger.info("Backed up into %s.", described(library))
    try:
        gone = backup.rotate(library.path.parent, int(app.config["BACKUPS_KEPT"]))
    except OSError as error:
        app.logger.error("The older backups in %s could not be cleared: %s", library.path.parent, error)
        return
    if gone:
        app.logger.info("Removed the oldest backups, keeping %s: %s.", app.config["BACKUPS_KEPT"],
                        ", ".join(path.name for path in gone))


def run(app: Flask, master: BinaryIO, interval: float = DAY_SECONDS) -> None:
    """Back up now and every ``interval`` seconds after, until ``master`` (the pipe from the master) closes."""
    while True:
        back_up(app)
        if select.select([master], [], [], interval)[0]:
            return  # the master never writes: its end is closed


def _stop(_signal: int, _frame) -> None:
    raise SystemExit(0)


def main() -> None:
    """The backup process: back up now, then once a day, while the master lives."""
    # Ctrl-C at `make run` reaches the whole terminal; this process finishes its backup and stops with the
    # master. A SIGTERM stops it at once (a copy under way is removed).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)
    app = create_app()
    app.logger.setLevel(logging.INFO)
    if int(app.config["BACKUPS_KEPT"]) < 1 or library_file(app) is None:
        return
    run(app, sys.stdin.buffer)


if __name__ == "__main__":
    main()
