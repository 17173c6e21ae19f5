"""The live poll of a table that has not changed, answered before Flask builds a request for it.

Every phone at every table asks once a second whether its table changed (``static/app.js``), and
nearly always it has not: at a night of 100 tables that is 600 requests a second, each answered 204.
The answer needs only the table's head (``companion.live.heads``): Flask's request, its session
cookie checked and its hooks cost several times the read itself (docs/performance.md). So a GET of
``/t/<token>/live?seen=N`` (or the watch view's ``/w/…``) whose table is at entry N, with no bell due
to close, is answered here with the same 204 and headers the view gives. Anything else — another
version, a bell due to fire, a token unknown, no live read (an in-memory database) — goes on to
Flask unchanged, where ``views.tables._live`` answers it as before.
"""

from __future__ import annotations

import re

from flask import Flask

from ..models import TOKEN_SHAPE
from ..table import bell
from ..web.security import HEADERS, HSTS
from . import heads

_PATH = re.compile(rf"/([tw])/({TOKEN_SHAPE.pattern})/live")
_SEEN = re.compile(r"(?:^|&)seen=([0-9]{1,12})(?:&|$)")
# The view's 204 (``views.tables._nothing_new``) with the security headers every answer carries.
_STATIC_HEADERS = [("Cache-Control", "no-store"), *HEADERS.items()]


class UnchangedPolls:
    """WSGI middleware: the unchanged poll's 204 from the table's head, everything else to the app."""

    def __init__(self, app: Flask, wsgi_app) -> None:
        self.app = app
        self.wsgi_app = wsgi_app

    def unchanged(self, environ) -> bool:
        """Whether this request is a live poll of a table still at the version it names."""
        if environ.get("REQUEST_METHOD") != "GET":
            return False
        path = _PATH.fullmatch(environ.get("PATH_INFO", ""))
        if path is None:
            return False
        seen = _SEEN.search(environ.get("QUERY_STRING", ""))
        reader = heads.of(self.app)
        if seen is None or reader is None:
            return False
        head = reader.head(path[2], path[1] == "w")
        # A close due now is fired by the view (the first request to see it records it).
        return head is not None and head.last_seq == int(seen[1]) and not bell.is_due(head.bell_due_at)

    def __call__(self, environ, start_response):
        if not self.unchanged(environ):
            return self.wsgi_app(environ, start_response)
        headers = [*_STATIC_HEADERS, bell.server_time_header()]
        if environ.get("wsgi.url_scheme") == "https":
            headers.append(HSTS)
        start_response("204 No Content", headers)
        return []


def init_app(app: Flask) -> None:
    """Answer unchanged polls ahead of the app. Installed inside the trusted proxy fix (``web.security``),
    so that the scheme it sees is the one the phone used."""
    app.wsgi_app = UnchangedPolls(app, app.wsgi_app)
