"""A private server of two app servers on one database (PostgreSQL on the CI's second leg), as gunicorn serves
it: a phone that joined a group on one server reads it on the other; a stranger's phone reads nothing of it on
either, whatever either server has kept of the group's pages."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request

import pytest

from browser.server import scratch_database, start_server, stop_server
from companion import create_app
from companion.extensions import db
from companion.live import heads
from companion.models import Group, Seat, Table
from companion.table import recording
from review.test_review_sessions import FRUTTI_EVENTS

OTTERS = ["Zelda", "Yannick", "Xavier"]
PAGES = ("/", "/history", "/history.csv", "/players", "/players/Zelda", "/groups", "/group", "/import")


class Phone:
    """A phone: its own cookies, on whichever server it asks."""

    def __init__(self) -> None:
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, url: str) -> tuple[int, str]:
        try:
            with self.opener.open(url, timeout=10) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def post(self, url: str, fields: dict) -> int:
        _status, page = self.get(url)
        fields = fields | {"csrf_token": re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)}
        request = urllib.request.Request(url, data=urllib.parse.urlencode(fields).encode(), method="POST")
        try:
            with self.opener.open(request, timeout=10) as answer:
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code


@pytest.fixture
def two_servers(tmp_path):
    database_url, drop = scratch_database(tmp_path)
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "browser-tests"})
    with app.app_context():
        otters = Group(name="Otters")
        db.session.add(otters)
        db.session.commit()
        table = Table(game="frutti", options={"first_player": 0}, group_id=otters.id,
                      seats=[Seat(position=i, name=n) for i, n in enumerate(OTTERS)])
        db.session.add(table)
        db.session.commit()
        # This process keeps each table's state by id, and every test's database starts its ids again.
        recording.cache.forget(table.id)
        for event in FRUTTI_EVENTS:
            recording.record(table, event)
        invitation = otters.invite_token
        db.session.remove()
        db.engine.dispose()
    if reader := heads.of(app):
        reader.close()
    private = {"COMPANION_GROUPS": "private"}
    first, first_url = start_server(database_url, tmp_path / "first.log", workers=1, env=private)
    second, second_url = start_server(database_url, tmp_path / "second.log", workers=1, env=private)
    yield first_url, second_url, invitation
    stop_server(first)
    stop_server(second)
    drop()


def test_a_member_reads_its_group_on_both_servers_and_a_stranger_on_neither(two_servers):
    first, second, invitation = two_servers
    member = Phone()
    assert member.post(f"{first}/g/{invitation}", {}) == 200  # joined, and sent on to the group's page
    for server in (first, second):
        status, history = member.get(f"{server}/history")
        assert status == 200 and "Zelda" in history, server
    stranger = Phone()
    for server in (second, first):
        for page in PAGES:
            status, text = stranger.get(server + page)
            assert status < 500, (server, page)
            text = text.replace(page, "")  # the address it asked for, in the page's language switcher
            for word in ("Otters", *OTTERS):
                assert word not in text, (server, page, word)
