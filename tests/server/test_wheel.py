"""The package as a person deploying it installs it: a wheel built from the repository's files, installed in a
fresh virtual environment, migrated and served by gunicorn from a directory that is not the checkout.

Nothing of the checkout is on the path: the pages, the static files and the compiled catalogs must all
come from the wheel. A French phone must read French words, not only a French label.
"""

from __future__ import annotations

import html
import http.cookiejar
import os
import re
import shutil
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from browser.server import free_port, wait_until_up

ROOT = Path(__file__).resolve().parents[2]
FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9"}


def run(command: list, **options) -> subprocess.CompletedProcess:
    done = subprocess.run([str(part) for part in command], capture_output=True, text=True, **options)
    assert done.returncode == 0, f"{command[0]} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def tracked_copy(target: Path) -> Path:
    """The repository's tracked files only, as a fresh clone has them: no compiled catalogs, no .venv."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        if (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    return target


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A virtual environment holding companion, installed from a wheel built from the tracked files."""
    work = tmp_path_factory.mktemp("wheel")
    source = tracked_copy(work / "source")
    assert not list(source.glob("companion/translations/*/LC_MESSAGES/*.mo"))
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", work / "dist", source],
        timeout=600)
    wheel, = (work / "dist").glob("companion-*.whl")
    run([sys.executable, "-m", "venv", work / "venv"], timeout=300)
    run([work / "venv" / "bin" / "pip", "install", "--quiet", wheel], timeout=900)
    return work


@pytest.fixture(scope="module")
def served(installed: Path):
    """gunicorn serving the installed package on loopback, started from a directory of its own."""
    elsewhere = installed / "elsewhere"
    elsewhere.mkdir()
    bin_dir = installed / "venv" / "bin"
    environment = {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": str(installed),
        "DATABASE_URL": f"sqlite:///{installed / 'companion.sqlite'}",
        "SECRET_KEY": "wheel-test",
    }
    run([bin_dir / "flask", "--app", "companion.wsgi", "db", "upgrade"], cwd=elsewhere, env=environment, timeout=120)
    port = free_port()
    log = installed / "gunicorn.log"
    with log.open("w") as output:
        process = subprocess.Popen(
            [bin_dir / "gunicorn", "--config", "python:companion.server.gunicorn_conf", "--bind", f"127.0.0.1:{port}",
             "--workers", "1", "companion.wsgi:app"],
            cwd=elsewhere, env=environment, stdout=output, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url + "/", process, log, seconds=60)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=20)


def phone() -> urllib.request.OpenerDirector:
    """A French phone, keeping its cookies (the CSRF token lives in its session)."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    opener.addheaders = list(FRENCH.items())
    return opener


def read(opener, url: str, data: dict | None = None) -> tuple[int, str, str]:
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    with opener.open(url, data=body, timeout=10) as response:
        return response.status, response.geturl(), response.read().decode()


def test_the_installed_home_page_speaks_french_to_a_french_phone(served):
    status, _url, page = read(phone(), served + "/")
    assert status == 200
    assert '<html lang="fr">' in page
    # French words, not only a French label over English ones.
    assert "Rejoindre une table" in page and "Join a table" not in page


def test_the_installed_package_serves_its_static_files(served):
    _status, _url, page = read(phone(), served + "/")
    stylesheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', page)
    assert stylesheets
    for href in stylesheets:
        path = html.unescape(href)
        with urllib.request.urlopen(served + path, timeout=10) as response:
            assert response.status == 200
            shipped = urllib.parse.urlsplit(path).path.removeprefix("/static/")
            assert response.read() == (ROOT / "static" / shipped).read_bytes()


def test_a_table_opened_on_the_installed_package_shows_in_french(served):
    french = phone()
    _status, _url, form = read(french, served + "/new/carambouille")
    token = re.search(r'name="csrf_token" value="([^"]+)"', form)[1]
    status, where, page = read(french, served + "/new/carambouille", {
        "csrf_token": token, "players-0": "Alice", "players-1": "Bernard", "players-2": "Dieter", "starter": "0"})
    assert status == 200 and re.search(r"/t/[A-Za-z0-9_-]{16,32}$", where)
    assert '<html lang="fr">' in page
    assert "Qui es-tu\u00a0?" in page and "Who are you?" not in page
    assert all(name in page for name in ("Alice", "Bernard", "Dieter"))
