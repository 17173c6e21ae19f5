"""Taking a session out of the history, to its group's bin: asked on a page of its own, by a keeper of its group or
a member seated at it; and a session of the bin restored."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from .. import groups
from ..extensions import db
from ..forms.groups import KeeperForm
from ..forms.review import RemoveForm
from ..groups import bin, log as group_log, members
from ..models import Group, Table
from ..rules.words import _
from ..table import log
from ..web import membership
from ..web.phone import forget, phone
from .group_pages import current, group_page, keepers_only
from .review import local_time
from .table_page import table_or_404

bp = Blueprint("removal", __name__)


def _allowed_or_403(table: Table) -> None:
    if not membership.may_remove(table):
        abort(group_page((render_template(
            "errors/error.html", status=403, title=_("Only its players or a keeper can remove it"),
            text=_("Nothing was removed. A session is removed by a keeper of its group, or by a member of the "
                   "group who plays at it.")), 403)))


@bp.get("/t/<token>/remove")
def confirm(token: str) -> Response:
    """Say what removing the session does (to the bin, for its days there), and ask once."""
    table = table_or_404(token)
    _allowed_or_403(table)
    return group_page(render_template("review/remove.html", table=table, game=log.game_of(table), form=RemoveForm(),
                                      days=bin.days()))


@bp.post("/t/<token>/remove")
def remove_session(token: str) -> Response | tuple[str, int]:
    """Put the session in its group's bin; its links stop working until it is restored."""
    table = table_or_404(token)
    _allowed_or_403(table)
    form = RemoveForm()
    if not form.validate_on_submit():
        form.form_errors.append(_("That did not go through: reload the page and try again."))
        return group_page((render_template("review/remove.html", table=table, game=log.game_of(table), form=form,
                                           days=bin.days()), 422))
    name, players = log.game_title(table), ", ".join(table.players)
    group = db.session.get(Group, table.group_id)
    current_app.logger.info("table %s (%s, %d entries) put in the bin", table.id, table.game, table.last_seq)
    if bin.remove_session(table):
        group_log.note(group.id, "session_removed", membership.me(group), game=name, players=players)
        db.session.commit()
    forget(token)
    # Translators: %(game)s is the game's name, %(players)s its players: "Ana, Ben, Cy"; %(date)s a day.
    flash(_("The %(game)s session of %(players)s is in the bin: it can be restored until %(date)s.", game=name,
            players=players, date=local_time(bin.until(db.session.get(Table, table.id).removed_at), "date")))
    return redirect(url_for("review.history_page"), 303)


@bp.post("/bin/<int:table_id>/restore")
def restore_session(table_id: int) -> Response:
    """Take a session of the group's bin back into its history, as it was (a keeper; any phone of a home server)."""
    group = current()
    keepers_only(group)
    table = bin.session_by_id(group.id, table_id)
    if table is None or not KeeperForm().validate_on_submit():
        abort(404)
    name, players = log.game_title(table), ", ".join(table.players)
    if bin.in_the_history_again(table):
        flash(_("The %(game)s session of %(players)s is in the history already: its file was brought in again "
                "since. The one in the bin stays there.", game=name, players=players))
        return redirect(url_for("groups.page"), 303)
    if bin.restore_session(table):
        group_log.note(group.id, "session_restored", membership.me(group), game=name, players=players)
        db.session.commit()
    flash(_("The %(game)s session of %(players)s is back in the history, as it was.", game=name, players=players))
    return redirect(url_for("review.history_page"), 303)


@bp.post("/groups/<int:group_id>/restore")
def restore_group(group_id: int) -> Response:
    """Take a group this phone keeps out of the bin with its sessions, as it was."""
    device = phone().device
    group = next((kept for kept in bin.groups_kept_by(device) if kept.id == group_id), None)
    if group is None or not groups.private() or not KeeperForm().validate_on_submit():
        abort(404)
    if bin.restore_group(group):
        group_log.note(group.id, "group_restored", members.row(group.id, device))
        db.session.commit()
    membership.forget_rows()
    membership.look_at(group)
    flash(_("%(name)s is back, with every session it held.", name=group.name))
    return redirect(url_for("groups.page"), 303)
