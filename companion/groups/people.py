"""A person renamed, or forgotten, across the sessions of one group.

A person is a name as the players page matches names (``inputs.names.key``): renamed, every seat
of theirs at the group's sessions takes the new name; forgotten, each takes the name of its place
("Player 3"), so that the scores stay and the name is gone from every page, file and sentence.
"""

from __future__ import annotations

import sqlalchemy as sa

from ..extensions import db
from ..inputs import names
from ..models import REMOVED, Group, Seat, Table
from ..rules import RuleError
from ..rules.words import _
from ..table.renaming import rename_seat


def seats_of(group: Group, person: str) -> list[tuple[Table, int]]:
    """Each session of the group where ``person`` (a name key) sat, with their seat."""
    rows = db.session.execute(
        sa.select(Table, Seat.position, Seat.name).join(Seat, Seat.table_id == Table.id)
        .where(Table.group_id == group.id, Table.status != REMOVED).order_by(Table.id))
    return [(table, position) for table, position, name in rows if names.key(name) == person]


def placeholder(seat: int) -> str:
    """The name a forgotten person's seat takes: its place at the table ("Player 3")."""
    return names.forgotten(seat)


def _clash(table: Table, seat: int, name: str) -> bool:
    return any(names.key(other) == names.key(name) for i, other in enumerate(table.players) if i != seat)


def rename(group: Group, person: str, name: str, *, device: str = "") -> int:
    """Give ``person`` the name ``name`` at every session of the group; the number of sessions changed.

    Refused, with nothing changed, where the new name is another player's at one of those sessions.
    """
    found = seats_of(group, person)
    if any(_clash(table, seat, name) for table, seat in found):
        raise RuleError(_("Someone else played under that name at one of these sessions: choose another name."),
                        "name")
    for table, seat in found:
        rename_seat(table, seat, name, device=device)
    return len(found)


def forget(group: Group, person: str, *, device: str = "") -> int:
    """Take ``person``'s name out of every session of the group, their scores kept; the number of sessions."""
    found = seats_of(group, person)
    for table, seat in found:
        name = placeholder(seat)
        # Someone played under "Player 3" already: the forgotten seat is told apart, still without a name.
        while _clash(table, seat, name):
            name += "*"
        rename_seat(table, seat, name, device=device)
    return len(found)
