"""Creating, joining and watching tables; recording through forms; the live poll; undo."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from companion.table import recording
from companion.table import view as table_view_module
from companion.extensions import db
from companion.models import Entry, RateCount, Table
from helpers import answered, form_key, make_table, sent_back

HTMX = {"HX-Request": "true"}


def table_by(app, **where) -> Table:
    with app.app_context():
        table = db.session.scalar(sa.select(Table).filter_by(**where))
        db.session.expunge(table)
        return table


def entry_count(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Entry))


def post_score(client, token, player=0, points=5, headers=None, key=None, seen=""):
    return client.post(f"/t/{token}/tiny/score", headers=headers or {},
                       data={"player": player, "points": points, "key": key or form_key(), "seen": seen})


# --- creating a table -------------------------------------------------------

def test_new_table_form_shows_as_many_name_fields_as_the_game_allows(client):
    page = client.get("/new/tiny")
    assert page.status_code == 200
    assert page.text.count('name="players-') == 4
    assert "(optional)" in page.text


def test_creating_a_table_opens_it_and_remembers_it_on_this_phone(app, client):
    response = client.post("/new/tiny", data={"players-0": "  Ana  ", "players-1": "Zoë", "players-2": "",
                                              "starter": "1"})
    assert response.status_code == 303
    token = response.headers["Location"].rsplit("/", 1)[1]
    table = table_by(app, token=token)
    with app.app_context():
        assert db.session.get(Table, table.id).players == ["Ana", "Zoë"]
    assert table.options == {"first_player": 1}
    assert len(token) >= 16 and table.watch_token != token
    assert re.fullmatch(r"[A-HJKMNP-Z2-9]{6}", table.join_code)
    page = client.get(response.headers["Location"])
    assert "Ana" in page.text and "Zoë" in page.text and table.join_code in page.text


@pytest.mark.parametrize("names, message", [
    (["Ana"], "Enter at least 2 players."),
    (["Ana", "ana "], "Each player needs a different name: Ana, ana is there twice."),
    (["Ana", "B" * 41], "Field cannot be longer than 40 characters."),
    (["Ana", "B\x07b"], "Names cannot contain control characters."),
    ([], "Enter at least 2 players."),
    # The tiny game takes 4 players: a 5th, posted in a field the page never shows, is refused, never dropped.
    (["Ana", "Ben", "Cy", "Dee", "Eve"], "At most 4 players can play."),
    (["Ana", "Ben", "", "", "Eve"], "At most 4 players can play."),
    (["Ana", "Ben", "", "", "", "", "", "Hal"], "At most 4 players can play."),
])
def test_bad_player_names_are_explained_and_nothing_is_created(app, client, names, message):
    data = {f"players-{i}": name for i, name in enumerate(names)} | {"starter": "random"}
    response = client.post("/new/tiny", data=data)
    assert response.status_code == 422
    assert message in response.text.replace("&#39;", "'")
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Table)) == 0


def test_starter_must_be_one_of_the_players(client):
    response = client.post("/new/tiny", data={"players-0": "Ana", "players-1": "Ben", "starter": "3"})
    assert response.status_code == 422
    assert "Pick one of the players entered above" in response.text


def test_the_starter_is_whoever_was_typed_in_the_field_chosen_even_below_an_empty_one(app, client):
    response = client.post("/new/tiny", data={"players-0": "Ana", "players-1": "", "players-2": "Cy",
                                              "starter": "2"})
    assert response.status_code == 303
    table = table_by(app, token=response.headers["Location"].rsplit("/", 1)[1])
    assert table.options == {"first_player": 1}  # Cy, the second name
    refused = client.post("/new/tiny", data={"players-0": "Ana", "players-1": "", "players-2": "Cy", "starter": "1"})
    assert refused.status_code == 422 and "Pick one of the players entered above" in refused.text


def test_a_refused_new_table_lists_who_starts_by_the_names_typed(client):
    # A browser sends every field, the empty ones too; "Ana" twice is refused.
    refused = client.post("/new/tiny", data={"players-0": "Ana", "players-1": "", "players-2": "Cy",
                                             "players-3": "Ana", "starter": "2"})
    assert refused.status_code == 422
    options = re.findall(r'<option value="(\w+)"[^>]*>([^<]*)</option>', refused.text.split('id="starter"')[1])
    assert options == [("random", "Chosen at random"), ("0", "Ana"), ("1", "Player 2"), ("2", "Cy"), ("3", "Ana")]


def test_unknown_game_is_a_404(client):
    assert client.get("/new/chess").status_code == 404


# --- joining and watching ---------------------------------------------------

def test_join_code_opens_the_table_whatever_the_case_and_spaces(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    code = table_by(app, token=token).join_code
    response = client.post("/join", data={"code": f" {code[:3].lower()} {code[3:]} "})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{token}")


def test_a_wrong_join_code_is_explained_next_to_the_field(client):
    response = client.post("/join", data={"code": "ZZZZZZ"})
    assert response.status_code == 422
    assert "No open table has that code" in response.text and 'aria-invalid="true"' in response.text
    htmx = client.post("/join", data={"code": "ABC"}, headers=HTMX)
    assert htmx.status_code == 200 and "A join code has 6 characters." in htmx.text
    assert "<html" not in htmx.text


def test_join_code_guessing_is_rate_limited(app, client):
    app.config["JOIN_ATTEMPTS_PER_10_MINUTES"] = 3
    for _ in range(3):
        assert client.post("/join", data={"code": "ZZZZZZ"}).status_code == 422
    refused = client.post("/join", data={"code": "ZZZZZZ"})
    assert refused.status_code == 429 and "Too many join codes were tried from your network" in refused.text
    assert "QR code" in refused.text
    with app.app_context():
        assert db.session.scalar(sa.select(RateCount.count).where(RateCount.kind == "join")) == 4


def test_watch_view_is_read_only_and_the_tokens_do_not_mix(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    watch_token = table_by(app, token=token).watch_token
    page = client.get(f"/w/{watch_token}")
    assert page.status_code == 200 and "Ana" in page.text
    # The only form is the language switch at the foot of every page: nothing that records.
    forms = re.findall(r"<form[^>]*>", page.text)
    assert all('action="/language"' in form for form in forms) and token not in page.text
    assert client.get(f"/t/{watch_token}").status_code == 404
    assert client.get(f"/w/{token}").status_code == 404


@pytest.mark.parametrize("path", ["/t/nope", "/t/" + "x" * 200, "/w/nope/live", "/t/%00/qr.svg", "/t/nope/history"])
def test_unknown_tokens_are_a_404_that_reveals_nothing(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "There is no page at this address" in response.text and "Traceback" not in response.text


def test_qr_code_is_a_standalone_svg_document_of_the_table_link(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    response = client.get(f"/t/{token}/qr.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    # Without its XML namespace an SVG is no image to a browser: the <img> would stay empty.
    assert response.text.startswith("<?xml") and 'xmlns="http://www.w3.org/2000/svg"' in response.text
    assert "<path" in response.text
    assert response.headers["Cache-Control"] == "private, no-cache"


def test_recent_tables_are_listed_on_the_home_page(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    client.get(f"/t/{token}")
    assert f"/t/{token}" in client.get("/").text


# --- recording through a form -------------------------------------------------

def test_a_plain_form_post_records_and_redirects(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    response = post_score(client, token, 0, 7)
    assert response.status_code == 303
    assert "Ana scored 7" in client.get(f"/t/{token}").text


def test_an_htmx_post_answers_the_live_region(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    response = post_score(client, token, 1, 9, headers=HTMX)
    assert response.status_code == 200
    assert response.text.startswith('<div id="live"') and "Ben scored 9" in response.text


def test_a_rule_refusal_is_shown_and_nothing_is_recorded(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    # Without htmx: the table page (at the live region, the tiny game's forms) says it to this phone.
    response = answered(client, post_score(client, token, 0, 99), token, "live")
    assert "Points go from 1 to 50." in response.text
    htmx = post_score(client, token, 0, 99, headers=HTMX)
    assert htmx.status_code == 200 and "Points go from 1 to 50." in htmx.text
    assert entry_count(app) == 0


@pytest.mark.parametrize("data", [
    {"player": "x", "points": "5"}, {"player": "0"}, {"player": "0", "points": "1e9"},
    {"player": "0", "points": "5", "key": "not-a-key"}, {"player": "0", "points": "<script>x</script>"},
])
def test_malformed_forms_change_nothing(app, client, data):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    response = client.post(f"/t/{token}/tiny/score", data={"key": form_key(), **data})
    sent_back(response, token, "live")
    assert "<script>x</script>" not in response.text
    # The table page showing the form kept for this phone, the values sent in it, escapes them.
    page = client.get(f"/t/{token}")
    assert page.status_code == 200 and "<script>x</script>" not in page.text
    assert entry_count(app) == 0


def test_a_double_tapped_form_is_recorded_once(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    key = form_key()
    post_score(client, token, 0, 5, key=key)
    post_score(client, token, 0, 5, key=key)
    assert entry_count(app) == 1


# --- the live poll --------------------------------------------------------------

def test_live_poll_answers_204_without_rebuilding_state_when_nothing_changed(app, client, monkeypatch):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    post_score(client, token, 0, 5)
    monkeypatch.setattr(table_view_module, "state_of", lambda *a, **k: pytest.fail("state rebuilt"))
    monkeypatch.setattr("flask.templating._render", lambda *a, **k: pytest.fail("template rendered"))
    response = client.get(f"/t/{token}/live?seen=1", headers=HTMX)
    assert response.status_code == 204 and response.data == b""


def test_the_unchanged_poll_is_answered_ahead_of_flask_with_every_header_the_app_gives(app, client, monkeypatch):
    """The common case, every second on every phone (``companion.live.polls``): the same 204 the view gives,
    its security headers and the server's clock, no cookie, and no request built for it."""
    token = make_table(app, "tiny", ["Ana", "Ben"])
    post_score(client, token, 0, 5)
    watch_token = table_by(app, token=token).watch_token
    monkeypatch.setattr(app, "full_dispatch_request", lambda: pytest.fail("the app dispatched an unchanged poll"))
    for path in (f"/t/{token}/live?seen=1", f"/w/{watch_token}/live?seen=1", f"/t/{token}/live?x=1&seen=1"):
        response = client.get(path, headers=HTMX)
        assert response.status_code == 204 and response.data == b"", path
        assert response.headers["Cache-Control"] == "no-store"
        assert "default-src 'self'" in response.headers["Content-Security-Policy"]
        assert response.headers["X-Frame-Options"] == "DENY" and "X-Server-Time" in response.headers
        assert "Set-Cookie" not in response.headers


def test_every_other_poll_goes_on_to_the_app(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    post_score(client, token, 0, 5)
    assert client.get(f"/t/{token}/live?seen=0", headers=HTMX).status_code == 200  # an older version
    assert client.get(f"/t/{token}/live", headers=HTMX).status_code == 200  # no version: the region
    assert client.get(f"/t/{'x' * 22}/live?seen=1", headers=HTMX).status_code == 404
    assert client.post(f"/t/{token}/live?seen=1", headers=HTMX).status_code == 405
    answer = client.get(f"/t/{token}/live?seen=1", base_url="https://companion.test", headers=HTMX)
    assert answer.status_code == 204 and "Strict-Transport-Security" in answer.headers


def test_live_poll_answers_the_new_region_when_something_changed(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    watch_token = table_by(app, token=token).watch_token
    post_score(client, token, 1, 6)
    for path in (f"/t/{token}/live?seen=0", f"/w/{watch_token}/live?seen=0"):
        response = client.get(path, headers=HTMX)
        assert response.status_code == 200 and "Ben scored 6" in response.text
        assert 'data-seen="1"' in response.text


# --- undo -------------------------------------------------------------------

def test_undo_says_what_it_undoes_asks_once_and_strikes_it_through(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    post_score(client, token, 0, 5)
    post_score(client, token, 1, 8)
    confirm = client.get(f"/t/{token}/undo")
    assert "Undo entry 2?" in confirm.text and "Ben scored 8" in confirm.text
    assert entry_count(app) == 2
    response = client.post(f"/t/{token}/undo", data={"entry": 2, "key": form_key()})
    assert response.status_code == 303
    history = client.get(f"/t/{token}/history").text
    assert "<del>Ben scored 8</del>" in history and "Undid entry 2: Ben scored 8" in history


def test_undo_that_would_break_a_later_entry_is_refused_with_the_reason(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    post_score(client, token, 0, 30)
    with app.app_context():
        recording.record(db.session.scalar(sa.select(Table)), {"type": "score", "player": 0, "points": 1, "needs": 30})
    response = client.post(f"/t/{token}/undo", data={"entry": 1, "key": form_key()}, headers=HTMX)
    assert response.status_code == 200 and "Ana needs 30 points first" in response.text
    assert entry_count(app) == 2


def test_the_htmx_undo_confirmation_is_a_fragment(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    post_score(client, token, 0, 5)
    fragment = client.get(f"/t/{token}/undo?entry=1", headers=HTMX)
    assert fragment.status_code == 200 and fragment.text.startswith("<form") and "Yes, undo it" in fragment.text


def test_choosing_a_seat_marks_this_phone(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    client.post(f"/t/{token}/seat", data={"seat": "1"})
    assert "This phone is Ben's" in client.get(f"/t/{token}").text
    assert client.post(f"/t/{token}/seat", data={"seat": "9"}).status_code == 303
    assert "This phone is Ben's" in client.get(f"/t/{token}").text


def test_history_offers_undo_only_for_game_entries(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    post_score(client, token, 0, 5)
    client.post(f"/t/{token}/undo", data={"entry": 1, "key": form_key()})
    post_score(client, token, 1, 3)
    history = client.get(f"/t/{token}/history").text
    assert history.count("Undo…") == 1 and f"/t/{token}/undo?entry=3" in history


@pytest.mark.parametrize("game, players", [
    ("carambouille", ["Ana", "Ben", "Cy"]), ("jaipur", ["Ana", "Ben"]), ("frutti", ["Ana", "Ben", "Cy"]), ("tiny", ["Ana", "Ben"]),
])
def test_no_id_is_used_twice_on_a_table_page(app, client, game, players):
    # The live region is morphed by id: two elements with one id would take each other's state.
    token = make_table(app, game, players)
    client.post(f"/t/{token}/seat", data={"seat": "0"})
    for page in (client.get(f"/t/{token}").text, client.get(f"/t/{token}/live?seen=0", headers=HTMX).text):
        ids = re.findall(r'\sid="([^"]+)"', page)
        assert ids and len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


# --- an undo refused, the entries in its way; a finished session (issue #21) -----

def record_needing(app, points: int) -> None:
    """Ana scores 1 more, which the rules allow only while she has ``points``: an entry an older undo can break."""
    with app.app_context():
        recording.record(db.session.scalar(sa.select(Table)),
                         {"type": "score", "player": 0, "points": 1, "needs": points})


def test_a_refused_undo_offers_to_undo_the_entry_in_its_way_first_then_itself(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    post_score(client, token, 0, 30)
    record_needing(app, 30)
    refused = client.post(f"/t/{token}/undo", data={"entry": 1, "key": form_key()})
    assert refused.status_code == 303 and refused.headers["Location"] == f"/t/{token}#undo-refused"
    page = client.get(f"/t/{token}").text.replace("&amp;", "&")
    assert ("Undoing that would make entry 2 (Ana scored 1) impossible: Ana needs 30 points first." in page)
    offer = re.search(r'<a role="button" class="secondary" href="([^"]+)">Undo entry 2 first…</a>', page)
    assert offer and offer[1] == f"/t/{token}/undo?entry=2&then=1#undo"
    assert entry_count(app) == 2
    assert "Undo entry 2 first" not in client.get(f"/t/{token}").text  # said once

    confirm = client.get(offer[1].split("#")[0]).text
    assert "Undo entry 2?" in confirm and "Then entry 1 can be undone." in confirm
    assert '<input type="hidden" name="then" value="1">' in confirm and "hx-post" not in confirm
    first = client.post(f"/t/{token}/undo", data={"entry": 2, "then": 1, "key": form_key()})
    assert first.status_code == 303 and first.headers["Location"] == f"/t/{token}/undo?entry=1#undo"
    assert "Undo entry 1?" in client.get(f"/t/{token}/undo?entry=1").text
    last = client.post(f"/t/{token}/undo", data={"entry": 1, "key": form_key()})
    assert last.status_code == 303 and last.headers["Location"] == f"/t/{token}"
    history = client.get(f"/t/{token}/history").text
    assert "<del>Ana scored 30</del>" in history and "<del>Ana scored 1</del>" in history


def test_a_refused_undo_in_the_table_offers_the_entry_in_its_way_too(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    post_score(client, token, 0, 30)
    record_needing(app, 30)
    region = client.post(f"/t/{token}/undo", data={"entry": 1, "key": form_key()}, headers=HTMX)
    assert region.status_code == 200 and "Ana needs 30 points first" in region.text
    assert "Undo entry 2 first…" in region.text


def test_the_undo_page_posts_plainly_and_the_table_confirmation_morphs_the_live_region(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    post_score(client, token, 0, 5)
    page = client.get(f"/t/{token}/undo?entry=1").text
    assert 'id="live"' not in page and "hx-target" not in page.split('class="undo-confirm"')[0].rsplit("<form", 1)[1]
    fragment = client.get(f"/t/{token}/undo?entry=1", headers=HTMX).text
    assert 'hx-target="#live"' in fragment


def test_a_finished_session_offers_to_reopen_and_no_undo(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"], {"target": 10})
    post_score(client, token, 0, 4)
    post_score(client, token, 0, 6)
    assert table_by(app, token=token).status == "finished"
    page = client.get(f"/t/{token}").text
    assert "Reopen this session" in page
    assert "Undo last entry" not in page and f"/t/{token}/undo" not in page
    history = client.get(f"/t/{token}/history").text
    assert "Undo…" not in history and f"/t/{token}/undo" not in history
    assert client.get(f"/t/{token}/undo?entry=1").headers["Location"] == f"/t/{token}"
    # Reopened, undo is offered again.
    client.post(f"/t/{token}/reopen", data={"key": form_key()})
    assert "Undo last entry…" in client.get(f"/t/{token}").text


def test_a_script_style_sheet_or_image_carries_only_the_headers_that_apply_to_it_and_a_page_all(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    page = client.get(f"/t/{token}")
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    files = re.findall(r'(?:src|href)="(/static/(?:vendor/[^"]+|app)\.(?:js|css)\?v=[0-9a-f]+)"', page.get_data(as_text=True))
    assert len(files) >= 4, files
    for path in files:
        with client.get(path) as answer:
            assert answer.status_code == 200, path
            assert answer.headers["X-Content-Type-Options"] == "nosniff", path
            assert "Content-Security-Policy" not in answer.headers and "X-Frame-Options" not in answer.headers, path
    # An SVG opened on its own is a document: ours need nothing, so their policy allows nothing at all
    # (no script, style or fetch, never framed), stricter than the page's; a PNG is never a document.
    with client.get(re.search(r'href="(/static/icon\.svg\?v=[0-9a-f]+)"', page.get_data(as_text=True))[1]) as icon, \
            client.get(f"/t/{token}/qr.svg") as qr:
        for svg in (icon, qr):
            assert svg.headers["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"
            assert svg.headers["X-Content-Type-Options"] == "nosniff"
    with client.get(re.search(r'href="(/static/icons/icon-192\.png\?v=[0-9a-f]+)"', page.get_data(as_text=True))[1]) as png:
        assert png.status_code == 200 and png.headers["X-Content-Type-Options"] == "nosniff"
        assert "Content-Security-Policy" not in png.headers
