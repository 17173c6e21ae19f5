"""gunicorn's threaded worker, reading each request's head in its event loop so that slow clients hold no thread.

gunicorn's ``gthread`` worker hands a connection to a thread as soon as its first byte arrives,
and the thread then waits for the rest of the request head: a client sending a header line a
second holds a thread for as long as it likes, and a handful of them (24 against 4 workers of 4
threads) stops every answer. A reverse proxy in front (nginx) would buffer requests; `make run`
serves the home network with nothing in front. So this worker does what such a proxy does, in
gunicorn's own selector loop: it reads a connection's bytes without blocking until the request
head is complete (and a small body with it), and only then gives it to a thread, with the bytes
already read handed back to gunicorn's parser. A client that has not sent its head within
HEAD_SECONDS is disconnected. Slow clients then cost a socket each, up to gunicorn's
``worker_connections`` per worker; the threads serve the table.

TLS and HTTP/2 connections are left to gunicorn as they are (their bytes cannot be read ahead
in the clear); behind a TLS-terminating proxy, gunicorn sees plain HTTP/1.1.

A worker that falls behind (its oldest request, or other work such as a table's rendering for its phones'
streams, has waited BEHIND_SECONDS for a thread) bends rather
than queue without end: a request the page sends again by itself and says so (htmx's, under a table's
address: an entry, a poll; ``sheddable``) is answered at once, from the loop, with a 503 and
``Retry-After``; the page waits that long and sends the same form again, its key making it count once
(``static/connection.js``). Everything else (a page, a plain form, a stream) still queues: it has no
one to send it again.
"""

from __future__ import annotations

import errno
import re
import selectors
import time
from collections import deque
from functools import partial

from gunicorn.http2 import negotiation
from gunicorn.workers import gthread

from ..web.security import HEADERS

# The whole request head (and a body up to BODY_AHEAD bytes) must arrive within this time.
HEAD_SECONDS = 10.0
# A body this small is read in the loop too, so a slow upload of a form holds no thread either;
# larger ones (a session file to import) are read by the thread, as gunicorn does.
BODY_AHEAD = 64 * 1024
# A head larger than this is handed on unfinished: gunicorn's own limits refuse it properly.
HEAD_MAX = 64 * 1024
END_OF_HEAD = b"\r\n\r\n"
CONTENT_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*(\d{1,12})[ \t]*\r\n", re.IGNORECASE)
CHUNKED = re.compile(rb"\r\ntransfer-encoding:", re.IGNORECASE)
# A worker whose oldest request or job waiting for a thread has waited this long is behind, and tells pages to come back in so many seconds.
BEHIND_SECONDS = 0.5
RETRY_AFTER_SECONDS = 2
# htmx's requests under a table's address, but its stream: what static/connection.js sends again by itself.
SHEDDABLE = re.compile(rb"(?:GET|POST) /[tw]/[A-Za-z0-9_-]{1,64}/(?!stream[ ?])[^ ]* HTTP/1\.[01]\r\n")
HX_REQUEST = re.compile(rb"\r\nhx-request:[ \t]*true[ \t]*\r\n", re.IGNORECASE)
BUSY = ("\r\n".join(["HTTP/1.1 503 Service Unavailable", f"Retry-After: {RETRY_AFTER_SECONDS}", "Content-Length: 0",
                      "Cache-Control: no-store", *(f"{name}: {value}" for name, value in HEADERS.items())])
        + "\r\n\r\n").encode("latin-1")


def sheddable(head: bytes) -> bool:
    """Whether the request whose head (and small body) is ``head`` is one the page sends again by itself."""
    end = head.find(END_OF_HEAD)
    return SHEDDABLE.match(head) is not None and HX_REQUEST.search(head[:end + 2] if end >= 0 else head) is not None


def request_length(data: bytes) -> int | None:
    """How many bytes of ``data`` its first request takes, head and body, if known from its head alone."""
    end = data.find(END_OF_HEAD)
    if end < 0 or CHUNKED.search(data[:end + 2]):
        return None
    length = CONTENT_LENGTH.search(data[:end + 2])
    return end + len(END_OF_HEAD) + (int(length.group(1)) if length else 0)


def request_ready(data: bytes) -> bool:
    """Whether ``data`` holds a whole request head, and its body too when that is small and of known length."""
    end = data.find(END_OF_HEAD)
    if end < 0:
        return len(data) >= HEAD_MAX
    length = request_length(data)
    # Chunked, or a body too large to read ahead: the thread's parser reads the rest.
    return length is None or length - (end + len(END_OF_HEAD)) > BODY_AHEAD or len(data) >= length


class Connection(gthread.TConn):
    """gunicorn's connection, carrying the bytes read ahead by the loop to its parser."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.ahead = bytearray()
        self.deadline = 0.0
        self.waiting_since: float | None = None  # when it was handed to the threads, until one takes it

    def init(self) -> None:
        super().init()
        if self.ahead:
            self.parser.unreader.unread(bytes(self.ahead))
            self.ahead = bytearray()


class Job:
    """Work other than a request handed to the threads (``HeadFirstWorker.submit``), and since when it waits."""

    __slots__ = ("waiting_since",)

    def run(self, work, *args, **kwargs):
        self.waiting_since = None
        return work(*args, **kwargs)


class HeadFirstWorker(gthread.ThreadWorker):
    """A gthread worker whose threads only ever get requests that have fully arrived (see the module's docstring)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.arriving: dict[Connection, None] = {}  # insertion order is deadline order
        # The requests handed to the threads, with when, oldest first; one a thread has taken since is dropped
        # here by the loop alone (a thread only marks its connection: ``handle``).
        self.waiting: deque[tuple[float, Connection]] = deque()
        self.refused = 0  # answered 503 since the worker started (for the log and the tests)

    def _reads_ahead(self, conn) -> bool:
        return not self.cfg.is_ssl and not negotiation.prior_knowledge_allowed(self.cfg, conn.client)

    def accept(self, listener) -> None:
        try:
            client_sock, client_addr = listener.accept()
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        conn = Connection(self.cfg, client_sock, client_addr, listener.getsockname())
        if self._reads_ahead(conn):
            self._await_request(conn)
        else:
            client_sock.setblocking(True)
            self.enqueue_req(conn)

    def on_client_socket_readable(self, conn, client) -> None:
        """A kept-alive connection has its next request coming: read it in the loop as well."""
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        if isinstance(conn, Connection) and self._reads_ahead(conn):
            self._await_request(conn)
            self._read_ahead(conn, client)
        else:
            self.enqueue_req(conn)

    def _await_request(self, conn: Connection) -> None:
        conn.sock.setblocking(False)
        conn.deadline = time.monotonic() + HEAD_SECONDS
        self.arriving[conn] = None
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._read_ahead, conn))

    def _read_ahead(self, conn: Connection, client) -> None:
        try:
            data = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # the client went away before finishing its request
            self._forget(conn)
            return
        conn.ahead += data
        if request_ready(bytes(conn.ahead)):
            self.poller.unregister(conn.sock)
            del self.arriving[conn]
            conn.data_ready = True
            self.request_arrived(conn)

    def request_arrived(self, conn: Connection) -> None:
        """A request has fully arrived on ``conn`` (its bytes in ``conn.ahead``): a thread answers it, or, the
        worker behind, a request the page sends again is told to come back (see the module's docstring)."""
        now = time.monotonic()
        if self.behind(now) and sheddable(bytes(conn.ahead)):
            self._busy(conn)
            return
        conn.waiting_since = now
        self.waiting.append((now, conn))
        self.enqueue_req(conn)

    def behind(self, now: float) -> bool:
        """Whether the oldest request or job waiting for a thread has waited BEHIND_SECONDS."""
        waiting = self.waiting
        # A request taken by a thread (or a kept-alive connection's earlier request) waits no more.
        while waiting and waiting[0][1].waiting_since != waiting[0][0]:
            waiting.popleft()
        return bool(waiting) and now - waiting[0][0] >= BEHIND_SECONDS

    def handle(self, conn):
        # On the thread that takes it: no longer waiting.
        conn.waiting_since = None
        return super().handle(conn)

    def submit(self, work, *args, **kwargs) -> None:
        """Have a thread do ``work`` (a stream's opening, a table's rendering): it waits in line with the
        requests, and counts as they do in whether the worker is behind."""
        job = Job()
        job.waiting_since = time.monotonic()
        self.waiting.append((job.waiting_since, job))
        self.tpool.submit(job.run, work, *args, **kwargs)

    def _busy(self, conn: Connection) -> None:
        """Answer 503 with Retry-After from the loop (a few hundred bytes: the socket takes them whole), and keep
        the connection for the page's next request, as after any answer: a page sends again on it, and a server
        behind does not pay for a new connection each time. One whose request was not read whole is closed."""
        self.refused += 1
        whole = request_length(bytes(conn.ahead)) == len(conn.ahead)
        try:
            sent = conn.sock.send(BUSY if whole else BUSY.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n", 1))
        except OSError:
            sent = 0
        if not whole or sent != len(BUSY):
            self._forget(conn)
            return
        conn.ahead = bytearray()
        self._await_request(conn)

    def _forget(self, conn: Connection) -> None:
        try:
            self.poller.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass
        self.arriving.pop(conn, None)
        self.nr_conns -= 1
        conn.close()

    def murder_pending(self) -> None:
        """Close the connections whose request did not arrive in time, then gunicorn's own pending ones."""
        now = time.monotonic()
        for conn in list(self.arriving):
            if conn.deadline > now:
                break
            self._forget(conn)
        super().murder_pending()
