"""A contributor's first start, as Flask's tutorial installs a project: ``pip install -e .`` in a fresh virtual
environment, on a checkout that has never been built (no compiled catalogs), then ``flask run``.

The editable install compiles the catalogs into the checkout, so the app starts and a French phone reads
French words, with nothing compiled by hand.
"""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request

from browser.server import free_port, wait_until_up
from server.test_wheel import FRENCH, run, tracked_copy


def test_an_editable_install_of_a_fresh_checkout_starts_and_speaks_french(tmp_path):
    source = tracked_copy(tmp_path / "checkout")
    assert not list(source.glob("companion/translations/*/LC_MESSAGES/*.mo"))
    run([sys.executable, "-m", "venv", tmp_path / "venv"], timeout=300)
    bin_dir = tmp_path / "venv" / "bin"
    run([bin_dir / "pip", "install", "--quiet", "-e", source], timeout=900)
    environment = {"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "HOME": str(tmp_path),
                   "DATABASE_URL": f"sqlite:///{tmp_path / 'companion.sqlite'}", "SECRET_KEY": "editable-test",
                   "FLASK_APP": "companion.wsgi"}
    run([bin_dir / "flask", "db", "upgrade"], cwd=source, env=environment, timeout=120)
    port = free_port()
    log = tmp_path / "flask.log"
    with log.open("w") as output:
        process = subprocess.Popen([bin_dir / "flask", "run", "--port", str(port)], cwd=source, env=environment,
                                   stdout=output, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_up(url, process, log, seconds=60)
        with urllib.request.urlopen(urllib.request.Request(url, headers=FRENCH), timeout=10) as response:
            page = response.read().decode()
    finally:
        process.terminate()
        process.wait(timeout=20)
    assert '<html lang="fr">' in page
    assert "Rejoindre une table" in page and "Join a table" not in page
    # Compiled where the checkout keeps them: the app reads the checkout's own files.
    assert {path.parent.parent.name for path in source.glob("companion/translations/*/LC_MESSAGES/messages.mo")} \
        >= {"fr", "de", "it"}
