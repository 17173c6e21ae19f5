"""One view of a table per request: its game, state, seating and newest entries in words, each read once.

A request that shows or checks a table reads it through ``table_view(table)``: the log is folded
(from the state cache), the seating read and the shown entries worded at most once per table version,
whatever number of templates, forms and checks ask. Recording an entry makes a new version, so the
answer after it reads the table anew.

What reads only the log up to a version (the seating, the newest entries, the rings) is the same for
every phone of the table until the next entry: each process keeps it for the newest version of each
table it showed (``VersionReads``), so the second seat to render a version reads none of it again.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import cached_property
from typing import Any

from flask import Flask, current_app, g, has_app_context

from ..extensions import db
from ..models import Entry, Table
from ..rules.review import names
from . import kinds, log, seating, wording
from .state import state_of

# The newest entries a table page shows.
RECENT_ENTRIES = 6


class VersionReads:
    """The reads of the newest version of recently shown tables, in this process; the least recently used go first."""

    def __init__(self, size: int) -> None:
        self.size = size
        # Each table's newest version and its reads, with the version before it and its reads (``carry``).
        self._kept: OrderedDict[Hashable, tuple[Hashable, dict[str, Any], tuple | None]] = OrderedDict()
        self._lock = threading.Lock()

    def read(self, table: Hashable, version: Hashable, name: str, read: Callable[[], Any],
             carry: Callable[[Hashable], bool] | None = None) -> Any:
        """What ``read()`` gives at this version of the table, read once per version in this process.

        ``carry(older)``: whether what was read at the table's version before, ``older``, still holds at
        this one (no entry since touched it); then it is taken over instead of read again."""
        with self._lock:
            kept = self._kept.get(table)
            if kept is not None and kept[0] == version and name in kept[1]:
                self._kept.move_to_end(table)
                return kept[1][name]
            before = kept[2] if kept is not None and kept[0] == version else (
                (kept[0], kept[1]) if kept is not None and kept[0] < version else None)
        if carry is not None and before is not None and name in before[1] and carry(before[0]):
            value = before[1][name]
        else:
            value = read()
        with self._lock:
            kept = self._kept.get(table)
            # Versions only grow: a slow request never puts back an older version's reads.
            if kept is None or kept[0] < version:
                kept = self._kept[table] = (version, {}, (kept[0], kept[1]) if kept is not None else None)
            if kept[0] == version:
                kept[1][name] = value
            self._kept.move_to_end(table)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return value


def detached(entries: list[Entry]) -> list[Entry]:
    """``entries`` out of the request's session, to be kept across requests: read-only, never expired by a commit."""
    for entry in entries:
        if entry in db.session:
            db.session.expunge(entry)
    return entries


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
    def score_row(self) -> list[tuple[tuple[int, ...], str, int]]:
        """The score row, in the reader's words: (seats, names, score) for each seat; for a game whose players
        count together (its ``sides(state)``: teams), for each side once, its players named together beside the
        side's score, so that a team's total is never shown as one player's."""
        return score_row(self.game, self.table.players, self.state, self.scores)

    def kept(self, name: str, read: Callable[[], Any], touched_by: frozenset[str] | None = None) -> Any:
        """``read()`` of this version, read once per version in this process (``VersionReads``).

        Only for what reads the log up to this version and nothing else: entries are append-only, so
        what such a read found holds until the next entry makes a new version. ``touched_by``: the kinds of
        entry that change what it reads (an undo always does); when none came since the version before,
        that version's read is taken over, not read again (a seat is not taken at every entry).
        """
        if not has_app_context():
            return read()
        # The token beside the id: a table removed and another made with its id is another table.
        table = self.table
        carry = None if touched_by is None else (lambda older: self.untouched_since(older, touched_by))
        return current_app.extensions["version_reads"].read((table.id, table.token), self.version, name, read, carry)

    def untouched_since(self, older: tuple, kinds_: frozenset[str]) -> bool:
        """Whether every entry after version ``older`` up to this one is among the newest read, and none is of
        ``kinds_`` or an undo."""
        since = older[0]
        if self.version[0] == since:
            return True
        newer = [entry for entry in self.newest if entry.seq > since]
        return (self.version[0] > since and len(newer) == self.version[0] - since
                and not any(entry.type in kinds_ or entry.type == kinds.VOID for entry in newer))

    @cached_property
    def seating(self) -> seating.Seating:
        """Which seats have a phone, and whether the invitation was put away."""
        return self.kept("seating", lambda: seating.of(self.table), seating.TOUCHED_BY)

    @cached_property
    def newest(self) -> list[Entry]:
        """The newest entries, newest first: enough for the page's latest entries and for "Undo"."""
        return self.kept("newest", lambda: detached(
            log.newest_entries(self.table, max(RECENT_ENTRIES, log.LAST_LIVE_WINDOW))))

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
        past = self.kept("past", lambda: log.newest_undo(self.table), frozenset())
        return wording.sentences(self.table, [entry for entry, _undone in self.recent], past)


def score_row(game, players: list[str], state, scores=None) -> list[tuple[tuple[int, ...], str, int]]:
    """The score row of ``state`` (``TableView.score_row``): (seats, names, score) for each seat, or each side once."""
    scores = game.scores(state) if scores is None else scores
    sides = getattr(game, "sides", None)
    groups = sides(state) if sides is not None else tuple((seat,) for seat in range(len(players)))
    return [(seats, names(players, seats), scores[seats[0]]) for seats in groups]


def table_view(table: Table) -> TableView:
    """This request's view of ``table`` at its current version (a new one once an entry is recorded)."""
    if not has_app_context():
        return TableView(table)
    views = g.setdefault("table_views", {})
    kept = views.get(table.id)
    if kept is None or kept._table() is not table or kept.version != (table.last_seq, table.status):
        kept = views[table.id] = TableView(table)
    return kept


def init_app(app: Flask) -> None:
    """Keep the reads of each table's newest version in this process."""
    app.extensions["version_reads"] = VersionReads(int(app.config["VERSION_READS_TABLES"]))
