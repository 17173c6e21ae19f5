"""Regions pushed on the streams (companion/live/pushes.py): each phone its own, rendered once for the host.

The stream's request is run through the app as the worker runs it (``pushes.ask_app``, the phone's own
cookie and language); the regions are rendered as the worker's thread renders them (``regions_for``)
into a host store shared by two "workers" (two stores on one folder). What a person would notice: the
phone is pushed what its own poll would show, in its language, with its own CSRF token (its next tap
counts); what only one seat may see reaches that seat's phone only, with the host's kept regions in play.
"""

from __future__ import annotations

import random
import re

import pytest
import sqlalchemy as sa

from companion.extensions import db
from companion.live import pushes, store
from companion.live.store import HostStore
from companion.models import Table
from companion.table import recording
from companion.views import jaipur as jaipur_views
from companion.live import page as live_page
from helpers import form_key, make_table

HTMX = {"HX-Request": "true"}


def record(app, token: str, event: dict) -> int:
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        recording.record(table, event)
        return table.last_seq


def table_id(app, token: str) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(Table.id).where(Table.token == token))


def phone_at(app, token: str, seat: int | None, language: str = "en"):
    """A phone that opened the table page and said who holds it (None: "Just watching"), in ``language``."""
    phone = app.test_client()
    phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    phone.get(f"/t/{token}")
    phone.post(f"/t/{token}/seat", data={"seat": "" if seat is None else str(seat), "also": "1"})
    return phone


def subscribe(app, phone, path: str) -> pushes.Subscriber | None:
    """Open ``path``'s stream as the worker does: the request's head, with the phone's cookie, through the app."""
    cookie = phone.get_cookie("companion", domain="companion.test")
    language = phone.environ_base.get("HTTP_ACCEPT_LANGUAGE", "en")
    head = (f"GET {path} HTTP/1.1\r\nHost: companion.test\r\nAccept: text/event-stream\r\n"
            f"Accept-Language: {language}\r\n" + (f"Cookie: companion={cookie.value}\r\n" if cookie else "") + "\r\n")
    return pushes.ask_app(app, head.encode(), ("127.0.0.1", 50000)).get("subscriber")


def region_of(event: bytes) -> str:
    """The region an EventSource hands the page: the data lines joined."""
    lines = event.decode().split("\n")
    assert lines[1] == "event: region"
    return "\n".join(line[6:] for line in lines if line.startswith("data: "))


def visible(html: str) -> str:
    """What a person reads and what a form sends but the values of one answer (CSRF token, form keys, the clock)."""
    html = re.sub(r'(name="(?:[a-z_]+-)?(?:csrf_token|key)"[^>]*value=)"[^"]*"', r'\1""', html)
    html = re.sub(r'(type="hidden" name="(?:[a-z_]+-)?(?:csrf_token|key)" value=)"[^"]*"', r'\1""', html)
    return re.sub(r'data-server-now="\d+"', "", html)


@pytest.fixture
def host(tmp_path):
    """Two workers' stores on one host folder."""
    folder = tmp_path / "regions"
    folder.mkdir()
    return HostStore(folder), HostStore(folder)


def test_each_phone_is_pushed_the_region_its_own_poll_would_show(app, host, monkeypatch):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Chloé", "Dan"], {"first_trader": 0})
    phones = [phone_at(app, token, seat) for seat in range(4)]
    subscribers = [subscribe(app, phone, f"/t/{token}/stream") for phone in phones]
    seq = record(app, token, {"type": "market_opened"})

    number, events = pushes.regions_for(app, host[0], table_id(app, token), subscribers)
    # Each poll rendered by the phone's own request alone, with its own session: not through the host's
    # rendering for every seat, which made the pushed regions.
    monkeypatch.setattr(live_page, "host_region", lambda *args: None)
    app.extensions["regions"]._regions.clear()

    assert number == seq and set(events) == set(subscribers)
    for seat, (phone, subscriber) in enumerate(zip(phones, subscribers)):
        pushed = region_of(events[subscriber])
        polled = phone.get(f"/t/{token}/live?seen={seq - 1}", headers=HTMX).text
        assert f'data-seen="{seq}"' in pushed
        assert visible(pushed) == visible(polled)
        assert f"<summary>This phone is {['Ana', 'Ben', 'Chloé', 'Dan'][seat]}'s" in pushed
        # Its own CSRF token: a tap on the pushed region is taken. The session's token is the part before the
        # first dot; the timestamp and signature after it change with the second the form was rendered in.
        sent_token = re.compile(r'name="csrf_token" value="([^".]+)\.')
        assert sent_token.search(pushed)[1] == sent_token.search(polled)[1]


def test_a_phone_is_pushed_its_region_in_its_own_language(app, host):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Chloé"], {"first_trader": 0})
    french, english = phone_at(app, token, 1, "fr"), phone_at(app, token, 2, "en")
    subscribers = [subscribe(app, french, f"/t/{token}/stream"), subscribe(app, english, f"/t/{token}/stream")]
    record(app, token, {"type": "market_opened"})

    _, events = pushes.regions_for(app, host[0], table_id(app, token), subscribers)

    assert "Ce téléphone est celui de Ben" in region_of(events[subscribers[0]])
    assert "This phone is Chloé's" in region_of(events[subscribers[1]])


def test_a_version_is_rendered_once_for_the_host_and_read_by_its_other_workers(app, host, monkeypatch):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Chloé", "Dan", "Eve", "Fay"], {"first_trader": 0})
    phones = [phone_at(app, token, seat) for seat in range(6)]
    subscribers = [subscribe(app, phone, f"/t/{token}/stream") for phone in phones]
    record(app, token, {"type": "market_opened"})
    first, second = host
    # The first worker holds Ana's phone only, and renders the version for every seat at once.
    _, events = pushes.regions_for(app, first, table_id(app, token), subscribers[:1])
    assert list(events) == subscribers[:1]

    # The second holds the other five: it renders nothing (here, it could not), it reads.
    app.extensions["regions"]._regions.clear()  # another process: nothing kept in its memory
    monkeypatch.setattr(live_page, "render_template", lambda *a, **k: pytest.fail("rendered again"))
    _, events = pushes.regions_for(app, second, table_id(app, token), subscribers[1:])
    assert set(events) == set(subscribers[1:])
    # And a phone's live poll in that worker reads it too (its stream came late, or it polls).
    monkeypatch.setitem(app.extensions, "region_store", second)
    answer = phones[3].get(f"/t/{token}/live?seen=0", headers=HTMX)
    assert answer.status_code == 200 and "This phone is Dan's" in answer.text


def test_a_drawn_bonus_is_pushed_to_the_sellers_phone_only(app, host, monkeypatch):
    monkeypatch.setattr(jaipur_views, "bonus_rng", lambda: random.Random(7))
    token = make_table(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw"})
    ana, ben, nobody = phone_at(app, token, 0), phone_at(app, token, 1), phone_at(app, token, None)
    stranger = app.test_client()  # opened the page, never said who holds it
    stranger.get(f"/t/{token}")
    with app.app_context():
        watch_token = db.session.scalar(sa.select(Table.watch_token).where(Table.token == token))
    subscribers = {"ana": subscribe(app, ana, f"/t/{token}/stream"), "ben": subscribe(app, ben, f"/t/{token}/stream"),
                   "nobody": subscribe(app, nobody, f"/t/{token}/stream"),
                   "stranger": subscribe(app, stranger, f"/t/{token}/stream"),
                   "watch": subscribe(app, ana, f"/w/{watch_token}/stream")}
    # Ben records Ana's sale on his phone: a bonus token is drawn for Ana.
    sale = {"player": "0", "good": "diamonds", "cards": "3"}
    preview = ben.post(f"/t/{token}/jaipur/sale", data=sale | {"key": form_key(), "step": "preview"}, headers=HTMX).text
    form = preview[preview.index('id="sale-form"'):]
    fields = dict(re.findall(r'name="(key|seen|previewed)" type="hidden" value="([^"]*)"', form[:form.index("</form>")]))
    assert ben.post(f"/t/{token}/jaipur/sale", data=fields | sale | {"step": "confirm"}).status_code == 303
    assert "Ana sold 3 diamonds" in ben.get(f"/t/{token}").text

    for order in (list(subscribers.values()), list(reversed(subscribers.values()))):
        for store_of_worker in host:  # rendered by the first, read by the second
            _, events = pushes.regions_for(app, store_of_worker, table_id(app, token), order)
            shown = {name: region_of(events[s]) for name, s in subscribers.items() if s in events}
            assert '<strong class="bonus-value">' in shown["ana"]
            for other in ("ben", "nobody", "stranger", "watch"):
                assert other in shown and "bonus-value" not in shown[other], other


def test_a_phone_whose_session_holds_no_csrf_token_is_told_versions_only(app, host):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Chloé"], {"first_trader": 0})
    bare = app.test_client()  # a stream opened with no page before it: its session has no token
    subscriber = subscribe(app, bare, f"/t/{token}/stream")
    assert subscriber is not None and subscriber.csrf is None
    record(app, token, {"type": "market_opened"})
    _, events = pushes.regions_for(app, host[0], table_id(app, token), [subscriber])
    assert events == {}  # the worker tells it the version; the phone asks, and its answer sets its cookie


def test_an_unknown_table_has_no_subscriber(app):
    assert subscribe(app, app.test_client(), "/t/abcdefghijklmnopqrstuv/stream") is None


def test_a_store_without_a_folder_keeps_its_regions_in_the_process(app):
    kept = HostStore(None)
    with kept.table(7) as regions:
        regions.put(("variant",), (3, "open"), {"[0, null]": "<div>3</div>"})
    with kept.table(7) as regions:
        assert regions.get(("variant",), (3, "open")) == {"[0, null]": "<div>3</div>"}
        assert regions.get(("variant",), (4, "open")) == {}
    assert kept.peek(7, ("variant",), (3, "open"), "[0, null]") == "<div>3</div>"
    assert store.of(app) is app.extensions["region_store"]


def test_a_push_reads_the_table_outside_a_transaction_on_postgresql(app, host):
    # A push only reads: on PostgreSQL its statements run on their own (no BEGIN and ROLLBACK round trips around
    # them); on SQLite as every read does. The phone is pushed its region all the same.
    token = make_table(app, "carambouille", ["Ana", "Ben", "Chloé"], {"first_trader": 0})
    subscribers = [subscribe(app, phone_at(app, token, 0), f"/t/{token}/stream")]
    seq = record(app, token, {"type": "market_opened"})
    with app.app_context():
        engine = db.engine
    autocommit, table = [], table_id(app, token)

    def noted(connection, *_args):
        autocommit.append(bool(getattr(connection.connection.dbapi_connection, "autocommit", False)))

    sa.event.listen(engine, "before_cursor_execute", noted)
    try:
        number, events = pushes.regions_for(app, host[0], table, subscribers)
    finally:
        sa.event.remove(engine, "before_cursor_execute", noted)
    assert number == seq and f'data-seen="{seq}"' in region_of(events[subscribers[0]])
    assert autocommit and set(autocommit) == {engine.dialect.name == "postgresql"}
