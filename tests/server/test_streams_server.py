"""The streams under gunicorn as `make run` serves them: many open pages cost no threads, and every one hears each entry.

Loopback only; raw sockets read as a browser's EventSource reads them. The entries are recorded by
this process on the server's database, as another worker or another app host would.
"""

from __future__ import annotations

import os
import selectors
import signal
import socket
import time
from types import SimpleNamespace

import psutil
import pytest

from browser.server import scratch_database, start_server, stop_server
from bench.__main__ import seated_phones
from browser.tables import record_entry, record_table
from companion.table.recording import cache

# It measures how soon a change is heard: it runs alone, never beside another test (`make test`).
pytestmark = pytest.mark.timing

STREAMS = 600
WORKERS = 2
THREADS = 4  # companion/server/gunicorn_conf.py


class Phone:
    """One open stream, read without waiting: the versions it was told, in order."""

    def __init__(self, port: int, path: str, cookie: str = "") -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                          f"{f'Cookie: {cookie}' + chr(13) + chr(10) if cookie else ''}\r\n".encode())
        self.sock.setblocking(False)
        self.data = b""
        self.ended = False

    def read(self) -> None:
        try:
            while chunk := self.sock.recv(65536):
                self.data += chunk
            self.ended = True
        except BlockingIOError:
            pass
        except OSError:
            self.ended = True

    @property
    def status(self) -> str:
        return self.data.split(b"\r\n", 1)[0].decode()

    @property
    def versions(self) -> list[int]:
        """The versions it was told: a version notice's, or a pushed region's (its id: companion/live/pushes.py)."""
        body = self.data.split(b"\r\n\r\n", 1)[-1].decode()
        told = []
        for block in body.split("\n\n"):
            if "event: version" in block:
                told.append(int(block.rsplit("data: ", 1)[1]))
            elif "event: region" in block:
                told.append(int(block.split("id: ", 1)[1].split("\n", 1)[0]))
        return told

    @property
    def regions(self) -> list[str]:
        """The regions pushed to it, as its page's EventSource hands them over (the data lines joined)."""
        body = self.data.split(b"\r\n\r\n", 1)[-1].decode()
        return ["\n".join(line[6:] for line in block.split("\n") if line.startswith("data: "))
                for block in body.split("\n\n") if "event: region" in block]

    def close(self) -> None:
        self.sock.close()


def read_until(phones: list[Phone], done, seconds: float) -> float:
    """Read every phone until ``done()`` holds; the seconds it took (fails past ``seconds``)."""
    selector = selectors.DefaultSelector()
    for phone in phones:
        selector.register(phone.sock, selectors.EVENT_READ, phone)
    started = time.monotonic()
    try:
        while not done():
            if time.monotonic() - started > seconds:
                raise AssertionError(f"not done within {seconds} s")
            for key, _ in selector.select(0.05):
                key.data.read()
                if key.data.ended:
                    selector.unregister(key.fileobj)
        return time.monotonic() - started
    finally:
        selector.close()


@pytest.fixture
def server(tmp_path):
    # The entries are recorded by this process: the states it kept of another test's tables (same ids) go.
    cache.clear()
    database_url, drop = scratch_database(tmp_path)
    process, url = start_server(database_url, tmp_path / "gunicorn.log", workers=WORKERS)
    yield process, url, database_url
    stop_server(process)
    drop()


def new_table(database_url: str) -> tuple[str, str]:
    """A Carambouille table of three in the server's database: its player and watch tokens."""
    return record_table(SimpleNamespace(database_url=database_url), "carambouille", ["Ana", "Ben", "Chloé"],
                        {"first_trader": 0}, [])


def worker_threads(process) -> list[int]:
    return [child.num_threads() for child in psutil.Process(process.pid).children()]


def test_six_hundred_open_pages_hold_no_thread_and_each_hears_every_entry_within_a_second(server):
    process, url, database_url = server
    port = int(url.rsplit(":", 1)[1])
    tables = [new_table(database_url) for _ in range(3)]
    phones = [Phone(port, f"/{'w' if n % 5 == 0 else 't'}/{tables[n % 3][1 if n % 5 == 0 else 0]}/stream")
              for n in range(STREAMS)]
    try:
        # Each is told at once the version its table is at (its catch-up), 200 OK as an event stream.
        read_until(phones, lambda: all(phone.versions == [0] for phone in phones), seconds=20)
        assert all(phone.status == "HTTP/1.1 200 OK" for phone in phones)
        # Open pages are sockets, not threads: each worker has its four threads and its own few (the loop,
        # the bell sweeper, the bins' emptier, the streams' watcher, PostgreSQL's head board), whatever the streams.
        assert all(count <= THREADS + 5 for count in worker_threads(process)), worker_threads(process)
        version = record_entry(database_url, tables[0][0], {"type": "market_opened"})
        took = read_until(phones, lambda: all(phone.versions[-1] == version for phone in phones[::3]), seconds=5)
        print(f"\n{STREAMS} streams: table 1's {len(phones[::3])} heard its entry within {1000 * took:.0f} ms")
        assert took < 1.0
        # The other tables' streams were told nothing.
        assert all(phone.versions == [0] for index, phone in enumerate(phones) if index % 3)
    finally:
        for phone in phones:
            phone.close()


def test_an_unknown_table_has_no_stream(server):
    _process, url, _database_url = server
    phone = Phone(int(url.rsplit(":", 1)[1]), "/t/aaaaaaaaaaaaaaaaaaaaaa/stream")
    try:
        # The answer itself, not the connection's end: gunicorn keeps it alive for its keepalive (5 s).
        read_until([phone], lambda: phone.ended or b"\r\n\r\n" in phone.data, seconds=5)
        assert phone.status == "HTTP/1.1 404 NOT FOUND"
        assert b"text/event-stream" not in phone.data.split(b"\r\n\r\n", 1)[0]
    finally:
        phone.close()


def test_a_stopping_worker_closes_its_streams_at_once_and_the_phone_reconnects_to_the_table_as_it_is(server):
    process, url, database_url = server
    port = int(url.rsplit(":", 1)[1])
    token, _ = new_table(database_url)
    phones = [Phone(port, f"/t/{token}/stream") for _ in range(20)]
    try:
        read_until(phones, lambda: all(phone.versions == [0] for phone in phones), seconds=10)
        # A worker told to stop (a reload, a restart by the master) does not hold its streams for
        # its whole graceful timeout (10 s): they end at once, and their phones reconnect to the others.
        worker = max(psutil.Process(process.pid).children(), key=lambda child: len(held_by(child, phones)))
        held = held_by(worker, phones)
        assert held
        worker.send_signal(signal.SIGTERM)
        took = read_until(phones, lambda: all(phone.ended for phone in held), seconds=5)
        assert took < 3.0
        assert not any(phone.ended for phone in phones if phone not in held)
        version = record_entry(database_url, token, {"type": "market_opened"})
        again = Phone(port, f"/t/{token}/stream")
        read_until([again], lambda: again.versions == [version], seconds=10)
        again.close()
    finally:
        for phone in phones:
            phone.close()


def held_by(worker, phones: list[Phone]) -> list[Phone]:
    """The phones whose stream this worker holds (its sockets' far ends are the phones' own ports)."""
    far = {connection.raddr.port for connection in worker.net_connections(kind="tcp") if connection.raddr}
    return [phone for phone in phones if phone.sock.getsockname()[1] in far]


def test_each_seated_phone_is_pushed_its_own_region_rendered_once_for_the_server(server):
    process, url, database_url = server
    port = int(url.rsplit(":", 1)[1])
    token, _ = new_table(database_url)
    seated = seated_phones(url, [(token, 0)], seats=3)
    phones = [Phone(port, f"/t/{token}/stream", cookie) for _poll, cookie in seated]
    try:
        read_until(phones, lambda: all(phone.versions == [seated[0][0].seen] for phone in phones), seconds=10)
        version = record_entry(database_url, token, {"type": "market_opened"})
        read_until(phones, lambda: all(phone.regions for phone in phones), seconds=5)
        for name, phone in zip(["Ana", "Ben", "Chloé"], phones):
            region = phone.regions[-1]
            assert f'data-seen="{version}"' in region and f"<summary>This phone is {name}'s" in region
            # A region the page can act on: the phone's own CSRF token filled in, no marker left.
            assert 'name="csrf_token" value=""' not in region and "\x00" not in region
        # The workers' host store: one folder the master made, private, holding the table's regions.
        folders = [path for path in os.listdir("/dev/shm") if path.startswith(f"companion-regions-{process.pid}-")]
        assert len(folders) == 1
        assert os.stat(f"/dev/shm/{folders[0]}").st_mode & 0o777 == 0o700
    finally:
        for phone in phones:
            phone.close()
