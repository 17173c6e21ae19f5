"""The worker that also holds the table pages' streams (``companion.live.streams``) in its event loop.

A stream is open for as long as a table page is, hours at a table, and idle nearly always. Held by a
thread, as gunicorn's threaded worker would, every open page would take one of the worker's four
threads and a table night of six phones would stop the server. Here, the request for a stream is
read in the loop like every request (``HeadFirstWorker``); a thread only reads the table's head (so
no database wait ever holds the loop) and writes the stream's first bytes, then hands the socket back
to the loop, which holds it until the phone goes away: a stream costs a socket and a few hundred
bytes. The process's watcher (``companion.live.changes``) tells the loop of each new version, and
the loop sends it to that table's streams, and a heartbeat to all of them.

A request for a stream that cannot be held here (an unknown table, a database without a live read)
goes on to the app, which answers it (``views.tables.stream``). So do TLS and HTTP/2 connections,
which gunicorn serves itself: the page then keeps polling.
"""

from __future__ import annotations

import resource
import selectors
import time
from functools import partial

from ..live import changes, heads, pushes, store, streams
from ..models import REMOVED
from ..live.streams import Hub, Stream
from ..web.security import HEADERS
from .serving import BEHIND_SECONDS, Connection, HeadFirstWorker

# The stream's first bytes are written by a thread in one go; a phone that does not take them in this time is dropped.
FIRST_BYTES_SECONDS = 5.0


def _more_sockets() -> None:
    """As many open files as the system lets this process have: each stream is one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))
        except (ValueError, OSError):
            pass


class StreamingWorker(HeadFirstWorker):
    """``HeadFirstWorker`` holding the table pages' streams in its loop (see the module's docstring)."""

    def run(self) -> None:
        _more_sockets()
        self.hub = Hub(beat=float(self.wsgi.config["STREAM_BEAT_SECONDS"]))
        self.watcher: changes.Changes | None = None
        # The tables whose phones' regions a thread is rendering, with the newest version heard of each since
        # (rendered once that one is pushed: one rendering a table at a time, and never one already overtaken).
        self.rendering: dict[int, changes.Heard | None] = {}
        # Since when each table of ``rendering`` has had a version its phones were not sent yet: a worker whose
        # oldest is BEHIND_SECONDS old is behind (``behind``), however short the line for its threads.
        self.unsent_since: dict[int, float] = {}
        self._members_checked = time.monotonic()
        try:
            super().run()
        finally:
            if self.watcher is not None:
                self.watcher.stop()

    # --- opening a stream -------------------------------------------------------------

    def request_arrived(self, conn: Connection) -> None:
        target = streams.stream_path(bytes(conn.ahead)) if self.alive else None
        if target is None:
            super().request_arrived(conn)
            return
        self.submit(self._open, conn, *target)

    def _open(self, conn: Connection, token: str, watch: bool) -> None:
        """On a thread: who the phone is and the table's head (asked of the app), then the stream's first
        bytes; the socket goes back to the loop."""
        found = pushes.ask_app(self.wsgi, bytes(conn.ahead), conn.client) if heads.of(self.wsgi) is not None else {}
        head = found.get("head")
        if head is None:
            # Unknown table, or no live read: the app answers it as it answers every request.
            self.method_queue.defer(self.enqueue_req, conn)
            return
        try:
            conn.sock.settimeout(FIRST_BYTES_SECONDS)
            conn.sock.sendall(streams.response_head(list(HEADERS.items())) + streams.version(head.last_seq))
            conn.sock.setblocking(False)
        except OSError:
            self.method_queue.defer(self._forget, conn)
            return
        stream = Stream(conn.sock, head.id, head.last_seq, meta={"conn": conn}, subscriber=found.get("subscriber"))
        self.method_queue.defer(self._hold, conn, stream)

    # --- in the loop -----------------------------------------------------------------

    def _hold(self, conn: Connection, stream: Stream) -> None:
        if not self.alive:
            self._forget(conn)
            return
        first = stream.table_id not in self.hub.by_table
        stream.on_pending = partial(self._drain_when_writable, stream)
        self.hub.add(stream)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._stream_ready, stream))
        if self.watcher is None:
            self.watcher = self._start_watcher()
        if first:
            self.watcher.look_at(stream.table_id)

    def _start_watcher(self) -> changes.Changes:
        from ..extensions import db

        with self.wsgi.app_context():
            engine = db.engine
        watcher = changes.Changes(engine, self.hub.table_ids,
                                  lambda versions: self.method_queue.defer(self._publish, versions))
        watcher.start()
        return watcher

    def _drain_when_writable(self, stream: Stream) -> None:
        # Called on the loop's thread by Stream.send when the socket did not take a whole region.
        if not stream.closed:
            self.poller.modify(stream.sock, selectors.EVENT_READ | selectors.EVENT_WRITE,
                               partial(self._stream_ready, stream))

    def _stream_ready(self, stream: Stream, _sock) -> None:
        if stream.pending:
            if not stream.flush():
                self._close(stream)
                return
            if not stream.pending:
                if stream.meta.get("closing"):
                    self._close(stream)
                    return
                self.poller.modify(stream.sock, selectors.EVENT_READ, partial(self._stream_ready, stream))
        # A phone never writes on its stream: readable means it went away (or misbehaves): close it.
        try:
            data = stream.sock.recv(1024)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data or len(data) >= 1024:
            self._close(stream)

    def _publish(self, versions: dict[int, changes.Heard]) -> None:
        lost, pushing = self.hub.publish({table_id: heard.last_seq for table_id, heard in versions.items()})
        for stream in lost:
            self._close(stream)
        for table_id in pushing:
            self._render_soon(table_id, versions[table_id])
        # A session put in the bin changes no entry number: every phone of it is told all the same, in its words.
        for table_id, heard in versions.items():
            if heard.status == REMOVED and table_id not in pushing and (held := self.hub.by_table.get(table_id)):
                self.submit(self._render, table_id, heard, [stream for stream in held if stream.subscriber],
                                  again=True)
                # A stream told versions only is closed: its page asks, and is told the session is gone.
                for stream in [stream for stream in held if not stream.subscriber]:
                    self._close(stream)

    def _render_soon(self, table_id: int, heard: changes.Heard) -> None:
        """Have a thread render the regions of the table's phones at ``heard``, or, while one is rendering an
        older version, once it is done: a server behind renders each table's newest version, not each one."""
        if table_id in self.rendering:
            self.rendering[table_id] = heard
            return
        held = [stream for stream in self.hub.by_table.get(table_id, ()) if stream.subscriber and stream.told < heard.last_seq]
        if held:
            self.rendering[table_id] = None
            self.unsent_since.setdefault(table_id, time.monotonic())
            self.submit(self._render, table_id, heard, held, rendering=True)

    def behind(self, now: float) -> bool:
        """Behind as a worker is (its threads' line), or with a table's phones not sent its new version for
        BEHIND_SECONDS: an entry taken now would reach its phones that late."""
        return super().behind(now) or any(now - since >= BEHIND_SECONDS for since in self.unsent_since.values())

    def _render(self, table_id: int, heard: changes.Heard, held: list[Stream], again: bool = False,
                rendering: bool = False) -> None:
        """On a thread: the regions of the phones of ``held`` (rendered here, or by another worker of the host)."""
        events: dict = {}
        number = heard.last_seq
        out: dict[Stream, bytes] = {}
        try:
            # A phone taken out of the table's group is told so, and sent nothing more: its stream is closed.
            gone = pushes.taken_out(self.wsgi, [stream.subscriber for stream in held])
            out = {stream: pushes.gone(self.wsgi, stream.subscriber) for stream in held if stream.subscriber in gone}
            held = [stream for stream in held if stream.subscriber not in gone]
            number, by_subscriber = pushes.regions_for(self.wsgi, store.of(self.wsgi), table_id,
                                                        [stream.subscriber for stream in held], heard)
            events = {stream: by_subscriber.get(stream.subscriber) for stream in held}
        except Exception:  # a region that cannot be rendered is told as a version: its phone asks
            self.log.exception("Rendering the regions of table %s failed", table_id)
        self.method_queue.defer(self._push, number, events or dict.fromkeys(held), out, again,
                                table_id if rendering else None)

    def _push(self, number: int, events: dict, out: dict | None = None, again: bool = False,
              rendered: int | None = None) -> None:
        for stream in self.hub.push(number, events, again=again):
            self._close(stream)
        # The last word of a phone taken out of the table's group, then its stream closed (once that word is out:
        # one a busy socket kept waiting goes as it drains, ``_stream_ready``).
        lost = self.hub.push(number, out or {}, again=True, last=True)
        for stream in out or {}:
            stream.meta["closing"] = True
            if stream in lost or not stream.pending:
                self._close(stream)
        # The table's rendering is done: a version heard meanwhile is rendered now.
        if rendered is not None:
            self.unsent_since.pop(rendered, None)
            if (waiting := self.rendering.pop(rendered, None)) is not None:
                self._render_soon(rendered, waiting)

    def _check_members(self, held: list[Stream]) -> None:
        """On a thread: close the streams of ``held`` whose phones were taken out of their table's group since they
        opened (a heartbeat apart at most; a push to them is never sent meanwhile, ``_render``)."""
        try:
            gone = pushes.taken_out(self.wsgi, [stream.subscriber for stream in held])
            out = {stream: pushes.gone(self.wsgi, stream.subscriber) for stream in held if stream.subscriber in gone}
        except Exception:  # the database away for a moment: the next heartbeat looks again
            self.log.exception("Checking the streams' phones failed")
            return
        if out:
            self.method_queue.defer(self._push, 0, {}, out)

    def _close(self, stream: Stream) -> None:
        if stream.closed:
            return
        stream.closed = True
        self.hub.remove(stream)
        self._forget(stream.meta["conn"])

    def murder_pending(self) -> None:
        """Besides gunicorn's timeouts, the streams' heartbeat (the loop comes here at least once a second)."""
        super().murder_pending()
        now = time.monotonic()
        if now >= self._members_checked + self.hub.every:
            self._members_checked = now
            # The streams of a private server's phones (only they carry their phone's id).
            if held := [stream for stream in self.hub.all() if getattr(stream.subscriber, "device", None)]:
                self.submit(self._check_members, held)
        for stream in self.hub.beat(now):
            self._close(stream)

    # --- stopping --------------------------------------------------------------------

    def handle_exit(self, sig, frame) -> None:
        """Stopping: every stream is closed at once (its phone reconnects to another worker), then as gunicorn does."""
        super().handle_exit(sig, frame)
        self.method_queue.defer(self._close_all)

    def _close_all(self) -> None:
        for stream in self.hub.all():
            self._close(stream)
