"""A small TCP proxy on loopback between phones and the server: the network's faults, on demand.

``cut()`` closes every connection through it at once, as a router restarting or a phone's radio
dropping would. ``down()`` is the network gone until ``up()``: every connection cut, every new one
closed as it opens (a phone's own requests and its service worker's alike). With ``answers=False``
a request reaches the server but its answer never reaches the phone (the connection is closed as the
server answers): the Wi-Fi dropping just after a form was sent. With ``buffering=True`` it holds back everything a server sends on an event stream
(as a reverse proxy that buffers responses does), while passing every other answer on.
``refuse(n, answer)`` answers the next ``n`` htmx POSTs under a table's address with ``answer`` itself (a server
behind: companion/server/serving.py's 503), never passing them on.
"""

from __future__ import annotations

import socket
import threading


class Proxy:
    def __init__(self, target_port: int, buffering: bool = False) -> None:
        self.target_port = target_port
        self.buffering = buffering
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._sockets: set[socket.socket] = set()
        self._lock = threading.Lock()
        self.cuts = 0
        self.is_down = False
        self.answers = True
        self._refusing = 0
        self._refusal = b""
        self.refused = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                phone, _ = self.listener.accept()
            except OSError:
                return
            if self.is_down:
                phone.close()
                continue
            try:
                server = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                phone.close()
                continue
            with self._lock:
                self._sockets |= {phone, server}
            threading.Thread(target=self._pump, args=(phone, server, False, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, phone, self.buffering, True), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, holds_streams: bool, to_phone: bool) -> None:
        held = False
        try:
            while data := source.recv(65536):
                if not to_phone and self._refuses(data):
                    # Answered here, the rest of the request read and dropped (closed unread, it would reset
                    # the connection before the phone read the answer), as the server closes after it.
                    source.sendall(self._refusal)
                    source.shutdown(socket.SHUT_WR)
                    source.settimeout(2)
                    while source.recv(65536):
                        pass
                    break
                if holds_streams and b"text/event-stream" in data:
                    held = True  # this connection carries a stream: nothing more of it gets through
                if to_phone and not self.answers:
                    break  # the answer is lost on its way to the phone
                if not held:
                    sink.sendall(data)
        except OSError:
            pass
        finally:
            self._close(source, sink)

    def _close(self, *sockets: socket.socket) -> None:
        for sock in sockets:
            with self._lock:
                self._sockets.discard(sock)
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def refuse(self, count: int, answer: bytes) -> None:
        """Answer the next ``count`` htmx POSTs under a table's address with ``answer``, the server never asked."""
        with self._lock:
            self._refusing, self._refusal = count, answer

    def _refuses(self, data: bytes) -> bool:
        with self._lock:
            if self._refusing and data.startswith(b"POST /t/") and b"\r\nhx-request: true" in data.lower():
                self._refusing -= 1
                self.refused += 1
                return True
        return False

    def cut(self) -> None:
        """Close every connection through the proxy now (new ones are accepted as before)."""
        with self._lock:
            sockets = list(self._sockets)
        self._close(*sockets)
        self.cuts += 1

    def down(self) -> None:
        """The network gone: every connection cut, every new one closed at once, until ``up()``."""
        self.is_down = True
        self.cut()

    def up(self) -> None:
        """The network back."""
        self.is_down = False

    def close(self) -> None:
        self.listener.close()
        self.cut()
