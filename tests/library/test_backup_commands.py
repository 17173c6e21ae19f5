"""`backup` and `restore` where there is no SQLite file: on PostgreSQL they say how pg_dump and pg_restore do it.

Nothing here connects to a database: the commands answer from the settings alone, so these run once, whatever
database the test run has.
"""

from __future__ import annotations

import pytest

from companion import create_app

URL = "postgresql+psycopg://companion:s3cret@db.internal:5432/companion"
PLAIN = "postgresql://companion:***@db.internal:5432/companion"


@pytest.fixture
def on_postgresql():
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": URL, "HEAD_BOARD": False})
    return app.test_cli_runner()


@pytest.mark.parametrize("command", [["backup"], ["backup", "saturday.dump"], ["restore", "companion.dump"]])
def test_on_postgresql_backup_and_restore_say_how_pg_dump_and_pg_restore_do_it(on_postgresql, command):
    result = on_postgresql.invoke(args=command)
    assert result.exit_code == 1
    assert result.output.startswith("Error: The library is on PostgreSQL: back it up with ")
    assert f'pg_dump --format=custom --file companion.dump "{PLAIN}"' in result.output
    assert f'pg_restore --clean --if-exists --dbname "{PLAIN}" companion.dump' in result.output
    assert "in place of ***" in result.output
    assert "`flask --app companion.wsgi export-library FILE` writes its portable copy." in result.output
    # Neither the password nor SQLAlchemy's driver name, which pg_dump would refuse.
    assert "s3cret" not in result.output and "+psycopg" not in result.output
    assert "Traceback" not in result.output and result.output.count("\n") == 1


def test_a_library_in_memory_has_no_file_to_back_up():
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    result = app.test_cli_runner().invoke(args=["backup"])
    assert result.exit_code == 1
    assert result.output == "Error: The library is in memory: there is no file to back up or restore.\n"
