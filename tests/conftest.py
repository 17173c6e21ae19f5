"""Fixtures: an app on a fresh database, its client, the tiny test-only game, the marking stub catalog, the bell's clock."""

from __future__ import annotations

import os

import flask_babel
import pytest
from babel import support
from hypothesis import settings

from companion import create_app
from companion.table import bell
from companion.table.recording import cache
from companion.extensions import db
from companion.rules import GAMES, words

from helpers import Marked, close_down, database_url, worker_database
from url_builders import share

# Each app's hundred URL builders compiled once per process, not once per test (tests/url_builders.py).
share()



def pytest_configure(config):
    """Under pytest-xdist each worker has its own PostgreSQL database beside TEST_DATABASE_URL's (a SQLite test's
    database is a file of its own already)."""
    worker, url = os.environ.get("PYTEST_XDIST_WORKER"), os.environ.get("TEST_DATABASE_URL")
    if worker and url:
        os.environ["TEST_DATABASE_URL"] = worker_database(url, worker)


# Property tests check what the rules compute, never how fast: a loaded machine must not fail them
# (speed is measured in bench/).
settings.register_profile("companion", deadline=None)
settings.load_profile("companion")


@pytest.fixture
def app(tmp_path, tiny):
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test",
        "SQLALCHEMY_DATABASE_URI": database_url(tmp_path),
        "WTF_CSRF_ENABLED": False,
        "SERVER_NAME": "companion.test",
    })
    with app.app_context():
        db.drop_all()
        db.create_all()
    cache.clear()
    yield app
    close_down(app, drop_tables=True)
    cache.clear()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def tiny():
    GAMES.register("tiny", "tinygame")
    yield GAMES["tiny"]
    GAMES.unregister("tiny")


@pytest.fixture
def marked(request, monkeypatch):
    """Every message is worded by the stub catalog ``helpers.Marked``: the rules' (``companion.rules.words``) and
    Flask-Babel's (the templates, the forms' lazy labels), in a request or outside one.

    Every message comes out «marked», in any language. A test marked ``marked_by_language`` tells the phones apart
    instead: each language but English marks with its code ("[fr]…"), and English stays the source.
    """
    if request.node.get_closest_marker("marked_by_language"):
        english = support.NullTranslations()

        def catalog():
            language = str(flask_babel.get_locale() or "en")
            return english if language == "en" else Marked(language)
    else:
        everyone = Marked()

        def catalog():
            return everyone

    monkeypatch.setattr(words, "_catalog", catalog)
    # Flask-Babel's module-level get_translations (the templates', and the one the app gives the rules) asks the domain.
    monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda domain: catalog())


@pytest.fixture
def clock(monkeypatch):
    """The bell's clock, set by the test: ``clock.at(moment)``; the real time until it is set."""
    class Clock:
        moment = None

        def at(self, moment):
            self.moment = bell.aware(moment)

    controlled = Clock()
    monkeypatch.setattr(bell, "now", lambda: controlled.moment or bell.datetime.now(bell.UTC))
    return controlled
