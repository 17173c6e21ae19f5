"""Fixtures: the app's SQLite file as `flask db upgrade` leaves it; a group's history to move."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask_migrate import stamp

from review.test_review_sessions import CARAMBOUILLE, FRUTTI, FRUTTI_TIE_EVENTS, JAIPUR, record_all


@pytest.fixture
def library(app) -> Path:
    """The app's database file, stamped at the newest migration as `flask db upgrade` leaves it (the models'
    tables are the migrations' own: tests/test_migrations.py)."""
    if os.environ.get("TEST_DATABASE_URL"):
        pytest.skip("backups of SQLite files; PostgreSQL has pg_dump")
    with app.app_context():
        stamp()
    return Path(sa.make_url(app.config["SQLALCHEMY_DATABASE_URI"]).database)


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def played(app):
    """The home group's history: a finished session of each game, and one of Frutti still being played."""
    tokens = [record_all(app, *session) for session in (CARAMBOUILLE, JAIPUR, FRUTTI)]
    tokens.append(record_all(app, "frutti", ["Ana", "Ben", "Cy"], {}, FRUTTI_TIE_EVENTS[:3]))
    return tokens
