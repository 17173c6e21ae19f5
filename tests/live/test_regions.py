"""A table region rendered once and shared by the phones in one seat: each answer still gets its own
CSRF token, form keys and clock, and a change to the table is shown at once."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import sqlalchemy as sa

from companion.table import bell, bell_plan, recording
from companion.live import heads
from companion.extensions import db
from companion.models import Table
from companion.live import page as live_page
from helpers import csrf_token, form_key, make_table

HTMX = {"HX-Request": "true"}
PLAYERS = ["Ana", "Ben", "Cy"]
# The first phone to need a version renders it for every seat and for its own reader at once, for the
# host (companion.live.page.host_region); a whole page builds the context once more for its frame.
# Carambouille's seats are rendered in one pass (it declares ONE_PASS): one context for all of them.
FIRST_PAGE = 1 + 1 + 1
GAMES = {"carambouille": {"first_trader": 0}, "jaipur": {"first_player": 0}, "frutti": {"first_player": 0}}


def table_of(app, token: str) -> Table:
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        db.session.expunge(table)
        return table


def record(app, token: str, event: dict):
    with app.app_context():
        entry = recording.record(db.session.scalar(sa.select(Table).where(Table.token == token)), event)
        db.session.refresh(entry)  # expired by the commit; read outside this context
        return entry


@pytest.fixture
def renders(monkeypatch):
    """How many times a region's or a page frame's context was built (rendered, not filled in from the cache)."""
    count = {"n": 0}

    def counting(real):
        def counted(*args, **kwargs):
            count["n"] += 1
            return real(*args, **kwargs)
        return counted

    monkeypatch.setattr(live_page, "table_context", counting(live_page.table_context))
    monkeypatch.setattr(live_page, "frame_context", counting(live_page.frame_context))
    return count


def test_two_phones_share_one_rendering_and_each_posts_with_its_own_csrf_token(app, renders):
    app.config["WTF_CSRF_ENABLED"] = True
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 0})
    ana, ben = app.test_client(), app.test_client()
    pages = [phone.get(f"/t/{token}").text for phone in (ana, ben)]
    assert renders["n"] == FIRST_PAGE
    tokens = [csrf_token(page) for page in pages]
    assert tokens[0] != tokens[1]
    # Every form of a page carries that phone's token, the htmx header too.
    for page, mine in zip(pages, tokens):
        assert set(re.findall(r'name="csrf_token"[^>]*value="([^"]+)"', page)) == {mine}
        assert f'"X-CSRFToken": "{mine}"' in page
    ring = {"bell-key": form_key(), "bell-mode": "hand", "bell-minutes": "3", "bell-low": "1", "bell-high": "3"}
    # Ana's token is no good on Ben's phone: CSRF protection still holds per phone.
    assert ben.post(f"/t/{token}/bell/open", data={**ring, "csrf_token": tokens[0]}).status_code == 400
    assert ben.post(f"/t/{token}/bell/open", data={**ring, "csrf_token": tokens[1]}).status_code == 303
    assert "Market open" in ana.get(f"/t/{token}").text


def test_every_form_gets_a_fresh_key_in_every_answer(app, client, renders):
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 0})
    first = re.findall(r'name="key"[^>]*value="([^"]*)"', client.get(f"/t/{token}").text)
    second = re.findall(r'name="key"[^>]*value="([^"]*)"', client.get(f"/t/{token}").text)
    assert renders["n"] == FIRST_PAGE and len(first) >= 2
    assert all(re.fullmatch(r"[0-9a-f]{32}", key) for key in first + second)
    assert len(set(first)) == len(first) and not set(first) & set(second)


@pytest.mark.parametrize("game", GAMES)
def test_no_marker_is_ever_left_in_a_page(app, client, game):
    token = make_table(app, game, PLAYERS[:2] if game == "jaipur" else PLAYERS, GAMES[game])
    watch = table_of(app, token).watch_token
    for _ in range(2):  # rendered, then served from the cache
        for path, headers in ((f"/t/{token}", {}), (f"/t/{token}/live", HTMX), (f"/w/{watch}", {}),
                              (f"/w/{watch}/live", HTMX)):
            response = client.get(path, headers=headers)
            assert response.status_code == 200
            assert "\x00" not in response.text and "\\u0000" not in response.text


def test_an_entry_from_another_phone_is_shown_at_once(app, client, renders):
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 0})
    assert "rang the bell" not in client.get(f"/t/{token}").text
    opened = record(app, token, {"type": "market_opened"})
    assert opened.summary in client.get(f"/t/{token}").text
    assert renders["n"] == 2 * FIRST_PAGE


def test_the_bells_plan_written_just_after_its_entry_is_shown(app, client):
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 0})
    opened = record(app, token, {"type": "market_opened"})
    # A phone renders the table between the ring's entry and its plan being written.
    assert "closes by itself" not in client.get(f"/t/{token}").text
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        plan = bell_plan.Plan(mode="fixed", seconds=120)
        bell._schedule(table.id, opened.seq, plan, bell.aware(opened.created_at) + timedelta(seconds=120))
        words = plan.words("market")
    assert words in client.get(f"/t/{token}").text


def test_the_clock_and_the_servers_time_are_each_answers_own(app, client, monkeypatch, renders):
    moment = {"at": None}
    monkeypatch.setattr(bell, "now", lambda: moment["at"] or bell.datetime.now(bell.UTC))
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 0})
    opened = record(app, token, {"type": "market_opened"})
    rang = bell.aware(opened.created_at) + bell.LEAD
    for seconds, face in ((75, "1:15"), (130, "2:10")):
        moment["at"] = rang + timedelta(seconds=seconds)
        page = client.get(f"/t/{token}").text
        assert f"data-bell-clock>{face}<" in page
        assert f'data-server-now="{bell.epoch_ms(moment["at"])}"' in page
    assert renders["n"] == FIRST_PAGE


def test_a_refused_form_is_shown_to_its_phone_only(app, client):
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 0})
    client.get(f"/t/{token}")
    refused = client.post(f"/t/{token}/undo", data={"entry": "1", "key": form_key()}, headers=HTMX)
    assert 'class="error"' in refused.text
    assert 'class="error"' not in app.test_client().get(f"/t/{token}/live", headers=HTMX).text
    assert 'class="error"' not in client.get(f"/t/{token}").text


def test_a_broken_poll_connection_is_replaced_without_an_error(app, client):
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 0})
    reader = heads.of(app)
    assert reader is not None, "file SQLite and PostgreSQL both have the poll's own connection"
    assert client.get(f"/t/{token}/live?seen=0", headers=HTMX).status_code == 204
    reader._local.connection.close()
    # The read fails once: the poll takes the ordinary path and answers with the table.
    assert client.get(f"/t/{token}/live?seen=0", headers=HTMX).status_code in (200, 204)
    assert client.get(f"/t/{token}/live?seen=0", headers=HTMX).status_code == 204
    record(app, token, {"type": "market_opened"})
    assert client.get(f"/t/{token}/live?seen=0", headers=HTMX).status_code == 200
    assert client.get(f"/t/{token}/live?seen=1", headers=HTMX).status_code == 204


def test_a_kept_rendering_is_served_to_its_own_seat_only(app, renders):
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 1})
    ben, ana, lost = app.test_client(), app.test_client(), app.test_client()
    ben.post(f"/t/{token}/seat", data={"seat": "1"})
    ana.post(f"/t/{token}/seat", data={"seat": "0"})
    assert "Ring in a pinch" not in ben.get(f"/t/{token}").text
    assert "Ring in a pinch for Ben" in ana.get(f"/t/{token}").text
    assert "Ring in a pinch" not in ben.get(f"/t/{token}/live", headers=HTMX).text
    # A seat the table does not have (an old cookie) is nobody's seat, never an error.
    with lost.session_transaction() as session:
        session["seats"] = {token: 9}
    page = lost.get(f"/t/{token}")
    assert page.status_code == 200 and "Ring in a pinch for Ben" in page.text
    watch = table_of(app, token).watch_token
    for _ in range(2):
        assert "Ring in a pinch" not in lost.get(f"/w/{watch}").text
    # Every seat's region, rendered at once with Ben's page (his poll's answer and Ana's page share it)
    # with his page's frame; nobody's; the watch page's region and frame: once each.
    assert renders["n"] == 1 + 1 + 1 + 2


def test_an_unknown_table_is_not_found_on_every_path(client):
    for path in ("/t/AAAAAAAAAAAAAAAAAAAAAA", "/t/AAAAAAAAAAAAAAAAAAAAAA/live?seen=0", "/w/AAAAAAAAAAAAAAAAAAAAAA",
                 "/w/AAAAAAAAAAAAAAAAAAAAAA/live?seen=3"):
        assert client.get(path, headers=HTMX if "live" in path else {}).status_code == 404
