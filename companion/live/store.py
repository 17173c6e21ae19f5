"""The rendered regions of a table version, kept where every worker process of this host finds them.

A table's phones hold their streams in whichever worker took each one, so the six phones of a table
are spread over the host's workers. Rendering a version for each of them in its own worker would fold
the table and render its shared parts once per worker; here the first to need a version (a phone's request or a
stream's worker) renders it for every seat at once (``page.host_region``) and keeps it in a file,
which the others read.

One file per table and variant (its view, address and language) holds the newest version's regions by
reader, unfilled (``companion.live.regions``: markers in place of each answer's values). One lock file
per table: whoever renders a version holds it, so the others wait for that rendering rather than
repeat it. The folder is made by gunicorn's master (``companion.server.gunicorn_conf``) and shared by
its workers through ``STORE_ENV``; without it (no master: tests, one process) a process keeps its own.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import threading
import time
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path

STORE_ENV = "COMPANION_REGION_STORE"
# A table's regions untouched this long are removed (its night is over), looked for this often.
IDLE_SECONDS = 3600.0
PRUNE_EVERY = 600.0


def _name(table_id: int, variant: Hashable) -> str:
    return f"{table_id}-{hashlib.sha1(repr(variant).encode()).hexdigest()[:16]}.json"


class Regions:
    """The kept regions of one table, read and written while its lock is held (``HostStore.table``)."""

    def __init__(self, store: "HostStore", table_id: int) -> None:
        self._store = store
        self._table_id = table_id

    def get(self, variant: Hashable, version: Hashable) -> dict[str, str]:
        """The regions kept for ``variant`` at ``version``, by reader (empty if another version is kept)."""
        kept = self._store._read(self._table_id, variant)
        return kept[1] if kept is not None and kept[0] == repr(version) else {}

    def put(self, variant: Hashable, version: Hashable, regions: dict[str, str]) -> None:
        """Keep ``regions`` as the ones of ``variant`` at ``version`` (in place of an older version's)."""
        self._store._write(self._table_id, variant, (repr(version), regions))


class HostStore:
    """Files in ``folder`` (see the module's docstring); with no folder, a dict of this process."""

    def __init__(self, folder: str | os.PathLike | None) -> None:
        self.folder = Path(folder) if folder else None
        self._memory: dict[str, tuple[str, dict[str, str]]] = {}
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()
        self._pruned = time.monotonic()

    def peek(self, table_id: int, variant: Hashable, version: Hashable, reader: str) -> str | None:
        """The region of ``reader`` if it is kept at ``version``, read without the lock (a file is
        replaced whole, never written in place): for the live poll, which renders it itself otherwise."""
        kept = self._read(table_id, variant)
        return kept[1].get(reader) if kept is not None and kept[0] == repr(version) else None

    @contextmanager
    def table(self, table_id: int) -> Iterator[Regions]:
        """The table's kept regions, its lock held (by this thread; other threads and processes wait)."""
        if self.folder is None:
            with self._guard:
                lock = self._locks.setdefault(table_id, threading.Lock())
            with lock:
                yield Regions(self, table_id)
            return
        # One open file each: flock excludes other threads of this process as well as other processes.
        with open(self.folder / f"{table_id}.lock", "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield Regions(self, table_id)
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
        self._prune_now_and_then()

    def _read(self, table_id: int, variant: Hashable) -> tuple[str, dict[str, str]] | None:
        name = _name(table_id, variant)
        if self.folder is None:
            return self._memory.get(name)
        try:
            version, regions = json.loads((self.folder / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return version, regions

    def _write(self, table_id: int, variant: Hashable, kept: tuple[str, dict[str, str]]) -> None:
        name = _name(table_id, variant)
        if self.folder is None:
            self._memory[name] = kept
            return
        # Written whole under another name, then renamed: a reader never sees half a file.
        part = self.folder / f"{name}.{os.getpid()}.{threading.get_ident()}"
        part.write_text(json.dumps(kept), encoding="utf-8")
        os.replace(part, self.folder / name)

    def _prune_now_and_then(self) -> None:
        now = time.monotonic()
        if now - self._pruned < PRUNE_EVERY or self.folder is None:
            return
        self._pruned = now
        oldest = time.time() - IDLE_SECONDS
        for entry in os.scandir(self.folder):
            # Only the regions: a lock file may be held however old it is (a lock does not touch it).
            if not entry.name.endswith(".json"):
                continue
            try:
                if entry.stat().st_mtime < oldest:
                    os.unlink(entry.path)
            except OSError:
                pass


def from_environment() -> HostStore:
    """The host's store if gunicorn's master made one, else this process's own."""
    folder = os.environ.get(STORE_ENV)
    return HostStore(folder if folder and os.path.isdir(folder) else None)


def of(app) -> HostStore:
    """The app's store of rendered regions (made with the app: the master's folder is known by then)."""
    return app.extensions["region_store"]


def init_app(app) -> None:
    app.extensions["region_store"] = from_environment()
