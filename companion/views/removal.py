"""Taking a session out of the history: asked on a page of its own, from a phone of that table."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from ..table import log
from ..forms.review import RemoveForm
from ..review.removal import remove
from ..rules.words import _
from ..web.phone import forget
from .table_page import table_or_404

bp = Blueprint("removal", __name__)


@bp.get("/t/<token>/remove")
def confirm(token: str) -> str:
    """Say what removing the session takes away, and ask once."""
    table = table_or_404(token)
    return render_template("review/remove.html", table=table, game=log.game_of(table), form=RemoveForm())


@bp.post("/t/<token>/remove")
def remove_session(token: str) -> Response | tuple[str, int]:
    """Remove the session from the history for good; its links stop working."""
    table = table_or_404(token)
    form = RemoveForm()
    if not form.validate_on_submit():
        form.form_errors.append(_("That did not go through: reload the page and try again."))
        return render_template("review/remove.html", table=table, game=log.game_of(table), form=form), 422
    name, players = log.game_title(table), ", ".join(table.players)
    current_app.logger.info("removed table %s (%s, %d entries) from the history", table.id, table.game, table.last_seq)
    remove(table)
    forget(token)
    # Translators: %(game)s is the game's name, %(players)s its players: "Ana, Ben, Cy".
    flash(_("The %(game)s session of %(players)s was removed from the history.", game=name, players=players))
    return redirect(url_for("review.history_page"), 303)
