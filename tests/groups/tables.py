"""Groups with sessions played, for the groups' tests: a whole Frutti di Mare game under the names given."""

from __future__ import annotations

import secrets

from companion.extensions import db
from companion.groups import members
from companion.models import Group, Seat, Table
from companion.table import recording
from review.test_review_sessions import FRUTTI_EVENTS


def group_named(app, name: str) -> int:
    """A new group of that name; its id."""
    with app.app_context():
        group = Group(name=name)
        db.session.add(group)
        db.session.commit()
        return group.id


def played(app, group_id: int, names: list[str]) -> str:
    """A finished Frutti di Mare game of three at the group; its table token."""
    with app.app_context():
        table = Table(game="frutti", options={"first_player": 0}, group_id=group_id,
                      seats=[Seat(position=i, name=n) for i, n in enumerate(names)])
        db.session.add(table)
        db.session.commit()
        for event in FRUTTI_EVENTS:
            recording.record(table, event)
        assert table.finished
        return table.token


def device_of(client) -> str:
    """The test client's phone id (made now if it has none yet), as its cookie keeps it."""
    with client.session_transaction() as cookie:
        cookie.setdefault("device", secrets.token_hex(8))
        return cookie["device"]


def member_of(client, *group_ids: int, keeper: bool = False) -> None:
    """This phone (a test client) joined these groups by their invitations (a plain member, unless ``keeper``)."""
    device = device_of(client)
    with client.application.app_context():
        for group_id in group_ids:
            group = db.session.get(Group, group_id)
            member = members.join(group, device)
            member.keeper = keeper
            db.session.commit()


def legacy_member_of(client, *group_ids: int) -> None:
    """This phone opened these groups' invitations before memberships were kept on the server: its cookie names them."""
    with client.session_transaction() as cookie:
        cookie["groups"] = list(group_ids)
