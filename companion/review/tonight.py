"""A group's evenings read from its sessions (``evenings``): the one a session is in, the one on now, and the
ones of a page of the history, each with its sessions' outcomes and its tally.

An evening is found from the sessions begun within ``MARGIN`` of the one asked about, widened until the
evening found lies well inside what was read: a group's whole history is never read for one evening.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

from ..extensions import db
from ..models import REMOVED, Entry, Table, aware, now
from ..rules import GAMES
from . import evenings, history
from .evenings import GAP, Span, Tally
from .stats import Outcome

MARGIN = timedelta(days=2)
# An evening longer than this is read as far as this and no further (a group playing every few hours for a month).
WIDEST = timedelta(days=64)


@dataclass(frozen=True)
class Evening:
    """One evening of a group: its sessions in the order they began, with their outcomes, and its tally."""

    sessions: tuple[tuple[Table, Outcome], ...]
    start: datetime
    end: datetime
    tally: tuple[Tally, ...]
    winners: tuple[Tally, ...]
    on: bool  # a session begun now would be part of it

    @property
    def token(self) -> str:
        """What its page is found by: its first session's watch token."""
        return self.sessions[0][0].watch_token


def _spans(group_id: int, since: datetime, until: datetime | None) -> list[Span]:
    query = (sa.select(Entry.table_id, sa.func.min(Entry.created_at), sa.func.max(Entry.created_at))
             .join(Table, Table.id == Entry.table_id)
             .where(Table.group_id == group_id, Table.status != REMOVED, Table.game.in_(list(GAMES.keys())),
                    Table.created_at >= since)
             .group_by(Entry.table_id))
    if until is not None:
        query = query.where(Table.created_at < until)
    return [Span(table_id, aware(first), aware(last)) for table_id, first, last in db.session.execute(query)]


def _shifted(moment: datetime, by: timedelta) -> datetime:
    """``moment`` moved by ``by``, stopping at the ends of time (a session dated there, written before imports
    checked their dates, must not take the pages down)."""
    try:
        return moment + by
    except OverflowError:
        return (datetime.max if by > timedelta(0) else datetime.min).replace(tzinfo=UTC)


def _around(group_id: int, since: datetime, until: datetime | None) -> list[tuple[Span, ...]]:
    """The evenings of the sessions begun from ``since`` to ``until`` (None: now), widened on each side until
    no evening read reaches the edge of what was read."""
    margin = MARGIN
    while True:
        low, high = _shifted(since, -margin), None if until is None else _shifted(until, margin)
        found = evenings.evenings(_spans(group_id, low, high))
        edge_low = bool(found) and min(s.start for s in found[0]) - low <= GAP
        edge_high = bool(found) and high is not None and high - max(s.end for s in found[-1]) <= GAP
        if not (edge_low or edge_high) or margin >= WIDEST:
            return found
        margin *= 2


def _evening(spans: Sequence[Span], moment: datetime) -> Evening:
    ids = [span.table_id for span in spans]
    tables = history.tables_by_ids(ids)
    outcomes = history.outcomes(tables)
    rows = evenings.tally(outcomes)
    return Evening(tuple(zip(tables, outcomes)), min(s.start for s in spans), max(s.end for s in spans),
                   tuple(rows), tuple(evenings.winners(rows)), evenings.is_on(spans, moment))


def of_session(table: Table) -> Evening | None:
    """The evening ``table`` was played in (None for a session never played)."""
    begun = aware(table.created_at)
    for spans in _around(table.group_id, begun, begun):
        if any(span.table_id == table.id for span in spans):
            return _evening(spans, now())
    return None


def on_now(group_id: int) -> Evening | None:
    """The group's evening still on (its latest entry less than ``GAP`` ago), if there is one."""
    moment = now()
    found = _around(group_id, moment, None)
    if not found or not evenings.is_on(found[-1], moment):
        return None
    return _evening(found[-1], moment)


def headings(group_id: int, tables: Sequence[Table]) -> dict[int, tuple[int, int, datetime]]:
    """For the history: per table of ``tables`` played in an evening, that evening's (first session's id, number of
    sessions, start)."""
    if not tables:
        return {}
    begun = [aware(table.created_at) for table in tables]
    wanted = {table.id for table in tables}
    return {span.table_id: (spans[0].table_id, len(spans), spans[0].start)
            for spans in _around(group_id, min(begun), max(begun)) for span in spans if span.table_id in wanted}
