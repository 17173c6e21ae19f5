"""Two servers on one machine never share gunicorn's control socket: none is opened unless the command names one,
and then each server has its own (companion/server/gunicorn_conf.py).

gunicorn 25 and later open a control socket for ``gunicornc`` at one path per user: a second server took it over,
and the first, stopping, removed it. The servers here are started with the settings `make run` uses, with the
user's folders (``HOME``, ``XDG_RUNTIME_DIR``) moved into a scratch folder, so that the default path is looked at
there, never in the real home.
"""

from __future__ import annotations

import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from gunicorn.ctl.client import ControlClient

from browser.server import scratch_database, start_server, stop_server


@pytest.fixture
def user(tmp_path):
    """The user's folders in a scratch place, short enough for a Unix socket's path (at most 107 bytes)."""
    home = Path(tempfile.mkdtemp(prefix="ctl-", dir="/tmp"))
    (home / "run").mkdir(mode=0o700)
    yield home
    for path in sorted(home.rglob("*"), reverse=True):
        path.unlink() if not path.is_dir() else path.rmdir()
    home.rmdir()


@pytest.fixture
def database(tmp_path):
    url, drop = scratch_database(tmp_path)
    yield url
    drop()


def serve(database: str, user: Path, log: Path, *args: str):
    return start_server(database, log, workers=1, args=args,
                        env={"HOME": str(user), "XDG_RUNTIME_DIR": str(user / "run")})


def answers(url: str) -> bool:
    with urllib.request.urlopen(url + "/", timeout=10) as response:
        return response.status == 200


def listening_port(socket_path: Path) -> str:
    """The address the server behind a control socket listens on, as it says itself."""
    with ControlClient(str(socket_path), timeout=10) as client:
        return client.send_command("show listeners")["listeners"][0]["address"]


def appears(path: Path, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    return path.exists()


def test_two_servers_open_no_control_socket_unless_told(database, user, tmp_path):
    first, first_url = serve(database, user, tmp_path / "first.log")
    second, second_url = serve(database, user, tmp_path / "second.log")
    try:
        assert answers(first_url) and answers(second_url)
        # gunicorn's own default paths: $XDG_RUNTIME_DIR/gunicorn.ctl, else ~/.gunicorn/gunicorn.ctl.
        assert not (user / "run" / "gunicorn.ctl").exists() and not (user / ".gunicorn").exists()
        assert "Control socket listening" not in (tmp_path / "first.log").read_text()
    finally:
        stop_server(first)
        stop_server(second)


def test_a_server_told_its_own_control_socket_keeps_it_whatever_the_other_does(database, user, tmp_path):
    first_socket, second_socket = user / "first.ctl", user / "second.ctl"
    first, first_url = serve(database, user, tmp_path / "first.log", "--control-socket", str(first_socket))
    second, second_url = serve(database, user, tmp_path / "second.log", "--control-socket", str(second_socket))
    try:
        assert appears(first_socket) and appears(second_socket)
        # Each socket reaches its own server: the one listening on its own port.
        assert listening_port(first_socket).endswith(first_url.rsplit(":", 1)[1])
        assert listening_port(second_socket).endswith(second_url.rsplit(":", 1)[1])
        stop_server(first)
        assert not first_socket.exists()
        assert listening_port(second_socket).endswith(second_url.rsplit(":", 1)[1]) and answers(second_url)
    finally:
        stop_server(first)
        stop_server(second)
