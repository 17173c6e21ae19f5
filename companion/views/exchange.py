"""The session file: exported as JSON from a table's results, and imported back (a page and a command)."""

from __future__ import annotations

from pathlib import Path

import click
from flask import Blueprint, Response, current_app, make_response, redirect, render_template, request, url_for
from flask.cli import with_appcontext
from werkzeug.exceptions import RequestEntityTooLarge

from .. import groups
from ..extensions import csrf
from ..forms.review import ImportForm
from ..library.imports import group_named
from ..models import Group, Table
from ..review import exchange, history, storing
from ..review.export import dumps
from ..rules.words import _
from ..table import log
from ..web import limits
from ..web.membership import current_group
from ..web.phone import remember
from .group_pages import in_no_group
from ..web.security import allows_upload
from .table_page import table_or_404

bp = Blueprint("exchange", __name__, cli_group=None)


def _export(table: Table) -> Response:
    response = make_response(dumps(table, log.entries_of(table)))
    response.headers["Content-Type"] = "application/json; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{history.file_name(table)}.json"'
    return response


@bp.get("/t/<token>/export.json")
def export_json(token: str) -> Response:
    """The session's whole entry log, players, options and times, as a file the import reads back."""
    return _export(table_or_404(token))


@bp.get("/w/<token>/export.json")
def watch_export_json(token: str) -> Response:
    """The session file, from the watch link."""
    return _export(table_or_404(token, watch=True))


@bp.get("/import")
def import_form() -> str | tuple[str, int]:
    """The upload form for a session file, into the phone's group."""
    if current_group() is None:
        return in_no_group()
    return render_template("review/import.html", form=ImportForm(), limit_mb=exchange.MAX_BYTES // (1024 * 1024))


UPLOAD_LIMIT = exchange.MAX_BYTES + 64 * 1024  # room for the file and the multipart wrapping around it


@csrf.exempt
@bp.post("/import")
@allows_upload(UPLOAD_LIMIT)
def import_session() -> Response | tuple[str, int]:
    """Create a session from an uploaded file; refused with the reason, and nothing created, if any entry fails.

    Exempt from the global CSRF check only because that check reads the body
    before this view can allow a 1 MB upload; the form checks its own token.
    """
    request.max_content_length = UPLOAD_LIMIT
    if (group := current_group()) is None:
        return in_no_group()
    limit = exchange.MAX_BYTES // (1024 * 1024)
    try:
        form = ImportForm()
        valid = form.validate_on_submit()
    except RequestEntityTooLarge:
        form = ImportForm(formdata=None)
        form.file.errors = [exchange.too_large(limit)]
        return render_template("review/import.html", form=form, limit_mb=limit), 413
    already = None
    if valid and not limits.within("import", current_app.config["IMPORTS_PER_MINUTE"], 60):
        form.file.errors = [_("Too many imports from your network in the last minute: try again in a minute.")]
        return render_template("review/import.html", form=form, limit_mb=limit), 429
    if valid:
        raw = form.file.data.read(exchange.MAX_BYTES + 1)
        try:
            table = storing.import_session(raw, group)
        except exchange.ImportRefused as error:
            form.file.errors = [str(error)]
            already = error.already
        else:
            current_app.logger.info("imported table %s (%s, %d entries)", table.id, table.game, table.last_seq)
            remember(table.token)
            return redirect(url_for("review.results", token=table.token), 303)
    return render_template("review/import.html", form=form, limit_mb=limit, already=already), 422


def _group_named(name: str | None) -> Group:
    """The group an operator names (a new one, written with the session, if there is none of that name), or the first."""
    if name is None:
        return groups.home_group()
    return group_named(name)


@bp.cli.command("import-session")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--group", "group_name", default=None,
              help="The group the session is played by (made with it if there is none of that name); default: the first group.")
@with_appcontext
def import_session_command(file: Path, group_name: str | None) -> None:
    """Create a session from a JSON file exported by the app (nothing is created if any entry is refused)."""
    if file.stat().st_size > exchange.MAX_BYTES:
        raise click.ClickException(f"{file} is larger than {exchange.MAX_BYTES // (1024 * 1024)} MB: "
                                   "it cannot be a session export. Nothing was imported.")
    try:
        raw = file.read_bytes()
    except OSError as error:
        raise click.ClickException(f"{file} cannot be read ({error.strerror}). Nothing was imported.") from None
    try:
        table = storing.import_session(raw, _group_named(group_name))
    except exchange.ImportRefused as error:
        where = f" It is /w/{error.already.watch_token}/results." if error.already is not None else ""
        raise click.ClickException(f"{error}{where} Nothing was imported.") from None
    click.echo(f"Imported {log.game_title(table)}: {', '.join(table.players)}, {table.last_seq} entries, "
               f"{table.status}.")
    click.echo(f"Table: /t/{table.token}")
    click.echo(f"Results: /t/{table.token}/results")
