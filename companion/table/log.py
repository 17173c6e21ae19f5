"""Reads of a table's entry log: its entries in order, the newest ones, what is undone, what Undo takes back.

The log is the truth, and it only grows: an undo is a ``void`` entry naming the entry it takes back,
always newer than it, so a page that shows the newest entries never needs to read the whole log.
"""

from __future__ import annotations

import sqlalchemy as sa

from ..extensions import db
from ..models import Entry, Table
from ..rules import GAMES, title_of
from .kinds import VOID, is_game_entry

# How many of the newest entries are read first for "Undo last entry" (more only if all are undone).
LAST_LIVE_WINDOW = 16


def game_of(table: Table):
    """The rules module of the table's game."""
    return GAMES[table.game]


def game_title(table: Table) -> str:
    """The name the table's game is shown by wherever the table is (its page, its results, the history, an
    export, BG Stats): its game's ``title(options)`` if the game has one (a score sheet: "Skat"), else ``NAME``."""
    return title_of(game_of(table), table.options)


def entries_of(table: Table, after: int = 0, upto: int | None = None) -> list[Entry]:
    """The table's entries numbered after ``after`` (up to ``upto``), in order."""
    query = sa.select(Entry).where(Entry.table_id == table.id, Entry.seq > after).order_by(Entry.seq)
    if upto is not None:
        query = query.where(Entry.seq <= upto)
    return list(db.session.scalars(query))


def voided_seqs(entries: list[Entry]) -> set[int]:
    """Numbers of the entries taken back by a void entry."""
    return {entry.event["entry"] for entry in entries if entry.type == VOID}


def newest_undo(table: Table) -> int:
    """The number of the table's newest undo, 0 before any: what an entry's words are kept under
    (``wording``), since an undo changes what the entries after the one it takes back say."""
    return db.session.scalar(sa.select(sa.func.max(Entry.seq)).where(Entry.table_id == table.id,
                                                                     Entry.type == VOID)) or 0


def newest_entries(table: Table, count: int) -> list[Entry]:
    """The table's ``count`` newest entries, newest first.

    A void is always newer than the entry it takes back, so the voids that
    concern these entries are among them.
    """
    query = sa.select(Entry).where(Entry.table_id == table.id).order_by(Entry.seq.desc()).limit(count)
    return list(db.session.scalars(query))


def last_live_entry(table: Table, newest: list[Entry] | None = None) -> Entry | None:
    """The newest game entry not yet undone: what "Undo last entry" takes back.

    ``newest``: the table's newest ``LAST_LIVE_WINDOW`` entries, if the caller has read them already.
    """
    window = LAST_LIVE_WINDOW
    while True:
        if newest is None:
            newest = newest_entries(table, window)
        voided = voided_seqs(newest)
        for entry in newest:
            if is_game_entry(entry) and entry.seq not in voided:
                return entry
        if len(newest) < window:
            return None
        window *= 4
        newest = None


def history(table: Table, limit: int | None = None, newest: list[Entry] | None = None) -> list[tuple[Entry, bool]]:
    """Entries newest first, each with whether it has been undone.

    ``newest``: the newest entries already read by the caller, at least ``limit`` of them (or all there are).
    """
    if newest is not None and limit is not None:
        entries = newest
    else:
        entries = newest_entries(table, limit) if limit else entries_of(table)[::-1]
    # A void is newer than what it takes back: the rows read carry every undone mark they need.
    voided = voided_seqs(entries)
    return [(entry, entry.seq in voided) for entry in entries[:limit]]
