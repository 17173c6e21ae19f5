"""Table heads kept current by PostgreSQL's notifications, so that an unchanged poll reads nothing.

A trigger on ``tables`` (created with the table, and by a migration) sends the id of every table
whose row changes, when its transaction commits. Each worker process listens on a connection of
its own, in a thread, and keeps the heads its polls have read until it hears that their table
changed. A head is kept only if nothing was heard while it was being read; the board is trusted
only while its listener is connected and has lately proven so; a lost or silent connection
forgets every head, and polls read the database again until the listener is back.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

import sqlalchemy as sa

from ..models import CHANNEL, TRIGGER

# The listener proves its connection alive this often; past TRUST seconds of silence nothing is trusted.
HEARTBEAT = 0.5
APPLICATION_NAME = "companion head board"
TRUST = 3.0

log = logging.getLogger(__name__)


class HeadBoard:
    """The heads of recently polled tables, each kept until its table is heard to change."""

    def __init__(self, engine: sa.Engine, size: int = 20_000) -> None:
        self.engine = engine
        self.size = size
        self._lock = threading.Lock()
        self._heads: OrderedDict[Hashable, Any] = OrderedDict()
        self._keys: dict[int, set[Hashable]] = {}
        self._heard = 0
        self._listening = False
        self._alive_at = 0.0
        self._pid: int | None = None
        self._stop = threading.Event()

    # --- what the polls use ------------------------------------------------------

    def _trusted(self) -> bool:
        if self._pid != os.getpid():
            self._start()  # a forked worker has no listener of its own yet
            return False
        return self._listening and time.monotonic() - self._alive_at < TRUST

    def get(self, key: Hashable):
        """The kept head for ``key``, if the board can be trusted and has it."""
        with self._lock:
            return self._heads.get(key) if self._trusted() else None

    def ticket(self) -> int | None:
        """Taken before reading a head from the database; None while the board is not trusted."""
        with self._lock:
            return self._heard if self._trusted() else None

    def keep(self, key: Hashable, table_id: int, head, ticket: int | None) -> None:
        """Keep a head read from the database, unless anything was heard since ``ticket``."""
        with self._lock:
            if ticket is None or ticket != self._heard or not self._listening:
                return
            self._heads[key] = head
            self._heads.move_to_end(key)
            self._keys.setdefault(table_id, set()).add(key)
            while len(self._heads) > self.size:
                old_key, old_head = self._heads.popitem(last=False)
                self._keys.get(old_head.id, set()).discard(old_key)

    def forget(self, table_id: int) -> None:
        """The table changed: drop its heads (heard from PostgreSQL, or told by this process's writer)."""
        with self._lock:
            self._heard += 1
            for key in self._keys.pop(table_id, ()):
                self._heads.pop(key, None)

    # --- the listener ------------------------------------------------------------

    def _forget_all(self) -> None:
        with self._lock:
            self._listening = False
            self._heard += 1
            self._heads.clear()
            self._keys.clear()

    def _start(self) -> None:
        # Called under the lock.
        self._pid = os.getpid()
        self._listening = False
        self._heads.clear()
        self._keys.clear()
        self._stop = threading.Event()
        threading.Thread(target=self._listen, args=(self._stop,), name="head-board", daemon=True).start()

    def _listen(self, stop: threading.Event) -> None:
        while not stop.is_set():
            connection = None
            try:
                pooled = self.engine.raw_connection()
                connection = pooled.driver_connection
                pooled.detach()
                connection.rollback()
                connection.autocommit = True
                connection.execute(f"SET application_name = '{APPLICATION_NAME}'")
                if connection.execute("SELECT 1 FROM pg_trigger WHERE tgname = %s", (TRIGGER,)).fetchone() is None:
                    log.warning("no %s trigger on tables: every poll reads the database", TRIGGER)
                    return
                connection.execute(f"LISTEN {CHANNEL}")
                with self._lock:
                    self._listening = True
                    self._alive_at = time.monotonic()
                while not stop.is_set():
                    for notice in connection.notifies(timeout=HEARTBEAT):
                        self.forget(int(notice.payload))
                    connection.execute("SELECT 1")
                    with self._lock:
                        self._alive_at = time.monotonic()
            except Exception as error:  # noqa: BLE001 - any failure: forget everything, reconnect
                # One line a second while the database is away; polls read it (or answer 503) meanwhile.
                log.warning("head board not listening (%s); polls read the database", str(error).strip())
            finally:
                self._forget_all()
                if connection is not None:
                    try:
                        connection.close()
                    except Exception:  # noqa: BLE001
                        pass
            stop.wait(1.0)

    def close(self) -> None:
        """Stop listening (a test's app going away)."""
        self._stop.set()
        self._forget_all()
