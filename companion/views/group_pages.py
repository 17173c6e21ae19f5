"""What every page of a group's own shares: the phone's alone, and nothing of it for a phone in no group."""

from __future__ import annotations

from flask import make_response, render_template
from werkzeug.wrappers import Response


def in_no_group() -> tuple[str, int]:
    """What a phone in no group sees where a group's page would be: how to start or join one, nothing else."""
    return render_template("groups/none.html"), 200


def group_page(answer) -> Response:
    """A page of the group's own: for this phone alone, never kept by a cache on the way."""
    response = make_response(answer)
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Cookie")
    return response
