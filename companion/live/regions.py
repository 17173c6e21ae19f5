"""The table view's rendered regions, kept per table version and shared by the phones in one seat.

Rendered once with a marker in place of each value of one answer (``companion.web.markers``), and filled in
for every answer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from flask import Flask

from ..web.markers import fill, marking


class RegionCache:
    """The newest rendering of each (table, view) in this process, a bounded number of them.

    Each worker process keeps its own: the version is read from the table row on every request,
    so a worker never serves a region older than the table it has just read.
    """

    def __init__(self, size: int) -> None:
        self.size = size
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


def init_app(app: Flask) -> None:
    """Give the app its cache of rendered regions."""
    app.extensions["regions"] = RegionCache(int(app.config["REGION_CACHE_SIZE"]))
