"""The group's bin: a session or a group removed lies there for ``BIN_DAYS`` days, every entry kept, and comes back
in one tap as it was (the same results, the same links); then the server empties it for good.

In the bin a session's status is ``removed`` (every list, statistic and link leaves it out: its tokens lead
nowhere while it lies there) and ``removed_from`` keeps the status it had. A group removed takes its sessions
with it (``removed_with_group``: they come back with it, not one by one). Emptied, a session keeps only its
row, as a tombstone: its entries and seats deleted, every token and code replaced, so that its id is never
given to another table (the per-process caches are keyed by id) and no link of it ever works again.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta

import sqlalchemy as sa
from flask import Flask, current_app
from sqlalchemy.orm import aliased

from .. import models
from ..extensions import db
from ..models import REMOVED, Entry, Group, GroupLog, Member, Seat, Table, aware, new_join_code, new_token
from ..table import signals
from ..table.state import cache as state_cache

Twin = aliased(Table)


# Bulk updates, committed at once (which expires every object read): nothing to evaluate in Python meanwhile.
QUIET = {"synchronize_session": False}


def days() -> int:
    """How long a removed session or group lies in the bin."""
    return int(current_app.config["BIN_DAYS"])


def until(removed_at: datetime) -> datetime:
    """When what was removed at ``removed_at`` is emptied from the bin."""
    return aware(removed_at) + timedelta(days=days())


def _cutoff() -> datetime:
    return models.now() - timedelta(days=days())


def _set_status(table_id: int, values: dict, *where) -> bool:
    # The table's row locked as an entry locks it: a phone recording meanwhile waits, then finds it removed.
    done = db.session.execute(sa.update(Table).where(Table.id == table_id, *where).values(**values),
                              execution_options=QUIET).rowcount
    db.session.commit()
    signals.announce_table_changed(table_id)
    return bool(done)


def remove_session(table: Table, *, with_group: bool = False) -> bool:
    """Put the session in its group's bin; False if it was already removed."""
    return _set_status(table.id, {"status": REMOVED, "removed_from": Table.status, "removed_at": models.now(),
                                  "removed_with_group": with_group}, Table.status != REMOVED)


def _brought_in_again(group_id: int) -> sa.ColumnElement:
    # A session of the bin whose file was brought in again meanwhile: the history holds it already, and the
    # database holds a file's session once in a group (``tables.import_digest``).
    again = sa.select(sa.literal(1)).select_from(Twin).where(
        Twin.group_id == group_id, Twin.status != REMOVED, Twin.import_digest == Table.import_digest)
    return sa.and_(Table.import_digest.is_not(None), sa.exists(again))


def in_the_history_again(table: Table) -> bool:
    """Whether the session of the bin was brought in again from its file since: restoring it would make two."""
    return bool(db.session.scalar(sa.select(sa.func.count()).select_from(Table).where(
        Table.id == table.id, _brought_in_again(table.group_id))))


def restore_session(table: Table) -> bool:
    """Take the session out of the bin, as it was; False if it is not there (restored already, or emptied) or is in
    the history again (``in_the_history_again``)."""
    if in_the_history_again(table):
        return False
    return _set_status(table.id, {"status": sa.func.coalesce(Table.removed_from, "playing"), "removed_from": None,
                                  "removed_at": None, "removed_with_group": False},
                       Table.status == REMOVED, Table.removed_at.is_not(None), Table.removed_at >= _cutoff())


def sessions(group_id: int) -> list[Table]:
    """The sessions in the group's bin (not those that went with the group), the newest removal first."""
    return list(db.session.scalars(sa.select(Table).where(
        Table.group_id == group_id, Table.status == REMOVED, Table.removed_at >= _cutoff(),
        sa.not_(Table.removed_with_group)).order_by(Table.removed_at.desc(), Table.id.desc())))


def session_by_id(group_id: int, table_id: int) -> Table | None:
    """A session of the group's bin by its id (None if it is not there)."""
    return next((table for table in sessions(group_id) if table.id == table_id), None)


def remove_group(group: Group) -> int:
    """Put the group and every session it holds in the bin; how many sessions went with it."""
    tables = list(db.session.scalars(sa.select(Table.id).where(Table.group_id == group.id, Table.status != REMOVED)))
    db.session.execute(sa.update(Table).where(Table.id.in_(tables)).values(
        status=REMOVED, removed_from=Table.status, removed_at=models.now(), removed_with_group=True),
        execution_options=QUIET)
    group.removed, group.removed_at = True, models.now()
    db.session.commit()
    for table_id in tables:
        signals.announce_table_changed(table_id)
    return len(tables)


def restore_group(group: Group) -> bool:
    """Take the group out of the bin with the sessions that went with it; False if it is not there."""
    if not group.removed or group.removed_at is None or aware(group.removed_at) < _cutoff():
        return False
    went = sa.and_(Table.group_id == group.id, Table.status == REMOVED, Table.removed_with_group)
    # A session brought in again meanwhile stays in the bin, where it can be seen: the history has its twin.
    db.session.execute(sa.update(Table).where(went, _brought_in_again(group.id)).values(removed_with_group=False),
                       execution_options=QUIET)
    tables = list(db.session.scalars(sa.select(Table.id).where(went)))
    db.session.execute(sa.update(Table).where(Table.id.in_(tables)).values(
        status=sa.func.coalesce(Table.removed_from, "playing"), removed_from=None, removed_at=None,
        removed_with_group=False), execution_options=QUIET)
    group.removed, group.removed_at = False, None
    db.session.commit()
    for table_id in tables:
        signals.announce_table_changed(table_id)
    return True


def groups_kept_by(device: str | None) -> list[Group]:
    """The groups in the bin that this phone keeps (it may restore them), the newest removal first."""
    if not device:
        return []
    return list(db.session.scalars(sa.select(Group).join(Member, Member.group_id == Group.id).where(
        Group.removed, Group.removed_at >= _cutoff(), Member.device == device, Member.removed_at.is_(None),
        Member.keeper).order_by(Group.removed_at.desc())))


def in_bin() -> tuple[list[Group], list[Table]]:
    """Everything in every bin (for the operator): the groups, and the sessions removed one by one."""
    cutoff = _cutoff()
    groups = list(db.session.scalars(sa.select(Group).where(Group.removed, Group.removed_at >= cutoff)
                                     .order_by(Group.removed_at)))
    tables = list(db.session.scalars(sa.select(Table).where(
        Table.status == REMOVED, Table.removed_at >= cutoff, sa.not_(Table.removed_with_group))
        .order_by(Table.removed_at)))
    return groups, tables


def empty_session(table_id: int, *, commit: bool = True) -> None:
    """Empty one session of the bin for good: its entries and seats deleted, its row left as a tombstone."""
    db.session.execute(sa.delete(Entry).where(Entry.table_id == table_id))
    db.session.execute(sa.delete(Seat).where(Seat.table_id == table_id))
    db.session.execute(sa.update(Table).where(Table.id == table_id).values(
        status=REMOVED, removed_at=None, removed_from=None, removed_with_group=False, finished_at=None, options={},
        token=new_token(), watch_token=new_token(), join_code=new_join_code(),
        bell_seq=None, bell_plan=None, bell_due_at=None), execution_options=QUIET)
    if commit:
        db.session.commit()
        signals.announce_table_changed(table_id)
        state_cache.forget(table_id)


def empty() -> tuple[int, int]:
    """Empty what has lain in the bins for their time, for good: (sessions, groups) emptied."""
    cutoff = _cutoff()
    groups = list(db.session.scalars(sa.select(Group.id).where(Group.removed, Group.removed_at < cutoff)))
    tables = list(db.session.scalars(sa.select(Table.id).where(Table.status == REMOVED, Table.removed_at.is_not(None),
        sa.or_(Table.removed_at < cutoff, Table.group_id.in_(groups)))))
    for table_id in tables:
        empty_session(table_id, commit=False)
    for group_id in groups:
        db.session.execute(sa.delete(Member).where(Member.group_id == group_id))
        db.session.execute(sa.delete(GroupLog).where(GroupLog.group_id == group_id))
        db.session.execute(sa.update(Group).where(Group.id == group_id).values(
            name="", removed_at=None, invite_token=new_token(), join_code=new_join_code()), execution_options=QUIET)
    db.session.commit()
    for table_id in tables:
        signals.announce_table_changed(table_id)
        state_cache.forget(table_id)
    return len(tables), len(groups)


# How often a server process looks for what has lain in a bin for its time.
EMPTIED_EVERY = 3600.0
log = logging.getLogger(__name__)


def keep_emptying(app: Flask, stop: threading.Event) -> None:
    """Empty the bins of what has lain there for its time, now and then every ``EMPTIED_EVERY`` seconds, until
    ``stop`` is set (each worker does; emptying twice empties nothing more)."""
    while not stop.is_set():
        try:
            with app.app_context():
                sessions, groups = empty()
                db.session.remove()
            if sessions or groups:
                log.info("emptied from the bins for good: %d sessions, %d groups", sessions, groups)
        except Exception:  # a database away for a moment must not end the duty: say so, look again
            log.exception("the bins could not be emptied; trying again")
        stop.wait(EMPTIED_EVERY)


def start(app: Flask) -> threading.Event:
    """Start this process's emptying thread (a daemon: gunicorn's ``post_worker_init``, never a command or a test);
    set the returned event to stop it."""
    stop = threading.Event()
    threading.Thread(target=keep_emptying, args=(app, stop), name="bin-emptier", daemon=True).start()
    return stop
