"""`make run` serves the phones of the home network: it listens on every interface and prints a LAN address with its
QR code, which the tables' join links carry too; it backs the library up as it starts, and opens no gunicorn control
socket. `HOST=127.0.0.1 make run` keeps it on this machine, and its join links are then loopback's.

The server is started by `make run` itself, on a terminal (a pseudo-terminal, so
the QR code is printed as for a person), on a free port and a scratch SQLite
file. Nothing is sent anywhere but to 127.0.0.1: the listening socket's address
is read from the operating system, and the printed URL is only looked at.
"""

from __future__ import annotations

import html
import http.cookiejar
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import psutil
import pytest
import zxingcpp
from PIL import Image

from browser.server import free_port
from companion.library import backup
from companion.web import hosting
from companion.views.tables import qr_svg
from helpers import csrf_token

ROOT = Path(__file__).resolve().parents[2]
ANNOUNCED = re.compile(r"Phones at the table open: (\S+)\n[^\n]*\n((?:\x1b\[[0-9;]*m[^\n]*\n)+)\n")
LOCAL_ONLY = re.compile(r"Listening on this machine only \((\S+)\): phones cannot reach it\.")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# segno's compact terminal drawing: each character is two modules, top and bottom; a glyph is light.
HALVES = {"█": (255, 255), "▀": (255, 0), "▄": (0, 255), " ": (0, 0)}

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")


def read_until(fd: int, pattern: re.Pattern, process: subprocess.Popen, seconds: float) -> tuple[re.Match, str]:
    """Read the terminal until ``pattern`` matches what it showed; the match and everything shown."""
    shown = ""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the terminal closed: everything behind it exited
                chunk = b""
            if not chunk:
                break
            shown += chunk.decode(errors="replace").replace("\r\n", "\n")
            if match := pattern.search(shown):
                return match, shown
        elif process.poll() is not None:
            break
    pytest.fail(f"`make run` printed no phones' address within {seconds} s:\n{shown[-3000:]}")


def scan_terminal_qr(drawing: str) -> str:
    """Decode a QR code drawn in half blocks on a terminal, as a phone's camera pointed at it would."""
    lines = [ANSI.sub("", line) for line in drawing.splitlines()]
    pixels = []
    for line in lines:
        halves = [HALVES[character] for character in line]
        pixels += [[top for top, _ in halves], [bottom for _, bottom in halves]]
    image = Image.new("L", (len(pixels[0]), len(pixels)))
    image.putdata([value for row in pixels for value in row])
    image = image.resize((image.width * 8, image.height * 8), Image.Resampling.NEAREST)
    found = zxingcpp.read_barcodes(image)
    assert found, "no QR code could be read from the terminal"
    return found[0].text


def listening_hosts(processes: list[psutil.Process], port: int) -> set[str]:
    """The addresses the server's processes listen on at ``port``, as the operating system lists them."""
    hosts = set()
    for process in processes:
        try:
            connections = process.net_connections(kind="inet")
        except psutil.NoSuchProcess:
            continue
        hosts |= {c.laddr.ip for c in connections if c.status == psutil.CONN_LISTEN and c.laddr.port == port}
    return hosts


def stop(process: subprocess.Popen, members: list[psutil.Process]) -> None:
    """Ctrl-C, as a person at the terminal would; SIGKILL for whatever of the group is still there after 15 s."""
    try:
        os.killpg(process.pid, signal.SIGINT)
    except ProcessLookupError:
        pass
    psutil.wait_procs(members, timeout=15)
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(5)


def make_run(tmp_path, port: int, *variables: str) -> tuple[subprocess.Popen, int, Path]:
    """`make run` on a terminal, on a scratch SQLite file and backup folder, the user's folders (where gunicorn would
    put its control socket) in a scratch place; its process, the terminal, and the user's folder."""
    environment = {name: value for name, value in os.environ.items()
                   if name not in ("HOST", "COMPANION_PUBLIC_URL", "COMPANION_BACKUPS_KEPT")}
    user = tmp_path / "user"
    (user / "run").mkdir(parents=True)
    environment |= {"DATABASE_URL": f"sqlite:///{tmp_path / 'run.sqlite'}", "SECRET_KEY": "make-run-test",
                    "COMPANION_BACKUP_FOLDER": str(tmp_path / "backups"), "HOME": str(user),
                    "XDG_RUNTIME_DIR": str(user / "run")}
    # The tests' own Python environment serves; `-o` keeps make from reinstalling it whatever the file dates say.
    command = ["make", "--no-print-directory", "-o", ".venv/.installed", "run", f"PORT={port}", "WORKERS=1",
               f"BIN={Path(sys.executable).parent}", *variables]
    terminal, terminal_end = pty.openpty()
    process = subprocess.Popen(command, cwd=ROOT, env=environment, stdin=subprocess.DEVNULL, stdout=terminal_end,
                               stderr=terminal_end, start_new_session=True)
    os.close(terminal_end)
    return process, terminal, user


def join_link(root: str) -> str:
    """Open a Jaipur table as a phone does (the new table's form, its CSRF token and cookie) on the server at
    ``root``; the join link its page shows, as text."""
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    with browser.open(f"{root}new/jaipur", timeout=10) as page:
        token = csrf_token(page.read().decode())
    form = urllib.parse.urlencode({"csrf_token": token, "players-0": "Ana", "players-1": "Ben",
                                   "starter": "random"}).encode()
    with browser.open(f"{root}new/jaipur", data=form, timeout=10) as table:  # 303, followed to the table page
        shown = table.read().decode()
    return html.unescape(re.search(r'<code class="join-url">([^<]+)</code>', shown)[1])


def test_make_run_listens_on_every_interface_and_prints_a_lan_address_with_its_qr_code(tmp_path):
    port = free_port()
    process, terminal, user = make_run(tmp_path, port)
    backups = tmp_path / "backups"
    members = [psutil.Process(process.pid)]
    try:
        announced, shown = read_until(terminal, ANNOUNCED, process, seconds=90)
        members += members[0].children(recursive=True)

        # Bound to all interfaces (not 127.0.0.1), as the OS says.
        assert listening_hosts(members, port) == {"0.0.0.0"}, shown

        # The printed address is this machine's on the network, on the port it serves; never loopback.
        url = announced[1]
        printed = urlsplit(url)
        assert not hosting.is_loopback(printed.hostname), url
        assert printed.hostname == hosting.lan_address() and printed.port == port and printed.scheme == "http"

        # The QR code on the terminal is that same address.
        assert scan_terminal_qr(announced[2]) == url

        # And it serves: asked on loopback only. A table opened there invites the phones to the same address.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
            assert response.status == 200 and b"Table companion" in response.read()
        link = join_link(f"http://127.0.0.1:{port}/")
        assert link.startswith(url + "t/"), link

        # It has backed the library up on starting, beside the serving (companion/library/daily.py).
        deadline = time.monotonic() + 60
        while not (backups.is_dir() and list(backups.iterdir())) and time.monotonic() < deadline:
            time.sleep(0.2)
        [taken] = backups.iterdir()
        assert backup.NAMED.fullmatch(taken.name) and backup.check(taken).revision
        members += [child for child in members[0].children(recursive=True) if child not in members]

        # No control socket at gunicorn's default path (tests/server/test_control_socket.py).
        assert not (user / "run" / "gunicorn.ctl").exists() and not (user / ".gunicorn").exists()
    finally:
        stop(process, members)
        os.close(terminal)
    assert not any(member.is_running() and member.status() != psutil.STATUS_ZOMBIE for member in members)


def test_make_run_on_loopback_invites_the_phones_to_loopback_where_it_listens(tmp_path):
    port = free_port()
    process, terminal, _user = make_run(tmp_path, port, "HOST=127.0.0.1")
    members = [psutil.Process(process.pid)]
    try:
        said, shown = read_until(terminal, LOCAL_ONLY, process, seconds=90)
        members += members[0].children(recursive=True)
        assert said[1] == f"http://127.0.0.1:{port}/" and "Phones at the table open" not in shown
        assert listening_hosts(members, port) == {"127.0.0.1"}, shown
        # The LAN address has nothing listening on it: a page opened on this machine invites to where it was
        # opened, in text and in its QR code.
        for opened_as in (f"http://127.0.0.1:{port}/", f"http://localhost:{port}/"):
            link = join_link(opened_as)
            assert re.fullmatch(re.escape(opened_as) + r"t/[\w-]+", link), link
            with urllib.request.urlopen(f"{link}/qr.svg", timeout=10) as drawn:
                assert drawn.read() == qr_svg(link)
    finally:
        stop(process, members)
        os.close(terminal)
    assert not any(member.is_running() and member.status() != psutil.STATUS_ZOMBIE for member in members)
