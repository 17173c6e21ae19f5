"""Finding sessions: the history's filters and pages, and each session's outcome for the lists and statistics."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import sqlalchemy as sa
from flask import current_app

from ..table import log
from ..extensions import db
from ..inputs import names
from ..models import REMOVED, Entry, Seat, Table
from ..rules import GAMES, title_of
from .reviewed import reviewed_of
from .stats import Outcome, display_name

PAGE_SIZE = 20
# The names a new table offers: the people most played, enough for a big group of friends.
KNOWN_PLAYERS = 24

# What the history says of a session: finished; still playing; or abandoned, when nothing has been
# recorded at it for ABANDONED_AFTER_HOURS and it is not finished (a table opened and never played).
FINISHED, PLAYING, ABANDONED = "finished", "playing", "abandoned"
# The status filter: "active" is every session but the abandoned ones.
ACTIVE = "active"
STATUSES = (ACTIVE, FINISHED, PLAYING, ABANDONED)


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


def file_name(table: Table) -> str:
    """A file name for the session: its game and when it began, on the players' clock ("jaipur-2026-12-01-2005")."""
    return f"{table.game}-{local(table.created_at).strftime('%Y-%m-%d-%H%M')}"


def _day_start(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=local_zone()).astimezone(UTC)


@dataclass(frozen=True)
class Filters:
    """What the history is narrowed to; None means no filter."""

    game: str | None = None
    player: str | None = None
    since: date | None = None
    until: date | None = None
    status: str | None = None  # one of STATUSES


def abandoned_before() -> datetime:
    """Sessions with nothing recorded since this moment, and not finished, are abandoned."""
    return datetime.now(UTC) - timedelta(hours=float(current_app.config["ABANDONED_AFTER_HOURS"]))


def _last_entries():
    """Per table, the time of its newest entry."""
    return (sa.select(Entry.table_id, sa.func.max(Entry.created_at).label("last"))
            .group_by(Entry.table_id).subquery())


def last_activity(ids: list[int]) -> dict[int, datetime]:
    """Per table id, the time of its newest entry (tables without one are left out)."""
    if not ids:
        return {}
    rows = db.session.execute(sa.select(Entry.table_id, sa.func.max(Entry.created_at))
                              .where(Entry.table_id.in_(ids)).group_by(Entry.table_id))
    return {table_id: moment for table_id, moment in rows if moment is not None}


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def status_of(table: Table, last: datetime | None, before: datetime | None = None) -> str:
    """FINISHED, PLAYING or ABANDONED: nothing recorded since ``before`` (default: abandoned_before())."""
    if table.finished:
        return FINISHED
    before = abandoned_before() if before is None else before
    return ABANDONED if _utc(last or table.created_at) < before else PLAYING


# The game filter's value for a game its tables name ("sheet:Skat"): its slug, this, the name.
TITLED = ":"


def _titled(group_id: int, slug: str) -> dict[int, str]:
    """Per table of ``slug`` in the group, the name it is shown by, as names are matched."""
    game = GAMES[slug]
    rows = db.session.execute(sa.select(Table.id, Table.options).where(
        Table.group_id == group_id, Table.game == slug, Table.status != REMOVED))
    return {table_id: names.key(title_of(game, options)) for table_id, options in rows}


def game_choices(group_id: int) -> list[tuple[str, str]]:
    """The history's game filter: each game by its name, and each game the group's tables named (a score
    sheet's "Skat", "Hearts") by that name, most recent spelling, in the order of the games."""
    choices = []
    for slug, game in GAMES.items():
        if getattr(game, "title", None) is None:
            choices.append((slug, game.NAME))
            continue
        rows = db.session.execute(sa.select(Table.options).where(
            Table.group_id == group_id, Table.game == slug, Table.status != REMOVED).order_by(Table.created_at.desc()))
        seen: dict[str, str] = {}
        for (options,) in rows:
            shown = title_of(game, options)
            seen.setdefault(names.key(shown), shown)
        choices += sorted(((f"{slug}{TITLED}{shown}", shown) for shown in seen.values()), key=lambda c: names.key(c[1]))
    return choices


def matching_ids(group_id: int, filters: Filters) -> list[int]:
    """The ids of the group's sessions that pass the filters, newest first."""
    query = sa.select(Table.id).where(Table.group_id == group_id, Table.status != REMOVED).order_by(Table.created_at.desc(), Table.id.desc())
    slug, _, title = (filters.game or "").partition(TITLED)
    if slug:
        query = query.where(Table.game == slug)
    if filters.since:
        query = query.where(Table.created_at >= _day_start(filters.since))
    if filters.until:
        query = query.where(Table.created_at < _day_start(filters.until + timedelta(days=1)))
    if filters.status == FINISHED:
        query = query.where(Table.status == FINISHED)
    elif filters.status in (ACTIVE, PLAYING, ABANDONED):
        last = _last_entries()
        idle = sa.func.coalesce(last.c.last, Table.created_at) < abandoned_before()
        query = query.outerjoin(last, last.c.table_id == Table.id)
        if filters.status == ACTIVE:
            query = query.where(sa.or_(Table.status == FINISHED, sa.not_(idle)))
        else:
            query = query.where(Table.status != FINISHED, idle if filters.status == ABANDONED else sa.not_(idle))
    ids = list(db.session.scalars(query))
    if title:
        # A game named by its tables (a score sheet's "Skat"): matched as player names are, in Python.
        named = _titled(group_id, slug)
        ids = [table_id for table_id in ids if named.get(table_id) == names.key(title)]
    if filters.player:
        # Names are matched in Python: SQL's lower() does not fold "É" to "é", nor "é" to "e", everywhere.
        matches = names.starting_with(filters.player)
        seated = {table_id for table_id, name in db.session.execute(
            sa.select(Seat.table_id, Seat.name).join(Table, Table.id == Seat.table_id).where(Table.group_id == group_id))
                  if matches(name)}
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


_UNREAD = object()


def outcome(table: Table, last=_UNREAD, before: datetime | None = None) -> Outcome:
    """Who won (or leads), what each player's record gains, and whether it was abandoned, from its entries.

    ``last``: the time of the table's newest entry (None: it has none), if the caller has read it.
    """
    if last is _UNREAD:
        last = last_activity([table.id]).get(table.id)
    reviewed = reviewed_of(table)
    # Who started, as the table knows it (the option the game declares: its First Trader, who dealt first…).
    starter = (table.options or {}).get(GAMES[table.game].STARTER_OPTION) if table.game in GAMES else None
    return Outcome(table.id, table.game, log.game_title(table), table.created_at, table.finished, tuple(table.players),
                   link_token=table.watch_token, abandoned=status_of(table, last, before) == ABANDONED,
                   starter=starter if type(starter) is int and 0 <= starter < len(table.seats) else None, **reviewed)


def outcomes(tables: list[Table]) -> list[Outcome]:
    """The outcome of each of ``tables``, in order (their newest entries read in one query)."""
    newest, before = last_activity([table.id for table in tables]), abandoned_before()
    return [outcome(table, newest.get(table.id), before) for table in tables]


def group_tables(group_id: int) -> list[Table]:
    """Every session of the group in the history (of a game this app knows), read whole."""
    return list(db.session.scalars(sa.select(Table).where(
        Table.group_id == group_id, Table.game.in_(list(GAMES.keys())), Table.status != REMOVED)))


def all_outcomes(group_id: int) -> list[Outcome]:
    """Every session of the group's outcome, read whole (``review.outcomes`` keeps them, and reads what moved)."""
    return outcomes(group_tables(group_id))


def known_players(group_id: int, limit: int = KNOWN_PLAYERS) -> list[str]:
    """The names entered at the group's earlier tables, one per person (names matched as the players page
    matches them), most played first, then by name; each shown as the players page shows it (``stats.display_name``)."""
    rows = db.session.execute(
        sa.select(Seat.name, sa.func.count(), sa.func.max(Table.created_at))
        .join(Table, Table.id == Seat.table_id).where(Table.group_id == group_id, Table.status != REMOVED)
        .group_by(Seat.name))
    spellings: dict[str, Counter] = defaultdict(Counter)
    latest: dict[str, tuple[datetime, str]] = {}
    for name, count, last in rows:
        if not (person := names.key(name)):
            continue
        spelling = names.clean(name)
        spellings[person][spelling] += count
        if person not in latest or last > latest[person][0]:
            latest[person] = (last, spelling)
    ordered = sorted(spellings, key=lambda person: (-spellings[person].total(), person))
    return [display_name(spellings[person], latest[person][1]) for person in ordered[:limit]]
