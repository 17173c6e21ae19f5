"""Each phone's new region, pushed on its table's stream the moment the table changes.

Without this, a stream says only the table's new version and each phone then asks for its region:
six requests an entry at a table of six, each read, rendered and compressed in whichever worker it
reaches. Here the worker holding a phone's stream sends that phone's region itself:

- **Who reads it** is decided when the stream opens, by the app as for any request (``subscribe``,
  called by the stream's view with the phone's own cookie): its answer to "Who are you?" and what it
  recorded itself (``page.reader_of``), its view, address, language and locale, and its CSRF token. A
  phone whose session holds no CSRF token yet gets version notices only, and asks, as before.
- **Rendered once per host.** The first to need a version (the phone that recorded the entry, a
  stream's worker, a phone's poll) renders it for every seat of the table at once (one fold, the shared
  parts once) and keeps it in the host's store (``companion.live.store``,
  ``page.host_region``); the others wait for that rendering and read it.
- **Filled per phone**: its CSRF token, fresh form keys, the server's clock (``markers.fill``).

What a seat alone may see is only ever in its own reader's region: a region is rendered for a reader
and sent to the streams of that reader, as the live poll answers it.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import sqlalchemy as sa
from flask import Flask, abort, render_template, request, session
from flask_wtf.csrf import generate_csrf
from sqlalchemy.orm import joinedload
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Response

from ..database import reads_only
from ..extensions import db
from ..models import REMOVED, Member, Table
from ..web import markers, membership
from ..web.phone import phone
from . import heads, page
from .changes import Heard
from .store import HostStore

# The WSGI environ key through which the worker asks the stream's view who the phone is (never set by a request).
SUBSCRIBE = "companion.subscribe"
# What a region is rendered with, of the phone's own request: its language (chosen, or its browser's) and the
# locale its dates and numbers are written in (its browser's, of that language).
RENDER_HEADERS = ("Cookie", "Accept-Language")


@dataclass(frozen=True, eq=False)
class Subscriber:
    """What a stream's phone reads of its table (see the module's docstring)."""

    token: str
    table_id: int
    watch: bool
    reader: tuple
    variant: tuple
    csrf: str | None
    headers: tuple[tuple[str, str], ...]
    # The table's group and the phone's id: a phone taken out of the group has its stream closed (``barred``).
    group_id: int = 0
    device: str | None = None

    @property
    def reader_key(self) -> str:
        return page.reader_key(self.reader)


def subscribe(token: str, watch: bool) -> Response:
    """In the stream's request (asked by the worker): who this phone is, put where the worker finds it."""
    holder = request.environ[SUBSCRIBE]
    head = heads.head(token, watch)
    if head is None or membership.barred(head.group_id):
        abort(404)
    reader = page.reader_of(watch, None if watch else phone().answer_at(token), token)
    # A token only for a session that has one (the page it opened made it): the stream sets no cookie.
    csrf = generate_csrf() if session.get("csrf_token") else None
    holder["head"] = head
    holder["subscriber"] = Subscriber(
        token=token, table_id=head.id, watch=watch, reader=reader, variant=page.region_variant(watch),
        csrf=csrf, headers=tuple((name, request.headers[name]) for name in RENDER_HEADERS if name in request.headers),
        group_id=head.group_id, device=phone().device if membership.private() else None)
    return Response(status=204)


def ask_app(app: Flask, head: bytes, client: tuple | str | None) -> dict:
    """Run the stream's request (its head as read by the worker) through the app, middleware and all,
    with ``SUBSCRIBE`` set: the table's head and the phone's ``Subscriber`` if the table is there, else {}."""
    lines = head.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    method, target, _protocol = lines[0].split(" ", 2)
    headers = [tuple(part.strip() for part in line.split(":", 1)) for line in lines[1:] if ":" in line]
    path, _, query = target.partition("?")
    host = next((value for name, value in headers if name.lower() == "host"), "localhost")
    address = client[0] if isinstance(client, tuple) else "127.0.0.1"
    environ = EnvironBuilder(method=method, path=path, query_string=query, headers=headers,
                             base_url=f"http://{host}", environ_base={"REMOTE_ADDR": address}).get_environ()
    holder: dict = {}
    environ[SUBSCRIBE] = holder
    answer = app(environ, lambda status, headers, exc_info=None: None)
    if hasattr(answer, "close"):
        answer.close()
    return holder


def taken_out(app: Flask, subscribers: list[Subscriber]) -> set[Subscriber]:
    """The subscribers whose phone was taken out of their table's group since their stream opened (one query, and
    none where no stream is a private server's): their streams are closed, and they are refused when they ask."""
    asking = [subscriber for subscriber in subscribers if subscriber.device]
    if not asking:
        return set()
    with app.app_context():
        try:
            out = set(db.session.execute(sa.select(Member.group_id, Member.device).where(
                Member.device.in_({subscriber.device for subscriber in asking}), Member.removed_at.is_not(None))))
        finally:
            db.session.remove()
    return {subscriber for subscriber in asking if (subscriber.group_id, subscriber.device) in out}


def gone(app: Flask, subscriber: Subscriber) -> bytes:
    """The last event of a stream whose phone was taken out of the table's group: the words a link that leads
    nowhere gets, in the phone's language (its page shows them, and stops asking)."""
    with app.app_context(), app.test_request_context("/", headers=[*subscriber.headers, ("HX-Request", "true")]):
        return event(0, render_template("tables/_removed.html"))


def event(number: int, html: str) -> bytes:
    """The stream's event carrying the region at entry ``number`` (each of its lines a data line)."""
    data = "data: " + html.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\ndata: ")
    return ("id: %d\nevent: region\n%s\n\n" % (number, data)).encode()


def _read(table_id: int) -> Table | None:
    return db.session.scalars(sa.select(Table).where(Table.id == table_id)
                              .options(joinedload(Table.seats))).unique().first()


def _render(app: Flask, table_id: int, version: tuple, variant: tuple, wanted: set[str], kept: dict[str, str],
            headers: tuple) -> dict[str, str] | None:
    """The marked regions at ``version`` of the table of every seat and the ``wanted`` readers but those
    ``kept`` (``page.readers_to_render``), in a request like the phone's own.

    In an app context of its own: ``g`` holds a request's language and reader, never another variant's."""
    watch, url_root = variant[:2]
    with app.app_context(), app.test_request_context("/", base_url=url_root,
                                                     headers=[*headers, ("HX-Request", "true")]):
        if page.region_variant(watch) != variant:
            return None  # the phone's language could not be told again (it changed its cookie since): it asks
        reads_only()  # a push renders, it never records
        table = _read(table_id)
        if table is None or page.region_version(table.last_seq, table.status, table.bell_seq,
                                                       table.bell_plan) != version:
            return None  # another entry since: its own push follows; these phones are told the version
        if table.status == REMOVED:
            # Taken out of the history: every phone still on it is told so, and stops asking.
            removed = render_template("tables/_removed.html")
            return dict.fromkeys(wanted - kept.keys(), removed)
        return page.render_readers(table, watch, page.readers_to_render(table, watch, wanted, kept))


def regions_for(app: Flask, store: HostStore, table_id: int, subscribers: list[Subscriber],
                heard: Heard | None = None) -> tuple[int, dict[Subscriber, bytes]]:
    """The table's version (``heard`` by the process's watcher, else read now) and, for each subscriber
    that can be sent it, its region's event.

    A subscriber missing from the answer is told the version instead (and asks, as its poll would).
    """
    with app.app_context():
        try:
            # The row as the watcher just read it: a worker whose phones' regions another process rendered
            # reads them from the store and never asks the database (``_render`` reads the table, and
            # renders nothing if it moved on since: that newer version's own push follows).
            if heard is None:
                reads_only()
            version = page.region_version(*heard) if heard is not None else page.version_now(table_id)
            if version is None:
                return 0, {}
            number = version[0]
            by_variant: dict[Hashable, list[Subscriber]] = {}
            for subscriber in subscribers:
                by_variant.setdefault(subscriber.variant, []).append(subscriber)
            found: dict[Hashable, dict[str, str]] = {}
            with store.table(table_id) as kept:
                for variant, readers in by_variant.items():
                    regions_kept = kept.get(variant, version)
                    wanted = {subscriber.reader_key for subscriber in readers}
                    if not wanted <= regions_kept.keys():
                        rendered = _render(app, table_id, version, variant, wanted, regions_kept, readers[0].headers)
                        if rendered is not None:
                            regions_kept = {**regions_kept, **rendered}
                            kept.put(variant, version, regions_kept)
                    found[variant] = regions_kept
            events = {}
            for subscriber in subscribers:
                html = found[subscriber.variant].get(subscriber.reader_key)
                if html is None or (subscriber.csrf is None and "\x00csrf\x00" in html):
                    continue
                events[subscriber] = event(number, markers.fill(html, csrf=subscriber.csrf))
            return number, events
        finally:
            db.session.remove()
