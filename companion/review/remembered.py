"""A game whose tables name what they play (a score sheet: "Skat", "Hearts"), remembered per group: the last
table of each name, so that the next one is offered the same settings and players in one tap.

Nothing is stored for it: the settings are the table's options, so the group's newest table of a name
(however it was capitalised) is what that name is remembered as.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from ..extensions import db
from ..inputs import names
from ..models import REMOVED, Table
from ..rules import GAMES, title_of

# How many of the group's newest tables of the game are read to find its names: more than a group plays in a year.
LOOKED_AT = 400


@dataclass(frozen=True)
class Remembered:
    """A name's last table: the name, its options and its players in their seats."""

    name: str
    options: dict
    players: tuple[str, ...]


def _newest(group_id: int, slug: str):
    return db.session.scalars(
        sa.select(Table).where(Table.group_id == group_id, Table.game == slug, Table.status != REMOVED)
        .order_by(Table.created_at.desc(), Table.id.desc()).limit(LOOKED_AT))


def remembered(group_id: int, slug: str) -> list[Remembered]:
    """The names the group's tables of ``slug`` played, newest first, each as its last table had it."""
    found: dict[str, Remembered] = {}
    for table in _newest(group_id, slug):
        name = title_of(GAMES[slug], table.options)
        if (key := names.key(name)) and key not in found:
            found[key] = Remembered(name, dict(table.options), tuple(table.players))
    return list(found.values())


def last_of(group_id: int, slug: str, name: str) -> Remembered | None:
    """The group's last table of ``slug`` that played ``name`` (matched as player names are), or None."""
    key = names.key(name)
    return next((last for last in remembered(group_id, slug) if names.key(last.name) == key), None) if key else None
