"""A review page as every phone of a group reads it alike, rendered once while the group's sessions stand and
filled in per answer.

The standings, a game's page, the players and a player's or two players' pages read a group's whole history:
thousands of sessions rated and counted. Between two results they read the same for every phone of the group
in one language, but for the CSRF token, which ``companion.web.markers`` fills in for each answer. A page is
kept per group, address, language and formats, keeper or not, while the group's sessions, seasons and name
stand (``standings.group_version``), and a minute at most (a session turns abandoned with the clock alone).
A phone with a notice to show (``flash``) is answered a page of its own.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from flask import Response, current_app, request, session

from ..i18n import language
from ..i18n.formats import locale_key
from ..models import Group, now
from ..web import markers
from ..web.membership import is_keeper
from ..review.standings import ABANDONED_LATE, group_version

# How many pages a process keeps (a few tens of KB each): a group's pages in its languages, for many groups.
PAGES_KEPT = 256

_KEEPING = threading.Lock()


def kept_page(group: Group, render: Callable[[], str | Response]) -> str | Response:
    """The page ``render`` makes for this phone: as kept for every phone reading it alike, else rendered now (with
    a marker for each value of one answer) and kept. What ``render`` answers as a whole response (a refusal, with
    its status) is this phone's alone: filled in and not kept."""
    if session.get("_flashes"):
        return render()
    key = (group.id, request.full_path, language(), locale_key(), is_keeper(group))
    version = (group_version(group.id), group.name, int(now().timestamp()) // ABANDONED_LATE)
    kept: OrderedDict = current_app.extensions.setdefault("review_pages", OrderedDict())
    with _KEEPING:
        if (found := kept.get(key)) is not None and found[0] == version:
            kept.move_to_end(key)
            return markers.fill(found[1])
    with markers.marking():
        made = render()
    if not isinstance(made, str):
        made.set_data(markers.fill(made.get_data(as_text=True)))
        return made
    with _KEEPING:
        kept[key] = (version, made)
        while len(kept) > PAGES_KEPT:
            kept.popitem(last=False)
    return markers.fill(made)
