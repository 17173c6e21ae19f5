"""Fixtures: an app on a fresh database, its client, and the tiny test-only game."""

from __future__ import annotations

import os
import re

import pytest

from companion import create_app
from companion.entries import cache
from companion.extensions import db
from companion.models import Seat, Table
from companion.rules import GAMES

import tinyviews


def database_url(tmp_path) -> str:
    """PostgreSQL when the run provides one (the CI's second leg), else a file-backed SQLite."""
    return os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'test.sqlite'}"


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


def make_table(app, game: str, players: list[str], options: dict | None = None) -> str:
    """Create a table directly in the database; its player token."""
    with app.app_context():
        table = Table(game=game, options=options or {}, seats=[Seat(position=i, name=n) for i, n in enumerate(players)])
        db.session.add(table)
        db.session.commit()
        return table.token


def form_key() -> str:
    """A fresh idempotency key, as a rendered form would carry."""
    return os.urandom(16).hex()


def csrf_token(html: str) -> str:
    """The CSRF token in a rendered page."""
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)
