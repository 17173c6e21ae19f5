"""A worker behind bends (companion/server/serving.py): what the page sends again by itself is told to come back."""

from __future__ import annotations

import socket
import time
from collections import deque

import pytest
from gunicorn.workers import gthread

from browser.server import scratch_database, start_server, stop_server
from companion.server import serving
from companion.server.serving import BEHIND_SECONDS, Connection, HeadFirstWorker, sheddable

ENTRY = (b"POST /t/AbCdEfGhIjKlMnOpQrStUv/sheet/round HTTP/1.1\r\nHost: x\r\nHX-Request: true\r\n"
         b"Content-Length: 9\r\n\r\nround=1&a")


@pytest.mark.parametrize("head, sent_again", [
    (ENTRY, True),  # an entry an htmx form sends: connection.js sends it again
    (b"GET /t/AbCdEfGhIjKlMnOpQrStUv/live?seen=4 HTTP/1.1\r\nhx-request: true\r\n\r\n", True),  # a poll
    (b"GET /w/AbCdEfGhIjKlMnOpQrStUv/live?seen=4 HTTP/1.1\r\nHX-Request:true\r\n\r\n", True),  # the watch view's
    (ENTRY.replace(b"HX-Request: true\r\n", b""), False),  # a plain form: nobody would send it again
    (b"POST /t/AbCdEfGhIjKlMnOpQrStUv/memo/edit HTTP/1.1\r\nHX-Request: false\r\n\r\n", False),
    (b"GET /t/AbCdEfGhIjKlMnOpQrStUv/stream HTTP/1.1\r\nHX-Request: true\r\n\r\n", False),  # a stream
    (b"GET /t/AbCdEfGhIjKlMnOpQrStUv HTTP/1.1\r\nHX-Request: true\r\n\r\n", False),  # the page itself
    (b"GET / HTTP/1.1\r\nHX-Request: true\r\n\r\n", False),
    (b"POST /groups/1/remove HTTP/1.1\r\nHX-Request: true\r\n\r\n", False),
    # The header in the body, not the head: not htmx's.
    (b"POST /t/AbCdEfGhIjKlMnOpQrStUv/sheet/round HTTP/1.1\r\nContent-Length: 20\r\n\r\n\r\nhx-request: true\r\n", False),
])
def test_only_what_the_page_sends_again_by_itself_may_be_refused(head, sent_again):
    assert sheddable(head) is sent_again


@pytest.fixture
def worker():
    """The worker's loop state alone (no gunicorn): what it queued, by request."""
    worker = HeadFirstWorker.__new__(HeadFirstWorker)
    worker.sockets = []
    worker.arriving, worker.waiting, worker.refused, worker.nr_conns = {}, deque(), 0, 1
    worker.queued = []
    worker.enqueue_req = worker.queued.append
    worker.poller = type("Poller", (), {"unregister": lambda self, sock: None,
                                        "register": lambda self, sock, events, then: None})()
    yield worker
    for sock in worker.sockets:
        sock.close()


def arrived(worker, data: bytes) -> socket.socket:
    """A request ``data`` fully arrived at ``worker``; the phone's end of its connection."""
    server, phone = socket.socketpair()
    worker.sockets += [server, phone]
    conn = Connection.__new__(Connection)
    conn.sock, conn.ahead = server, bytearray(data)
    conn.close = server.close
    worker.request_arrived(conn)
    phone.settimeout(2)
    return phone


def waited(worker, seconds: float) -> Connection:
    """A request handed to the threads ``seconds`` ago, not taken by one yet."""
    conn = Connection.__new__(Connection)
    conn.waiting_since = time.monotonic() - seconds
    worker.waiting.append((conn.waiting_since, conn))
    return conn


def test_a_worker_keeping_up_queues_every_request(worker):
    arrived(worker, ENTRY)
    assert len(worker.queued) == 1 and worker.refused == 0
    assert not worker.behind(time.monotonic())


def test_a_worker_behind_tells_the_page_when_to_come_back_and_queues_only_what_nobody_would_send_again(worker):
    waited(worker, BEHIND_SECONDS + 0.1)  # a request waiting for a thread that long
    phone = arrived(worker, ENTRY)
    answer = phone.recv(65536).decode("latin-1")
    status, *headers = answer.split("\r\n\r\n")[0].split("\r\n")
    assert status == "HTTP/1.1 503 Service Unavailable"
    assert f"Retry-After: {serving.RETRY_AFTER_SECONDS}" in headers
    assert any(header.startswith("Content-Security-Policy: ") for header in headers)
    assert "Connection: close" not in headers
    # The connection kept for the page's next request (read ahead in the loop as every request is).
    assert list(worker.arriving)[0].sock.fileno() != -1 and list(worker.arriving)[0].ahead == bytearray()
    assert worker.queued == [] and worker.refused == 1
    # A plain form's POST is queued however long the wait: refused, it would be lost.
    arrived(worker, ENTRY.replace(b"HX-Request: true\r\n", b""))
    assert len(worker.queued) == 1 and worker.refused == 1


def test_a_refused_request_not_read_whole_closes_its_connection(worker):
    # Its body's rest would be read as the next request.
    waited(worker, BEHIND_SECONDS + 0.1)
    phone = arrived(worker, ENTRY.replace(b"Content-Length: 9", b"Content-Length: 90000"))
    answer = phone.recv(65536).decode("latin-1")
    assert answer.startswith("HTTP/1.1 503 ") and "\r\nConnection: close\r\n" in answer
    assert phone.recv(1) == b"" and not worker.arriving


def test_a_request_a_thread_has_taken_waits_no_more(worker, monkeypatch):
    oldest = waited(worker, BEHIND_SECONDS + 1)
    waited(worker, BEHIND_SECONDS / 2)
    assert worker.behind(time.monotonic())
    monkeypatch.setattr(gthread.ThreadWorker, "handle", lambda self, conn: None)  # gunicorn's own handling, left out
    worker.handle(oldest)  # as a thread takes it
    assert not worker.behind(time.monotonic())  # the next one has waited a quarter second
    assert len(worker.waiting) == 1
    # A kept-alive connection whose next request arrived: its earlier request's place in line counts no more.
    again = waited(worker, 0.01)
    worker.waiting.appendleft((again.waiting_since - 5, again))
    assert not worker.behind(time.monotonic())


def _send(port: int, data: bytes) -> socket.socket:
    phone = socket.create_connection(("127.0.0.1", port), timeout=5)
    phone.sendall(data)
    return phone


def _status(phone: socket.socket) -> str:
    """The status line of the answer on ``phone`` (waiting for it up to the socket's timeout)."""
    return phone.recv(65536).split(b"\r\n", 1)[0].decode("latin-1")


@pytest.mark.timing
def test_the_real_server_behind_refuses_what_a_page_sends_again_and_answers_the_rest_once_it_catches_up(tmp_path):
    """gunicorn with the project's worker and one thread, held by a form whose body is slow to arrive."""
    database_url, drop = scratch_database(tmp_path)
    process, url = start_server(database_url, tmp_path / "gunicorn.log", workers=1, args=("--threads", "1"))
    port = int(url.rsplit(":", 1)[1])
    poll = b"GET /t/AbCdEfGhIjKlMnOpQrStUv/live?seen=1 HTTP/1.1\r\nHost: x\r\nHX-Request: true\r\n\r\n"
    phones = []
    try:
        # The thread reads a large form's body as it trickles in: it is busy until the rest arrives.
        body = b"note=" + b"x" * 100_000
        slow = _send(port, b"POST /history HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                           b"Content-Length: %d\r\n\r\n" % len(body) + body[:10])
        time.sleep(0.2)
        waiting = _send(port, poll)  # waits for the thread
        time.sleep(BEHIND_SECONDS + 0.3)
        refused = _send(port, poll)
        refused.settimeout(1)
        started = time.monotonic()
        assert _status(refused) == "HTTP/1.1 503 Service Unavailable"
        assert time.monotonic() - started < 0.5  # at once, from the loop, no thread asked
        page = _send(port, poll.replace(b"HX-Request: true\r\n", b""))  # a page's own request: it waits its turn
        phones += [slow, waiting, refused, page]
        slow.sendall(body[10:])
        for phone in (slow, waiting, page):
            assert not _status(phone).startswith("HTTP/1.1 503")
        # Caught up: the same poll is answered again.
        phones.append(again := _send(port, poll))
        assert not _status(again).startswith("HTTP/1.1 503")
    finally:
        for phone in phones:
            phone.close()
        stop_server(process)
        drop()


def test_a_tables_rendering_waiting_for_a_thread_makes_the_worker_behind_as_a_request_does(worker):
    # Pushes wait in line with the requests: an entry taken behind them would reach its phones that late.
    ran = []
    worker.tpool = type("Pool", (), {"submit": lambda self, fn, *args, **kwargs: ran.append((fn, args, kwargs))})()
    worker.submit(lambda table: table, 7)
    assert not worker.behind(time.monotonic())
    assert worker.behind(time.monotonic() + BEHIND_SECONDS)
    run, args, kwargs = ran[0]
    assert run(*args, **kwargs) == 7  # a thread takes it: it waits no more
    assert not worker.behind(time.monotonic() + BEHIND_SECONDS)
