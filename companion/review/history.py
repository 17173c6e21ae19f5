"""Finding sessions: the history's filters and pages, and each session's outcome for the lists and statistics."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import sqlalchemy as sa
from flask import current_app

from .. import entries
from ..extensions import db
from ..models import REMOVED, Seat, Table
from ..rules import GAMES, RuleError
from .session import review_of
from .stats import Outcome, name_key

PAGE_SIZE = 20


def local_zone() -> tzinfo:
    """The time zone dates are shown and filtered in: the TIMEZONE setting, UTC by default."""
    try:
        return ZoneInfo(current_app.config.get("TIMEZONE") or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def local(moment: datetime) -> datetime:
    """A stored time (UTC; SQLite hands it back without its zone) in the local time zone."""
    aware = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
    try:
        return aware.astimezone(local_zone())
    except OverflowError:
        # A row dated at the very end (or start) of time, written before imports checked their dates:
        # shown in UTC rather than taking the history down.
        return aware


def _day_start(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=local_zone()).astimezone(UTC)


@dataclass(frozen=True)
class Filters:
    """What the history is narrowed to; None means no filter."""

    game: str | None = None
    player: str | None = None
    since: date | None = None
    until: date | None = None


def matching_ids(filters: Filters) -> list[int]:
    """The ids of the sessions that pass the filters, newest first."""
    query = sa.select(Table.id).where(Table.status != REMOVED).order_by(Table.created_at.desc(), Table.id.desc())
    if filters.game:
        query = query.where(Table.game == filters.game)
    if filters.since:
        query = query.where(Table.created_at >= _day_start(filters.since))
    if filters.until:
        query = query.where(Table.created_at < _day_start(filters.until + timedelta(days=1)))
    ids = list(db.session.scalars(query))
    if filters.player:
        # Names are matched in Python: SQL's lower() does not fold "É" to "é" everywhere.
        key = name_key(filters.player)
        seated = {table_id for table_id, name in db.session.execute(sa.select(Seat.table_id, Seat.name))
                  if name_key(name) == key}
        ids = [table_id for table_id in ids if table_id in seated]
    return ids


@dataclass(frozen=True)
class Page:
    """One page of the history."""

    tables: list[Table]
    number: int
    pages: int
    total: int

    @property
    def previous(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < self.pages else None

    @property
    def first_shown(self) -> int:
        return (self.number - 1) * PAGE_SIZE + 1 if self.total else 0

    @property
    def last_shown(self) -> int:
        return self.first_shown + len(self.tables) - 1 if self.total else 0


def page_of(ids: list[int], number: int) -> Page:
    """The sessions on page ``number`` (kept within the pages that exist)."""
    pages = max(1, -(-len(ids) // PAGE_SIZE))
    number = min(max(1, number), pages)
    chosen = ids[(number - 1) * PAGE_SIZE: number * PAGE_SIZE]
    found = {t.id: t for t in db.session.scalars(sa.select(Table).where(Table.id.in_(chosen)))} if chosen else {}
    return Page([found[i] for i in chosen if i in found], number, pages, len(ids))


def tables_by_ids(ids: list[int]) -> list[Table]:
    """Tables in the order of ``ids``."""
    found = {t.id: t for t in db.session.scalars(sa.select(Table).where(Table.id.in_(ids)))} if ids else {}
    return [found[i] for i in ids if i in found]


def outcome(table: Table) -> Outcome:
    """Who won (or leads) and each player's score, from the table's entries."""
    game = entries.game_of(table)
    try:
        review = review_of(table.game, game, entries.state_of(table))
        winners, scores = review.winners, review.stat_scores
    except RuleError as error:
        # A log the rules no longer accept must not take the history down with it.
        current_app.logger.error("table %s cannot be replayed: %s", table.id, error)
        winners, scores = (), (0,) * len(table.seats)
    return Outcome(table.id, table.game, game.NAME, table.created_at, table.finished, tuple(table.players),
                   tuple(winners), tuple(scores), table.watch_token)


def all_outcomes() -> list[Outcome]:
    """Every session's outcome (the player statistics read them all)."""
    tables = db.session.scalars(sa.select(Table).where(Table.game.in_(list(GAMES.keys())), Table.status != REMOVED))
    return [outcome(table) for table in tables]
