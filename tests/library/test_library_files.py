"""The library file: a group's sessions in one checked envelope, brought into a group whole or not at all."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
import sqlalchemy as sa

from companion import groups
from companion.extensions import db
from companion.library import export, imports
from companion.models import Entry, Group, Table
from companion.review.exchange import ImportRefused
from companion.groups.bin import remove_session as remove
from companion.table import recording
from helpers import make_table
from review.test_review_sessions import FRUTTI_TIE_EVENTS, JAIPUR, record_all, table_of


def counts(app) -> tuple[int, int, int]:
    """Groups, sessions (removed ones left out) and entries in the database."""
    with app.app_context():
        return (db.session.scalar(sa.select(sa.func.count()).select_from(Group)),
                db.session.scalar(sa.select(sa.func.count()).select_from(Table).where(Table.status != "removed")),
                db.session.scalar(sa.select(sa.func.count()).select_from(Entry)))



def library_of(app, **options) -> dict:
    with app.app_context():
        return export.library(groups.home_group(), **options)


def bring_in(app, envelope: dict, into: str | None = None) -> imports.Tally:
    with app.app_context():
        loaded = imports.load(json.dumps(envelope).encode())
        return imports.bring_in(imports.into_groups(loaded, into))


def test_the_envelope_holds_every_session_newest_first_with_its_digest(app, played):
    with app.app_context():
        remove(table_of(played[0]))  # a removed session is left out
    envelope = library_of(app)
    assert (envelope["format"], envelope["version"], envelope["group"]) == ("table-companion-library", 1, "")
    assert datetime.fromisoformat(envelope["exported_at"]).tzinfo is not None
    sessions = envelope["sessions"]
    assert [s["game"] for s in sessions] == ["frutti", "frutti", "jaipur"]
    assert [s["status"] for s in sessions] == ["playing", "finished", "finished"]
    assert all(s["format"] == "table-companion-session" and s["version"] == 1 for s in sessions)
    assert envelope["digest"] == export.digest(sessions) and envelope["digest"].startswith("sha256:")
    # The digest is of the sessions, whatever the file's spacing.
    assert export.digest(json.loads(json.dumps(sessions, indent=3))) == envelope["digest"]


def test_a_library_brought_into_another_group_gives_the_same_sessions_and_twice_adds_nothing(app, played):
    envelope = library_of(app)
    tally = bring_in(app, envelope, into="Tuesday club")
    assert (len(tally.brought), tally.already, tally.other_versions, tally.withheld) == (4, 0, [], 0)
    with app.app_context():
        club = groups.by_name("Tuesday club")
        again = export.library(club)
    assert [(s["game"], s["players"], s["created_at"], s["status"], s["entries"]) for s in again["sessions"]] == \
        [(s["game"], s["players"], s["created_at"], s["status"], s["entries"]) for s in envelope["sessions"]]
    before = counts(app)
    tally = bring_in(app, envelope, into="Tuesday club")
    assert (len(tally.brought), tally.already) == (0, 4)
    assert counts(app) == before
    with app.app_context():
        assert imports.said(tally) == "0 sessions brought in. 4 were already here."
    # Into its own group (named "" in the file, the home group): all there already.
    tally = bring_in(app, envelope)
    assert (len(tally.brought), tally.already) == (0, 4) and counts(app) == before


def test_a_session_here_with_other_entries_is_kept_as_it_is_and_counted_apart(app, played):
    envelope = library_of(app)
    with app.app_context():
        recording.record(table_of(played[3]), FRUTTI_TIE_EVENTS[3])
    before = counts(app)
    tally = bring_in(app, envelope)
    assert (len(tally.brought), tally.already, tally.withheld) == (0, 3, 0)
    assert [(here, there) for _session, here, there in tally.other_versions] == [(4, 3)]
    assert tally.other_versions[0][0].startswith("The session of Frutti di Mare on ")
    assert tally.other_versions[0][0].endswith(" (Ana, Ben, Cy)")
    with app.app_context():
        assert imports.said(tally) == ("0 sessions brought in. 3 were already here. 1 is already here with other "
                                       "entries (the file was made at another moment of its game): the one here is "
                                       "kept.")
    assert counts(app) == before


def test_a_session_exported_during_play_with_its_secrets_left_out_is_skipped_and_counted(app):
    record_all(app, *JAIPUR)
    record_all(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw", "first_player": 0}, JAIPUR[3][:3])  # bonuses hidden
    withheld = library_of(app)
    assert "withheld" in withheld["sessions"][0] and "withheld" not in withheld["sessions"][1]
    tally = bring_in(app, withheld, into="Elsewhere")
    assert (len(tally.brought), tally.withheld) == (1, 1)
    with app.app_context():
        assert imports.said(tally) == ("1 session brought in. 1 was left out: exported during play, without what "
                                       "was still secret at the table.")
    # The operator's file keeps them whole: the session in play comes too, and can go on there.
    tally = bring_in(app, library_of(app, withhold=False), into="Elsewhere")
    assert (len(tally.brought), tally.already, tally.withheld) == (1, 1, 0)
    with app.app_context():
        statuses = db.session.scalars(sa.select(Table.status).where(Table.group_id == groups.by_name("Elsewhere").id))
        assert sorted(statuses) == ["finished", "playing"]


def test_the_same_session_twice_in_one_file_is_written_once(app, played):
    envelope = library_of(app)
    envelope["sessions"].append(envelope["sessions"][0])
    envelope["digest"] = export.digest(envelope["sessions"])
    tally = bring_in(app, envelope, into="Twice")
    assert (len(tally.brought), tally.already) == (4, 1)


def damaged(change):
    def damage(envelope: dict) -> bytes:
        change(envelope)
        return json.dumps(envelope).encode()
    return damage


def recomputed(change):
    """A change made by someone who also wrote the digest again: the sessions themselves are checked."""
    def damage(envelope: dict) -> bytes:
        change(envelope)
        envelope["digest"] = export.digest(envelope["sessions"])
        return json.dumps(envelope).encode()
    return damage


def jaipur_of(envelope: dict) -> dict:
    return next(s for s in envelope["sessions"] if s["game"] == "jaipur")


@pytest.mark.parametrize("damage, message", [
    (damaged(lambda e: jaipur_of(e)["entries"][2]["event"].update(cards=2)),
     "This file was changed or damaged after it was exported: its digest does not match what it holds."),
    (damaged(lambda e: e.update(digest="sha256:" + "0" * 64)), "its digest does not match"),
    (damaged(lambda e: e.pop("digest")), "its digest does not match"),
    (recomputed(lambda e: jaipur_of(e)["entries"][2]["event"].update(good="camels")),
     "Entry 3 (sale) is refused: "),
    (recomputed(lambda e: jaipur_of(e).update(players=["Ana", "ana"])), "Two players have the same name."),
    (recomputed(lambda e: jaipur_of(e).update(version=2)),
     "This file has format version 2; this app reads version 1."),
    (recomputed(lambda e: e["sessions"].append("a sentence")), "Session 5 of the file is not a session."),
    (lambda e: json.dumps(e).encode()[:-200], "This file is not valid JSON (line 1, column"),
    (lambda e: b"", "This file is not valid JSON (line 1, column 1: Expecting value)."),
    (lambda e: b"\xff\xfe\x00garbage", "This is not a text file: choose the .json file of a group's whole history."),
    (damaged(lambda e: e.update(format="table-companion-lib")),
     "This is not a history exported by the table companion."),
    (lambda e: json.dumps(e["sessions"][0]).encode(),
     "This is the file of one session, not a group's whole history: bring it in with Import a session"),
    (damaged(lambda e: e.update(version=2)), "This file has format version 2; this app reads version 1."),
    (recomputed(lambda e: e.update(sessions=[])), "This file holds no sessions: there is nothing to bring in."),
    (damaged(lambda e: e.update(sessions={"a": 1})), "This file's list of sessions is missing or damaged."),
    (damaged(lambda e: e.update(group="x" * 41)), "cannot be a group's name: it has at most 40 characters"),
    (damaged(lambda e: e.update(group="Tue\x07sday")), "cannot be a group's name"),
])
def test_a_damaged_or_tampered_file_is_refused_whole_with_a_sentence_and_nothing_added(app, played, damage, message):
    envelope = library_of(app)
    raw = damage(envelope)
    with app.app_context():
        remove(table_of(played[1]))  # the Jaipur session would be new here: refused all the same
    before = counts(app)
    with app.app_context(), pytest.raises(ImportRefused) as refused:
        imports.bring_in(imports.into_groups(imports.load(raw), "Somewhere new"))
    assert message in str(refused.value)
    assert counts(app) == before


def test_a_refused_session_is_named_by_its_game_date_and_players(app, played):
    envelope = library_of(app)
    recomputed(lambda e: jaipur_of(e)["entries"][2]["event"].update(good="camels"))(envelope)
    started = datetime.fromisoformat(jaipur_of(envelope)["created_at"])
    with app.app_context(), pytest.raises(ImportRefused) as refused:
        imports.bring_in(imports.into_groups(envelope, "Somewhere new"))
    assert str(refused.value).startswith(f"The session of Jaipur on {started:%Y-%m-%d %H:%M} (Ana, Ben) is refused: "
                                         "Entry 3 (sale) is refused: ")


def test_a_file_over_the_limit_is_refused_before_it_is_read(app):
    with app.app_context(), pytest.raises(ImportRefused, match="larger than 20 MB"):
        imports.load(b" " * (imports.MAX_BYTES + 1))


def test_a_whole_server_holds_each_group_in_a_checked_part_of_its_own(app, played):
    with app.app_context():
        club = groups.start("Club")
        table = table_of(make_table(app, *JAIPUR[:3]))
        table.group_id, table.created_at = club.id, table.created_at - timedelta(days=1)
        db.session.commit()
        for event in JAIPUR[3]:
            recording.record(table, event)
        server = export.server_library()
    assert server["group"] is None and [part["group"] for part in server["groups"]] == ["", "Club"]
    assert server["digest"] == export.digest(server["groups"])
    assert [len(part["sessions"]) for part in server["groups"]] == [4, 1]
    # Into a new server for many groups: each group under its own name (a home server's own test is
    # tests/library/test_library_commands.py: everything into its home group).
    with app.app_context():
        for table in db.session.scalars(sa.select(Table)):
            remove(table)
    app.config["GROUPS"] = "private"
    tally = bring_in(app, server)
    assert len(tally.brought) == 5
    with app.app_context():
        assert groups.session_counts([groups.home_group().id, groups.by_name("Club").id]) == {
            groups.home_group().id: 4, groups.by_name("Club").id: 1}
    # A part changed: refused whole, though its own digest is kept right.
    server["groups"][1]["sessions"][0]["players"] = ["Ana", "Béa"]
    server["groups"][1]["digest"] = export.digest(server["groups"][1]["sessions"])
    with app.app_context(), pytest.raises(ImportRefused, match="its digest does not match"):
        imports.load(json.dumps(server).encode())


def test_a_new_group_named_for_a_refused_file_is_not_made(app, played):
    envelope = library_of(app)
    jaipur_of(envelope)["entries"][2]["event"]["good"] = "camels"
    envelope["digest"] = export.digest(envelope["sessions"])
    before = counts(app)
    with app.app_context(), pytest.raises(ImportRefused):
        imports.bring_in(imports.into_groups(envelope, "Never made"))
    with app.app_context():
        assert groups.by_name("Never made") is None
    assert counts(app) == before
