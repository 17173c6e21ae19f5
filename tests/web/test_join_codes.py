"""Join codes: limited per client only (an IPv6 /64 is one client), in 10 minutes and in a day, counted atomically,
only for tables still being played."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from companion import create_app
from companion.extensions import db
from companion.web import limits
from companion.web.limits import client_key
from companion.models import Entry, RateCount, Table
from helpers import database_url, form_key, make_table

HTMX = {"HX-Request": "true"}


def code_of(app, token: str) -> str:
    with app.app_context():
        return db.session.scalar(sa.select(Table.join_code).where(Table.token == token))


def join(client, code: str, address: str = "198.51.100.7", **headers):
    return client.post("/join", data={"code": code}, environ_base={"REMOTE_ADDR": address}, headers=headers)


@pytest.mark.parametrize("one, other, same", [
    ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", True),   # one home's /64
    ("2001:db8:1:2::1", "2001:db8:1:3::1", False),
    ("::ffff:198.51.100.7", "198.51.100.7", True),                    # IPv4 through an IPv6 socket
    ("198.51.100.7", "198.51.100.8", False),
    ("fe80::1%eth0", "fe80::2", True),
])
def test_a_client_is_an_ipv4_address_or_an_ipv6_64(one, other, same):
    assert (client_key(one) == client_key(other)) is same


def test_guessing_from_every_address_of_an_ipv6_64_is_one_client(app, client):
    app.config.update(JOIN_ATTEMPTS_PER_10_MINUTES=5)
    answers = [join(client, "ZZZZZZ", f"2001:db8:5:6::{n:x}").status_code for n in range(1, 9)]
    assert answers == [422] * 5 + [429] * 3
    assert join(client, "ZZZZZZ", "2001:db8:5:7::1").status_code == 422  # the neighbour's network is not blamed


def test_simultaneous_wrong_guesses_are_counted_one_by_one(app):
    """Count-then-insert let 26 of 60 simultaneous guesses through on PostgreSQL, not 20."""
    app.config.update(JOIN_ATTEMPTS_PER_10_MINUTES=20)
    answers, start = [], threading.Barrier(30)

    def guess():
        client = app.test_client()
        start.wait()
        for _ in range(2):
            answers.append(join(client, "ZZZZZZ").status_code)

    threads = [threading.Thread(target=guess) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(answers) == [422] * 20 + [429] * 40


NOW = "Too many join codes were tried from your network in the last few minutes: for a few minutes no code from it is checked, not even the right one."
TODAY = "Too many join codes were tried from your network today: for up to a day no code from it is checked, not even the right one."


def test_a_guesser_past_its_limit_is_refused_even_the_right_code_and_blocks_nobody_else(app, client):
    app.config.update(JOIN_ATTEMPTS_PER_10_MINUTES=3)
    token = make_table(app, "tiny", ["Ana", "Ben"])
    code = code_of(app, token)
    for _ in range(3):
        assert join(client, "ZZZZZZ").status_code == 422
    # Past its own limit: the sentence says why, and that the right code is not checked either.
    refused = join(client, "ZZZZZZ")
    assert refused.status_code == 429 and NOW in refused.text and "QR code" in refused.text
    right = join(client, code)
    assert right.status_code == 429 and NOW in right.text and "Location" not in right.headers
    assert token not in client.get("/").text  # not among this phone's tables: nothing was joined
    htmx = join(client, code, **HTMX)
    assert htmx.status_code == 200 and NOW in htmx.text and "HX-Redirect" not in htmx.headers
    # However long it goes on, another client (another home, the table's own phones) gets in with the right code.
    for _ in range(30):
        join(client, "ZZZZZZ")
    other = app.test_client()
    admitted = join(other, code, "203.0.113.9")
    assert admitted.status_code == 303 and admitted.headers["Location"].endswith(f"/t/{token}")
    assert join(other, code, "2001:db8:9::1", **HTMX).headers["HX-Redirect"].endswith(f"/t/{token}")


def test_a_client_has_a_days_allowance_too_and_is_told_it_is_the_days(app, client, monkeypatch):
    app.config.update(JOIN_ATTEMPTS_PER_10_MINUTES=3, JOIN_ATTEMPTS_PER_DAY=5)
    token = make_table(app, "tiny", ["Ana", "Ben"])
    clock = [datetime(2026, 12, 7, 9, 0, tzinfo=UTC)]
    monkeypatch.setattr(limits, "now", lambda: clock[0])
    answers = [join(client, "ZZZZZZ").status_code for _ in range(4)]
    assert answers == [422, 422, 422, 429]  # the fourth is refused by the 10 minutes: not counted for the day
    clock[0] += timedelta(minutes=10)
    assert [join(client, "ZZZZZZ").status_code for _ in range(2)] == [422, 422]  # five checked today
    refused = join(client, code_of(app, token))
    assert refused.status_code == 429 and TODAY in refused.text
    clock[0] += timedelta(hours=3)  # a new 10 minutes, the same day
    assert TODAY in join(client, code_of(app, token)).text
    assert join(client, code_of(app, token), "198.51.100.8").status_code == 303  # the neighbour's address
    clock[0] = datetime(2026, 12, 8, 0, 0, tzinfo=UTC)  # the next day
    assert join(client, code_of(app, token)).status_code == 303
    with app.app_context():  # yesterday's counts are gone once today's are made
        days = db.session.scalars(sa.select(RateCount.window_start).where(RateCount.kind == "join-day")).all()
        assert {day.replace(tzinfo=UTC) for day in days} == {clock[0]}


def test_the_day_is_not_forgotten_within_it(app, client, monkeypatch):
    """The counts of the short windows are swept an hour after they end; a day's stays all day."""
    app.config.update(JOIN_ATTEMPTS_PER_10_MINUTES=100, JOIN_ATTEMPTS_PER_DAY=2)
    clock = [datetime(2026, 12, 7, 0, 5, tzinfo=UTC)]
    monkeypatch.setattr(limits, "now", lambda: clock[0])
    assert [join(client, "ZZZZZZ").status_code for _ in range(2)] == [422, 422]
    clock[0] = datetime(2026, 12, 7, 23, 55, tzinfo=UTC)
    assert TODAY in join(client, "ZZZZZZ").text


def test_a_forged_x_forwarded_for_from_a_direct_connection_is_ignored(tmp_path, tiny):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "PROXY_FIX": 1,
                      "SQLALCHEMY_DATABASE_URI": database_url(tmp_path), "JOIN_ATTEMPTS_PER_10_MINUTES": 3})
    with app.app_context():
        db.drop_all()
        db.create_all()
    client = app.test_client()
    try:
        # gunicorn reached directly from the network: every request claims another address.
        forged = [join(client, "ZZZZZZ", "198.51.100.7", **{"X-Forwarded-For": f"10.9.{n}.{n}"}).status_code
                  for n in range(6)]
        assert forged == [422] * 3 + [429] * 3
        # Through the proxy on this machine, the forwarded address is the client's.
        proxied = [join(client, "ZZZZZZ", "127.0.0.1", **{"X-Forwarded-For": f"203.0.113.{n}"}).status_code
                   for n in range(4)]
        assert proxied == [422] * 4
    finally:
        with app.app_context():
            db.drop_all()
            db.engine.dispose()


def test_the_trusted_proxies_can_be_set(tmp_path, tiny):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "PROXY_FIX": 1,
                      "TRUSTED_PROXIES": "172.18.0.0/16", "SQLALCHEMY_DATABASE_URI": database_url(tmp_path)})

    @app.get("/whoami")
    def whoami():
        from flask import request

        return request.remote_addr

    client = app.test_client()
    asked = lambda address: client.get("/whoami", environ_base={"REMOTE_ADDR": address},  # noqa: E731
                                       headers={"X-Forwarded-For": "203.0.113.5"}).text
    assert asked("172.18.0.2") == "203.0.113.5"
    assert asked("127.0.0.1") == "127.0.0.1"
    assert asked("198.51.100.7") == "198.51.100.7"
    with app.app_context():
        db.engine.dispose()


def test_a_finished_table_has_no_join_code_but_its_link_still_shows_the_results(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    code = code_of(app, token)
    with app.app_context():
        db.session.execute(sa.update(Table).values(status="finished", finished_at=datetime.now(UTC)))
        db.session.commit()
    refused = join(client, code)
    assert refused.status_code == 422 and "No open table has that code" in refused.text
    assert client.get(f"/t/{token}/results").status_code == 200
    assert client.get(f"/t/{token}").status_code == 200


def test_an_idle_table_stops_answering_to_its_code(app, client):
    app.config["JOIN_CODE_IDLE_HOURS"] = 12
    token = make_table(app, "tiny", ["Ana", "Ben"])
    code = code_of(app, token)
    assert join(client, code).status_code == 303
    long_ago = datetime.now(UTC) - timedelta(hours=13)
    with app.app_context():
        db.session.execute(sa.update(Table).values(created_at=long_ago))
        db.session.commit()
    assert join(client, code).status_code == 422
    # An entry made now wakes the code up again.
    assert client.post(f"/t/{token}/tiny/score", data={"player": 0, "points": 1, "key": form_key()}).status_code == 303
    assert join(client, code).status_code == 303
    with app.app_context():
        db.session.execute(sa.update(Entry).values(created_at=long_ago))
        db.session.commit()
    assert join(client, code).status_code == 422


def test_new_tables_and_imports_are_limited_per_client_and_minute(app, client):
    app.config.update(NEW_TABLES_PER_MINUTE=2, IMPORTS_PER_MINUTE=1)
    form = {"players-0": "Ana", "players-1": "Ben", "starter": "0"}
    answers = [client.post("/new/tiny", data=form, environ_base={"REMOTE_ADDR": "198.51.100.7"}).status_code
               for _ in range(3)]
    assert answers == [303, 303, 429]
    assert client.post("/new/tiny", data=form, environ_base={"REMOTE_ADDR": "203.0.113.9"}).status_code == 303
    import io

    upload = lambda: client.post("/import", data={"file": (io.BytesIO(b"{}"), "s.json")},  # noqa: E731
                                 content_type="multipart/form-data", environ_base={"REMOTE_ADDR": "198.51.100.7"})
    assert upload().status_code == 422
    limited = upload()
    assert limited.status_code == 429 and "Too many imports" in limited.text
