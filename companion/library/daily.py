"""`make run`'s backups of a SQLite library: one at start and one a day after, while the server serves.

Taken by a process beside gunicorn's master (``companion.server.backups``), so that a server takes one backup a
day whatever its number of workers, and no request waits for it.
"""

from __future__ import annotations

import select
from typing import BinaryIO

from flask import Flask

from . import backup
from .backup_commands import backup_into, described

DAY_SECONDS = 24 * 3600

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
