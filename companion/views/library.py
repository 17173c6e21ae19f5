"""The group's whole history as one file: downloaded and brought in from the group's page, or by two commands."""

from __future__ import annotations

from pathlib import Path

import click
from flask import (Blueprint, Response, abort, current_app, flash, make_response, redirect, render_template, request,
                   url_for)
from flask.cli import with_appcontext
from werkzeug.exceptions import RequestEntityTooLarge

from .. import groups
from ..extensions import csrf
from ..forms.library import LibraryForm
from ..inputs.names import clean
from ..library import export, imports
from ..models import Group
from ..review.exchange import ImportRefused
from ..rules.words import _
from ..web import limits
from ..web.membership import current_group
from ..web.security import allows_upload
from .group_pages import group_page, in_no_group

bp = Blueprint("library", __name__, cli_group=None)

LIMIT_MB = imports.MAX_BYTES // imports.MEGABYTE
UPLOAD_LIMIT = imports.MAX_BYTES + 64 * 1024  # room for the file and the multipart wrapping around it


@bp.app_template_global()
def library_limit_mb() -> int:
    """The largest history file the group's page takes, in MB (the page and the group's page say it)."""
    return LIMIT_MB


@bp.get("/group/library.json")
def download() -> Response:
    """The group's whole history as one file; what is still secret at a table in play is left out."""
    if (group := current_group()) is None:
        abort(404)
    response = make_response(export.dumps(export.library(group)))
    response.headers["Content-Type"] = "application/json; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{export.file_name(group)}"'
    response.headers["Cache-Control"] = "private, no-store"
    response.vary.add("Cookie")
    return response


def _form_page(group: Group, form: LibraryForm, status: int = 200) -> Response:
    return group_page((render_template("library/bring_in.html", group=group, form=form), status))


@bp.get("/group/library")
def bring_in_form() -> Response:
    """The upload form for a history file, into the phone's group."""
    if (group := current_group()) is None:
        return group_page(in_no_group())
    return _form_page(group, LibraryForm(formdata=None))


@csrf.exempt
@bp.post("/group/library")
@allows_upload(UPLOAD_LIMIT)
def bring_in() -> Response:
    """Bring a history file's sessions into the group: all that are new at once, or none, with the reason.

    Exempt from the global CSRF check only because that check reads the body before this view can
    allow a large upload; the form checks its own token.
    """
    request.max_content_length = UPLOAD_LIMIT
    if (group := current_group()) is None:
        return group_page(in_no_group())
    try:
        form = LibraryForm()
        valid = form.validate_on_submit()
    except RequestEntityTooLarge:
        form = LibraryForm(formdata=None)
        form.file.errors = [imports.too_large(LIMIT_MB)]
        return _form_page(group, form, 413)
    if valid and not limits.within("import", current_app.config["IMPORTS_PER_MINUTE"], 60):
        form.file.errors = [_("Too many imports from your network in the last minute: try again in a minute.")]
        return _form_page(group, form, 429)
    if valid:
        try:
            envelope = imports.load(form.file.data.read(imports.MAX_BYTES + 1))
            placed = [(group, sessions) for _name, sessions in imports.parts(envelope)]
            tally = imports.bring_in(placed, imports.seasons_of(placed, envelope))
        except ImportRefused as error:
            form.file.errors = [f"{error} {_('Nothing was brought in.')}"]
        else:
            current_app.logger.info("library brought into group %s: %d sessions, %d already there", group.id,
                                    len(tally.brought), tally.already)
            flash(imports.said(tally))
            return redirect(url_for("groups.page"), 303)
    return _form_page(group, form, 422)


@bp.cli.command("export-library")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--group", "group_name", default=None,
              help="The group whose sessions to write; default: every group of the server, each in its own part.")
@with_appcontext
def export_library_command(file: Path, group_name: str | None) -> None:
    """Write a group's sessions (or the whole server's) into one library file, whole: secrets of games in play too."""
    if group_name is None:
        envelope = export.server_library()
    elif (group := groups.by_name(clean(group_name))) is None:
        raise click.ClickException(f"There is no group called {group_name!r}. Nothing was written.")
    else:
        envelope = export.library(group, withhold=False)
    try:
        size = export.write(envelope, file)
    except OSError as error:
        raise click.ClickException(f"{file} cannot be written ({error.strerror}). Nothing was written.") from None
    parts = len(envelope.get("groups", [envelope]))
    click.echo(f"Wrote {export.count(envelope)} sessions of {parts} group(s) to {file} "
               f"({size / imports.MEGABYTE:.1f} MB).")


@bp.cli.command("import-library")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--group", "group_name", default=None,
              help="The group to bring every session into (made if there is none of that name); "
                   "default: each group named in the file (made if need be).")
@with_appcontext
def import_library_command(file: Path, group_name: str | None) -> None:
    """Bring a library file's sessions in: the new ones all at once, none if any session is refused."""
    nothing = _("Nothing was brought in.")
    try:
        if file.stat().st_size > imports.FILE_MAX_BYTES:
            raise click.ClickException(f"{imports.too_large(imports.FILE_MAX_BYTES // imports.MEGABYTE)} {nothing}")
        raw = file.read_bytes()
    except OSError as error:
        raise click.ClickException(f"{file} cannot be read ({error.strerror}). {nothing}") from None
    try:
        envelope = imports.load(raw, imports.FILE_MAX_BYTES)
        placed = imports.into_groups(envelope, group_name)
        tally = imports.bring_in(placed, imports.seasons_of(placed, envelope))
    except ImportRefused as error:
        raise click.ClickException(f"{error} {nothing}") from None
    click.echo(imports.said(tally))
    for session, here, there in tally.other_versions:
        click.echo(f"Kept as it is here: {session} ({here} entries here, {there} in the file).")
    into = list({group.id: group for group, _sessions in placed if group.id is not None}.values())
    if not groups.private():
        # Every phone is in every group, but its history shows one: say which, and how to see another.
        home = groups.home_group()
        for group in into:
            click.echo("Into the home group: every phone on this server shows it." if group.id == home.id else
                       f"Into {group.name}, a group of its own: a phone shows it once switched to it on Your "
                       f"groups (/groups).")
        return
    for group in into:
        # A group this command made has no member yet: its invitation is how the first phone gets in.
        click.echo(f"Into {group.name or 'the unnamed group'}. Invitation: /g/{group.invite_token} "
                   f"(join code {group.join_code}).")
