"""`make run`'s backups: one at once and one each day after, the newest BACKUPS_KEPT kept, by a process that stops
with gunicorn's master; none where the settings turn them off or the library is not a SQLite file.

(`tests/server/test_make_run.py` shows `make run` itself taking the first.)
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.library import backup, daily
from companion.server import backups
from companion.library.backup_commands import described

ROOT = Path(__file__).resolve().parents[2]


def backups_in(folder: Path) -> list[Path]:
    return sorted((path for path in folder.iterdir() if backup.NAMED.fullmatch(path.name)),
                  key=lambda path: backup._made_when(path))


def test_the_backups_come_at_once_then_each_interval_keeping_the_newest_until_the_master_closes_its_pipe(
        app, library, tmp_path, monkeypatch):
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "notes.txt").write_text("ours")
    app.config.update(BACKUP_FOLDER=str(folder), BACKUPS_KEPT=2)
    taken: list[Path] = []
    take = backup.take
    monkeypatch.setattr(backup, "take", lambda *given: taken.append(take(*given).path) or backup.check(taken[-1]))
    reading, writing = os.pipe()
    with os.fdopen(reading, "rb") as from_master:
        backups = threading.Thread(target=daily.run, args=(app, from_master, 0.2))
        backups.start()
        deadline = time.monotonic() + 30
        while len(taken) < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.close(writing)
        backups.join(10)
        assert not backups.is_alive(), "the backups went on after the master's end closed"
    assert len(taken) >= 4
    assert backups_in(folder) == taken[-2:]
    assert (folder / "notes.txt").read_text() == "ours"


def run_backups(library: Path, folder: Path, **settings: str) -> subprocess.Popen:
    """The backup process as gunicorn's master starts it, on ``library``."""
    environment = {name: value for name, value in os.environ.items() if not name.startswith("COMPANION_")}
    environment |= {"DATABASE_URL": f"sqlite:///{library}", "SECRET_KEY": "daily", "COMPANION_BACKUP_FOLDER": str(folder)}
    return subprocess.Popen([sys.executable, "-m", "companion.server.backups"], cwd=ROOT, stdin=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=environment | settings)


def test_the_backup_process_backs_up_at_once_and_stops_when_the_master_is_gone(library, tmp_path):
    folder = tmp_path / "backups"
    process = run_backups(library, folder)
    try:
        deadline = time.monotonic() + 60
        while not (folder.is_dir() and backups_in(folder)) and time.monotonic() < deadline:
            time.sleep(0.1)
        [first] = backups_in(folder)
    finally:
        # Its stdin closed, as the master's end closes when it exits, or is killed.
        _, said = process.communicate(timeout=30)
    assert process.returncode == 0, said
    assert f"Backed up into {described(backup.check(first))}." in said


@pytest.mark.parametrize("settings", [{"COMPANION_BACKUPS_KEPT": "0"},
                                      {"DATABASE_URL": "postgresql+psycopg://nobody@127.0.0.1:9/none"}])
def test_no_backups_where_the_settings_turn_them_off_or_the_library_is_on_postgresql(library, tmp_path, settings):
    process = run_backups(library, tmp_path / "backups", **settings)
    try:
        process.wait(60)  # at once, the master's end still open
    finally:
        _, said = process.communicate(timeout=30)
    assert process.returncode == 0, said
    assert not (tmp_path / "backups").exists()


def test_a_server_whose_environment_turns_backups_off_starts_no_backup_process(monkeypatch):
    monkeypatch.setenv("COMPANION_BACKUPS_KEPT", "0")
    assert backups.start() is None
