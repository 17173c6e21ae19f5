"""Helpers shared by the test modules (imported as ``helpers``; conftest files only hold fixtures)."""

from __future__ import annotations

import os
import re

from companion.extensions import db
from companion.models import Seat, Table


def database_url(tmp_path) -> str:
    """PostgreSQL when the run provides one (the CI's second leg), else a file-backed SQLite."""
    return os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'test.sqlite'}"


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
