"""Groups: the people who play together, the sessions that are theirs, and the names they play under.

On a home server (no setting) there is one group, open: every phone that reaches the server is in it.
With ``GROUPS = "private"`` a phone is in the groups it joined (``members``), kept by their keepers, and
sees nothing of any other (``companion.web.membership``). What a keeper does to the group (``keeping``) is
kept in its log (``log``); a group or session removed lies in its bin (``bin``).
"""

from __future__ import annotations

import sqlalchemy as sa
from flask import current_app

from ..extensions import db
from ..models import REMOVED, Group, Table

PRIVATE = "private"


def private() -> bool:
    """Whether this server keeps each group to its members (``COMPANION_GROUPS=private``)."""
    return str(current_app.config.get("GROUPS") or "").strip().lower() == PRIVATE


def groups() -> list[Group]:
    """Every group there is (not removed), oldest first."""
    return list(db.session.scalars(sa.select(Group).where(sa.not_(Group.removed)).order_by(Group.id)))


def home_group() -> Group:
    """The server's first group: the household's on a home server, made when the database was (or now)."""
    group = db.session.scalar(sa.select(Group).where(sa.not_(Group.removed)).order_by(Group.id).limit(1))
    if group is None:
        group = Group(name="")
        db.session.add(group)
        db.session.commit()
    return group


def by_ids(ids: list[int]) -> list[Group]:
    """The groups of ``ids`` that still exist, in that order."""
    if not ids:
        return []
    found = {group.id: group for group in db.session.scalars(
        sa.select(Group).where(Group.id.in_(ids), sa.not_(Group.removed)))}
    return [found[i] for i in ids if i in found]


def by_invite(token: str) -> Group | None:
    """The group an invitation link opens."""
    return db.session.scalar(sa.select(Group).where(Group.invite_token == token, sa.not_(Group.removed)))


def by_code(code: str) -> Group | None:
    """The group a 6-character code opens."""
    return db.session.scalar(sa.select(Group).where(Group.join_code == code, sa.not_(Group.removed)))


def by_name(name: str) -> Group | None:
    """The group an operator names on the command line (the oldest of that name)."""
    return db.session.scalar(sa.select(Group).where(Group.name == name, sa.not_(Group.removed)).order_by(Group.id))


def start(name: str) -> Group:
    """A new group of that name."""
    group = Group(name=name)
    db.session.add(group)
    db.session.commit()
    return group


def session_counts(ids: list[int]) -> dict[int, int]:
    """Per group id, how many sessions its history holds."""
    if not ids:
        return {}
    rows = db.session.execute(sa.select(Table.group_id, sa.func.count()).where(
        Table.group_id.in_(ids), Table.status != REMOVED).group_by(Table.group_id))
    return dict.fromkeys(ids, 0) | {group_id: count for group_id, count in rows}
