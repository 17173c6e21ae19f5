"""Crash test: gunicorn killed with SIGKILL under a steady stream of entries loses nothing it acknowledged.

Phones keep sending plain form posts (each with its own idempotency key);
master and workers are killed at once in the middle of it; the server is
started again on the same database. Every entry that got its success answer
(303) must be there, exactly once; the posts that got no answer are sent
again with the same key, as a phone re-sending would, and are recorded at
most once. Runs on SQLite (WAL, synchronous=FULL) and, with TEST_DATABASE_URL,
on PostgreSQL.
"""

from __future__ import annotations

import http.client
import re
import secrets
import threading
import time
import urllib.parse

import pytest
import sqlalchemy as sa

from browser.server import kill_server, scratch_database, start_server, stop_server

WRITERS = 4
RUN_BEFORE_KILL_S = 3


class Phone:
    """One phone: a session cookie, the CSRF token of its page, and keep-alive HTTP."""

    def __init__(self, base_url: str) -> None:
        parts = urllib.parse.urlsplit(base_url)
        self.host, self.port = parts.hostname, parts.port
        self.cookie = ""
        self.csrf = ""
        self.connection = None

    def request(self, method: str, path: str, form: dict | None = None) -> http.client.HTTPResponse:
        if self.connection is None:
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=10)
        headers = {"Cookie": self.cookie} if self.cookie else {}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = response_read(self.connection.getresponse())
        except BaseException:
            self.connection.close()
            self.connection = None
            raise
        if cookie := response.getheader("Set-Cookie"):
            self.cookie = cookie.split(";", 1)[0]
        return response

    def open(self, path: str) -> str:
        page = self.request("GET", path)
        assert page.status == 200, page.status
        self.csrf = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page.text).group(1)
        return page.text

    def score(self, token: str, player: int, key: str) -> http.client.HTTPResponse:
        """One point for ``player`` at the tiny game's table, posted as its page's form, with the entry's key."""
        return self.request("POST", f"/t/{token}/tiny/score",
                            {"csrf_token": self.csrf, "key": key, "player": player, "points": 1})

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()


def response_read(response: http.client.HTTPResponse) -> http.client.HTTPResponse:
    response.text = response.read().decode()
    return response


def new_table(phone: Phone) -> str:
    phone.open("/new/tiny")
    answer = phone.request("POST", "/new/tiny", {"csrf_token": phone.csrf, "players-0": "Ana", "players-1": "Ben",
                                                 "starter": "0"})
    assert answer.status == 303, answer.text
    return answer.getheader("Location").rsplit("/", 1)[1]


def test_sigkill_under_load_keeps_every_acknowledged_entry_once(tmp_path):
    database_url, drop = scratch_database(tmp_path)
    log = tmp_path / "gunicorn.log"
    process, url = start_server(database_url, log)
    try:
        setup = Phone(url)
        tables = [new_table(setup) for _ in range(WRITERS)]
        setup.close()

        acknowledged: list[str] = []
        unanswered: list[tuple[str, int, str]] = []
        lock = threading.Lock()
        stop = threading.Event()

        def write(token: str) -> None:
            phone = Phone(url)
            phone.open(f"/t/{token}")
            # One point each time, alternating players: far below the tiny game's finishing total.
            player = 0
            while not stop.is_set():
                key = secrets.token_hex(16)
                try:
                    answer = phone.score(token, player, key)
                except (OSError, http.client.HTTPException):  # the kill can cut an answer short
                    with lock:
                        unanswered.append((token, player, key))
                    if stop.is_set():
                        break
                    time.sleep(0.05)
                    continue
                assert answer.status == 303, (answer.status, answer.text[:500])
                with lock:
                    acknowledged.append(key)
                player = 1 - player
            phone.close()

        writers = [threading.Thread(target=write, args=(token,)) for token in tables]
        for writer in writers:
            writer.start()
        time.sleep(RUN_BEFORE_KILL_S)
        kill_server(process)
        stop.set()
        for writer in writers:
            writer.join(15)
        assert len(acknowledged) >= 20, "the stream was too thin to prove anything"

        process, url = start_server(database_url, log)
        # The phones whose posts got no answer send them again, same key.
        for token, player, key in unanswered:
            phone = Phone(url)
            phone.open(f"/t/{token}")
            again = phone.score(token, player, key)
            assert again.status == 303
            phone.close()

        engine = sa.create_engine(database_url)
        with engine.connect() as connection:
            rows = connection.execute(sa.text("SELECT key, table_id, seq FROM entries")).all()
            counters = connection.execute(sa.text("SELECT id, token, last_seq FROM tables")).all()
        engine.dispose()
        keys = [row.key for row in rows]
        assert len(keys) == len(set(keys)), "an entry was recorded twice"
        assert set(acknowledged) <= set(keys), "an acknowledged entry was lost"
        assert {key for _, _, key in unanswered} <= set(keys)
        # Entry numbers have no holes and agree with each table's counter; every table still opens,
        # its scores adding up to the entries recorded (one point each).
        viewer = Phone(url)
        for table_id, token, last_seq in counters:
            assert sorted(row.seq for row in rows if row.table_id == table_id) == list(range(1, last_seq + 1))
            page = viewer.open(f"/t/{token}")
            assert sum(int(p) for p in re.findall(r'<span class="points">(\d+)</span>', page)) == last_seq
        viewer.close()
    finally:
        if process.poll() is None:
            stop_server(process)
        drop()


# What makes an acknowledged entry survive a crash, for each database the app runs on.
DURABILITY = {
    "sqlite": [("PRAGMA journal_mode", "wal"), ("PRAGMA synchronous", "2")],  # WAL, synchronous=FULL
    "postgresql": [("SHOW synchronous_commit", "on")],  # COMMIT returns once the WAL is flushed
}


def test_the_database_keeps_acknowledged_entries(app):
    from companion.extensions import db

    with app.app_context(), db.engine.connect() as connection:
        for query, expected in DURABILITY[db.engine.dialect.name]:
            assert str(connection.exec_driver_sql(query).scalar()).lower() == expected, query
