"""Groups with sessions played, for the groups' tests: a whole Frutti di Mare game under the names given."""

from __future__ import annotations

from companion.extensions import db
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


def member_of(client, *group_ids: int) -> None:
    """This phone (a test client) opened the invitations of these groups."""
    with client.session_transaction() as cookie:
        cookie["groups"] = list(group_ids)
