"""The process that takes `make run`'s backups (``companion.library.daily``), beside gunicorn's master.

gunicorn's master starts it (``companion/server/gunicorn_conf.py``). It is a process, not a thread of the
master: the master forks its workers, and a fork made while a thread holds the database open hands the
worker that thread's descriptors of the file. It runs the app's own settings (``create_app``), and stops
when the master's end of a pipe closes, as it does even for a master that is killed.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys

from .. import create_app
from ..library import daily
from ..library.backup_commands import library_file

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
    daily.run(app, sys.stdin.buffer)


if __name__ == "__main__":
    main()
