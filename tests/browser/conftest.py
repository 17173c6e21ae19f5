"""The browser harness: the real app under gunicorn, Debian's Chromium driven by Playwright, phones at 390×844.

Locally a missing Chromium skips these tests with a message; in CI (CI=true)
it fails them, so a broken browser install can never pass as green.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

import pytest

from browser.server import LiveServer, scratch_database, start_server, stop_server
from helpers import in_ci

HERE = Path(__file__).resolve().parent
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-quic"]
PHONE = {"width": 390, "height": 844}
# Each violation of the Content-Security-Policy said in the console, whatever the browser itself prints.
REPORT_VIOLATIONS = """document.addEventListener("securitypolicyviolation", (event) => console.error(
  `Content Security Policy: ${event.effectiveDirective} refused ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber}`));"""


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


@pytest.fixture(scope="session")
def live_server(tmp_path_factory) -> LiveServer:
    """The app under gunicorn (2 workers) on a free loopback port, on a migrated scratch database."""
    if reason := missing_browser():
        if in_ci():
            pytest.fail(f"CI=true and the browser tests cannot run: {reason}")
        pytest.skip(f"browser tests skipped: {reason}")
    folder = tmp_path_factory.mktemp("live")
    database_url, drop = scratch_database(folder)
    log = folder / "gunicorn.log"
    process, url = start_server(database_url, log)
    yield LiveServer(url, database_url, process, log)
    stop_server(process)
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


@contextmanager
def phones_of(browser, base_url: str):
    """A factory of phones on the server at ``base_url``: each a fresh page in its own browser context (own
    cookies) at 390×844, its errors in ``page.errors`` and its Content-Security-Policy complaints in
    ``page.violations``; all closed at the end."""
    contexts = []

    def make(java_script_enabled: bool = True, color_scheme: str = "light", size: dict = PHONE, **options):
        context = browser.new_context(
            base_url=base_url, viewport=size, screen=size, has_touch=True, is_mobile=True,
            device_scale_factor=2, java_script_enabled=java_script_enabled, color_scheme=color_scheme,
            **options,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        context.add_init_script(REPORT_VIOLATIONS)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        # What the browser's console says of the Content-Security-Policy (an inline style applied, a script
        # refused…), on every page the phone opens: a test asserts ``page.violations == []``.
        page.violations = []
        page.on("console", lambda message: page.violations.append(message.text)
                if message.type == "error" and "Content Security Policy" in message.text else None)
        return page

    try:
        yield make
    finally:
        for context in contexts:
            context.close()


@pytest.fixture
def new_phone(browser, live_server):
    """A factory of phones on the live server (``phones_of``)."""
    with phones_of(browser, live_server.url) as make:
        yield make
