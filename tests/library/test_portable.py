"""Moving to another server, as the README says: a laptop's SQLite history exported, and imported into PostgreSQL.

Both databases are made as ``flask db upgrade`` makes them; the server's is a new database beside the one
TEST_POSTGRES_URL names (CI sets it for the whole of ``make test``, both legs), so that the move never
touches the tests' own. Skipped without it, failed in CI. The server then holds the same history, the same
standings and the same player statistics, entry for entry; imported twice, nothing doubles.
"""

from __future__ import annotations

import dataclasses
import os
import re
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from flask_migrate import upgrade

from companion import create_app, groups
from companion.extensions import db
from companion.groups.people import forget, rename
from companion.inputs.names import key
from companion.models import Table
from companion.review import history
from companion.groups.bin import remove_session as remove
from companion.review.session import review_of
from companion.review.stats import player_stats
from companion.rules import GAMES
from companion.table import log, recording
from companion.table.state import cache as state_cache, state_of
from browser.server import scratch_postgres
from helpers import close_down, in_ci
from review.test_review_sessions import (ANA, CARAMBOUILLE, FRUTTI, FRUTTI_TIE_EVENTS, JAIPUR, OPEN, c_sale, close,
                                         end, record_all, table_of)

POSTGRES = os.environ.get("TEST_POSTGRES_URL")


def server(url: str):
    """An app on an empty database brought up to date by the migrations, as `flask db upgrade` does."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SERVER_NAME": "companion.test",
                      "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        upgrade()
    return app


def play_a_laptops_evenings(laptop) -> None:
    """Two finished sessions of each game, a match undone and reopened, one removed (in the bin), two in play (one
    with secrets), a person renamed and another forgotten."""
    for session in (CARAMBOUILLE, JAIPUR, FRUTTI):
        record_all(laptop, *session)
    record_all(laptop, "jaipur", ["Ana", "Chloé"], JAIPUR[2], JAIPUR[3])
    record_all(laptop, "frutti", ["Ana", "Ben", "Cy"], {}, FRUTTI_TIE_EVENTS)
    reopened = record_all(laptop, "carambouille", ["Ana", "Ben", "Cy"], {},
                          [OPEN, close(61), c_sale(ANA, "cheese", 3), end(ANA), {"type": "end_game"}])
    gone = record_all(laptop, *JAIPUR)
    record_all(laptop, "carambouille", *CARAMBOUILLE[1:3], CARAMBOUILLE[3][:5])  # a purchase still secret
    record_all(laptop, "frutti", ["Ana", "Ben", "Dan"], {}, FRUTTI[3][:4])
    with laptop.app_context():
        recording.reopen(table_of(reopened))
        recording.void(table_of(reopened), 3)
        remove(table_of(gone))
        home = groups.home_group()
        rename(home, key("Ben"), "Benoît")
        forget(home, key("Dan"))


def utc(value):
    """Datetimes as the same instant in UTC (SQLite hands them back without their zone), inside anything."""
    if isinstance(value, datetime):
        return (value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)).isoformat()
    if dataclasses.is_dataclass(value):
        return utc(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {k: utc(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [utc(v) for v in value]
    return value


def picture(app) -> dict:
    """What the home group's members see of their history: every row, standing, statistic, entry and page."""
    state_cache.clear()  # kept per table id, which the two databases give to different sessions
    with app.app_context():
        group = groups.home_group()
        tables = history.tables_by_ids(history.matching_ids(group.id, history.Filters()))
        rows = [dataclasses.replace(o, table_id=0, link_token="") for o in history.outcomes(tables)]
        standings = []
        for table in tables:
            review = review_of(table.game, log.game_of(table), state_of(table))
            standings.append((table.status, table.finished_at, review.standings, review.periods, review.highlights))
        entries = [[(e.seq, e.type, e.event, e.summary, e.created_at) for e in log.entries_of(t)] for t in tables]
        statistics = player_stats([dataclasses.replace(o, table_id=i) for i, o in enumerate(reversed(rows))],
                                  list(GAMES.keys()))
    client = app.test_client()
    answers = [client.get(path) for path in ("/history", "/players", "/players/Ana", "/players/Beno%C3%AEt")]
    assert [answer.status_code for answer in answers] == [200] * 4
    # What lies in the bin stays on its server: restored first, a session goes along (README, Moving).
    pages = [re.sub(r'\s*<section aria-labelledby="bin-heading".*?</section>\s*', "\n", answer.text, flags=re.S)
             for answer in answers]
    pages = [re.sub(r"\s*\n\s*", "\n", page) for page in pages]
    # The links (a table's, an evening's by one of its tables) and the forms' CSRF tokens are each server's own;
    # everything else reads the same.
    links = re.compile(r"/([tw]|evenings)/[A-Za-z0-9_-]{16,32}")
    forms = re.compile(r'(csrf_token"[^>]*value="|X-CSRFToken": ")[^"]+')
    return utc({"history": rows, "standings": standings, "entries": entries, "players": statistics,
                "pages": [forms.sub(r"\1TOKEN", links.sub(r"/\1/TOKEN", page)) for page in pages]})


def test_a_laptops_library_moves_to_postgresql_whole_and_once(tmp_path):
    if not POSTGRES:
        if in_ci():
            pytest.fail("TEST_POSTGRES_URL is not set: the move to PostgreSQL cannot be tested")
        pytest.skip("TEST_POSTGRES_URL is not set (a PostgreSQL database to move a library into)")
    laptop = server(f"sqlite:///{tmp_path / 'laptop.sqlite'}")
    url, drop = scratch_postgres(POSTGRES)
    moved = None
    try:
        play_a_laptops_evenings(laptop)
        before = picture(laptop)
        assert len(before["history"]) == 8 and "Benoît" in before["pages"][1]
        file = tmp_path / "library.json"
        result = laptop.test_cli_runner().invoke(args=["export-library", str(file)])
        assert result.exit_code == 0 and "Wrote 8 sessions of 1 group" in result.output, result.output

        moved = server(url)
        result = moved.test_cli_runner().invoke(args=["import-library", str(file)])
        home = "Into the home group: every phone on this server shows it.\n"
        assert result.output == "8 sessions brought in.\n" + home
        after = picture(moved)
        for part in before:
            assert after[part] == before[part], part
        with moved.app_context():
            # Eight rows: the removed session's tombstone stays on the laptop.
            assert db.session.scalar(sa.select(sa.func.count()).select_from(Table)) == 8

        result = moved.test_cli_runner().invoke(args=["import-library", str(file)])
        assert result.output == "0 sessions brought in. 8 were already here.\n" + home
        assert picture(moved) == after
    finally:
        close_down(laptop)
        if moved is not None:
            close_down(moved)
        drop()
        state_cache.clear()
