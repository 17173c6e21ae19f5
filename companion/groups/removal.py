"""A group removed with every session it played: each session as a removed session is, then the group's row emptied."""

from __future__ import annotations

import sqlalchemy as sa

from ..extensions import db
from ..models import REMOVED, Group, Table, new_join_code, new_token
from ..review.removal import remove as remove_session


def remove(group: Group) -> int:
    """Remove the group's sessions (entries and seats deleted, tombstones kept) and empty its row; how many."""
    tables = list(db.session.scalars(sa.select(Table).where(Table.group_id == group.id, Table.status != REMOVED)))
    for table in tables:
        remove_session(table)
    group.name, group.removed = "", True
    group.invite_token, group.join_code = new_token(), new_join_code()
    db.session.commit()
    return len(tables)
