"""The live poll of a table that has not changed, answered before Flask builds a request for it.

Every phone at every table asks once a second whether its table changed (``static/app.js``), and
nearly always it has not: at a night of 100 tables that is 600 requests a second, each answered 204.
The answer needs only the table's head (``companion.live.heads``): Flask's request, its session
cookie checked and its hooks cost several times the read itself (docs/performance.md). So a GET of
``/t/<token>/live?seen=N`` (or the watch view's ``/w/…``) whose table is at entry N, with no bell due
to close, is answered here with the same 204 and headers the view gives. Anything else — another
version, a bell due to fire, a token unknown, no live read (an in-memory database) — goes on to
Flask unchanged, where ``views.tables._live`` answers it as before. So does, on a server for many
groups, the poll of a phone taken out of the table's group in the last day (``TakenOut``): the app
refuses it, and its page says the table is gone and stops asking.
"""

from __future__ import annotations

import re
import threading
import time
import weakref
from datetime import timedelta

import sqlalchemy as sa
from flask import Flask
from werkzeug.http import parse_cookie

from ..extensions import db
from ..models import TOKEN_SHAPE, Member, now
from ..table import bell, signals
from ..web.security import HEADERS, HSTS
from . import heads

_PATH = re.compile(rf"/([tw])/({TOKEN_SHAPE.pattern})/live")
_SEEN = re.compile(r"(?:^|&)seen=([0-9]{1,12})(?:&|$)")
# The view's 204 (``views.tables._nothing_new``) with the security headers every answer carries.
_STATIC_HEADERS = [("Cache-Control", "no-store"), *HEADERS.items()]


_every: weakref.WeakSet[TakenOut] = weakref.WeakSet()


def phones_taken_out(_app: Flask) -> None:
    """This process just took phones out of a group (the house announces it,
    ``companion.table.signals.phones_taken_out``): its polls look again at once (others within ``FRESH``)."""
    for taken_out in list(_every):
        taken_out.stale()


class TakenOut:
    """The phones taken out of each group in the last day (a private server's), read at most every ``FRESH`` seconds
    in one query: an unchanged poll of one of them goes to the app, which refuses it. Older ones are no longer
    looked at here (their pages have long been told: by a stream, or by the table's next entry)."""

    FRESH = 1.0
    SINCE = timedelta(days=1)

    def __init__(self, app: Flask) -> None:
        with app.app_context():
            self.engine = db.engine
        self.cookie = app.config["SESSION_COOKIE_NAME"]
        self.serializer = app.session_interface.get_signing_serializer(app)
        self._lock = threading.Lock()
        self._read_at = -self.FRESH
        self._out: dict[int, frozenset[str]] = {}
        _every.add(self)

    def stale(self) -> None:
        self._read_at = -self.FRESH

    def _by_group(self) -> dict[int, frozenset[str]]:
        if time.monotonic() - self._read_at >= self.FRESH:
            with self._lock, self.engine.connect() as connection:
                rows = connection.execute(sa.select(Member.group_id, Member.device).where(
                    Member.removed_at > now() - self.SINCE)).all()
                out: dict[int, set[str]] = {}
                for group_id, device in rows:
                    out.setdefault(group_id, set()).add(device)
                self._out = {group_id: frozenset(devices) for group_id, devices in out.items()}
                self._read_at = time.monotonic()
        return self._out

    def holds(self, environ, group_id: int) -> bool:
        """Whether the phone of this request was taken out of the group lately (its cookie read only then)."""
        devices = self._by_group().get(group_id)
        if not devices:
            return False
        value = parse_cookie(environ.get("HTTP_COOKIE", "")).get(self.cookie)
        try:
            data = self.serializer.loads(value) if value and self.serializer is not None else {}
        except Exception:  # noqa: BLE001 - a cookie that does not read is nobody's: the poll stays here
            return False
        return isinstance(data, dict) and data.get("device") in devices


class UnchangedPolls:
    """WSGI middleware: the unchanged poll's 204 from the table's head, everything else to the app."""

    def __init__(self, app: Flask, wsgi_app) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self._taken_out: TakenOut | None = None

    @property
    def taken_out(self) -> TakenOut | None:
        """The phones lately taken out of their groups; None where no phone is ever taken out (a home server)."""
        if str(self.app.config.get("GROUPS") or "").strip().lower() != "private":
            return None
        if self._taken_out is None:
            self._taken_out = TakenOut(self.app)
        return self._taken_out

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
        if head is None or head.last_seq != int(seen[1]) or bell.is_due(head.bell_due_at):
            return False
        return (taken_out := self.taken_out) is None or not taken_out.holds(environ, head.group_id)

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
    signals.phones_taken_out.connect(phones_taken_out)
    app.wsgi_app = UnchangedPolls(app, app.wsgi_app)
