"""One view of a table per request: its game, state, seating and newest entries in words, each read once.

A request that shows or checks a table reads it through ``table_view(table)``: the log is folded
(from the state cache), the seating read and the shown entries worded at most once per table version,
whatever number of templates, forms and checks ask. Recording an entry makes a new version, so the
answer after it reads the table anew.
"""

from __future__ import annotations

import weakref
from functools import cached_property

from flask import g, has_app_context

from ..models import Entry, Table
from . import log, seating, wording
from .state import state_of

# The newest entries a table page shows.
RECENT_ENTRIES = 6


class TableView:
    """What a request knows of one table at one version, each part read when first asked for."""

    def __init__(self, table: Table) -> None:
        # Held weakly: the request holds its table; a view kept in ``g`` must not keep a row in the session.
        self._table = weakref.ref(table)
        self.version = (table.last_seq, table.status)

    @property
    def table(self) -> Table:
        return self._table()

    @cached_property
    def game(self):
        """The rules module of the table's game."""
        return log.game_of(self.table)

    @cached_property
    def state(self):
        """The game's state after the table's newest entry."""
        return state_of(self.table, upto=self.version[0])

    @cached_property
    def scores(self):
        return self.game.scores(self.state)

    @cached_property
    def seating(self) -> seating.Seating:
        """Which seats have a phone, and whether the invitation was put away."""
        return seating.of(self.table)

    @cached_property
    def newest(self) -> list[Entry]:
        """The newest entries, newest first: enough for the page's latest entries and for "Undo"."""
        return log.newest_entries(self.table, max(RECENT_ENTRIES, log.LAST_LIVE_WINDOW))

    @cached_property
    def last_entry(self) -> Entry | None:
        """The newest game entry not undone: what "Undo last entry" takes back."""
        return log.last_live_entry(self.table, self.newest)

    @cached_property
    def recent(self) -> list[tuple[Entry, bool]]:
        """The entries the table page shows, newest first, each with whether it was undone."""
        return log.history(self.table, limit=RECENT_ENTRIES, newest=self.newest)

    @cached_property
    def words(self) -> dict[int, str]:
        """The sentences of the recent entries in the reader's language, by entry number."""
        return wording.sentences(self.table, [entry for entry, _undone in self.recent])


def table_view(table: Table) -> TableView:
    """This request's view of ``table`` at its current version (a new one once an entry is recorded)."""
    if not has_app_context():
        return TableView(table)
    views = g.setdefault("table_views", {})
    kept = views.get(table.id)
    if kept is None or kept._table() is not table or kept.version != (table.last_seq, table.status):
        kept = views[table.id] = TableView(table)
    return kept
