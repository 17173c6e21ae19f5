"""A group's every session's outcome, kept in each app and read again only where a session changed.

The players' pages, the standings and the records read every session of a group: a big group's thousands of
tables and their seats. Between two reads most of them have not moved, so the outcomes are kept per table, with
what the table was then (its number of entries and its status: an entry, an undo, a reopen and a renamed or
forgotten seat each add an entry), and a read asks the database only for those marks (one light query) and
reads whole only the tables whose mark moved, the new ones, and the ones in play (whether a session is abandoned
moves with the clock alone; once abandoned it stays so until its next entry, which moves its mark).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import sqlalchemy as sa
from flask import current_app

from ..extensions import db
from ..models import REMOVED, Table
from ..rules import GAMES
from . import history
from .stats import Outcome

# How many groups' outcomes a process keeps (a few hundred bytes a session).
GROUPS_KEPT = 64

_KEEPING = threading.Lock()


def _in_group(group_id: int):
    return (Table.group_id == group_id, Table.game.in_(list(GAMES.keys())), Table.status != REMOVED)


def _settled(outcome: Outcome) -> bool:
    # What nothing but a new entry can change: a finished session, or one abandoned.
    return outcome.finished or outcome.abandoned


def group_outcomes(group_id: int) -> list[Outcome]:
    """Every session of the group's outcome, by table id; the tables read again only where changed."""
    kept_groups: OrderedDict = current_app.extensions.setdefault("group_outcomes", OrderedDict())
    with _KEEPING:
        kept: dict[int, tuple[tuple, Outcome]] = dict(kept_groups.get(group_id, {}))
    marks = {table_id: (last_seq, status) for table_id, last_seq, status in db.session.execute(
        sa.select(Table.id, Table.last_seq, Table.status).where(*_in_group(group_id)).order_by(Table.id))}
    stale = [table_id for table_id, mark in marks.items()
             if (found := kept.get(table_id)) is None or found[0] != mark or not _settled(found[1])]
    if len(stale) > len(marks) // 2:
        tables = history.group_tables(group_id)
    else:
        tables = history.tables_by_ids(stale)
    for table, outcome in zip(tables, history.outcomes(tables)):
        kept[table.id] = ((table.last_seq, table.status), outcome)
    fresh = {table_id: kept[table_id] for table_id in marks if table_id in kept}
    with _KEEPING:
        kept_groups[group_id] = fresh
        kept_groups.move_to_end(group_id)
        while len(kept_groups) > GROUPS_KEPT:
            kept_groups.popitem(last=False)
    return [outcome for _mark, outcome in fresh.values()]
