"""A group's evenings: each evening's page, its tally on a finished session's results, and tonight on the home page."""

from __future__ import annotations

import re

from flask import Blueprint, abort, render_template
from markupsafe import Markup
from werkzeug.wrappers import Response

from ..review import story, tonight
from ..review.session import review_of
from ..table.state import state_of
from ..review.evenings import Tally
from ..rules.review import names
from ..web.membership import current_group, in_group
from .group_pages import group_page, in_no_group
from .replay import STILL, board_context
from .table_page import table_or_404

bp = Blueprint("evenings", __name__)


# Where a page names an element by its id: each game's board names its own headings and fields.
_NAMED = re.compile(r'\b(id|for|aria-labelledby|aria-describedby|aria-controls|href)="(#?)([^"]*)"')


@bp.app_template_filter("scoped")
def scoped(html: str, prefix: str) -> Markup:
    """A board's html with every id it gives and names made its own (``prefix``-id): several games' boards on one
    page, each with the ids its template gives, never share one."""
    def own(match: re.Match) -> str:
        name, hash_, value = match.groups()
        if name == "href":
            return match.group(0) if not hash_ else f'href="#{prefix}-{value}"'
        return f'{name}="{" ".join(f"{prefix}-{part}" for part in value.split())}"'
    return Markup(_NAMED.sub(own, str(html)))


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
    return group_page(render_template("review/evening.html", evening=_evening(token)))


def _evening(token: str) -> tonight.Evening:
    """The evening of the session behind the watch token ``token``: 404 for a phone outside its group."""
    table = table_or_404(token, watch=True)
    if not in_group(table.group_id) or (evening := tonight.of_session(table)) is None:
        abort(404)
    return evening


@bp.get("/evenings/<token>/replay")
def replay(token: str) -> Response:
    """The evening told again: its games one after the other, each finished one at its end with its story (the
    board as the watch view shows it: nothing of a seat's own), each linked to its own replay."""
    if current_group() is None:
        return group_page(in_no_group())
    evening = _evening(token)
    games = [_at_its_end(table) for table, _outcome in evening.sessions]
    return group_page(render_template("review/evening_replay.html", evening=evening, games=games, **STILL))


def _at_its_end(table) -> dict:
    """What the evening's replay shows of one session: at its end and told, if it is finished."""
    if not table.finished:
        return {"table": table, "finished": False}
    shown = board_context(table, state_of(table))
    game, state = shown["game"], shown["state"]
    return {**shown, "finished": True, "story": story.told(table, game, review_of(table.game, game, state), state)}
