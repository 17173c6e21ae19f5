"""Nothing lost by one tap: a session or a group removed lies in the group's bin for BIN_DAYS, every entry kept,
and is restored in one tap as it was — the same results, the same links, the same player records — until the
server empties the bin (a clock the test sets). Who may remove a session: a keeper of its group, or a member
seated at it; never a phone that only holds the table's link."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import sqlalchemy as sa

from companion import models
from companion.extensions import db
from companion.groups import bin
from companion.models import REMOVED, Entry, Group, Table
from groups.tables import group_named, member_of, played
from helpers import without_csrf

OTTERS = ["Zelda", "Yannick", "Xavier"]


@pytest.fixture
def later(monkeypatch):
    """Move the server's clock on: ``later(days=31)``."""
    real = models.now

    def move(**delta):
        monkeypatch.setattr(models, "now", lambda: real() + timedelta(**delta))
    return move


@pytest.fixture
def otters(app):
    app.config["GROUPS"] = "private"
    group = group_named(app, "Otters")
    token = played(app, group, OTTERS)
    keeper, member = app.test_client(), app.test_client()
    member_of(keeper, group, keeper=True)
    member_of(member, group)
    return {"app": app, "group": group, "token": token, "keeper": keeper, "member": member}


def seen_by(client, token: str) -> dict[str, str]:
    """What a phone reads of a session and its group: results, watch view, entries, history, players, CSV."""
    with client.application.app_context():
        watch = db.session.scalar(sa.select(Table.watch_token).where(Table.token == token))
    pages = {f"/t/{token}/results": None, f"/w/{watch}/results": None, f"/t/{token}/history": None,
             f"/t/{token}/export.json": None, "/history": None, "/players": None, "/players/Zelda": None,
             "/history.csv": None}
    # Each form's idempotency key is new on every page, whatever the session.
    return {address: (answer.status_code, re.sub(r'name="key" type="hidden" value="\w+"', "key", without_csrf(answer.text)))
            for address in pages if (answer := client.get(address))}


def take_seat(client, token: str, seat: int) -> None:
    client.get(f"/t/{token}")
    assert client.post(f"/t/{token}/seat", data={"seat": str(seat)}).status_code in (200, 303)


def test_a_session_removed_and_restored_is_as_it_was(otters):
    app, keeper, token = otters["app"], otters["keeper"], otters["token"]
    before = seen_by(keeper, token)
    confirm = keeper.get(f"/t/{token}/remove")
    assert confirm.status_code == 200 and "bin" in confirm.text
    done = keeper.post(f"/t/{token}/remove")
    assert done.status_code == 303
    assert "is in the bin: it can be restored until" in keeper.get("/history").text
    # In the bin: no link leads to it, no list counts it, and the group's page and history show it there.
    for address in (f"/t/{token}", f"/t/{token}/results", f"/t/{token}/export.json"):
        assert keeper.get(address).status_code == 404, address
    assert "Zelda" not in keeper.get("/players").text
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        assert table.status == REMOVED and table.removed_from == "finished"
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Entry).where(Entry.table_id == table.id)) > 0
        table_id = table.id
    group_page = keeper.get("/group").text
    assert "The bin" in group_page and "Zelda, Yannick, Xavier" in group_page
    assert "removed the Frutti di Mare session of Zelda, Yannick, Xavier (to the bin)." in group_page
    restored = keeper.post(f"/bin/{table_id}/restore")
    assert restored.status_code == 303
    assert "is back in the history, as it was." in keeper.get("/history").text
    assert seen_by(keeper, token) == before
    assert "restored the Frutti di Mare session of Zelda, Yannick, Xavier." in keeper.get("/group").text


def test_a_group_removed_and_restored_is_as_it_was(otters):
    app, keeper, member, token = otters["app"], otters["keeper"], otters["member"], otters["token"]
    binned = played(app, otters["group"], ["Zelda", "Wanda", "Vera"])
    take_seat(keeper, binned, 0)
    assert keeper.post(f"/t/{binned}/remove").status_code == 303  # one session in the bin before the group goes
    before = seen_by(member, token)
    assert keeper.post("/group/remove", data={"step": "2", "name": "Otters"}).status_code == 303
    # Gone for every member, listed for its keepers to restore.
    assert "Zelda" not in member.get("/history").text and member.get(f"/t/{token}").status_code == 404
    mine = keeper.get("/groups").text
    assert "Removed groups you keep" in mine and "Otters" in mine
    assert "Removed groups you keep" not in member.get("/groups").text
    assert member.post(f"/groups/{otters['group']}/restore").status_code == 404
    assert keeper.post(f"/groups/{otters['group']}/restore").status_code == 303
    assert "Otters is back, with every session it held." in keeper.get("/group").text
    assert seen_by(member, token) == before
    # The session removed on its own before stays in the bin, restorable on its own.
    assert "Zelda, Wanda, Vera" in keeper.get("/group").text
    assert keeper.get(f"/t/{binned}").status_code == 404


def test_the_bin_is_emptied_after_its_days_and_nothing_comes_back(otters, later):
    app, keeper, token = otters["app"], otters["keeper"], otters["token"]
    assert keeper.post(f"/t/{token}/remove").status_code == 303
    with app.app_context():
        table_id = db.session.scalar(sa.select(Table.id).where(Table.token == token))
    later(days=29, hours=23)
    with app.app_context():
        assert bin.empty() == (0, 0)
    assert f"/bin/{table_id}/restore" in keeper.get("/group").text
    later(days=30, minutes=1)
    # Past its days: no longer listed nor restorable, even before the server empties it.
    assert f"/bin/{table_id}/restore" not in keeper.get("/group").text
    assert keeper.post(f"/bin/{table_id}/restore").status_code == 404
    with app.app_context():
        assert bin.empty() == (1, 0)
        table = db.session.get(Table, table_id)
        assert table.status == REMOVED and table.removed_at is None and table.token != token
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Entry).where(Entry.table_id == table_id)) == 0


def test_a_group_in_the_bin_is_emptied_with_its_sessions(otters, later):
    app, keeper = otters["app"], otters["keeper"]
    assert keeper.post("/group/remove", data={"step": "2", "name": "Otters"}).status_code == 303
    assert "Otters is in the bin" in keeper.get("/groups").text
    later(days=31)
    with app.app_context():
        assert bin.empty() == (1, 1)
        group = db.session.get(Group, otters["group"])
        assert group.removed and group.name == "" and group.removed_at is None
    assert "Otters" not in keeper.get("/groups").text


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_who_may_remove_a_session(otters, htmx):
    app, token = otters["app"], otters["token"]
    headers = {"HX-Request": "true"} if htmx else {}
    seated, watching, other_group, guest = (app.test_client() for _ in range(4))
    member_of(seated, otters["group"])
    member_of(watching, otters["group"])
    badgers = group_named(app, "Badgers")
    member_of(other_group, badgers, keeper=True)
    take_seat(seated, token, 1)
    watching.get(f"/t/{token}")
    watching.post(f"/t/{token}/seat", data={"seat": ""})
    take_seat(guest, token, 2)  # a guest seated by the table's link, in no group
    for phone in (otters["member"], watching, other_group, guest):
        assert "Remove this session" not in phone.get(f"/t/{token}/results").text
        assert phone.get(f"/t/{token}/remove").status_code == 403
        refused = phone.post(f"/t/{token}/remove", headers=headers)
        assert refused.status_code == 403 and "Nothing was removed." in refused.text
    assert app.test_client().get(f"/t/{token}").status_code == 200
    # A member seated at it may.
    assert "Remove this session" in seated.get(f"/t/{token}/results").text
    assert seated.post(f"/t/{token}/remove", headers=headers).status_code == 303
    with app.app_context():
        assert db.session.scalar(sa.select(Table.status).where(Table.token == token)) == REMOVED


def test_a_plain_member_sees_the_bin_but_only_a_keeper_restores(otters):
    app, keeper, member, token = otters["app"], otters["keeper"], otters["member"], otters["token"]
    assert keeper.post(f"/t/{token}/remove").status_code == 303
    with app.app_context():
        table_id = db.session.scalar(sa.select(Table.id).where(Table.token == token))
    page = member.get("/group").text
    assert "Zelda, Yannick, Xavier" in page and f"/bin/{table_id}/restore" not in page
    assert member.post(f"/bin/{table_id}/restore").status_code == 403
    assert member.get(f"/t/{token}").status_code == 404


def test_on_a_home_server_any_phone_removes_and_restores_from_the_history(app, client):
    token = played(app, group_named(app, ""), OTTERS)
    assert client.post(f"/t/{token}/remove").status_code == 303
    history = client.get("/history").text
    assert "The bin" in history and "Zelda, Yannick, Xavier" in history
    with app.app_context():
        table_id = db.session.scalar(sa.select(Table.id).where(Table.token == token))
    assert client.post(f"/bin/{table_id}/restore").status_code == 303
    assert client.get(f"/t/{token}/results").status_code == 200
    assert "A phone restored the Frutti di Mare session" in client.get("/group").text


def test_a_phone_recording_as_the_session_goes_to_the_bin_records_nothing(otters):
    app, keeper = otters["app"], otters["keeper"]
    token = played(app, otters["group"], ["Zelda", "Wanda", "Vera"])
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        entries = table.last_seq
        bin.remove_session(table)
        table = db.session.get(Table, table.id)
        from companion.table import recording
        from companion.rules import RuleError
        with pytest.raises(RuleError, match="removed"):
            recording.reopen(table)
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Entry).where(
            Entry.table_id == table.id)) == entries


def test_the_operator_lists_restores_and_empties_the_bins(otters, later):
    app, keeper, token = otters["app"], otters["keeper"], otters["token"]
    assert keeper.post(f"/t/{token}/remove").status_code == 303
    with app.app_context():
        table_id = db.session.scalar(sa.select(Table.id).where(Table.token == token))
    runner = app.test_cli_runner()
    listed = runner.invoke(args=["groups", "bin"])
    assert f"session {table_id} (Frutti di Mare: Zelda, Yannick, Xavier) of group {otters['group']}" in listed.output
    assert runner.invoke(args=["groups", "restore", "--session", str(table_id)]).exit_code == 0
    assert keeper.get(f"/t/{token}").status_code == 200
    assert "The server&#39;s operator restored" in keeper.get("/group").text
    assert runner.invoke(args=["groups", "restore", "--session", str(table_id)]).exit_code != 0
    assert keeper.post("/group/remove", data={"step": "2", "name": "Otters"}).status_code == 303
    assert "group" in runner.invoke(args=["groups", "bin"]).output
    later(days=31)
    assert "Emptied for good: 1 sessions, 1 groups." in runner.invoke(args=["groups", "empty-bin"]).output
    assert runner.invoke(args=["groups", "restore", "--group", str(otters["group"])]).exit_code != 0
