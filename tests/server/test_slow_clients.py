"""Slow clients cannot stop the server: 120 connections trickling a header line a second, and the table still answers.

`make run` serves the phones of the home network directly, with nothing in front to buffer a
slow request. Each slow client here opens a connection to 127.0.0.1 and sends its request
head one line a second, never finishing it; meanwhile a phone asks for a page twice a second.
Loopback only, a fixed number of connections, for a fixed time; everything is closed at the end.
With gunicorn's gthread workers as they were (a thread held per connection from its first
byte), 24 such connections stopped every answer within 4 s.
"""

from __future__ import annotations

import os
import socket
import time
import urllib.request

import pytest

from browser.server import scratch_database, start_server, stop_server

# It measures how soon a change is heard: it runs alone, never beside another test (`make test`).
pytestmark = pytest.mark.timing

SLOW_CLIENTS = int(os.environ.get("SLOW_CLIENTS", "120"))
SECONDS = 8
WORKERS = 4


def trickle(port: int, count: int) -> list[socket.socket]:
    sockets = []
    for n in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=5)
        connection.sendall(f"GET /?slow={n} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode())
        sockets.append(connection)
    return sockets


def one_more_line(sockets: list[socket.socket], line: int) -> int:
    """Send each slow client's next header line; how many connections the server still keeps open."""
    open_ = 0
    for connection in sockets:
        try:
            connection.sendall(f"X-Slow-{line}: {line}\r\n".encode())
            open_ += 1
        except OSError:
            pass
    return open_


def ask(url: str) -> float | None:
    """Seconds a phone waited for the home page, or None if it got no answer within 3 s."""
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=3) as response:
            response.read()
            return time.monotonic() - started if response.status == 200 else None
    except OSError:
        return None


def test_the_table_still_answers_while_slow_clients_trickle_their_headers(tmp_path):
    database_url, drop = scratch_database(tmp_path)
    process, url = start_server(database_url, tmp_path / "gunicorn.log", workers=WORKERS)
    port = int(url.rsplit(":", 1)[1])
    sockets: list[socket.socket] = []
    waits: list[float | None] = []
    try:
        sockets = trickle(port, SLOW_CLIENTS)
        started, line = time.monotonic(), 0
        next_line = started
        while time.monotonic() - started < SECONDS:
            if time.monotonic() >= next_line:
                line += 1
                one_more_line(sockets, line)
                next_line += 1
            waits.append(ask(url + "/"))
            time.sleep(0.5)
    finally:
        for connection in sockets:
            connection.close()
        stop_server(process)
        drop()
    answered = [w for w in waits if w is not None]
    print(f"\n{SLOW_CLIENTS} slow clients: {len(answered)} of {len(waits)} page loads answered, "
          f"slowest {max(answered, default=0):.2f} s")
    assert len(answered) == len(waits), f"{len(waits) - len(answered)} of {len(waits)} page loads got no answer"
    assert max(answered) < 1.5


@pytest.mark.parametrize("data, ready", [
    (b"GET / HTTP/1.1\r\nHost: a\r\n", False),
    (b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", True),
    (b"POST /t/x/undo HTTP/1.1\r\nContent-Length: 10\r\n\r\nentry=", False),
    (b"POST /t/x/undo HTTP/1.1\r\ncontent-length: 10\r\n\r\nentry=1&k=", True),
    (b"POST /import HTTP/1.1\r\nContent-Length: 900000\r\n\r\n--", True),  # large: the thread reads it
    (b"POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", True),
    (b"GET /" + b"a" * 70_000, True),  # too large a head: gunicorn refuses it
])
def test_a_request_goes_to_a_thread_once_it_has_arrived(data, ready):
    from companion.server.serving import request_ready

    assert request_ready(data) is ready
