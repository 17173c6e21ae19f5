"""Keepers (a private server): the phone that starts a group keeps it; only keepers rename it, make a new
invitation, take phones out, make keepers, forget a person, remove and restore. Every keeper action is tried
from a plain member's phone, a phone of another group and a phone in no group holding a table's link, with
and without htmx: each is refused (403 in the phone's language, or 404 where the phone is in no such group),
and nothing in the database changes."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from companion.extensions import db
from companion.groups import bin
from companion.models import Entry, Group, GroupLog, Member, Seat, Table
from groups.tables import device_of, group_named, member_of, played

OTTERS = ["Zelda", "Yannick", "Xavier"]


@pytest.fixture
def club(app):
    """The Otters (a keeper, a plain member, a session played and one in the bin) and the Badgers (a member)."""
    app.config["GROUPS"] = "private"
    otters, badgers = group_named(app, "Otters"), group_named(app, "Badgers")
    token = played(app, otters, OTTERS)
    binned = played(app, otters, ["Zelda", "Wanda", "Vera"])
    played(app, badgers, ["Ana", "Ben", "Cy"])
    keeper, member, badger, stranger = (app.test_client() for _ in range(4))
    member_of(keeper, otters, keeper=True)
    member_of(member, otters)
    member_of(badger, badgers)
    stranger.get(f"/t/{token}")  # a guest who sat in once: it holds the table's link
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == binned))
        bin.remove_session(table)
        binned_id = table.id
        member_id = db.session.scalar(sa.select(Member.id).where(Member.device == device_of(member)))
        keeper_id = db.session.scalar(sa.select(Member.id).where(Member.device == device_of(keeper)))
    return {"keeper_id": keeper_id, "app": app, "otters": otters, "badgers": badgers, "token": token, "binned": binned_id,
            "keeper": keeper, "member": member, "badger": badger, "stranger": stranger, "member_id": member_id}


def everything(app) -> tuple:
    """Every row a keeper's action could change, as plain values."""
    with app.app_context():
        # (When a phone was last seen is not something a keeper's action changes: every request may note it.)
        return tuple(tuple(tuple(row) for row in db.session.execute(
            sa.select(*(column for column in model.__table__.columns if column.name != "seen_at"))
            .order_by(*model.__table__.primary_key)))
            for model in (Group, Member, GroupLog, Table, Seat, Entry))


def keeper_actions(club) -> list[tuple[str, dict]]:
    """Each keeper action as the keeper's own page posts it."""
    return [
        ("/group/rename", {"name": "Sea otters"}),
        ("/group/invitation", {"unseen_days": ""}),
        ("/group/remove", {"step": "1"}),
        ("/group/remove", {"step": "2", "name": "Otters"}),
        (f"/group/phones/{club['member_id']}/out", {}),
        (f"/group/phones/{club['member_id']}/keeper", {}),
        (f"/group/phones/{club['keeper_id']}/name", {"name": "Stolen"}),
        ("/players/Zelda/forget", {}),
        (f"/bin/{club['binned']}/restore", {}),
    ]


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
@pytest.mark.parametrize("who", ["member", "badger", "stranger"])
def test_a_keepers_action_from_any_other_phone_is_refused_and_changes_nothing(club, who, htmx):
    app, phone = club["app"], club[who]
    headers = {"HX-Request": "true"} if htmx else {}
    before = everything(app)
    for address, data in keeper_actions(club):
        answer = phone.post(address, data=data, headers=headers)
        # A plain member is told why. A Badger acts on its own group, where it keeps nothing either, or finds no
        # such phone or session there; a phone in no group has no group to act on.
        expected = {"member": {403}, "badger": {403, 404}, "stranger": {404}}[who]
        assert answer.status_code in expected, (address, answer.status_code)
        if answer.status_code == 403:
            assert "Only a keeper can do that" in answer.text and "Nothing was changed." in answer.text
        if who != "member":
            # (The address asked for comes back in the page's language switcher: not learnt.)
            text = answer.text.replace(address, "")
            assert "Otters" not in text and "Zelda" not in text, address
    assert phone.get("/group/remove").status_code == (404 if who == "stranger" else 403)
    assert everything(app) == before


def test_a_members_refusal_is_in_its_language(club):
    answer = club["member"].post("/group/rename", data={"name": "Sea otters"}, headers={"Accept-Language": "fr"})
    assert answer.status_code == 403
    assert answer.headers["Content-Language"] == "fr"
    assert "Only a keeper" not in answer.text


def test_every_member_plays_records_and_takes_a_copy(club):
    member = club["member"]
    assert member.post("/new/frutti", data={"players-0": "Zelda", "players-1": "Yannick"}).status_code == 303
    assert "Zelda" in member.get("/history").text
    assert member.get("/group/library.json").status_code == 200 or member.get("/group/library").status_code < 500
    page = member.get("/group").text
    # A member sees who keeps the group, and no keeper's button.
    assert "keeper" in page and "Take out" not in page and "Remove the group" not in page
    assert "Make a new link and code" not in page


def test_the_keeper_renames_takes_out_makes_keepers_and_it_is_logged(club):
    app, keeper, member = club["app"], club["keeper"], club["member"]
    assert member.post(f"/group/phones/{club['member_id']}/name", data={"name": "Yannick's phone"}).status_code == 303
    assert keeper.post("/group/rename", data={"name": "Sea otters"}).status_code == 303
    assert keeper.post(f"/group/phones/{club['member_id']}/keeper").status_code == 303
    # Now a keeper too, the member stops keeping, and the first keeper takes it out.
    assert member.post("/group/keeper/stop").status_code == 303
    assert keeper.post(f"/group/phones/{club['member_id']}/out").status_code == 303
    page = keeper.get("/group").text
    for sentence in ("renamed the group Sea otters.", "made Yannick&#39;s phone a keeper.",
                     "Yannick&#39;s phone stopped keeping the group.", "took Yannick&#39;s phone out of the group."):
        assert sentence in page, sentence
    # Out: the phone is in no group and sees nothing of the Otters.
    assert "Sea otters" not in member.get("/groups").text
    assert "Zelda" not in member.get("/history").text
    with app.app_context():
        assert db.session.get(Member, club["member_id"]).removed_at is not None


def test_the_last_keeper_cannot_stop_or_leave_while_others_are_in(club):
    keeper = club["keeper"]
    stop = keeper.post("/group/keeper/stop")
    assert stop.status_code == 422 and "only keeper" in stop.text
    leave = keeper.post("/group/leave")
    assert leave.status_code == 422 and "only keeper" in leave.text
    assert "Otters" in keeper.get("/group").text


def test_a_keeper_cannot_take_itself_out_or_act_on_another_groups_phone(club):
    app, keeper, badger = club["app"], club["keeper"], club["badger"]
    with app.app_context():
        own = db.session.scalar(sa.select(Member.id).where(Member.device == device_of(keeper)))
        other = db.session.scalar(sa.select(Member.id).where(Member.device == device_of(badger)))
    before = everything(app)
    assert keeper.post(f"/group/phones/{own}/out").status_code == 404
    assert keeper.post(f"/group/phones/{other}/out").status_code == 404
    assert keeper.post(f"/group/phones/{other}/keeper").status_code == 404
    assert keeper.post("/group/phones/999999/keeper").status_code == 404
    assert everything(app) == before


def test_the_phone_that_starts_a_group_keeps_it_and_the_next_one_plays(app):
    app.config["GROUPS"] = "private"
    first, second = app.test_client(), app.test_client()
    assert first.post("/groups/new", data={"name": "Herons"}).status_code == 303
    with app.app_context():
        herons = db.session.scalar(sa.select(Group).where(Group.name == "Herons"))
        code = herons.join_code
    assert second.post("/join", data={"code": code}).status_code == 303
    assert "Make a new link and code" in first.get("/group").text
    assert "Make a new link and code" not in second.get("/group").text
    assert second.post("/group/rename", data={"name": "Egrets"}).status_code == 403


def test_a_phone_names_itself_when_it_joins_and_a_bad_name_is_refused_beside_the_field(app):
    app.config["GROUPS"] = "private"
    herons = group_named(app, "Herons")
    with app.app_context():
        token = db.session.get(Group, herons).invite_token
    phone = app.test_client()
    refused = phone.post(f"/g/{token}", data={"name": "x" * 41})
    assert refused.status_code == 422 and 'id="member-name-error"' in refused.text
    assert "Herons" not in phone.get("/groups").text or "Join Herons?" in refused.text
    assert phone.post(f"/g/{token}", data={"name": "Ana's phone"}).status_code == 303
    page = phone.get("/group").text
    assert "Ana&#39;s phone" in page and "this phone" in page


def test_a_static_file_never_reads_the_phones_cookie(club):
    # (Noting once a day that a phone was seen reads its cookie: never for a static file, which a cache keeps.)
    member = club["member"]
    with member.session_transaction() as cookie:
        cookie.pop("seen", None)
    with member.get("/static/app.css") as answer:
        assert answer.status_code == 200
        assert "Set-Cookie" not in answer.headers and "Cookie" not in answer.headers.get("Vary", "")
    assert "Set-Cookie" in member.get("/group").headers
