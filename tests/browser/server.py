"""gunicorn serving the app on a free loopback port, on a database of its own: for the browser and crash tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
WORKERS = 2


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def scratch_postgres(url: str) -> tuple[str, callable]:
    """A fresh database next to the one TEST_DATABASE_URL names, and how to drop it."""
    admin_url = sa.make_url(url)
    name = f"companion_browser_{uuid.uuid4().hex[:8]}"
    engine = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{name}"'))

    def drop() -> None:
        with engine.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()

    return admin_url.set(database=name).render_as_string(hide_password=False), drop


def wait_until_up(url: str, process: subprocess.Popen, log: Path, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"gunicorn did not answer {url} within {seconds} s:\n{log.read_text()[-3000:]}")


class LiveServer:
    """gunicorn serving the app on a loopback port, with a database of its own."""

    def __init__(self, url: str, database_url: str, process: subprocess.Popen, log: Path) -> None:
        self.url = url
        self.database_url = database_url
        self.process = process
        self.log = log

    def __str__(self) -> str:
        return self.url


def start_server(database_url: str, log: Path, port: int | None = None, workers: int = WORKERS,
                 app: str = "live_app:app", env: dict | None = None,
                 args: tuple[str, ...] = ()) -> tuple[subprocess.Popen, str]:
    """Run gunicorn with the project's settings (and ``args`` of its command line); its process and base URL
    once it answers."""
    port = port or free_port()
    environment = os.environ | {
        "DATABASE_URL": database_url,
        "SECRET_KEY": "browser-tests",
        "FLASK_APP": "wsgi",
        "PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT / "tests"), str(ROOT)]),
        # Every browser test opens its tables from 127.0.0.1: one client, far past a table's pace.
        "COMPANION_NEW_TABLES_PER_MINUTE": "10000",
        # No backups beside a test's server (`make run` takes them; tests/library/ tests them).
        "COMPANION_BACKUPS_KEPT": "0",
    } | (env or {})
    with log.open("ab") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--config", "python:companion.server.gunicorn_conf",
             "--bind", f"127.0.0.1:{port}", "--workers", str(workers), *args, app],
            cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url + "/", process, log)
    except BaseException:
        stop_server(process)
        raise
    return process, url


def stop_server(process: subprocess.Popen) -> None:
    if process.poll() is None:
        # Quick shutdown: a graceful one would wait for idle keep-alive connections.
        process.send_signal(signal.SIGQUIT)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)


def upgrade(database_url: str) -> None:
    """The migrations, exactly as `make migrate` runs them."""
    environment = os.environ | {"DATABASE_URL": database_url, "SECRET_KEY": "browser-tests", "FLASK_APP": "wsgi"}
    subprocess.run([sys.executable, "-m", "flask", "db", "upgrade"], cwd=ROOT, env=environment, check=True,
                   capture_output=True)


def kill_server(process: subprocess.Popen) -> None:
    """SIGKILL gunicorn's master and every worker at once, as a power cut or the OOM killer would."""
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(10)


def scratch_database(folder: Path) -> tuple[str, callable]:
    """A migrated database for one server: PostgreSQL beside TEST_DATABASE_URL when set, else a SQLite file."""
    if postgres := os.environ.get("TEST_DATABASE_URL"):
        url, drop = scratch_postgres(postgres)
    else:
        url, drop = f"sqlite:///{folder / 'live.sqlite'}", (lambda: None)
    upgrade(url)
    return url, drop
