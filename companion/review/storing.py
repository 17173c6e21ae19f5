"""A session brought in from a file is stored once: found when it is already in the group, and written so that
the same file brought in at the same instant (from several phones, or the command line beside a phone) is
stored by one import alone.

The same session is the same game, started at the same moment (to the microsecond, as exported), by the same
players (``exchange.identity``), in the same group, and still in its history. An import that finds it there
says so: with the same entries it is already here; with others it is another export of it, and the one here is
kept. Looking and then writing leaves a moment in which a second import of the file finds nothing either, so a
session brought in keeps its identity (``tables.import_digest``) and the database holds it unique in its group
among the sessions not removed (the index ``uq_tables_group_id_import_digest``, on SQLite and PostgreSQL alike).
The import that comes second is stopped by that index as it writes (PostgreSQL makes it wait for the first to
commit; SQLite's write lock does the same), everything it wrote is rolled back (``StoredMeanwhile``), and it
looks again: it is answered as if it had found the session first.

A session played here has no identity kept (None): an import of its file finds it by the same game, moment and
players, which it has had since it began.
"""

from __future__ import annotations

import sqlalchemy as sa

from ..extensions import db
from ..i18n import number
from ..models import REMOVED, Entry, Group, Table
from ..rules.words import N_, _, ngettext
from ..table import log
from .exchange import ImportRefused, build, load
from .export import iso_time


class StoredMeanwhile(Exception):
    """Another import stored one of these sessions after this one looked: nothing of this one was written."""


# An import stopped by another one writing at the same moment, which did not store its sessions after all.
UNFINISHED = N_("Another import was being written at the same moment, and this one could not be finished: try "
                "again in a moment.")


def comparable(logged: list[Entry]) -> list[tuple]:
    """A session's entries as two exports of it are compared: number, type, event and time of each."""
    return [(e.seq, e.type, e.event, iso_time(e.created_at)) for e in logged]


def already_here(table: Table, logged: list[Entry]) -> tuple[Table | None, bool]:
    """The session of the group this one already is, if any, and whether it holds the same entries.

    Its kept identity finds one brought in before, even with its players renamed here since; the same game,
    moment and players find one played here.
    """
    candidates = list(db.session.scalars(sa.select(Table).where(
        Table.group_id == table.group_id, Table.status != REMOVED,
        sa.or_(sa.and_(Table.import_digest.is_not(None), Table.import_digest == table.import_digest),
               sa.and_(Table.game == table.game, Table.created_at == table.created_at))).order_by(Table.id)))
    digest = table.import_digest
    same_identity = [other for other in candidates if digest and other.import_digest == digest]
    same_players = [other for other in candidates if other.game == table.game and other.players == table.players]
    found = (same_identity or same_players or [None])[0]
    if found is None:
        return None, False
    return found, comparable(log.entries_of(found)) == comparable(logged)


def refuse_if_already_here(table: Table, logged: list[Entry]) -> None:
    """Importing a file twice into a group would count its game twice in every statistic: say it is here instead."""
    other, same = already_here(table, logged)
    if other is None:
        return
    if same:
        raise ImportRefused(_("This session is already in the history: importing it again would count "
                              "its game twice."), already=other)
    raise ImportRefused(ngettext("This session is already in the history, recorded with %(num)d entry (this "
                                 "file has %(count)s). To replace it with this file, remove that one from the "
                                 "history first.",
                                 "This session is already in the history, recorded with %(num)d entries (this "
                                 "file has %(count)s). To replace it with this file, remove that one from the "
                                 "history first.", other.last_seq, count=number(len(logged))),
                        already=other)


def stage(table: Table, logged: list[Entry], group: Group) -> None:
    """Add the session and its entries (and its group, if new) to the transaction under way: nothing is committed.

    StoredMeanwhile (everything rolled back) if the group has had this session since the import looked.
    """
    try:
        if group.id is None:
            db.session.add(group)
            db.session.flush()
        table.group_id = group.id
        db.session.add(table)
        db.session.flush()
    except sa.exc.IntegrityError as error:
        db.session.rollback()
        raise StoredMeanwhile from error
    for entry in logged:
        entry.table_id = table.id
    db.session.add_all(logged)


def commit() -> None:
    """Commit the sessions staged; StoredMeanwhile if another import stored one of them first, anything else
    raised as it is: either way nothing is written."""
    try:
        db.session.commit()
    except sa.exc.IntegrityError as error:
        db.session.rollback()
        raise StoredMeanwhile from error
    except BaseException:
        db.session.rollback()
        raise


def import_session(raw: bytes, group: Group) -> Table:
    """Check the file and create the session it describes in the group (written with it if new); ImportRefused
    (and nothing created) otherwise, saying so when the group has it already."""
    table, logged = build(load(raw), group.id)
    refuse_if_already_here(table, logged)
    try:
        stage(table, logged, group)
        commit()
    except StoredMeanwhile:
        refuse_if_already_here(table, logged)  # stored by another import since this one looked: it is here now
        raise ImportRefused(_(UNFINISHED)) from None
    except BaseException:
        db.session.rollback()
        raise
    return table
