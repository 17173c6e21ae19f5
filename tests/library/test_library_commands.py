"""The two commands that move a library (export-library, import-library), and import-session into a new group."""

from __future__ import annotations

import json
import stat

import pytest
import sqlalchemy as sa

from companion import groups
from companion.extensions import db
from companion.groups.bin import remove_session as remove
from companion.models import Table
from library.test_library_files import counts
from review.test_review_sessions import JAIPUR, record_all, table_of


def run(app, *args: str):
    result = app.test_cli_runner().invoke(args=list(args))
    assert "Traceback" not in result.output
    return result


def test_a_group_moves_to_another_group_and_a_second_import_adds_nothing(app, played, tmp_path):
    file = tmp_path / "ours.json"
    result = run(app, "export-library", str(file), "--group", "")
    assert result.exit_code == 0, result.output
    assert f"Wrote 4 sessions of 1 group(s) to {file} (" in result.output
    assert stat.S_IMODE(file.stat().st_mode) == 0o600  # every player's name is in it
    envelope = json.loads(file.read_text())
    assert envelope["group"] == "" and len(envelope["sessions"]) == 4
    result = run(app, "import-library", str(file), "--group", "Tuesday club")
    assert result.exit_code == 0, result.output
    elsewhere = "Into Tuesday club, a group of its own: a phone shows it once switched to it on Your groups (/groups).\n"
    assert result.output == "4 sessions brought in.\n" + elsewhere
    before = counts(app)
    result = run(app, "import-library", str(file), "--group", "Tuesday club")
    assert result.output == "0 sessions brought in. 4 were already here.\n" + elsewhere
    result = run(app, "import-library", str(file))  # a home server's: into the home group, where they are
    assert result.output == ("0 sessions brought in. 4 were already here.\n"
                             "Into the home group: every phone on this server shows it.\n")
    assert counts(app) == before


def test_at_home_another_groups_history_lands_in_the_home_group_that_every_phone_shows(app, client, played, tmp_path):
    """A club's history (from a server for many groups) brought into a home server, without --group."""
    file = tmp_path / "club.json"
    run(app, "export-library", str(file), "--group", "")
    envelope = json.loads(file.read_text())
    envelope["group"] = "Tuesday club"  # outside the digest: as the club's server would have written it
    file.write_text(json.dumps(envelope))
    with app.app_context():  # this server's own sessions gone: the club's are new here
        for token in played:
            remove(table_of(token))
    assert "No session" in client.get("/history").text
    result = run(app, "import-library", str(file))
    assert result.output == "4 sessions brought in.\nInto the home group: every phone on this server shows it.\n"
    with app.app_context():
        assert groups.by_name("Tuesday club") is None and len(groups.groups()) == 1
    assert "Sessions 1–4 of 4" in client.get("/history").text


def test_the_whole_server_is_written_whole_with_what_is_secret_during_play(app, tmp_path):
    record_all(app, *JAIPUR)
    token = record_all(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw", "first_player": 0}, JAIPUR[3][:3])
    with app.app_context():
        groups.start("Club")
    file = tmp_path / "server.json"
    result = run(app, "export-library", str(file))
    assert result.exit_code == 0 and "Wrote 2 sessions of 2 group(s)" in result.output
    envelope = json.loads(file.read_text())
    assert envelope["group"] is None and [part["group"] for part in envelope["groups"]] == ["", "Club"]
    assert "withheld" not in json.dumps(envelope)
    assert envelope["groups"][0]["sessions"][0]["entries"][1]["event"]["bonus"] == 5
    result = run(app, "import-library", str(file), "--group", "Moved")
    assert result.output.startswith("2 sessions brought in.\nInto Moved, a group of its own")
    with app.app_context():
        moved = groups.by_name("Moved")
        playing = db.session.scalar(sa.select(Table).where(Table.group_id == moved.id, Table.status == "playing"))
        assert playing.players == table_of(token).players and playing.last_seq == 3


def damage_digest(text: str) -> str:
    return text.replace('"cards": 2', '"cards": 3', 1)


@pytest.mark.parametrize("content, message", [
    (lambda text: text[: len(text) // 2], "This file is not valid JSON (line 1, column"),
    (lambda text: "not json at all", "This file is not valid JSON (line 1, column 1: Expecting value)."),
    (damage_digest, "This file was changed or damaged after it was exported: its digest does not match what it holds."),
])
def test_a_bad_file_is_refused_in_one_sentence_and_nothing_is_brought_in(app, played, tmp_path, content, message):
    good = tmp_path / "ours.json"
    run(app, "export-library", str(good))
    bad = tmp_path / "bad.json"
    bad.write_text(content(good.read_text()))
    before = counts(app)
    result = run(app, "import-library", str(bad), "--group", "New")
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and message in result.output
    assert result.output.rstrip().endswith("Nothing was brought in.")
    assert counts(app) == before


@pytest.mark.parametrize("args, message", [
    (["import-library", "missing.json"], "does not exist"),
    (["import-library", "."], "is a directory"),
    (["export-library", "."], "is a directory"),
    (["export-library", "no/such/folder/ours.json"],
     "cannot be written (No such file or directory). Nothing was written."),
    (["export-library", "ours.json", "--group", "Nobody"], "There is no group called 'Nobody'. Nothing was written."),
    (["import-library", "ours.json", "--group", "x" * 41], "cannot be a group's name: it has at most 40 characters"),
])
def test_what_cannot_be_done_is_said_without_a_traceback(app, played, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    run(app, "export-library", "ours.json")
    before = counts(app)
    result = run(app, *args)
    assert result.exit_code in (1, 2) and message in result.output
    assert counts(app) == before


def test_import_session_makes_the_group_it_names_only_with_the_session(app, client, tmp_path):
    token = record_all(app, *JAIPUR)
    file = tmp_path / "jaipur.json"
    data = json.loads(client.get(f"/t/{token}/export.json").get_data())
    data["entries"][2]["event"]["good"] = "camels"
    file.write_text(json.dumps(data))
    result = run(app, "import-session", str(file), "--group", "Friday")
    assert result.exit_code == 1 and "Entry 3 (sale) is refused" in result.output
    with app.app_context():
        assert groups.by_name("Friday") is None
    file.write_bytes(client.get(f"/t/{token}/export.json").get_data())
    result = run(app, "import-session", str(file), "--group", "Friday")
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert groups.session_counts([groups.by_name("Friday").id]) == {groups.by_name("Friday").id: 1}


def test_on_a_private_server_the_import_gives_each_groups_invitation(app, played, tmp_path):
    file = tmp_path / "ours.json"
    run(app, "export-library", str(file))
    app.config["GROUPS"] = "private"
    result = run(app, "import-library", str(file), "--group", "Tuesday club")
    with app.app_context():
        club = groups.by_name("Tuesday club")
        invitation = f"Into Tuesday club. Invitation: /g/{club.invite_token} (join code {club.join_code})."
    assert result.output == f"4 sessions brought in.\n{invitation}\n"
    client = app.test_client()
    client.post(f"/g/{club.invite_token}")
    assert "4 sessions" in client.get("/group").text
