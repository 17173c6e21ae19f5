"""Helpers shared by the test modules (imported as ``helpers``; conftest files only hold fixtures)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
import sqlalchemy as sa
from babel import support

from companion import groups
from companion.extensions import db
from companion.live import heads
from companion.models import Seat, Table


def database_url(tmp_path) -> str:
    """PostgreSQL when the run provides one (the CI's second leg), else a file-backed SQLite."""
    return os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'test.sqlite'}"


def worker_database(url: str, worker: str) -> str:
    """The PostgreSQL database of one pytest-xdist worker beside the one ``url`` names (made if it is not there):
    two workers never drop each other's tables."""
    admin = sa.make_url(url)
    name = f"{admin.database}_{worker}"
    engine = sa.create_engine(admin, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            if not connection.scalar(sa.text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}):
                connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return admin.set(database=name).render_as_string(hide_password=False)


def close_down(app, drop_tables: bool = False) -> None:
    """Let go of everything an app holds: its live reader's thread, its session, its pooled connections
    (its tables first, with ``drop_tables``: a PostgreSQL database outlives the test)."""
    if reader := heads.of(app):
        reader.close()
    with app.app_context():
        db.session.remove()
        if drop_tables:
            db.drop_all()
        db.engine.dispose()


def in_ci() -> bool:
    """Whether this is CI (CI=true), where a test that cannot run for want of a tool fails instead of skipping."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def unwritable(path, on: bool) -> None:
    """Make a file or a folder unwritable (``on``), or writable again: ``chattr +i`` as root, whom permissions do
    not stop, else its mode; skips the test where neither works."""
    if os.geteuid() == 0:
        if shutil.which("chattr") is None:
            pytest.skip("no chattr: root cannot make a file unwritable")
        result = subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True, text=True)
        if result.returncode:
            pytest.skip(f"chattr does not work here: {result.stderr.strip()}")
    elif path.is_dir():
        path.chmod(0o555 if on else 0o700)
    else:
        path.chmod(0o444 if on else 0o600)


def make_table(app, game: str, players: list[str], options: dict | None = None) -> str:
    """Create a table directly in the database; its player token."""
    with app.app_context():
        table = Table(game=game, options=options or {}, group_id=groups.home_group().id, seats=[Seat(position=i, name=n) for i, n in enumerate(players)])
        db.session.add(table)
        db.session.commit()
        return table.token


def form_key() -> str:
    """A fresh idempotency key, as a rendered form would carry."""
    return os.urandom(16).hex()


def sent_back(response, token: str, anchor: str) -> None:
    """A refused form, or a preview, sent without htmx: Post/Redirect/Get, a 303 to the table page at the form."""
    assert response.status_code == 303, response.status_code
    assert response.headers["Location"] == f"/t/{token}#{anchor}"


def answered(client, response, token: str, anchor: str, *, htmx: bool = False):
    """What the phone shows after a refused form or a preview: with htmx, the answer itself (200, the live region);
    without, the table page it is sent to (a 303 to ``/t/<token>#<anchor>``), fetched by the same phone (``client``),
    which shows the form kept for it once (``companion/views/kept_forms.py``)."""
    if htmx:
        assert response.status_code == 200, response.status_code
        return response
    sent_back(response, token, anchor)
    page = client.get(f"/t/{token}")
    assert page.status_code == 200
    return page


def csrf_token(html: str) -> str:
    """The CSRF token in a rendered page."""
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)


def without_csrf(html: str) -> str:
    """A page with its CSRF token blanked: two answers to the same request differ only by it, since a token is
    signed with the second it was made in."""
    token = re.search(r'"X-CSRFToken": "([^"]+)"', html)
    return html.replace(token.group(1), "CSRF") if token else html


class Marked(support.NullTranslations):
    """A stub catalog that marks every message it words: a marked text went through gettext when it was shown.

    ``Marked()`` words a message as «message» (a part worded on its own shows its own: «Ana sold «2 cards»»);
    ``Marked("fr")`` as "[fr]message", to tell apart phones reading one table in two languages. A plural takes
    the form of the count, as in English.
    """

    def __init__(self, language: str | None = None) -> None:
        super().__init__()
        self.language = language

    def mark(self, text: str) -> str:
        return f"[{self.language}]{text}" if self.language else f"«{text}»"

    def gettext(self, message: str) -> str:
        return self.mark(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.mark(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return self.mark(message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.mark(singular if n == 1 else plural)

    # What Flask-Babel calls: the templates' gettext callables and the forms' lazy strings.
    ugettext, ungettext, upgettext, unpgettext = gettext, ngettext, pgettext, npgettext
