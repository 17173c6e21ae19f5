"""Joining, switching, leaving, renaming and removing a group, on a private server and on a home one."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from companion.extensions import db
from companion.models import REMOVED, Entry, Group, Table
from groups.tables import group_named, member_of, played
from review.test_review_sessions import FRUTTI_EVENTS

BADGERS = ["Ana", "Ben", "Cy"]


@pytest.fixture
def private(app):
    app.config["GROUPS"] = "private"
    return app


def group(app, group_id: int) -> Group:
    with app.app_context():
        found = db.session.get(Group, group_id)
        db.session.expunge(found)
        return found


def test_a_home_server_needs_no_step_every_phone_sees_the_history(app, client):
    played(app, group_named(app, ""), BADGERS)
    history = client.get("/history").get_data(as_text=True)
    assert "Ana, Ben, Cy" in history
    assert "Start a group" not in client.get("/").get_data(as_text=True)
    # Nothing to start, join or leave on a home server.
    assert client.post("/groups/new", data={"name": "Otters"}).status_code == 404
    assert client.post("/group/leave").status_code == 404


def test_start_a_group_and_its_first_table_is_the_groups(private):
    phone = private.test_client()
    home = phone.get("/").get_data(as_text=True)
    assert "Start a group" in home and "Join a group" in home
    assert phone.post("/groups/new", data={"name": "Otters"}).status_code == 303
    page = phone.get("/group").get_data(as_text=True)
    assert "Otters" in page and "Invite someone" in page
    assert phone.post("/new/frutti", data={"players-0": "Zelda", "players-1": "Yannick"}).status_code == 303
    with private.app_context():
        table = db.session.scalar(sa.select(Table))
        otters = db.session.scalar(sa.select(Group).where(Group.name == "Otters"))
        assert table.group_id == otters.id


def test_a_nameless_group_is_refused_with_the_reason_beside_the_field(private):
    phone = private.test_client()
    answer = phone.post("/groups/new", data={"name": "   "})
    assert answer.status_code == 422
    assert 'id="start-name-error"' in answer.get_data(as_text=True)
    assert "Give the group a name." in answer.get_data(as_text=True)
    with private.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Group)) == 0


def test_the_invitation_link_asks_then_joins(private):
    otters = group_named(private, "Otters")
    played(private, otters, ["Zelda", "Yannick", "Xavier"])
    invited = group(private, otters)
    phone = private.test_client()
    asked = phone.get(f"/g/{invited.invite_token}").get_data(as_text=True)
    assert "Join Otters?" in asked and "Zelda" not in asked
    assert phone.post(f"/g/{invited.invite_token}").status_code == 303
    assert "Zelda" in phone.get("/history").get_data(as_text=True)
    # A made-up link opens nothing.
    assert private.test_client().get("/g/" + "x" * 22).status_code == 404


def test_the_code_typed_on_the_home_page_joins_the_group(private):
    otters = group_named(private, "Otters")
    phone = private.test_client()
    answer = phone.post("/join", data={"code": group(private, otters).join_code})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/group")
    assert "Otters" in phone.get("/group").get_data(as_text=True)


def test_a_phone_in_two_groups_switches_in_one_tap(private):
    otters, badgers = group_named(private, "Otters"), group_named(private, "Badgers")
    played(private, otters, ["Zelda", "Yannick", "Xavier"])
    played(private, badgers, BADGERS)
    phone = private.test_client()
    member_of(phone, otters, badgers)
    assert "Zelda" in phone.get("/history").get_data(as_text=True)
    assert phone.post(f"/groups/{badgers}/switch").status_code == 303
    history = phone.get("/history").get_data(as_text=True)
    assert "Ana" in history and "Zelda" not in history
    # A group the phone is not in cannot be switched to.
    assert private.test_client().post(f"/groups/{badgers}/switch").status_code == 404


def test_leaving_takes_the_group_off_this_phone_only(private):
    otters = group_named(private, "Otters")
    played(private, otters, ["Zelda", "Yannick", "Xavier"])
    leaving, staying = private.test_client(), private.test_client()
    member_of(leaving, otters)
    member_of(staying, otters)
    answer = leaving.post("/group/leave")
    assert answer.status_code == 303 and answer.headers["Clear-Site-Data"] == '"cache"'
    assert "Zelda" not in leaving.get("/history").get_data(as_text=True)
    assert "Zelda" in staying.get("/history").get_data(as_text=True)


def test_a_group_renamed(private):
    otters = group_named(private, "Otters")
    phone = private.test_client()
    member_of(phone, otters, keeper=True)
    assert phone.post("/group/rename", data={"name": "River otters"}).status_code == 303
    assert "River otters" in phone.get("/group").get_data(as_text=True)
    refused = phone.post("/group/rename", data={"name": "x" * 41})
    assert refused.status_code == 422 and 'id="group-name-error"' in refused.get_data(as_text=True)


def test_removing_a_group_is_asked_twice_with_its_name_typed(private):
    otters, badgers = group_named(private, "Otters"), group_named(private, "Badgers")
    token = played(private, otters, ["Zelda", "Yannick", "Xavier"])
    played(private, badgers, BADGERS)
    phone = private.test_client()
    member_of(phone, otters, keeper=True)
    first = phone.post("/group/remove", data={"step": "1"}).get_data(as_text=True)
    assert "To be sure, type its name: Otters" in first
    wrong = phone.post("/group/remove", data={"step": "2", "name": "Otter"})
    assert wrong.status_code == 422 and "nothing was removed" in wrong.get_data(as_text=True)
    assert "Zelda" in phone.get("/history").get_data(as_text=True)
    done = phone.post("/group/remove", data={"step": "2", "name": "Otters"})
    assert done.status_code == 303
    with private.app_context():
        assert db.session.get(Group, otters).removed
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Table).where(
            Table.group_id == otters, Table.status != REMOVED)) == 0
        # In the bin, every entry kept until its time there is up (tests/groups/test_bin.py).
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Entry).join(Table).where(
            Table.group_id == otters)) == len(FRUTTI_EVENTS)
        # The other group's sessions are untouched.
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Table).where(Table.group_id == badgers)) == 1
    assert private.test_client().get(f"/t/{token}").status_code == 404
    assert "Zelda" not in phone.get("/groups").get_data(as_text=True)


def test_the_operator_lists_the_groups_with_their_invitations(private):
    otters = group_named(private, "Otters")
    played(private, otters, ["Zelda", "Yannick", "Xavier"])
    private.config["PUBLIC_URL"] = "https://scores.example.org"
    result = private.test_cli_runner().invoke(args=["groups"])
    assert result.exit_code == 0
    invited = group(private, otters)
    assert f"{otters} Otters: sessions 1, phones 0, code {invited.join_code}, invitation " \
        f"https://scores.example.org/g/{invited.invite_token}" in result.output
