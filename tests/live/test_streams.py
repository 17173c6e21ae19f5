"""The table page's stream (companion/live/streams.py): what it says, to whom, and what the app answers without it."""

from __future__ import annotations

import socket
import time
from collections import deque

import pytest

from companion.live import streams
from companion.live.streams import Hub, Stream
from companion.server.serving import BEHIND_SECONDS

from helpers import make_table


@pytest.fixture
def pair():
    """A connected pair of sockets: the server's end of a stream and the phone's."""
    server, phone = socket.socketpair()
    server.setblocking(False)
    phone.settimeout(2)
    yield server, phone
    server.close()
    phone.close()


def events(phone: socket.socket) -> list[tuple[str, str]]:
    """The (event, data) pairs the phone has been sent so far, as EventSource reads them."""
    phone.setblocking(False)
    data = b""
    try:
        while chunk := phone.recv(65536):
            data += chunk
    except BlockingIOError:
        pass
    found = []
    for block in data.decode().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in fields:
            found.append((fields["event"], fields.get("data", "")))
    return found


@pytest.mark.parametrize(("head", "expected"), [
    (b"GET /t/abcdefghijklmnopqrstuv/stream HTTP/1.1\r\nHost: x\r\n\r\n", ("abcdefghijklmnopqrstuv", False)),
    (b"GET /w/abcdefghijklmnopqrstuv/stream HTTP/1.1\r\n\r\n", ("abcdefghijklmnopqrstuv", True)),
    # A reconnecting browser's own query (none is needed: the version comes first thing) changes nothing.
    (b"GET /t/abcdefghijklmnopqrstuv/stream?seen=4 HTTP/1.1\r\n\r\n", ("abcdefghijklmnopqrstuv", False)),
    (b"GET /t/abcdefghijklmnopqrstuv/live HTTP/1.1\r\n\r\n", None),
    (b"POST /t/abcdefghijklmnopqrstuv/stream HTTP/1.1\r\n\r\n", None),
    (b"GET /t/abc/stream HTTP/1.1\r\n\r\n", None),  # not a table's token
    (b"GET /t/abcdefghijklmnopqrstuv/stream/x HTTP/1.1\r\n\r\n", None),
])
def test_only_a_get_of_a_table_stream_is_held_as_a_stream(head, expected):
    assert streams.stream_path(head) == expected


def test_a_phone_is_told_the_version_once_and_never_an_older_one(pair):
    server, phone = pair
    hub = Hub()
    stream = Stream(server, table_id=7, told=3)
    hub.add(stream)
    assert hub.publish({7: 4}) == ([], {})
    assert hub.publish({7: 4}) == ([], {})  # heard twice (a recheck): said once
    assert hub.publish({7: 2}) == ([], {})  # an older read never goes back
    assert hub.publish({8: 9}) == ([], {})  # another table's
    assert events(phone) == [("version", "4")]
    assert stream.told == 4


def test_a_stream_whose_regions_are_pushed_is_given_to_the_renderer_not_told_the_version(pair):
    server, phone = pair
    hub = Hub()
    stream = Stream(server, table_id=7, told=3, subscriber=object())
    hub.add(stream)
    assert hub.publish({7: 4}) == ([], {7: [stream]})
    assert events(phone) == []  # its region comes instead (companion/live/pushes.py)
    assert hub.push(4, {stream: b"id: 4\nevent: region\ndata: <div>4</div>\n\n"}) == []
    # A region rendered for an older version, late, never goes over the newer one; without a region, the version.
    assert hub.push(3, {stream: b"id: 3\nevent: region\ndata: <div>3</div>\n\n"}) == []
    assert hub.publish({7: 5}) == ([], {7: [stream]})
    assert hub.push(5, {stream: None}) == []
    assert events(phone) == [("region", "<div>4</div>"), ("version", "5")]
    assert stream.told == 5


def test_a_region_the_socket_does_not_take_at_once_is_sent_as_it_drains(pair):
    server, phone = pair
    server.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    waiting = []
    stream = Stream(server, table_id=1, told=0, on_pending=lambda: waiting.append(True))
    region = b"event: region\n" + b"data: " + b"x" * 200_000 + b"\n\n"
    assert stream.send(region) and stream.pending and waiting == [True]
    received = b""
    phone.settimeout(2)
    while stream.pending:
        received += phone.recv(1 << 20)
        assert stream.flush()
    while len(received) < len(region):
        received += phone.recv(1 << 20)
    assert received == region


def test_a_stream_opened_after_a_version_was_heard_is_told_it_at_once(pair):
    # Its head was read just before an entry another stream of the table was told of.
    server, phone = pair
    other_server, other_phone = socket.socketpair()
    other_server.setblocking(False)
    hub = Hub()
    hub.add(Stream(other_server, table_id=7, told=3))
    hub.publish({7: 5})
    late = Stream(server, table_id=7, told=4)
    hub.add(late)
    assert events(phone) == [("version", "5")] and late.told == 5
    other_server.close()
    other_phone.close()


def test_a_stream_opened_after_an_entry_not_yet_reported_does_not_keep_it_from_the_tables_other_streams(pair):
    # A restart: Ana's stream opened at version 5; then entry 6, and Ben's stream opened (its head read after the
    # commit) before the watcher reported 6. Ana is pushed 6 all the same.
    server, phone = pair
    ben_server, ben_phone = socket.socketpair()
    ben_server.setblocking(False)
    hub = Hub()
    ana = Stream(server, table_id=7, told=5)
    hub.add(ana)
    hub.add(Stream(ben_server, table_id=7, told=6))
    assert hub.publish({7: 6}) == ([], {})
    assert events(phone) == [("version", "6")] and ana.told == 6
    ben_server.close()
    ben_phone.close()


def test_the_heartbeat_reaches_every_stream_when_due_and_a_gone_phone_is_reported(pair, monkeypatch):
    server, phone = pair
    gone_server, gone_phone = socket.socketpair()
    gone_server.setblocking(False)
    gone_phone.close()
    hub = Hub()
    hub.add(Stream(server, table_id=1, told=0))
    gone = Stream(gone_server, table_id=2, told=0)
    hub.add(gone)
    start = hub._beat_at - streams.HEARTBEAT
    assert hub.beat(start + 1) == []  # not due yet
    assert events(phone) == []
    lost = hub.beat(start + streams.HEARTBEAT)
    assert lost == [gone]
    # The beat says the version the stream was last told: a page showing an older one asks (static/app.js).
    assert events(phone) == [("beat", "0")]
    hub.remove(gone)
    assert hub.table_ids() == [1]
    gone_server.close()


def test_a_stream_the_phone_does_not_read_holds_the_newest_message_only_and_is_given_up_at_a_beat(pair):
    server, phone = pair
    hub = Hub()
    stream = Stream(server, table_id=1, told=0)
    hub.add(stream)
    # The phone never reads: its socket's buffers fill, and what waits is the message under way and the newest.
    for number in range(1, 50_000):
        assert hub.publish({1: number}) == ([], {})
    assert stream.pending and stream.queued == streams.version(49_999)
    assert len(stream.pending) < 100
    # Not given up while it may still be reading; given up once it has read nothing for UNREAD_SECONDS.
    start = hub._beat_at
    assert hub.beat(start) == []
    assert hub.beat(start + streams.UNREAD_SECONDS + streams.HEARTBEAT) == [stream]


def slow_reader(server: socket.socket) -> tuple[Hub, Stream]:
    """A hub holding one pushed stream whose socket takes a few KB at a time: what it is sent waits as it drains."""
    server.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    hub = Hub()
    stream = Stream(server, table_id=7, told=0, subscriber=object())
    hub.add(stream)
    return hub, stream


def test_a_phone_behind_gets_its_tables_newest_region_once_not_the_ones_it_missed(pair):
    server, phone = pair
    hub, stream = slow_reader(server)
    regions = {number: b"id: %d\nevent: region\ndata: <div>%d %s</div>\n\n" % (number, number, b"x" * 100_000)
               for number in range(1, 5)}
    for number, region in regions.items():
        assert hub.push(number, {stream: region}) == []
    assert stream.told == 4
    received = b""
    phone.settimeout(2)
    while stream.pending or len(received) < len(regions[1]) + len(regions[4]):
        received += phone.recv(1 << 20)
        assert stream.flush()
    # The region under way when the others came, whole, then the newest: versions 2 and 3 never travel.
    assert received == regions[1] + regions[4]


def test_the_last_word_to_a_phone_taken_out_is_not_replaced_by_a_later_region(pair):
    server, phone = pair
    hub, stream = slow_reader(server)
    under_way = b"id: 1\nevent: region\ndata: " + b"x" * 100_000 + b"\n\n"
    gone = b"id: 0\nevent: region\ndata: <p>gone</p>\n\n"
    assert hub.push(1, {stream: under_way}) == []
    assert hub.push(0, {stream: gone}, again=True, last=True) == []
    assert hub.push(2, {stream: b"id: 2\nevent: region\ndata: <div>2</div>\n\n"}) == []
    received = b""
    phone.settimeout(2)
    while stream.pending or not received.endswith(gone):
        received += phone.recv(1 << 20)
        assert stream.flush()
    assert received == under_way + gone


def test_the_response_says_event_stream_unbuffered_with_the_security_headers():
    head = streams.response_head([("Content-Security-Policy", "default-src 'self'")]).decode()
    status, *lines = head.split("\r\n\r\n")[0].split("\r\n")
    assert status == "HTTP/1.1 200 OK"
    assert "Content-Type: text/event-stream; charset=utf-8" in lines
    assert "X-Accel-Buffering: no" in lines and "Cache-Control: no-store" in lines
    assert "Content-Security-Policy: default-src 'self'" in lines
    assert head.endswith("\r\n\r\nretry: 1000\n\n")


def test_without_a_worker_holding_streams_the_app_ends_the_stream_at_once_and_the_page_polls(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    response = client.get(f"/t/{token}/stream")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/event-stream")
    # The page's sse-close event: the browser stops asking; the one-second poll goes on.
    assert response.data == b"event: nostream\ndata: \n\n"
    page = client.get(f"/t/{token}").get_data(as_text=True)
    assert f'sse-connect="/t/{token}/stream"' in page and 'sse-close="nostream"' in page
    assert client.get("/t/aaaaaaaaaaaaaaaaaaaaaa/stream").status_code == 404


def test_the_watch_view_has_a_stream_of_its_own_token(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    page = client.get(f"/t/{token}").get_data(as_text=True)
    import re

    watch = re.search(r'href="/w/([^"/]+)"', page)
    assert watch is not None
    watch_page = client.get(f"/w/{watch[1]}").get_data(as_text=True)
    assert f'sse-connect="/w/{watch[1]}/stream"' in watch_page
    assert token not in watch_page
    assert client.get(f"/w/{watch[1]}/stream").status_code == 200


def test_a_worker_behind_renders_each_tables_newest_version_not_each_it_missed(pair):
    from companion.live.changes import Heard
    from companion.server.streaming import StreamingWorker

    server, phone = pair
    submitted = []
    worker = StreamingWorker.__new__(StreamingWorker)  # its loop's state alone: no gunicorn, no app
    worker.hub, worker.rendering, worker.unsent_since, worker.waiting = Hub(), {}, {}, deque()
    worker.tpool = type("Pool", (), {"submit": lambda self, *call, **options: submitted.append(call)})()
    stream = Stream(server, table_id=7, told=5, subscriber=object())
    worker.hub.add(stream)

    def heard(number):
        return Heard(number, "playing", None, None)

    worker._render_soon(7, heard(6))
    # Entries 7 and 8 while 6 is being rendered: nothing more is rendered until it is done, and then 8 alone.
    worker._render_soon(7, heard(7))
    worker._render_soon(7, heard(8))
    assert [call[3].last_seq for call in submitted] == [6]
    # Its phones not sent a version heard for half a second: the worker is behind (it refuses what pages send again).
    assert worker.behind(time.monotonic() + BEHIND_SECONDS) and not worker.behind(time.monotonic())
    worker._push(6, {stream: b"id: 6\nevent: region\ndata: <div>6</div>\n\n"}, None, False, 7)
    assert [call[3].last_seq for call in submitted] == [6, 8]
    assert submitted[1][4] == [stream]
    worker._push(8, {stream: b"id: 8\nevent: region\ndata: <div>8</div>\n\n"}, None, False, 7)
    assert events(phone) == [("region", "<div>6</div>"), ("region", "<div>8</div>")]
    assert worker.rendering == {} and len(submitted) == 2
    # Every version sent, and the threads' line empty (each taken by a thread): no longer behind.
    for call in submitted:
        call[0].__self__.waiting_since = None
    assert not worker.behind(time.monotonic() + BEHIND_SECONDS)
