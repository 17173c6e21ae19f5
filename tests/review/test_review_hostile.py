"""Hostile or clumsy session files and filters never break the history: dates bounded, numbers guarded."""

from __future__ import annotations

import json

import pytest

from companion import groups
from companion.review import exchange
from review.test_review_exchange import counts, export, upload
from review.test_review_sessions import JAIPUR, record_all

FAR_FUTURE = "9999-12-31T23:59:59+00:00"


def jaipur_file(app, client, change) -> bytes:
    data = json.loads(export(client, record_all(app, *JAIPUR)))
    change(data)
    return json.dumps(data).encode()


@pytest.mark.parametrize("field, value", [
    ("created_at", FAR_FUTURE),
    ("created_at", "9999-12-31T23:59:59-05:00"),
    ("created_at", "0001-01-01T00:00:00+14:00"),
    ("created_at", "1970-01-01T00:00:00+00:00"),
    ("finished_at", FAR_FUTURE),
])
def test_a_session_dated_out_of_range_is_refused(app, client, field, value):
    raw = jaipur_file(app, client, lambda d: d.update({field: value}))
    before = counts(app)
    response = upload(client, raw)
    assert response.status_code == 422
    assert "is not a date between 2000 and" in response.get_data(as_text=True)
    assert counts(app) == before


def test_an_entry_dated_out_of_range_is_refused(app, client):
    raw = jaipur_file(app, client, lambda d: d["entries"][3].update(time=FAR_FUTURE))
    response = upload(client, raw)
    assert response.status_code == 422 and "Entry 4 (sale)" in response.get_data(as_text=True)


def test_the_command_line_refuses_an_overflowing_date_with_a_sentence(app, client, tmp_path):
    path = tmp_path / "future.json"
    path.write_bytes(jaipur_file(app, client, lambda d: d.update(created_at="9999-12-31T23:59:59-05:00")))
    result = app.test_cli_runner().invoke(args=["import-session", str(path)])
    assert result.exit_code == 1 and "Nothing was imported." in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("number", ["1" * 4400, "-" + "9" * 5000, "NaN", "Infinity", "-Infinity", "1e400", "12345678901234567890"])
def test_numbers_out_of_range_are_refused_not_a_500(app, client, number):
    text = jaipur_file(app, client, lambda d: d["entries"][0]["event"].update(cards=0)).decode()
    text = text.replace('"cards": 0', f'"cards": {number}', 1)
    before = counts(app)
    response = upload(client, text.encode())
    assert response.status_code == 422, response.status_code
    assert "number" in response.get_data(as_text=True)
    assert counts(app) == before


@pytest.mark.parametrize("text", ["Ana\u0000", "\u0000"])
def test_control_characters_anywhere_in_the_file_are_refused(app, client, text):
    raw = jaipur_file(app, client, lambda d: d["entries"][0]["event"].update(note=text))
    response = upload(client, raw)
    assert response.status_code == 422 and "control character" in response.get_data(as_text=True)


@pytest.mark.parametrize("zone", ["Asia/Tokyo", "Pacific/Kiritimati", "America/Adak"])
def test_a_session_stored_at_the_edge_of_time_still_shows_everywhere(app, client, zone):
    """A row written before the import checked its dates (or by hand) must not take the history down."""
    import sqlalchemy as sa
    from datetime import datetime, UTC

    from companion.extensions import db
    from companion.models import Table

    app.config["TIMEZONE"] = zone
    token = record_all(app, *JAIPUR)
    with app.app_context():
        db.session.execute(sa.update(Table).values(created_at=datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC),
                                                   finished_at=datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)))
        db.session.commit()
    for path in ("/history", "/history.csv", "/players", "/players/ana", f"/t/{token}/results",
                 f"/t/{token}/results.csv", f"/t/{token}/export.json", f"/t/{token}", f"/t/{token}/history"):
        assert client.get(path).status_code == 200, path


@pytest.mark.parametrize("query", ["until=9999-12-31", "since=9999-12-31", "since=0001-01-01", "until=2100-01-01"])
def test_history_filters_out_of_range_are_explained_not_a_500(client, query):
    response = client.get(f"/history?{query}")
    assert response.status_code == 422
    assert "Pick a date between 2000 and 2099." in response.get_data(as_text=True)


def pairs_file(pairs: int) -> bytes:
    """A Jaipur session of ``pairs`` sales, each undone at once: the shape that made imports quadratic."""
    items = []
    for i in range(pairs):
        items.append({"seq": 2 * i + 1, "type": "sale", "event": {"type": "sale", "player": 0, "good": "leather", "cards": 1}})
        items.append({"seq": 2 * i + 2, "type": "void", "event": {"type": "void", "entry": 2 * i + 1}})
    return json.dumps({"format": "table-companion-session", "version": 1, "game": "jaipur", "players": ["Ana", "Ben"],
                       "options": {"bonus": "draw", "first_player": 0}, "entries": items}, separators=(",", ":")).encode()


def test_an_import_costs_the_length_of_its_file_not_its_square(app):
    """6,500 sale+undo pairs took 38 s of CPU when each undo replayed the log so far."""
    import time

    raw = pairs_file(6_500)
    assert len(raw) < exchange.MAX_BYTES
    with app.app_context():
        started = time.process_time()
        table, logged = exchange.build(exchange.load(raw), groups.home_group().id)
        spent = time.process_time() - started
    assert len(logged) == 13_000 and logged[-1].summary.startswith("Undid entry 12,999: Ana sold 1 leather")
    # Linear: about 4 s on the 2-core CI machine, busy or not; the quadratic replay took 38 s.
    assert spent < 12, f"{spent:.1f} s of CPU for a 1 MB file"


def test_a_file_that_undoes_far_back_again_and_again_is_refused_in_bounded_time(app):
    """Undoing entry k of n replays n - k entries: the file's total is capped, and refused with a sentence."""
    import time

    memos = 4_000  # house-memo changes: a real entry, allowed in any phase of Carambouille
    items = [{"seq": i + 1, "type": "house_memo",
              "event": {"type": "house_memo", "memo": {"40": [None, None, None, None, 500 + 20 * (i % 2)]}}}
             for i in range(memos)]
    items += [{"seq": memos + k + 1, "type": "void", "event": {"type": "void", "entry": k + 1}} for k in range(memos)]
    raw = json.dumps({"format": "table-companion-session", "version": 1, "game": "carambouille",
                      "players": ["Ana", "Ben", "Cy"], "options": {"first_trader": 0}, "entries": items}).encode()
    with app.app_context():
        started = time.process_time()
        with pytest.raises(exchange.ImportRefused, match="undoes entries so far back, so often"):
            exchange.build(exchange.load(raw), groups.home_group().id)
        assert time.process_time() - started < 6
