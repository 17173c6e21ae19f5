"""The browser harness: the real app under gunicorn, Debian's Chromium driven by Playwright, phones at 390×844.

Locally a missing Chromium skips these tests with a message; in CI (CI=true)
it fails them, so a broken browser install can never pass as green.
"""

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

import pytest
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-quic"]
PHONE = {"width": 390, "height": 844}
WORKERS = 2


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def missing_browser() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (make .venv/.installed-test)"
    if not (os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)"
    return None


def pytest_collection_modifyitems(config, items):
    """Every test in this folder is a browser test; without a browser: skip locally, fail in CI."""
    reason = missing_browser()
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)
            if reason and not in_ci():
                item.add_marker(pytest.mark.skip(reason=f"browser tests skipped: {reason}"))


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
                 app: str = "live_app:app", env: dict | None = None) -> tuple[subprocess.Popen, str]:
    """Run gunicorn with the project's settings; its process and base URL once it answers."""
    port = port or free_port()
    environment = os.environ | {
        "DATABASE_URL": database_url,
        "SECRET_KEY": "browser-tests",
        "FLASK_APP": "wsgi",
        "PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT / "tests"), str(ROOT)]),
    } | (env or {})
    with log.open("ab") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--config", "python:companion.gunicorn_conf",
             "--bind", f"127.0.0.1:{port}", "--workers", str(workers), app],
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
        process.send_signal(signal.SIGTERM)
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


@pytest.fixture(scope="session")
def live_server(tmp_path_factory) -> LiveServer:
    """The app under gunicorn (2 workers) on a free loopback port, on a migrated scratch database."""
    if reason := missing_browser():
        if in_ci():
            pytest.fail(f"CI=true and the browser tests cannot run: {reason}")
        pytest.skip(f"browser tests skipped: {reason}")
    folder = tmp_path_factory.mktemp("live")
    drop = None
    if postgres := os.environ.get("TEST_DATABASE_URL"):
        database_url, drop = scratch_postgres(postgres)
    else:
        database_url = f"sqlite:///{folder / 'live.sqlite'}"
    upgrade(database_url)
    log = folder / "gunicorn.log"
    process, url = start_server(database_url, log)
    yield LiveServer(url, database_url, process, log)
    stop_server(process)
    if drop:
        drop()


@pytest.fixture(scope="session")
def playwright_instance():
    if reason := missing_browser():
        if in_ci():
            pytest.fail(f"CI=true and the browser tests cannot run: {reason}")
        pytest.skip(f"browser tests skipped: {reason}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_instance):
    """Debian's Chromium, headless."""
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def new_phone(browser, live_server):
    """A factory of phones: each a fresh page in its own browser context (own cookies) at 390×844."""
    contexts = []

    def make(java_script_enabled: bool = True, color_scheme: str = "light", **options):
        context = browser.new_context(
            base_url=live_server.url, viewport=PHONE, screen=PHONE, has_touch=True, is_mobile=True,
            device_scale_factor=2, java_script_enabled=java_script_enabled, color_scheme=color_scheme,
            **options,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        context.close()
