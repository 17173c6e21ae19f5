"""Fuzz every form of the app with random and hostile values (hypothesis).

The targets are found, not listed: every POST route of the url_map, its
fields read off the forms the app's own pages render (so a new form is
covered as soon as it exists), sent urlencoded or as multipart/form-data.
For each: never a 500; a refusal changes no table and records no entry; no
posted text ever comes back unescaped. Session files are fuzzed too: real
exports with hostile values put anywhere in them, and hostile number text.
"""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import create_app
from companion.table.recording import cache
from companion.extensions import db
from companion.models import Entry, Table
from companion.rules import GAMES

MARKER = "x-fuzz"
HOSTILE_TEXT = [
    f'<{MARKER}>', f'"><{MARKER} a=1>', f"'><script>{MARKER}()</script>", f"<img src=x onerror={MARKER}>",
    "{{ 7*7 }}", "{% raw %}", "&lt;&amp;", "javascript:alert(1)", "\u202e\u0000\x1b[31m", "Zoë 🦀 ﷽",
    "NaN", "Infinity", "-0", "1e309", "0x10", "１２", "٣", "[]", "{}", "null", "true", " 7 ", "1.5",
]
NUMBERS = ["0", "1", "2", "-1", "-2147483649", "9223372036854775808", str(10**30), str(-(10**30)), "999999999"]
LONG = ["9" * 400, "a" * 10_240, "é" * 5_000, f"<{MARKER}>" * 1_200]
HTMX = {"HX-Request": "true"}
PLAYERS = {"carambouille": ["Ana", "Ben", "Cy"], "jaipur": ["Ana", "Ben"], "frutti": ["Ana", "Ben", "Cy"]}
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "30"))

hostile = st.one_of(
    st.sampled_from(HOSTILE_TEXT + NUMBERS + LONG + [""]),
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.text(max_size=60),
)


class FormFields(HTMLParser):
    """The field names of each form on a page, by the URL it posts to (action and hx-post)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: dict[str, set[str]] = {}
        self._current: list[set[str]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            names: set[str] = set()
            for url in {attrs.get("action"), attrs.get("hx-post")} - {None, ""}:
                self.forms.setdefault(url.split("?")[0], set())
                names = self.forms[url.split("?")[0]]
            self._current.append(names)
        elif tag in ("input", "select", "textarea", "button") and attrs.get("name"):
            if self._current:
                self._current[-1].add(attrs["name"])
            if attrs.get("formaction"):
                self.forms.setdefault(attrs["formaction"].split("?")[0], set()).add(attrs["name"])

    def handle_endtag(self, tag):
        if tag == "form" and self._current:
            self._current.pop()


def _build_app():
    import tempfile

    folder = tempfile.mkdtemp(prefix="fuzz-")
    url = os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{folder}/fuzz.sqlite"
    return create_app({"TESTING": True, "SECRET_KEY": "fuzz", "SQLALCHEMY_DATABASE_URI": url,
                       "WTF_CSRF_ENABLED": False, "SERVER_NAME": "companion.test",
                       "JOIN_ATTEMPTS_PER_10_MINUTES": 10**6, "JOIN_ATTEMPTS_PER_DAY": 10**6,
                       "NEW_TABLES_PER_MINUTE": 10**6,
                       "IMPORTS_PER_MINUTE": 10**6})


def post_routes() -> list[str]:
    """Every POST route of the app, as its rule."""
    app = _build_app()
    rules = sorted({rule.rule for rule in app.url_map.iter_rules() if "POST" in rule.methods})
    with app.app_context():
        db.engine.dispose()
    return rules


def get_routes() -> list[str]:
    app = _build_app()
    rules = sorted({rule.rule for rule in app.url_map.iter_rules()
                    if "GET" in rule.methods and rule.endpoint != "static" and set(rule.arguments) <= {"token", "slug"}})
    with app.app_context():
        db.engine.dispose()
    return rules


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory):
    """An app with one table of each game opened through the real form, and the fields of every form seen."""
    app = _build_app()
    with app.app_context():
        db.drop_all()
        db.create_all()
    cache.clear()
    client = app.test_client()
    tokens = {slug: new_table(client, slug) for slug in PLAYERS}
    fields = FormFields()
    for url in ["/", "/import", *[f"/new/{slug}" for slug in PLAYERS]]:
        fields.feed(client.get(url).text)
    for token in tokens.values():
        for rule in get_routes():
            if "<token>" in rule and not rule.startswith("/w/"):
                response = client.get(rule.replace("<token>", token))
                if response.mimetype == "text/html":
                    fields.feed(response.text)
    yield app, client, tokens, fields.forms
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()
    cache.clear()


def new_table(client, slug: str) -> str:
    """Open a table of ``slug`` through the real form; its token."""
    page = client.get(f"/new/{slug}")
    data = {f"players-{i}": name for i, name in enumerate(PLAYERS[slug])} | {"starter": "0"}
    # Whatever else the new-table form of this game asks (a radio, a select): its first choice.
    for name, value in re.findall(r'<input[^>]*type="radio"[^>]*name="([^"]+)"[^>]*value="([^"]*)"', page.text):
        data.setdefault(name, value)
    answer = client.post(f"/new/{slug}", data=data)
    assert answer.status_code == 303, answer.text
    return answer.headers["Location"].rsplit("/", 1)[1]


# Routes that do away with their table when they succeed: each example gets a table of its own.
DESTRUCTIVE = {"/t/<token>/remove"}


def snapshot(app) -> tuple:
    """What a refusal must leave alone: every table's counter and status, and every entry."""
    with app.app_context():
        tables = db.session.execute(sa.select(Table.id, Table.last_seq, Table.status).order_by(Table.id)).all()
        entries = db.session.scalar(sa.select(sa.func.count()).select_from(Entry))
        return tuple(map(tuple, tables)), entries


def urls_for(rule: str, tokens: dict) -> list[tuple[str, str]]:
    """(game, URL) pairs for a rule: each game's table, or each game's slug, or the rule itself."""
    if "<token>" in rule:
        owner = rule.split("/")[3] if rule.count("/") >= 3 else ""
        games = [owner] if owner in tokens else list(tokens)
        return [(game, rule.replace("<token>", tokens[game])) for game in games]
    if "<slug>" in rule:
        return [(slug, rule.replace("<slug>", slug)) for slug in GAMES]
    return [("", rule)]


def assert_escaped(text: str) -> None:
    for raw in (f"<{MARKER}", f"<script>{MARKER}", f"<img src=x onerror={MARKER}"):
        assert raw not in text, f"posted text came back unescaped: {raw}"


# Bugs the fuzz found that their owners are fixing; each stays listed until its route passes.
KNOWN_BUGS: dict[str, str] = {}


def with_known_bugs(rules: list[str]) -> list:
    return [pytest.param(rule, marks=pytest.mark.xfail(reason=KNOWN_BUGS[rule], strict=False))
            if rule in KNOWN_BUGS else rule for rule in rules]


@pytest.mark.parametrize("rule", with_known_bugs(post_routes()))
def test_hostile_posts_never_break_the_app(fuzz, rule):
    app, client, tokens, forms = fuzz
    targets = urls_for(rule, tokens)
    everything = sorted(set().union(*forms.values()) | {"key", "seen", "entry", "player", "points"})

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def post(data):
        game, url = data.draw(st.sampled_from(targets), label="url")
        known = sorted(forms.get(url, set())) or everything
        if rule in DESTRUCTIVE:
            url = rule.replace("<token>", new_table(client, game))
        names = data.draw(st.lists(st.sampled_from(known + everything[:8]), unique=True, max_size=len(known) + 2),
                          label="fields")
        form = {name: data.draw(hostile, label=name) for name in names}
        if data.draw(st.booleans(), label="valid key"):
            form["key"] = os.urandom(16).hex()
        htmx = data.draw(st.booleans(), label="htmx")
        # Browsers send a form with a file input (and anyone may send any form) as multipart/form-data.
        multipart = data.draw(st.booleans(), label="multipart")
        before = snapshot(app)
        response = client.post(url, data=form, headers=HTMX if htmx else {},
                               content_type="multipart/form-data" if multipart else None)
        assert response.status_code < 500, (url, form, multipart, response.status_code)
        if response.status_code >= 400 and response.status_code != 429:
            assert snapshot(app) == before, (url, form, "a refused post changed the table")
        if response.mimetype == "text/html":
            assert_escaped(response.text)

    post()
    # Whatever was accepted shows escaped on every page of the tables.
    for token in tokens.values():
        for path in (f"/t/{token}", f"/t/{token}/history", "/"):
            page = client.get(path)
            assert page.status_code == 200
            assert_escaped(page.text)


@pytest.mark.parametrize("rule", with_known_bugs(get_routes()))
def test_hostile_query_strings_never_break_a_page(fuzz, rule):
    app, client, tokens, forms = fuzz
    targets = urls_for(rule, tokens)
    names = sorted(set().union(*forms.values()) | {"seen", "entry", "player"})

    @settings(max_examples=max(5, EXAMPLES // 3), deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def get(data):
        _, url = data.draw(st.sampled_from(targets))
        query = data.draw(st.dictionaries(st.sampled_from(names), hostile, max_size=4))
        before = snapshot(app)
        response = client.get(url, query_string=query, headers=HTMX if data.draw(st.booleans()) else {})
        assert response.status_code < 500, (url, query, response.status_code)
        assert snapshot(app) == before, "a GET changed a table"
        if response.mimetype == "text/html":
            assert_escaped(response.text)

    get()


def test_every_post_route_is_fuzzed_and_its_form_was_found():
    """A new form is covered without listing it; this says which routes had no form on any page."""
    rules = post_routes()
    assert "/t/<token>/undo" in rules and "/new/<slug>" in rules and len(rules) >= 5


# --- session files ---------------------------------------------------------------------------------

JSON_HOSTILE = st.one_of(
    st.sampled_from([
        None, True, False, 0, -1, 7, 10**15, -(10**15), 1.5, -0.0, "", "x" * 10_000, [], {}, [[[[[]]]]],
        "9999-12-31T23:59:59+00:00", "9999-12-31T23:59:59-05:00", "0001-01-01T00:00:00+14:00",
        "2025-03-14T20:15:00", "1970-01-01T00:00:00Z", "\u202eAna", "Ana\u200b", "\u0000", f"<{MARKER}>",
        {"type": "void", "entry": 1}, {"type": "reopen"}, {"type": "seat_taken", "seat": 9}, "carambouille",
    ]),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.text(max_size=30),
)
NUMBER_TEXT = ["1" * 4_400, "-" + "9" * 5_000, "NaN", "Infinity", "-Infinity", "1e400", "-0", "1E5", "12345678901234567890"]


def paths_in(value, path=()):
    """Every place in a JSON value, as a path of keys and indexes."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths_in(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths_in(item, (*path, index))


def put(document, path, value):
    if not path:
        return value
    holder = document
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = value
    return document


@pytest.fixture(scope="module")
def exports(fuzz):
    """A real export of a whole session of each game (the fuzz app's own tables hold only what the fuzz left)."""
    from review.test_review_sessions import SESSIONS, record_all

    app, client, _, _ = fuzz
    files = {}
    for slug, session in SESSIONS.items():
        token = record_all(app, *session)
        files[slug] = client.get(f"/t/{token}/export.json").get_data(as_text=True)
    return files


def test_hostile_session_files_never_break_the_app(fuzz, exports):
    import io
    import json

    app, client, _, _ = fuzz

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def upload(data):
        slug = data.draw(st.sampled_from(sorted(exports)), label="game")
        document = json.loads(exports[slug])
        for _ in range(data.draw(st.integers(min_value=1, max_value=3), label="changes")):
            path = data.draw(st.sampled_from(list(paths_in(document))), label="where")
            document = put(document, path, data.draw(JSON_HOSTILE, label="value"))
        text = json.dumps(document, ensure_ascii=data.draw(st.booleans(), label="ascii"))
        numbers = re.findall(r"(?<![\w.\"])-?\d+(?![\w.\"])", text)
        if numbers and data.draw(st.booleans(), label="number text"):
            chosen = data.draw(st.sampled_from(numbers), label="number")
            text = text.replace(chosen, data.draw(st.sampled_from(NUMBER_TEXT), label="as"), 1)
        before = snapshot(app)
        response = client.post("/import", data={"file": (io.BytesIO(text.encode()), "session.json")},
                               content_type="multipart/form-data")
        assert response.status_code < 500, (text[:2000], response.status_code)
        assert_escaped(response.get_data(as_text=True))
        if response.status_code != 303:
            assert snapshot(app) == before, "a refused file created something"
            return
        # Whatever was accepted shows on every page that lists or reads it.
        results = response.headers["Location"]
        token = results.split("/t/", 1)[1].split("/", 1)[0]
        for path in (results, f"/t/{token}", f"/t/{token}/export.json", "/history", "/history.csv", "/players"):
            page = client.get(path)
            assert page.status_code == 200, (path, text[:2000])
            if page.mimetype == "text/html":
                assert_escaped(page.text)
        assert client.post(f"/t/{token}/remove").status_code == 303  # the next example starts from the same history

    upload()
