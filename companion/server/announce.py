"""What gunicorn says once it listens: the address the phones at the table open, and its QR code on a terminal."""

from __future__ import annotations

import io
import socket
import sys
from urllib.parse import urlsplit

import segno

from ..web import hosting

# White glyphs on black, whatever the terminal's colours: segno draws the light modules as blocks,
# and a scanner needs dark modules on a light ground (a dark-on-light terminal would invert it).
LIGHT_ON_DARK = "\x1b[97;40m"
RESET = "\x1b[0m"


def terminal_qr(url: str) -> str:
    """The QR code of ``url`` in half-block characters, two modules a line."""
    drawn = io.StringIO()
    segno.make(url, error="m").terminal(drawn, compact=True)
    return "".join(f"{LIGHT_ON_DARK}{line}{RESET}\n" for line in drawn.getvalue().splitlines())


def announcement(url: str, *, local_only: bool, with_qr: bool) -> str:
    """The lines for the person who started the server."""
    if local_only:
        return (f"\nListening on this machine only ({url}): phones cannot reach it.\n(`make run` without"
                " HOST=127.0.0.1 serves the phones on the Wi-Fi; behind a reverse proxy, set COMPANION_PUBLIC_URL.)\n\n")
    qr = terminal_qr(url) if with_qr else ""
    return f"\nPhones at the table open: {url}\n(same Wi-Fi as this machine; or scan)\n{qr}\n"


def listening_addresses(worker) -> list[tuple[str, int]]:
    """The host and port of each of gunicorn's TCP sockets, as bound."""
    return [tuple(listener.getsockname()[:2]) for listener in worker.sockets
            if listener.FAMILY in (socket.AF_INET, socket.AF_INET6)]


def listening_hosts(worker) -> list[str]:
    """The hosts gunicorn's TCP sockets are bound to ("0.0.0.0" for every interface)."""
    return [host for host, _port in listening_addresses(worker)]


def listening_address(worker) -> tuple[str, int] | None:
    """The host and port of gunicorn's first TCP socket, as bound."""
    found = listening_addresses(worker)
    return found[0] if found else None


def announce(worker) -> None:
    """Print the phones' address (with a QR code when a person is watching a terminal) to gunicorn's stdout.

    Called by a worker: its app's settings (``PUBLIC_URL`` from instance/config.py or the
    environment) are the ones the join links use, and the master never loads the app.
    """
    address = listening_address(worker)
    if address is None:
        return
    host, port = address
    config = getattr(worker.wsgi, "config", {})
    scheme = "https" if worker.cfg.is_ssl else "http"
    url = hosting.served_root(scheme, host, port, config.get("PUBLIC_URL"))
    local_only = hosting.is_loopback(urlsplit(url).hostname or "")
    sys.stdout.write(announcement(url, local_only=local_only, with_qr=sys.stdout.isatty()))
    sys.stdout.flush()
