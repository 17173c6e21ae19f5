"""A phone taken out of its group (a private server), on its very next request: none of the group's history,
players or tables — not by a page, a fragment, a file or a link it kept, with every rendering kept warm — and
its old invitation no longer brings it back; a newer one does. A phone whose cookie names a group from before
memberships were kept on the server is let in once, as a member."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import sqlalchemy as sa

from companion import models
from companion.extensions import db
from companion.models import Group, Member, Table
from groups.tables import device_of, group_named, legacy_member_of, member_of, played
from helpers import form_key

HTMX = {"HX-Request": "true"}
OTTERS = ["Zelda", "Yannick", "Xavier"]


@pytest.fixture
def club(app):
    app.config["GROUPS"] = "private"
    otters = group_named(app, "Otters")
    finished = played(app, otters, OTTERS)
    keeper, leaver = app.test_client(), app.test_client()
    member_of(keeper, otters, keeper=True)
    member_of(leaver, otters)
    assert leaver.post("/new/frutti", data={"players-0": "Zelda", "players-1": "Wanda"}).status_code == 303
    with app.app_context():
        playing = db.session.scalar(sa.select(Table).where(Table.status == "playing"))
        tokens = {"finished": finished, "playing": playing.token, "watch": playing.watch_token}
        leaver_id = db.session.scalar(sa.select(Member.id).where(Member.device == device_of(leaver)))
    return {"app": app, "otters": otters, "keeper": keeper, "leaver": leaver, "tokens": tokens, "id": leaver_id}


def addresses(tokens: dict) -> list[str]:
    playing, finished, watch = tokens["playing"], tokens["finished"], tokens["watch"]
    return [f"/t/{playing}", f"/t/{playing}/live?seen=0", f"/t/{playing}/live?seen=1", f"/t/{playing}/history",
            f"/t/{playing}/stream", f"/w/{watch}", f"/w/{watch}/live?seen=0", f"/w/{watch}/stream",
            f"/t/{finished}/results", f"/t/{finished}/results.csv", f"/t/{finished}/export.json",
            f"/t/{playing}/qr.svg"]


def test_a_phone_taken_out_sees_nothing_of_the_group_on_its_next_request(club):
    app, leaver, tokens = club["app"], club["leaver"], club["tokens"]
    for address in addresses(tokens) + ["/history", "/players", "/players/Zelda", "/group"]:
        assert leaver.get(address).status_code in (200, 204), address  # every rendering kept warm
        leaver.get(address, headers=HTMX)
    assert club["keeper"].post(f"/group/phones/{club['id']}/out").status_code == 303
    for address in addresses(tokens):
        for headers in ({}, HTMX):
            answer = leaver.get(address, headers=headers)
            assert answer.status_code == 404, (address, headers)
            assert "Zelda" not in answer.text and "Wanda" not in answer.text, address
    # A table page's poll is told the session is gone, and stops asking.
    assert "data-removed" in leaver.get(f"/t/{tokens['playing']}/live?seen=7", headers=HTMX).text
    for address in ("/history", "/players", "/group", "/groups", "/"):
        text = leaver.get(address).text
        assert "Zelda" not in text and "Otters" not in text, address
    assert leaver.get("/players/Zelda").status_code == 404
    assert leaver.get("/history.csv").status_code == 404
    # Nor can it record: a form it kept is refused as a link that leads nowhere.
    recorded = leaver.post(f"/t/{tokens['playing']}/frutti/play", data={"key": form_key()})
    assert recorded.status_code == 404
    # A stranger with the same links still sees the table: only the phone taken out is refused.
    assert app.test_client().get(f"/t/{tokens['playing']}").status_code == 200


def test_the_old_invitation_no_longer_brings_it_back_a_new_one_does(club):
    app, keeper, leaver = club["app"], club["keeper"], club["leaver"]
    with app.app_context():
        old = db.session.get(Group, club["otters"])
        link, code = old.invite_token, old.join_code
    assert keeper.post(f"/group/phones/{club['id']}/out").status_code == 303
    refused = leaver.post(f"/g/{link}", data={"name": ""})
    assert refused.status_code == 422 and "ask a keeper for a new invitation" in refused.text
    by_code = leaver.post("/join", data={"code": code})
    assert "ask a keeper for a new invitation" in by_code.text
    assert "Zelda" not in leaver.get("/history").text
    assert keeper.post("/group/invitation", data={"unseen_days": ""}).status_code == 303
    with app.app_context():
        link = db.session.get(Group, club["otters"]).invite_token
    assert leaver.post(f"/g/{link}", data={"name": "Back again"}).status_code == 303
    assert "Zelda" in leaver.get("/history").text


def test_a_new_invitation_takes_out_the_phones_not_seen_for_so_many_days(club, monkeypatch):
    app, keeper, leaver = club["app"], club["keeper"], club["leaver"]
    real = models.now
    monkeypatch.setattr(models, "now", lambda: real() + timedelta(days=40))
    with keeper.session_transaction() as cookie:
        cookie.pop("seen", None)
    keeper.get("/group")  # the keeper is seen today, 40 days on; the other phone was last seen 40 days ago
    refused = keeper.post("/group/invitation", data={"unseen_days": "0"})
    assert refused.status_code == 422 and 'id="unseen-days-error"' in refused.text
    assert keeper.post("/group/invitation", data={"unseen_days": "30"}).status_code == 303
    page = keeper.get("/group").text
    assert re.search(r"1 phone not seen since \w+ \d+, \d+ was taken out\.", page)
    assert "took out 1 phone not seen since" in page
    assert "Zelda" not in leaver.get("/history").text


def test_a_cookie_from_before_is_honoured_once_and_its_oldest_phone_keeps_the_group(app):
    app.config["GROUPS"] = "private"
    otters = group_named(app, "Otters")
    with app.app_context():
        db.session.get(Group, otters).invited_at = None  # made before memberships were kept on the server
        db.session.commit()
    played(app, otters, OTTERS)
    first, second = app.test_client(), app.test_client()
    legacy_member_of(first, otters)
    legacy_member_of(second, otters)
    assert "Zelda" in second.get("/history").text
    assert "Zelda" in first.get("/history").text
    with app.app_context():
        rows = {row.device: row for row in db.session.scalars(sa.select(Member))}
    assert rows[device_of(second)].keeper and not rows[device_of(first)].keeper
    with first.session_transaction() as cookie:
        assert "groups" not in cookie
    # A new invitation ends it: a phone still holding such a cookie is not let in.
    late = app.test_client()
    legacy_member_of(late, otters)
    assert second.post("/group/invitation", data={"unseen_days": ""}).status_code == 303
    assert "Zelda" not in late.get("/history").text


def test_a_phone_taken_out_is_not_let_back_in_by_its_old_cookie(club):
    leaver = club["leaver"]
    assert club["keeper"].post(f"/group/phones/{club['id']}/out").status_code == 303
    legacy_member_of(leaver, club["otters"])
    with club["app"].app_context():
        db.session.get(Group, club["otters"]).invited_at = None
        db.session.commit()
    assert "Zelda" not in leaver.get("/history").text
