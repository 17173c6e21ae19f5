"""Backups of a SQLite library: taken while phones record, one private file that opens on its own, refused with
the reason (and nothing left behind), and the oldest ones cleared without touching anything else."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing
from datetime import datetime

import pytest

from companion import create_app
from companion.library import backup
from companion.library.backup_commands import backup_folder
from helpers import form_key, make_table, unwritable


def keys_in(path) -> set[str]:
    with closing(sqlite3.connect(path)) as copy:
        return {row[0] for row in copy.execute("SELECT key FROM entries")}


def score(client, token: str, player: int = 0) -> str:
    """One point for ``player``, as a phone posts it; the entry's key, once the app has answered it."""
    key = form_key()
    answer = client.post(f"/t/{token}/tiny/score", data={"player": player, "points": 1, "key": key})
    assert answer.status_code == 303, answer.status_code
    return key


def test_a_backup_taken_while_two_phones_record_holds_every_entry_answered_before_it(app, library, tmp_path):
    tokens = [make_table(app, "tiny", ["Ana", "Ben"]) for _ in range(2)]
    answered: list[str] = []
    failures: list[BaseException] = []
    stop = threading.Event()

    def phone(token: str) -> None:
        client, player = app.test_client(), 0
        try:
            while not stop.is_set():
                answered.append(score(client, token, player))
                player = 1 - player
        except BaseException as error:  # told by the test, not lost in the thread
            failures.append(error)

    phones = [threading.Thread(target=phone, args=(token,)) for token in tokens]
    for each in phones:
        each.start()
    try:
        deadline = time.monotonic() + 30
        while len(answered) < 30 and time.monotonic() < deadline and not failures:
            time.sleep(0.01)
        before = set(answered)
        taken = backup.take(library, tmp_path / "during.sqlite")
    finally:
        stop.set()
        for each in phones:
            each.join(30)
    assert not failures, failures
    assert len(before) >= 30, "the phones recorded too little to prove anything"
    assert before <= keys_in(taken.path)
    # The library at one moment: each table's counter agrees with its entries, numbered without a hole.
    with closing(sqlite3.connect(taken.path)) as copy:
        for table_id, last_seq in copy.execute("SELECT id, last_seq FROM tables").fetchall():
            numbers = sorted(row[0] for row in copy.execute("SELECT seq FROM entries WHERE table_id = ?", (table_id,)))
            assert numbers == list(range(1, last_seq + 1))
    assert (taken.sessions, taken.entries) == (2, len(keys_in(taken.path)))


def test_a_backup_is_one_private_file_named_for_its_moment_that_opens_on_its_own(app, library, client, runner,
                                                                                   tmp_path):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    for player in (0, 1, 0):
        score(client, token, player)
    folder = tmp_path / "backups"
    folder.mkdir()
    result = runner.invoke(args=["backup", str(folder)])
    assert result.exit_code == 0, result.output
    [made] = folder.iterdir()
    assert backup.NAMED.fullmatch(made.name)
    assert result.output == f"Backed up into {made} ({backup.readable_size(made.stat().st_size)}): 1 session, 3 entries.\n"
    assert made.stat().st_mode & 0o777 == 0o600
    # Not in WAL mode: no -wal file is needed beside it, wherever it is moved.
    assert made.read_bytes()[18:20] == b"\x01\x01"
    assert (backup.check(made).sessions, backup.check(made).entries) == (1, 3)


def test_without_a_destination_the_backup_goes_into_the_backup_folder_made_private(app, library, runner, tmp_path):
    app.config["BACKUP_FOLDER"] = str(tmp_path / "kept" / "backups")
    result = runner.invoke(args=["backup"])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "kept" / "backups"
    assert folder.stat().st_mode & 0o777 == 0o700
    assert [path.name for path in folder.iterdir() if backup.NAMED.fullmatch(path.name)] != []


def test_the_backup_folder_is_instance_backups_unless_set_and_a_relative_one_is_in_the_instance_folder(app):
    assert backup_folder(app) == backup_folder(app).parent / "backups"
    assert str(backup_folder(app).parent) == app.instance_path
    app.config["BACKUP_FOLDER"] = "saved"
    assert str(backup_folder(app)) == os.path.join(app.instance_path, "saved")


def test_backups_taken_in_the_same_second_never_overwrite_each_other(library, tmp_path, monkeypatch):
    class Moment(datetime):
        @classmethod
        def now(cls, tz=None):
            return cls(2026, 5, 1, 20, 30, 0)

    monkeypatch.setattr(backup, "datetime", Moment)
    taken = [backup.take(library, tmp_path).path.name for _ in range(3)]
    assert taken == ["companion-2026-05-01-203000.sqlite", "companion-2026-05-01-203000-2.sqlite",
                     "companion-2026-05-01-203000-3.sqlite"]
    assert [path.name for path in backup.rotate(tmp_path, 1)] == taken[:2]
    # The first names, deleted, are not given again: a name's order stays its age.
    assert backup.take(library, tmp_path).path.name == "companion-2026-05-01-203000-4.sqlite"
    assert [path.name for path in backup.rotate(tmp_path, 1)] == taken[2:]


def existing_file(folder):
    (folder / "notes.sqlite").write_text("our notes")
    return folder / "notes.sqlite", "already exists: a backup never replaces a file."


def missing_folder(folder):
    return folder / "nowhere" / "copy.sqlite", f"There is no folder {folder / 'nowhere'} to write copy.sqlite in."


def unwritable_folder(folder):
    locked = folder / "locked"
    locked.mkdir()
    unwritable(locked, True)
    return locked, f"could not be backed up into {locked}/companion-"


@pytest.mark.parametrize("destination", [existing_file, missing_folder, unwritable_folder])
def test_a_backup_that_cannot_be_written_is_refused_in_a_sentence_and_leaves_nothing(library, runner, tmp_path,
                                                                                     destination):
    folder = tmp_path / "out"
    folder.mkdir()
    target, reason = destination(folder)
    before = {path: path.read_bytes() for path in folder.rglob("*") if path.is_file()}
    try:
        result = runner.invoke(args=["backup", str(target)])
    finally:
        if destination is unwritable_folder:
            unwritable(target, False)
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and reason in result.output and "Traceback" not in result.output
    assert {path: path.read_bytes() for path in folder.rglob("*") if path.is_file()} == before


def test_a_database_that_is_not_yet_a_library_gives_no_backup(app, runner, tmp_path):
    if os.environ.get("TEST_DATABASE_URL"):
        pytest.skip("backups of SQLite files; PostgreSQL has pg_dump")
    # The tests' database made from the models, never migrated: no alembic_version.
    folder = tmp_path / "backups"
    folder.mkdir()
    result = runner.invoke(args=["backup", str(folder)])
    assert result.exit_code == 1
    assert result.output == (f"Error: {tmp_path / 'test.sqlite'} is a SQLite database, but not a companion library "
                             '(it has no "alembic_version" table): no backup was kept.\n')
    assert list(folder.iterdir()) == []


def test_a_missing_database_is_not_created_by_a_backup(tmp_path):
    database = tmp_path / "companion.sqlite"
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"})
    result = app.test_cli_runner().invoke(args=["backup", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output == f"Error: There is no database at {database}: nothing was backed up.\n"
    assert list(tmp_path.iterdir()) == []


def test_rotation_keeps_the_newest_backups_the_app_named_and_touches_nothing_else(tmp_path):
    made = [f"companion-2026-0{month}-01-090000.sqlite" for month in range(1, 8)] + [
        "companion-2026-07-01-090000-2.sqlite", "companion-2026-07-01-090000-10.sqlite"]
    others = ["notes.txt", "companion.sqlite", "companion-latest.sqlite", "my-companion-2026-01-01-090000.sqlite",
              "companion-2026-01-01-090000.sqlite.bak", "companion.sqlite.before-restore-2026-01-01-090000"]
    for name in made + others:
        (tmp_path / name).write_text(name)
    # A copy left by a backup killed halfway is cleared; one being written by a live process is not.
    gone_process = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                                  text=True, check=True).stdout.strip()
    left = f".companion-2026-07-02-090000.sqlite.partial-{gone_process}"
    writing = f".companion-2026-07-02-090000.sqlite.partial-{os.getpid()}"
    (tmp_path / left).write_text("half")
    (tmp_path / writing).write_text("half")

    gone = backup.rotate(tmp_path, 3)

    assert [path.name for path in gone] == made[:6]
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(made[6:] + others + [writing])
    assert backup.rotate(tmp_path, 0) == [] and len(list(tmp_path.iterdir())) == 10
