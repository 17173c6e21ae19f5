"""A table page's stream of server-sent events: the table's version, the moment it changes.

Each table page holds one stream (``/t/<token>/stream``, the watch view's ``/w/<token>/stream``). What
travels on it is a number: the table's newest entry, as in the region's ``data-seen``. A phone that
hears a number above the one it shows asks for its own region, as its poll does, so what only one
seat may see (a drawn Jaipur bonus, a player's cards) never travels on a stream at all. A phone that
(re)connects hears the table's version at once: that is its catch-up. A heartbeat every HEARTBEAT
seconds keeps proxies and phones from closing an idle stream, and tells the page that the stream
works (``static/app.js`` slows its poll to a safety net while it hears them).

The streams of a worker process are held by its event loop (``companion.server.streaming``): an idle
stream costs a socket, not a thread. ``Hub`` is their registry, used by that loop only; the loop is told
of new versions by this process's ``companion.live.changes`` watcher.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..models import TOKEN_SHAPE

# A heartbeat this often, unless the app says otherwise (STREAM_BEAT_SECONDS); the page counts its stream as lost
# after a few missed ones.
HEARTBEAT = 10.0
# How soon a browser reconnects a stream that was cut (milliseconds, the stream's "retry").
RETRY_MS = 1000
PATH = re.compile(rf"/([tw])/({TOKEN_SHAPE.pattern})/stream")
REQUEST_LINE = re.compile(rb"GET (/[tw]/[A-Za-z0-9_-]{1,64}/stream)(?:\?[^ ]*)? HTTP/1\.[01]\r\n")


def version(number: int) -> bytes:
    """The event saying the table is at entry ``number`` (its id lets a reconnecting browser say what it had)."""
    return b"id: %d\nevent: version\ndata: %d\n\n" % (number, number)


def beat(number: int) -> bytes:
    """The heartbeat, saying the version this stream was last told: a page showing an older one missed
    something (it asks), so the beat is the stream's own safety net."""
    return b"event: beat\ndata: %d\n\n" % number

# A phone that has taken nothing of what waits for it for this long is not reading (asleep, its network gone
# without a word): its stream is closed at the next heartbeat, and it reconnects when it wakes.
UNREAD_SECONDS = 3 * HEARTBEAT
# What the app answers where no stream can be held (a server without this worker, TLS served by
# gunicorn itself): the page's sse-close event, so the browser stops asking and the page keeps polling.
NO_STREAM = b"event: nostream\ndata: \n\n"


def stream_path(request_head: bytes) -> tuple[str, bool] | None:
    """(token, watch) if this request head asks for a table's stream, else None."""
    line = REQUEST_LINE.match(request_head)
    if line is None:
        return None
    path = PATH.fullmatch(line[1].decode("ascii"))
    return (path[2], path[1] == "w") if path else None


def response_head(headers: list[tuple[str, str]]) -> bytes:
    """The stream's status line and headers (with the app's security headers), then its retry."""
    lines = ["HTTP/1.1 200 OK", "Content-Type: text/event-stream; charset=utf-8", "Cache-Control: no-store",
             # nginx: pass each event on as it comes (the README's example also turns buffering off).
             "X-Accel-Buffering: no", "Connection: close", *(f"{name}: {value}" for name, value in headers)]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + b"retry: %d\n\n" % RETRY_MS


@dataclass(eq=False)
class Stream:
    """One phone's open stream: its socket, its table, the version it was last told.

    ``subscriber``: whom the stream's regions are rendered for (``companion.live.pushes``), or None for a
    stream that is told versions only. What the socket does not take at once waits, sent as it drains
    (``flush``): ``pending``, the rest of the message under way, and ``queued``, the one after it, whole. A
    newer message takes the queued one's place: a phone that reads slower than its table changes gets the
    newest version once it has read the one under way, never the backlog of those it missed (and a stream
    holds two messages at most). ``on_pending`` is called when some is first left waiting.
    """

    sock: socket.socket
    table_id: int
    told: int
    closed: bool = False
    meta: dict = field(default_factory=dict)
    subscriber: object | None = None
    pending: bytearray = field(default_factory=bytearray)
    queued: bytes = b""
    on_pending: Callable[[], None] | None = None
    # When the phone last took some of what waited for it (time.monotonic()).
    read_at: float = 0.0
    # The stream's last word is queued (its phone was taken out of the group): nothing replaces it.
    last: bool = False

    def send(self, data: bytes, *, last: bool = False) -> bool:
        """Send ``data`` without waiting, leaving what the socket does not take to be sent as it drains (in the
        place of any message still queued); False if the phone is gone."""
        if self.closed:
            return False
        if self.pending:
            if not self.last:
                self.queued, self.last = data, last
            return True
        self.last = last
        try:
            sent = self.sock.send(data)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            return False
        if sent < len(data):
            self.pending += data[sent:]
            self.read_at = time.monotonic()
            if self.on_pending is not None:
                self.on_pending()
        return True

    def flush(self) -> bool:
        """Send what waits, as far as the socket takes it; False if the phone is gone."""
        while self.pending:
            try:
                sent = self.sock.send(self.pending)
            except (BlockingIOError, InterruptedError):
                return True
            except OSError:
                return False
            if sent:
                self.read_at = time.monotonic()
            del self.pending[:sent]
            if self.pending:
                return True
            self.pending += self.queued
            self.queued = b""
        return True

    def unread(self, now: float) -> bool:
        """Whether the phone has read none of what waits for it for UNREAD_SECONDS."""
        return bool(self.pending) and now - self.read_at > UNREAD_SECONDS


class Hub:
    """The open streams of this process, by table; every method is called on the event loop's thread only."""

    def __init__(self, beat: float = HEARTBEAT) -> None:
        self.by_table: dict[int, set[Stream]] = {}
        # How often the streams beat (the app's STREAM_BEAT_SECONDS).
        self.every = beat
        # The newest version the watcher reported of each table with a stream here.
        self.versions: dict[int, int] = {}
        self.count = 0
        self._beat_at = time.monotonic() + beat

    def add(self, stream: Stream) -> None:
        """Hold ``stream``, telling it at once of a version heard since its own was read."""
        self.by_table.setdefault(stream.table_id, set()).add(stream)
        self.count += 1
        # Only what the watcher reported counts as heard: a stream opened after an entry the watcher has not yet
        # reported (its head read just after the commit) must not have the table's other streams skip it.
        known = self.versions.get(stream.table_id)
        if known is not None and known > stream.told:
            self._tell(stream, known)

    def remove(self, stream: Stream) -> None:
        """Forget ``stream`` (its socket is the caller's to close)."""
        streams = self.by_table.get(stream.table_id)
        if streams is None or stream not in streams:
            return
        streams.discard(stream)
        self.count -= 1
        if not streams:
            del self.by_table[stream.table_id]
            self.versions.pop(stream.table_id, None)

    def table_ids(self) -> list[int]:
        """The tables that have a stream here (safe from the watcher's thread: the copy is one C call)."""
        while True:
            try:
                return list(self.by_table)
            except RuntimeError:  # changed while copied: copy again
                continue

    def publish(self, versions: dict[int, int]) -> tuple[list[Stream], dict[int, list[Stream]]]:
        """Tell each stream of these tables its new version, but those whose regions are pushed: the streams
        that could not be told (to close), and by table the streams to push the new region to."""
        lost: list[Stream] = []
        pushing: dict[int, list[Stream]] = {}
        for table_id, number in versions.items():
            streams = self.by_table.get(table_id)
            if not streams or number <= self.versions.get(table_id, -1):
                continue
            self.versions[table_id] = number
            message = version(number)
            for stream in streams:
                if stream.told >= number:
                    continue
                if stream.subscriber is not None:
                    pushing.setdefault(table_id, []).append(stream)
                elif not self._tell(stream, number, message):
                    lost.append(stream)
        return lost, pushing

    def push(self, number: int, events: dict[Stream, bytes | None], *, again: bool = False,
             last: bool = False) -> list[Stream]:
        """Send each stream its region at ``number`` (the version alone where it has none); the streams lost.
        ``again``: even to a stream told that number already (the table changed without an entry: to the bin);
        ``last``: the stream's last word, which nothing after it replaces."""
        lost = []
        for stream, event in events.items():
            if stream.closed or (stream.told >= number and not again):
                continue  # closed since, or a newer region went first
            if event is None:
                sent = self._tell(stream, number)
            elif (sent := stream.send(event, last=last)):
                stream.told = number
            if not sent:
                lost.append(stream)
        return lost

    def beat(self, now: float) -> list[Stream]:
        """Send the heartbeat if it is due; the streams that could not take it or read nothing (to close).

        A stream with a message still under way is not sent one: what waits says more than a beat would."""
        if now < self._beat_at:
            return []
        self._beat_at = now + self.every
        return [stream for streams in self.by_table.values() for stream in streams
                if stream.unread(now) or (not stream.pending and not stream.send(beat(stream.told)))]

    def all(self) -> list[Stream]:
        """Every open stream (to close them all when the worker stops)."""
        return [stream for streams in self.by_table.values() for stream in streams]

    @staticmethod
    def _tell(stream: Stream, number: int, message: bytes | None = None) -> bool:
        if stream.send(message or version(number)):
            stream.told = number
            return True
        return False
