"""Export a session as JSON and import it back: identical sessions, and refused files that create nothing."""

from __future__ import annotations

import io
import json
import re

import pytest
import sqlalchemy as sa
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from companion import create_app
from companion.table import kinds, log, recording
from companion.table.state import cache as state_cache, state_of
from companion.extensions import db
from companion.models import Entry, Table
from companion.review import chart, exchange
from companion.review.session import review_of, timeline
from helpers import csrf_token, database_url
from review.test_review_sessions import (ANA, BEN, CARAMBOUILLE, FRUTTI, JAIPUR, OPEN, SESSIONS, c_sale, close, end,
                                  record_all, table_of)


def counts(app) -> tuple[int, int]:
    with app.app_context():
        return (db.session.scalar(sa.select(sa.func.count()).select_from(Table)),
                db.session.scalar(sa.select(sa.func.count()).select_from(Entry)))


def snapshot(app, token: str) -> dict:
    """What a player would compare: standings, breakdown, chart points, timeline, status."""
    with app.app_context():
        table = table_of(token)
        game = log.game_of(table)
        review = review_of(table.game, game, state_of(table))
        drawn = chart.build(table.players, review.progression, review.period_name, review.chart_name)
        rows = [(e, undone, kinds.is_game_entry(e)) for e, undone in reversed(log.history(table))]
        return {
            "players": table.players,
            "options": table.options,
            "status": table.status,
            "created_at": table.created_at.replace(tzinfo=None),
            "standings": review.standings,
            "periods": review.periods,
            "highlights": review.highlights,
            "chart": [(s.name, s.points, s.values) for s in drawn.series],
            "timeline": [(r.seq, r.label, r.text, r.undone, r.time.replace(tzinfo=None))
                         for r in timeline(table.game, game, table.players, table.options, rows)],
        }


def upload(client, content: bytes, name: str = "session.json", **fields):
    # Encoded here, in memory: the test client would spool a large body to a file it never closes.
    file = FileStorage(io.BytesIO(content), filename=name, content_type="application/json")
    boundary, body = encode_multipart({"file": file, **fields})
    return client.post("/import", data=body, content_type=f"multipart/form-data; boundary={boundary}")


def set_aside(app, token: str) -> None:
    """Take the original out of the history, so that its file imports again as itself (not as a duplicate)."""
    from companion.groups.bin import remove_session as remove

    with app.app_context():
        remove(table_of(token))


def another_start(raw: bytes) -> bytes:
    """The file of another session: the same entries, started a second earlier."""
    from datetime import datetime, timedelta

    data = json.loads(raw)
    data["created_at"] = (datetime.fromisoformat(data["created_at"]) - timedelta(seconds=1)).isoformat()
    return json.dumps(data).encode()


def export(client, token: str) -> bytes:
    response = client.get(f"/t/{token}/export.json")
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("application/json")
    return response.get_data()


@pytest.mark.parametrize("slug", ["carambouille", "jaipur", "frutti"])
def test_export_then_import_gives_the_same_session(app, client, slug):
    token = record_all(app, *SESSIONS[slug])
    data = export(client, token)
    original = snapshot(app, token)
    set_aside(app, token)
    response = upload(client, data)
    assert response.status_code == 303
    new_token = re.search(r"/t/([^/]+)/results", response.headers["Location"]).group(1)
    assert new_token != token
    assert snapshot(app, new_token) == original
    assert json.loads(export(client, new_token))["entries"] == json.loads(data)["entries"]
    assert client.get(response.headers["Location"]).status_code == 200


def test_the_file_holds_the_documented_vocabulary(app, client):
    token = record_all(app, *JAIPUR)
    data = json.loads(export(client, token))
    assert data["format"] == "table-companion-session" and data["version"] == 1
    assert (data["game"], data["players"], data["status"]) == ("jaipur", ["Ana", "Ben"], "finished")
    assert data["options"] == {"bonus": "draw", "first_player": 0}
    assert data["created_at"].endswith("+00:00") and data["finished_at"]
    first = data["entries"][0]
    assert set(first) == {"seq", "time", "type", "event", "summary"}
    assert (first["seq"], first["type"], first["event"]) == (1, "sale", {"type": "sale", "player": 0,
                                                                         "good": "diamonds", "cards": 2})
    assert [e["seq"] for e in data["entries"]] == list(range(1, 21))


def test_undo_and_reopen_travel_with_the_session(app, client):
    token = record_all(app, "carambouille", ["Ana", "Ben", "Cy"], {},
                       [OPEN, close(61), c_sale(ANA, "cheese", 3), end(ANA), {"type": "end_game"}])
    with app.app_context():
        recording.reopen(table_of(token))
        recording.void(table_of(token), 3)
    data = export(client, token)
    assert [e["type"] for e in json.loads(data)["entries"]][5:] == ["reopen", "void"]
    original = snapshot(app, token)
    set_aside(app, token)
    response = upload(client, data)
    new_token = re.search(r"/t/([^/]+)/results", response.headers["Location"]).group(1)
    assert snapshot(app, new_token) == original
    with app.app_context():
        assert table_of(new_token).status == "playing"  # still reopened: undo works there too
        recording.void(table_of(new_token), 5)
        assert log.game_of(table_of(new_token)).finished(state_of(table_of(new_token))) is False


def test_the_command_line_imports_a_file(app, client, tmp_path):
    token = record_all(app, *FRUTTI)
    path = tmp_path / "frutti.json"
    path.write_bytes(export(client, token))
    original = snapshot(app, token)
    set_aside(app, token)
    result = app.test_cli_runner().invoke(args=["import-session", str(path)])
    assert result.exit_code == 0, result.output
    assert "Imported Frutti di Mare: Ana, Ben, Cy, 15 entries, finished." in result.output
    new_token = re.search(r"Table: /t/(\S+)", result.output).group(1)
    assert snapshot(app, new_token) == original


def edited(client, token: str, change) -> bytes:
    data = json.loads(export(client, token))
    change(data)
    return json.dumps(data).encode()


def break_entry(data):
    data["entries"][2]["event"]["product"] = "caviar"


@pytest.mark.parametrize("change, message", [
    (break_entry, "Entry 3 (sale) is refused: Carambouille has no product called 'caviar'."),
    (lambda d: d["entries"][2]["event"].update(player=1),
     "Entry 3 (sale) is refused: "),
    (lambda d: d.update(game="chess"), "Unknown game 'chess': this app knows Carambouille, Jaipur, Frutti di Mare"),
    (lambda d: d.update(players=["Ana", "Ben"]), "Carambouille is played by 3 to 7 players; this file has 2."),
    (lambda d: d.update(players=["Ana", "ana", "Cy"]), "Two players have the same name."),
    (lambda d: d.update(options={"colour": "red"}), "The table settings cannot be used: "),
    (lambda d: d["entries"][5].update(seq=9), "Entry 6 (sale): it is numbered 9; entries are numbered 1, 2, 3"),
    (lambda d: d["entries"][1].update(time="yesterday"), "Entry 2 (market_closed): 'yesterday' is not a date"),
    (lambda d: d["entries"].append({"seq": len(d["entries"]) + 1, "type": "void", "event": {"type": "void", "entry": 3}}),
     "it must be reopened before an undo"),
    (lambda d: d["entries"].insert(0, {"seq": 1, "type": "reopen", "event": {"type": "reopen"}}),
     "Entry 1 (reopen) is refused: the session is not finished"),
    (lambda d: d.update(version=2), "This file has format version 2; this app reads version 1."),
    (lambda d: d.pop("format"), "This is not a session exported by the table companion."),
])
def test_an_invalid_file_is_refused_with_the_reason_and_nothing_is_created(app, client, change, message):
    token = record_all(app, *CARAMBOUILLE)
    before = counts(app)
    response = upload(client, edited(client, token, change))
    text = response.get_data(as_text=True).replace("&#39;", "'").replace("&#34;", '"')
    assert response.status_code == 422
    assert message in text
    assert 'aria-invalid="true"' in text and 'id="file-error"' in text
    assert counts(app) == before


def test_no_file_chosen_is_refused(app, client):
    response = client.post("/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 422 and "Choose the .json file of a session." in response.get_data(as_text=True)


@pytest.mark.parametrize("content, message", [
    (b'{"format": "table-companion-session", "version": 1,', "This file is not valid JSON (line 1, column"),
    (b"\xff\xfe\x00garbage", "This is not a text file"),
    (b"[1, 2, 3]", "This is not a session exported by the table companion."),
    (b"", "This file is not valid JSON (line 1, column 1: Expecting value)."),
])
def test_malformed_files_are_refused(app, client, content, message):
    before = counts(app)
    response = upload(client, content)
    assert response.status_code == 422 and message in response.get_data(as_text=True)
    assert counts(app) == before


def test_an_oversized_file_is_refused_without_reading_it_all(app, client):
    token = record_all(app, *JAIPUR)
    data = json.loads(export(client, token))
    data["padding"] = "x" * (2 * exchange.MAX_BYTES)
    before = counts(app)
    response = upload(client, json.dumps(data).encode())
    assert response.status_code == 413
    assert "The file is larger than 1 MB: it cannot be a session export." in response.get_data(as_text=True)
    assert counts(app) == before
    # Just over 1 MB but within the request's room for the form around it: still refused.
    data["padding"] = "x" * exchange.MAX_BYTES
    small_over = json.dumps(data).encode()
    response = upload(client, small_over)
    assert response.status_code == 422 and "larger than 1 MB" in response.get_data(as_text=True)
    assert counts(app) == before


def test_a_file_above_the_apps_usual_limit_but_under_1_mb_is_imported(app, client):
    token = record_all(app, *JAIPUR)
    data = json.loads(export(client, token))
    data["note"] = "x" * (app.config["MAX_CONTENT_LENGTH"] + 1000)  # unknown keys are ignored
    response = upload(client, another_start(json.dumps(data).encode()))
    assert response.status_code == 303


def test_the_command_line_refuses_and_creates_nothing(app, client, tmp_path):
    token = record_all(app, *CARAMBOUILLE)
    path = tmp_path / "broken.json"
    path.write_bytes(edited(client, token, break_entry))
    before = counts(app)
    result = app.test_cli_runner().invoke(args=["import-session", str(path)])
    assert result.exit_code == 1
    assert "Entry 3 (sale) is refused" in result.output and "Nothing was imported." in result.output
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (exchange.MAX_BYTES + 1))
    result = app.test_cli_runner().invoke(args=["import-session", str(big)])
    assert result.exit_code == 1 and "larger than 1 MB" in result.output
    assert counts(app) == before


def test_the_upload_form_checks_its_csrf_token(tmp_path, tiny):
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SERVER_NAME": "companion.test",
                      "SQLALCHEMY_DATABASE_URI": database_url(tmp_path)})
    with app.app_context():
        db.drop_all()
        db.create_all()
    client = app.test_client()
    token = record_all(app, *JAIPUR)
    state_cache.clear()
    data = another_start(export(client, token))
    refused = upload(client, data)
    assert refused.status_code == 422 and "This form has expired" in refused.get_data(as_text=True)
    assert counts(app)[0] == 1
    page = client.get("/import").get_data(as_text=True)
    accepted = upload(client, data, csrf_token=csrf_token(page))
    assert accepted.status_code == 303 and counts(app)[0] == 2
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()
    state_cache.clear()


def test_ben_and_ana_are_the_seats_of_the_file(app, client):
    token = record_all(app, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 1},
                       [OPEN, close(), c_sale(BEN, "cheese", 2)])
    data = json.loads(export(client, token))
    assert data["entries"][2]["event"]["player"] == BEN and data["players"][ANA] == "Ana"


def test_every_summary_is_written_anew_from_the_rules_never_read_from_the_file(app, client):
    from companion.table import bell, bell_plan, kinds

    token = record_all(app, *JAIPUR)
    with app.app_context():
        recording.reopen(table_of(token))
        table = table_of(token)
        recording.record_table_event(table, {"type": kinds.SEAT_TAKEN, "seat": 1},
                                   lambda _: kinds.seat_taken({"seat": 1}, table.players))
        recording.record_table_event(table_of(token), {"type": kinds.INVITE_CLOSED}, lambda _: kinds.INVITE_PUT_AWAY)
        bell.open_bell(table_of(token), bell_plan.Plan("fixed", seconds=120), player=0)
        bell.close_bell(table_of(token), player=1)
    original = json.loads(export(client, token))
    data = json.loads(json.dumps(original))
    for item in data["entries"]:
        item["summary"] = "Mallory won everything \u202e"
    data["players"] = ["Ana", "Béa"]  # another name for seat 1: the sentences follow the table's players
    response = upload(client, json.dumps(data).encode())
    assert response.status_code == 303, response.get_data(as_text=True)[-500:]
    new_token = re.search(r"/t/([^/]+)/results", response.headers["Location"]).group(1)
    imported = json.loads(export(client, new_token))["entries"]
    assert not [e for e in imported if "Mallory" in e["summary"]]
    kinds = {e["type"]: e["summary"] for e in imported}
    assert kinds["seat_taken"] == "Béa's phone joined the table."
    assert kinds["invite_closed"] == "The invitation was put away: everyone is in."
    assert kinds["timer_started"].startswith("Ana rang the bell: the table timer is running.")
    assert kinds["timer_stopped"].startswith("Ding-a-Ding! The table timer stopped after")
    same = [(e["seq"], e["summary"]) for e in original["entries"] if "Ben" not in e["summary"]]
    assert set(same) <= {(e["seq"], e["summary"]) for e in imported}


@pytest.mark.parametrize("bad", [
    {"type": "seat_taken", "seat": 5},
    {"type": "seat_taken", "seat": "0"},
    {"type": "timer_stopped", "seconds": 3},
    {"type": "invite_closed", "then": "twice"},
])
def test_entries_about_the_table_are_checked_like_the_live_app_does(app, client, bad):
    token = record_all(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw", "first_player": 0}, JAIPUR[3][:3])
    data = json.loads(export(client, token))
    extra = [bad] if bad.get("then") is None else [{"type": "invite_closed"}, {"type": "invite_closed"}]
    for event in extra:
        data["entries"].append({"seq": len(data["entries"]) + 1, "type": event["type"], "event": event})
    before = counts(app)
    response = upload(client, json.dumps(data).encode())
    assert response.status_code == 422 and "is refused" in response.get_data(as_text=True)
    assert counts(app) == before


def test_importing_the_same_file_twice_says_it_is_already_there(app, client, tmp_path):
    token = record_all(app, *JAIPUR)
    data = export(client, token)
    before = counts(app)
    response = upload(client, data)
    text = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "This session is already in the history: importing it again would count its game twice." in text
    with app.app_context():
        watch = table_of(token).watch_token
    assert f'href="/w/{watch}/results"' in text
    assert counts(app) == before
    # The command line says so too.
    path = tmp_path / "again.json"
    path.write_bytes(data)
    result = app.test_cli_runner().invoke(args=["import-session", str(path)])
    assert result.exit_code == 1 and "already in the history" in result.output and f"/w/{watch}/results" in result.output
    # Once the original is removed, the file brings it back, once.
    set_aside(app, token)
    assert upload(client, data).status_code == 303
    assert upload(client, data).status_code == 422
    assert "Sessions 1–1 of 1" in client.get("/history").text


def test_another_export_of_a_session_already_here_is_recognised_too(app, client):
    # Frutti di Mare: nothing at its table is secret, so an export made during play imports.
    token = record_all(app, "frutti", FRUTTI[1], FRUTTI[2], FRUTTI[3][:4])
    earlier = export(client, token)
    with app.app_context():
        for event in FRUTTI[3][4:6]:
            recording.record(table_of(token), event)
    set_aside_nothing = counts(app)
    response = upload(client, earlier)
    text = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "already in the history, recorded with 6 entries (this file has 4)" in text
    assert "remove that one from the history first" in text
    assert counts(app) == set_aside_nothing
