"""Fixtures: an app on a fresh database, its client, and the tiny test-only game."""

from __future__ import annotations

import pytest
from hypothesis import settings

from companion import create_app, live_read
from companion.entries import cache
from companion.extensions import db
from companion.rules import GAMES

import tinyviews
from helpers import database_url

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
    app.register_blueprint(tinyviews.bp)
    with app.app_context():
        db.drop_all()
        db.create_all()
    cache.clear()
    yield app
    if reader := live_read.of(app):
        reader.close()
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()
    cache.clear()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def tiny():
    GAMES.register("tiny", "tinygame")
    yield GAMES["tiny"]
    GAMES.unregister("tiny")
