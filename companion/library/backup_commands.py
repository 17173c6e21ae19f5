"""The `backup` and `restore` commands of a SQLite library, and what to use instead on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import click
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from flask import Flask, current_app
from flask.cli import with_appcontext
from flask_migrate import upgrade

from ..database import sqlite_file
from . import backup

COMMAND = "flask --app companion.wsgi"


def init_app(app: Flask) -> None:
    """Add `backup` and `restore` to the app's commands."""
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)


def library_file(app: Flask) -> Path | None:
    """The SQLite file of the app's library; None on PostgreSQL (or for a database in memory)."""
    found = sqlite_file(sa.make_url(app.config["SQLALCHEMY_DATABASE_URI"]))
    return Path(found) if found else None


def backup_folder(app: Flask) -> Path:
    """Where the backups go by default: ``BACKUP_FOLDER``, a relative one inside the instance folder."""
    return Path(app.instance_path) / (app.config.get("BACKUP_FOLDER") or "backups")


def described(library: backup.Library) -> str:
    """A library file as the commands say it: where, how large, how many sessions and entries."""
    sessions, entries = library.sessions, library.entries
    return (f"{library.path} ({backup.readable_size(library.size)}): {sessions} session{'s' * (sessions != 1)}, "
            f"{entries} {'entry' if entries == 1 else 'entries'}")


def backup_into(app: Flask, destination: Path | None = None) -> backup.Library:
    """Back up the app's SQLite library into ``destination``, by default the backup folder (made if need be)."""
    database = _sqlite_or_explain(app)
    if destination is None:
        destination = backup_folder(app)
        try:
            destination.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            raise backup.BackupRefused(f"The backup folder {destination} cannot be made ({error.strerror}).") from None
    return backup.take(database, destination)


@click.command("backup")
@click.argument("destination", metavar="[DEST]", required=False, type=click.Path(path_type=Path))
@with_appcontext
def backup_command(destination: Path | None) -> None:
    """Copy the SQLite library while the server runs: into DEST (a new file, or a folder), else the backup folder."""
    try:
        library = backup_into(current_app, destination)
    except backup.BackupRefused as refusal:
        raise click.ClickException(str(refusal)) from None
    click.echo(f"Backed up into {described(library)}.")


@click.command("restore")
@click.argument("file", type=click.Path(path_type=Path))
@with_appcontext
def restore_command(file: Path) -> None:
    """Put a backup FILE back as the library, the current database kept aside first; stop the server before."""
    try:
        database = _sqlite_or_explain(current_app)
        script = ScriptDirectory.from_config(current_app.extensions["migrate"].migrate.get_config())
        known = {revision.revision for revision in script.walk_revisions()}
        restored = backup.restore(file, database, known)
    except backup.BackupRefused as refusal:
        raise click.ClickException(f"{refusal} Nothing was restored.") from None
    if restored.aside:
        click.echo(f"The database as it was is kept in {restored.aside}.")
    click.echo(f"Restored {described(restored.library)}.")
    if restored.library.revision != script.get_current_head():
        # The backup's schema is older than this version's: brought up to it, as `make run` does on start.
        try:
            upgrade()
        except Exception as error:  # whatever stopped it, the person is told what to run
            raise click.ClickException(f"The backup was restored, but bringing its schema up to date failed "
                                       f"({error}): run `{COMMAND} db upgrade`.") from None
        click.echo("Its schema was brought up to this version's.")


def _sqlite_or_explain(app: Flask) -> Path:
    """The library's SQLite file; on PostgreSQL, ``BackupRefused`` saying how PostgreSQL's own tools do it."""
    database = library_file(app)
    if database is not None:
        return database
    url = sa.make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if url.get_backend_name() == "sqlite":
        raise backup.BackupRefused("The library is in memory: there is no file to back up or restore.")
    # pg_dump and pg_restore take a libpq URL: no SQLAlchemy driver in it, and no password on a screen.
    plain = url.set(drivername="postgresql").render_as_string(hide_password=True)
    password = " (the database's password in place of ***)" if url.password else ""
    raise backup.BackupRefused(
        f'The library is on PostgreSQL: back it up with pg_dump --format=custom --file companion.dump "{plain}" '
        f'(the server may be running) and put it back with pg_restore --clean --if-exists --dbname "{plain}" '
        f"companion.dump (the server stopped){password}; `{COMMAND} export-library FILE` writes its portable copy.")
