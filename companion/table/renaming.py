"""A player's name changed at one table, after the fact: the seat renamed by an entry of its own.

The entry (``kinds.RENAMED``) makes a new version of the table, so every rendering kept of the old
one, in every worker, gives way to one with the new name, and the phones that have the table open
are pushed it; the summaries kept in English with the entries are written again with the new name,
so an export says nothing of the old one.
"""

from __future__ import annotations

from typing import Any

from ..extensions import db
from ..models import Entry, Table
from . import kinds, wording
from .log import entries_of
from .recording import _append


def rename_seat(table: Table, seat: int, name: str, *, device: str = "") -> Entry:
    """Give ``seat`` at ``table`` the name ``name``, finished or not; the table's status is left as it is."""
    def make(seq: int) -> tuple[Entry, Any]:
        table.seats[seat].name = name
        event = {"type": kinds.RENAMED, "seat": seat}
        summary = wording.in_english(lambda: kinds.sentence(event, table.players))
        return Entry(table_id=table.id, seq=seq, type=kinds.RENAMED, event=event, summary=summary[:500],
                     device=device), None

    entry = _append(table, None, make, ahead=False)
    _reword_summaries(table)
    return entry


def _reword_summaries(table: Table) -> None:
    """Every entry's kept English sentence, as it was recorded, with the names the table has now."""
    logged = entries_of(table)
    worded = wording.in_english(lambda: wording.as_recorded(table, logged))
    for entry in logged:
        if entry.summary != (sentence := worded[entry.seq][:500]):
            entry.summary = sentence
    db.session.commit()
