"""Removing a session from the history: its entries and seats deleted, its row kept as a tombstone.

The row stays (status ``removed``, every token and code replaced by fresh random ones, nothing
else kept but the game and the date) so that its id is never given to another table: SQLite
hands a deleted newest id to the next table, and the per-process caches (entry states, kept
renderings) are keyed by id. Every list and statistic leaves tombstones out; every link to
the session stops working at once, on every worker, since its tokens no longer exist.
"""

from __future__ import annotations

import sqlalchemy as sa

from ..table.state import cache as state_cache
from ..live import heads
from ..extensions import db
from ..models import REMOVED, Entry, Table, new_join_code, new_token


def remove(table: Table) -> None:
    """Delete the session's entries and seats and make its row a tombstone, in one transaction."""
    table_id = table.id
    try:
        # The table's write lock first, as an entry takes it: a phone recording meanwhile waits.
        db.session.execute(sa.update(Table).where(Table.id == table_id).values(last_seq=Table.last_seq + 1))
        db.session.execute(sa.delete(Entry).where(Entry.table_id == table_id))
        table.seats.clear()
        table.status, table.finished_at, table.options = REMOVED, None, {}
        table.token, table.watch_token, table.join_code = new_token(), new_token(), new_join_code()
        table.bell_seq = table.bell_plan = table.bell_due_at = None
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    heads.changed(table_id)
    state_cache.forget(table_id)
