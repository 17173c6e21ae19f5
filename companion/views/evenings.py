"""A group's evenings: each evening's page, its tally on a finished session's results, and tonight on the home page."""

from __future__ import annotations

from flask import Blueprint, abort, render_template
from werkzeug.wrappers import Response

from ..review import tonight
from ..review.evenings import Tally
from ..rules.review import names
from ..web.membership import current_group, in_group
from .group_pages import group_page, in_no_group
from .table_page import table_or_404

bp = Blueprint("evenings", __name__)


@bp.app_template_global()
def evening_names(rows: list[Tally]) -> str:
    """Players of a tally by name: "Ana", "Ana and Ben", "Ana, Ben and Cy"."""
    return names([row.name for row in rows], range(len(rows)))


def of_results(table) -> tonight.Evening | None:
    """The evening a session's results page ends with: only once its result is final, and only for a phone in its
    group (a link's holder learns nothing of the group's other sessions)."""
    if not table.finished or not in_group(table.group_id):
        return None
    return tonight.of_session(table)


@bp.get("/evenings/<token>")
def page(token: str) -> Response:
    """One evening of the group: its sessions in the order they began, each result, and its tally.

    Found by the watch token of any of its sessions; the same 404 as a link that leads nowhere for a phone
    outside the session's group.
    """
    if current_group() is None:
        return group_page(in_no_group())
    table = table_or_404(token, watch=True)
    if not in_group(table.group_id) or (evening := tonight.of_session(table)) is None:
        abort(404)
    return group_page(render_template("review/evening.html", evening=evening))
