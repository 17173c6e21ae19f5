"""Backed up, tested (issue #41): a backup taken while two phones record, then the server SIGKILLed.

gunicorn serves the app on a SQLite file as `make run` does (tests/browser/server.py); two phones post
entries over HTTP, each with its idempotency key, and keep posting while `flask backup` runs as a
command of its own; then master and workers are killed at once. The backup opens, passes SQLite's
integrity check, and holds every entry whose success answer (303) came back before the command started.
"""

from __future__ import annotations

import http.client
import os
import secrets
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing

import pytest

from browser.server import ROOT, kill_server, scratch_database, start_server, stop_server
from companion.library import backup
from server.test_faults_crash import Phone, new_table

pytestmark = pytest.mark.skipif(bool(os.environ.get("TEST_DATABASE_URL")),
                                reason="backups of SQLite files; PostgreSQL has pg_dump")

PHONES = 2


def test_a_backup_taken_while_two_phones_record_then_a_kill_holds_every_entry_acknowledged_before_it(tmp_path):
    database_url, drop = scratch_database(tmp_path)
    process, url = start_server(database_url, tmp_path / "gunicorn.log")
    acknowledged: list[str] = []
    failures: list[BaseException] = []
    killed, stop = threading.Event(), threading.Event()

    def phone(token: str) -> None:
        device = Phone(url)
        device.open(f"/t/{token}")
        player = 0
        while not stop.is_set():
            key = secrets.token_hex(16)
            try:
                answer = device.score(token, player, key)
            except (OSError, http.client.HTTPException) as error:
                if not killed.is_set():
                    failures.append(error)
                break  # the server is gone: whatever was sent last got no answer
            if answer.status != 303:
                failures.append(AssertionError(answer.status, answer.text[:300]))
                break
            acknowledged.append(key)
            player = 1 - player
        device.close()

    try:
        setup = Phone(url)
        phones = [threading.Thread(target=phone, args=(new_table(setup),)) for _ in range(PHONES)]
        setup.close()
        for each in phones:
            each.start()
        deadline = time.monotonic() + 30
        while len(acknowledged) < 20 and time.monotonic() < deadline and not failures:
            time.sleep(0.02)
        before = set(acknowledged)
        copy = tmp_path / "saturday.sqlite"
        command = subprocess.run(
            [sys.executable, "-m", "flask", "--app", "companion.wsgi", "backup", str(copy)], cwd=ROOT,
            env=os.environ | {"DATABASE_URL": database_url, "SECRET_KEY": "browser-tests"}, capture_output=True,
            text=True, timeout=120)
        during = len(acknowledged) - len(before)
        killed.set()
        kill_server(process)
        stop.set()
        for each in phones:
            each.join(15)
    finally:
        stop.set()
        if process.poll() is None:
            stop_server(process)
        drop()

    assert not failures, failures
    assert command.returncode == 0, command.stderr
    assert command.stdout.startswith(f"Backed up into {copy} (")
    assert len(before) >= 20, "the phones recorded too little to prove anything"
    assert during > 0, "the phones were not recording while the backup was taken"
    checked = backup.check(copy)  # a SQLite database, whole (integrity_check), with the app's tables
    with closing(sqlite3.connect(copy)) as opened:
        kept = {row[0] for row in opened.execute("SELECT key FROM entries")}
    assert before <= kept, f"{len(before - kept)} acknowledged entries are not in the backup"
    assert checked.sessions == PHONES and checked.entries == len(kept)
