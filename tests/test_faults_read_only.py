"""A SQLite file that could not be written, then fixed: writes recover within seconds, without a restart.

SQLite opens a file it cannot write read-only, silently, and such a connection stays read-only
for good. The file is made unwritable the way a full or remounted disk, a wrong owner or a
backup tool would leave it: ``chattr +i`` (as root, whom permissions do not stop), else
``chmod 0444``. PostgreSQL has no such state; the test runs on SQLite only.
"""

from __future__ import annotations

import os
import time

import pytest
import sqlalchemy as sa

from companion import create_app
from companion.table.recording import cache
from companion.extensions import db
from companion.models import Entry
from helpers import form_key, make_table, unwritable

pytestmark = pytest.mark.skipif(bool(os.environ.get("TEST_DATABASE_URL")), reason="SQLite files only")


@pytest.fixture
def file_app(tmp_path, tiny):
    # The tiny game is registered (``tiny``) before the app is made: the app registers its views.
    path = tmp_path / "companion.sqlite"
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        db.create_all()
    cache.clear()
    yield app, path
    unwritable(path, False)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    cache.clear()


def score(client, token):
    return client.post(f"/t/{token}/tiny/score", data={"player": 0, "points": 1, "key": form_key()}).status_code


def test_writes_recover_within_seconds_once_the_file_can_be_written_again(file_app):
    app, path = file_app
    token = make_table(app, "tiny", ["Ana", "Ben"])
    client = app.test_client()
    assert score(client, token) == 303
    with app.app_context():
        db.engine.dispose()  # every connection from now on is opened while the file cannot be written

    unwritable(path, True)
    try:
        assert client.get(f"/t/{token}").status_code == 200  # reading still works
        refused = [score(client, token) for _ in range(5)]
        assert refused == [503] * 5
    finally:
        unwritable(path, False)

    fixed = time.monotonic()
    answers = []
    while time.monotonic() - fixed < 3:
        answers.append(score(client, token))
    late = [status for status in answers[1:] if status != 303]
    assert not late, f"{len(late)} of {len(answers)} writes still refused after the file was fixed"
    with app.app_context():
        recorded = db.session.scalar(sa.select(sa.func.count()).select_from(Entry))
    assert recorded == 1 + answers.count(303)
