"""Restoring a backup: the sessions come back exactly as they were backed up, the library it replaces is kept aside,
an older backup is brought up to this version's schema, and anything that is not a backup is refused in a sentence."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing, contextmanager

import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from flask_migrate import downgrade, upgrade

from companion import create_app, groups
from companion.extensions import db
from companion.library import backup
from companion.library.backup_commands import described
from companion.review import history
from companion.table.recording import cache
from helpers import make_table
from review.test_review_sessions import SESSIONS, record_all


@contextmanager
def restarted(app):
    """The app started again on the same database, as a server is after a restore: nothing kept from before."""
    cache.clear()
    again = create_app({"TESTING": True, "SECRET_KEY": "test", "SERVER_NAME": "companion.test",
                        "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]})
    try:
        yield again
    finally:
        with again.app_context():
            db.engine.dispose()
        cache.clear()


def outcomes(app) -> list:
    with app.app_context():
        return sorted(history.all_outcomes(groups.home_group().id), key=lambda outcome: outcome.table_id)


def migrations(app) -> ScriptDirectory:
    with app.app_context():
        return ScriptDirectory.from_config(app.extensions["migrate"].migrate.get_config())


def test_a_restore_gives_back_exactly_the_backed_up_sessions_and_keeps_the_replaced_library_aside(
        app, library, client, runner, tmp_path):
    record_all(app, *SESSIONS["jaipur"])
    record_all(app, *SESSIONS["frutti"])
    history_then, outcomes_then = client.get("/history.csv").text, outcomes(app)
    taken = runner.invoke(args=["backup", str(tmp_path / "saturday.sqlite")])
    assert taken.exit_code == 0, taken.output
    record_all(app, *SESSIONS["carambouille"])
    assert client.get("/history.csv").text != history_then

    result = runner.invoke(args=["restore", str(tmp_path / "saturday.sqlite")])

    assert result.exit_code == 0, result.output
    [aside] = library.parent.glob(f"{library.name}.before-restore-*")
    restored = backup.check(tmp_path / "saturday.sqlite")
    assert result.output == (f"The database as it was is kept in {aside}.\n"
                             f"Restored {described(restored)}.\n")
    assert described(restored).endswith(f"2 sessions, {restored.entries} entries") and restored.entries > 10
    with restarted(app) as again:
        assert again.test_client().get("/history.csv").text == history_then
        assert outcomes(again) == outcomes_then
    # The library it replaced, whole, with the session played after the backup.
    assert backup.check(aside).sessions == 3
    assert aside.stat().st_mode & 0o777 == 0o600


def test_an_older_backup_is_restored_then_brought_up_to_this_versions_schema_its_sessions_whole(
        app, library, client, runner, tmp_path):
    script = migrations(app)
    older = script.get_revision(script.get_current_head()).down_revision
    record_all(app, *SESSIONS["jaipur"])
    record_all(app, *SESSIONS["frutti"])
    history_then = client.get("/history.csv").text
    # The library as the version before this one kept it (its schema one migration back), backed up then.
    with app.app_context():
        db.session.remove()
        downgrade(revision=older)
    then = backup.take(library, tmp_path / "last-year.sqlite")
    assert then.revision == older
    with app.app_context():
        upgrade()
    record_all(app, *SESSIONS["carambouille"])

    result = runner.invoke(args=["restore", str(then.path)])

    assert result.exit_code == 0, result.output
    assert f"Restored {described(then)}.\n" in result.output  # then the migrations, as `flask db upgrade` says them
    assert result.output.endswith("Its schema was brought up to this version's.\n")
    with app.app_context(), db.engine.connect() as connection:
        assert connection.scalar(sa.text("SELECT version_num FROM alembic_version")) == script.get_current_head()
    now = backup.check(library)
    assert (now.sessions, now.entries) == (then.sessions, then.entries) == (2, then.entries)
    with restarted(app) as again:
        assert again.test_client().get("/history.csv").text == history_then


def test_a_restore_into_a_library_that_is_not_there_yet_makes_it(app, library, tmp_path):
    database = tmp_path / "new" / "companion.sqlite"
    database.parent.mkdir()
    fresh = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"})
    make_table(app, "tiny", ["Ana", "Ben"])
    taken = backup.take(library, tmp_path / "copy.sqlite")
    result = fresh.test_cli_runner().invoke(args=["restore", str(taken.path)])
    assert result.exit_code == 0, result.output
    assert result.output == f"Restored {described(taken)}.\n"
    assert database.stat().st_mode & 0o777 == 0o600
    assert backup.check(database).sessions == 1


# --- Refused: anything that is not a backup of this app's library, the current library left as it was ---

def text_file(good, folder):
    (folder / "scores.txt").write_text("Ana 12, Ben 9\n")
    return folder / "scores.txt", "is not a SQLite database"


def empty_file(good, folder):
    (folder / "empty.sqlite").touch()
    return folder / "empty.sqlite", "is empty"


def cut_at_a_page(good, folder):
    data = good.read_bytes()
    (folder / "cut.sqlite").write_bytes(data[:len(data) // 2 // 4096 * 4096])
    return folder / "cut.sqlite", "is cut short"


def cut_mid_page(good, folder):
    (folder / "cut.sqlite").write_bytes(good.read_bytes()[:-1000])
    return folder / "cut.sqlite", "is cut short"


def damaged(good, folder):
    data = bytearray(good.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # the second page, a table's, overwritten
    (folder / "damaged.sqlite").write_bytes(data)
    return folder / "damaged.sqlite", "is damaged"


def unrelated(good, folder):
    with closing(sqlite3.connect(folder / "notes.sqlite")) as notes:
        notes.execute("CREATE TABLE notes (text TEXT)")
        notes.execute("INSERT INTO notes VALUES ('buy cards')")
        notes.commit()
    return folder / "notes.sqlite", ('is a SQLite database, but not a companion library (it has no "tables", '
                                     '"entries" or "alembic_version" table)')


def newer(good, folder):
    shutil.copy(good, folder / "newer.sqlite")
    with closing(sqlite3.connect(folder / "newer.sqlite")) as copy:
        copy.execute("UPDATE alembic_version SET version_num = 'ffffffffffff'")
        copy.commit()
    return folder / "newer.sqlite", ("comes from a newer version of the app (its schema is at migration ffffffffffff, "
                                     "which this one does not know): update the app, then restore it")


def folder_itself(good, folder):
    return folder, "is a folder, not a backup file"


def missing(good, folder):
    return folder / "saturday.sqlite", "does not exist"


@pytest.mark.parametrize("case", [text_file, empty_file, cut_at_a_page, cut_mid_page, damaged, unrelated, newer,
                                  folder_itself, missing])
def test_anything_but_a_backup_of_this_apps_library_is_refused_and_the_library_stays_as_it_was(
        app, library, runner, tmp_path, case):
    record_all(app, *SESSIONS["jaipur"])
    good = backup.take(library, tmp_path / "good.sqlite").path
    folder = tmp_path / "given"
    folder.mkdir()
    given, reason = case(good, folder)
    then = backup.check(library)

    result = runner.invoke(args=["restore", str(given)])

    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {given} {reason}") and result.output.endswith(" Nothing was restored.\n")
    assert "Traceback" not in result.output and result.output.count("\n") == 1
    assert list(library.parent.glob(f"{library.name}.before-restore-*")) == []
    now = backup.check(library)
    assert (now.sessions, now.entries, now.revision) == (then.sessions, then.entries, then.revision)


def test_the_current_library_itself_is_not_a_backup(library, runner):
    result = runner.invoke(args=["restore", str(library)])
    assert result.exit_code == 1
    assert result.output == f"Error: {library} is the current database itself, not a backup of it. Nothing was restored.\n"
