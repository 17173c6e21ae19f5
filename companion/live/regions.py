"""The table view's rendered regions, kept per table version and shared by the phones in one seat.

Between two entries a table looks the same to every phone in the same seat, but for a few values that
belong to one answer: the CSRF token, each form's idempotency key, the server's clock. A region is
rendered once with a marker in place of each of those and filled in for every answer. Markers are made
of NUL characters, which never come from a player: ``companion.web.security`` refuses them in any request.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager

from flask import Flask, current_app, g
from flask_wtf.csrf import generate_csrf

_MARK = re.compile("\x00([a-z]+)(?::(-?[0-9]+))?\x00")
# What fills a marker: a function of the marker's argument (or None) giving this answer's value.
Filler = Callable[[str | None], str]


def per_answer(name: str, argument: int | None = None) -> str | None:
    """The marker for a value of this answer while a shared region is rendered, else None."""
    if not g.get("region_marking"):
        return None
    return f"\x00{name}\x00" if argument is None else f"\x00{name}:{argument}\x00"


def csrf_token(_: str | None) -> str:
    """The marker ``csrf``: this answer's CSRF token."""
    return generate_csrf()


def fill(html: str, csrf: str | None = None) -> str:
    """The region with each marker replaced by this answer's value (``csrf``: the phone's token, when
    the region is filled outside its request, for its stream)."""
    if "\x00" not in html:
        return html
    fillers = current_app.extensions["regions"].fillers
    token: list[str] = [] if csrf is None else [csrf]

    def value(match: re.Match) -> str:
        if match[1] != "csrf":
            return fillers[match[1]](match[2])
        # One token an answer, however many forms carry it.
        if not token:
            token.append(fillers["csrf"](None))
        return token[0]

    return _MARK.sub(value, html)


class RegionCache:
    """The newest rendering of each (table, view) in this process, a bounded number of them.

    Each worker process keeps its own: the version is read from the table row on every request,
    so a worker never serves a region older than the table it has just read.
    """

    def __init__(self, size: int, fillers: dict[str, Filler] | None = None) -> None:
        self.size = size
        # marker name -> what fills it in each answer (the CSRF token's filler is always there).
        self.fillers: dict[str, Filler] = {"csrf": csrf_token, **(fillers or {})}
        self._regions: OrderedDict[Hashable, tuple[Hashable, str]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, version: Hashable) -> str | None:
        """The kept rendering of ``key`` at ``version``, if there is one."""
        with self._lock:
            kept = self._regions.get(key)
            if kept is None or kept[0] != version:
                return None
            self._regions.move_to_end(key)
            return kept[1]

    def put(self, key: Hashable, version: Hashable, html: str) -> None:
        """Keep ``html`` as the rendering of ``key`` at ``version``, forgetting the least recently used."""
        if self.size <= 0:
            return
        with self._lock:
            self._regions[key] = (version, html)
            self._regions.move_to_end(key)
            while len(self._regions) > self.size:
                self._regions.popitem(last=False)


@contextmanager
def marking() -> Iterator[None]:
    """Render what is rendered inside to be kept: each value of one answer as its marker."""
    saved = g.pop("csrf_token", None)
    # Flask-WTF renders the token it finds in g (every form field and csrf_token() in templates).
    g.csrf_token = "\x00csrf\x00"
    g.region_marking = True
    try:
        yield
    finally:
        g.region_marking = False
        g.pop("csrf_token", None)
        if saved is not None:
            g.csrf_token = saved


def kept_or_rendered(cache: RegionCache, key: Hashable, version: Hashable, render: Callable[[], str]) -> str:
    """The kept rendering of ``key`` at ``version``, else rendered with markers and kept (not filled in)."""
    html = cache.get(key, version)
    if html is None:
        with marking():
            html = render()
        cache.put(key, version, html)
    return html


def render_shared(cache: RegionCache, key: Hashable, version: Hashable, render: Callable[[], str]) -> str:
    """This answer's region: the kept rendering filled in, else rendered with markers, kept, and filled in."""
    return fill(kept_or_rendered(cache, key, version, render))


def init_app(app: Flask, fillers: dict[str, Filler]) -> None:
    """Give the app its cache of rendered regions, and what fills each marker but the CSRF token's."""
    app.extensions["regions"] = RegionCache(int(app.config["REGION_CACHE_SIZE"]), fillers)
