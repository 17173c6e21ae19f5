"""What every page of a group's own shares: the phone's alone, nothing of it for a phone in no group, and a keeper's
actions refused to any other phone."""

from __future__ import annotations

from flask import abort, make_response, render_template
from werkzeug.wrappers import Response

from ..models import Group
from ..rules.words import _
from ..web import membership


def group_name(group: Group) -> str:
    """A group's name as a page shows it: the one it was given, else the home group's in the reader's language."""
    return group.name or _("Our group")


def in_no_group() -> tuple[str, int]:
    """What a phone in no group sees where a group's page would be: how to start or join one, nothing else."""
    return render_template("groups/none.html"), 200


def group_page(answer) -> Response:
    """A page of the group's own: for this phone alone, never kept by a cache on the way."""
    response = make_response(answer)
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Cookie")
    return response


def current() -> Group:
    """The group this phone looks at; 404 for a phone in no group."""
    if (group := membership.current_group()) is None:
        abort(404)
    return group


def keepers_only(group: Group) -> None:
    """Refuse, changing nothing, what only a keeper of ``group`` may do, to any other phone (403, in its language)."""
    if not membership.is_keeper(group):
        abort(group_page((render_template(
            "errors/error.html", status=403, title=_("Only a keeper can do that"),
            text=_("Nothing was changed. The group's keepers are marked on its page: ask one of them.")), 403)))
