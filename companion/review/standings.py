"""A group's standings: its finished sessions rated (``ratings``) in seasons, over all games or one.

A season is a calendar quarter on the players' clock, one the group started, or all time (``seasons``). A season's ladder is kept per
group, season and game in each app, with what it says, while the group's sessions stand (``group_version``, one
indexed read); after a change it is extended by the sessions finished since, and a session changed before the
newest one folded (an undo, a reopen, a rename, a removal or a restore) folds that season again from its start.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cache
import sqlalchemy as sa
from flask import current_app, g, has_app_context
from sqlalchemy.orm import Session

from .. import commits
from ..extensions import db
from ..inputs import names
from ..models import REMOVED, Season as OwnSeason, Table, now
from ..rules import GAMES
from . import history
from .ratings import Ladder, Standing, played_order
from .outcomes import group_outcomes
from .records import Records, records
from .seasons import ALL, Season, day_of, quarter_key
from .stats import Outcome, PlayerStats, player_stats

# How many ladders a process keeps (a group's seasons and games).
LADDERS_KEPT = 512
# How many groups' versions a process keeps with the commit mark they were read at (one per group and thread).
VERSIONS_KEPT = 4096


def in_game(outcome: Outcome, game: str | None) -> bool:
    """Whether the session counts for ``game`` (a history filter's value: a game's slug, or "sheet:Skat")."""
    if not game:
        return True
    slug, _, title = game.partition(history.TITLED)
    return outcome.game == slug and (not title or names.key(outcome.game_name) == names.key(title))


@dataclass(frozen=True)
class Pool:
    """The sessions a standings list rates: a group's, in a season (or all time), of a game (or all)."""

    group_id: int
    season: Season
    game: str | None

    def holds(self, outcome: Outcome) -> bool:
        return (outcome.finished and in_game(outcome, self.game)
                and (self.season.key == ALL or self.season.holds(day_of(outcome.created_at))))


def group_version(group_id: int) -> tuple:
    """What changes whenever any session of the group does (one indexed read, once a request till it writes, and
    not at all on SQLite while nothing was committed since: ``commits.mark``): an
    entry anywhere (an undo, a reopen, a renamed seat) moves the sum of the sessions' numbers of entries; a session
    begun, removed or restored moves their count and the sum of their ids; a season started, the seasons' count and
    newest id."""
    asked = g.setdefault("group_versions", {})
    if group_id in asked:
        return asked[group_id]
    # Asked before the read: a commit during it moves the next mark, and the version is read again.
    mark = commits.mark()
    known: dict = current_app.extensions.setdefault("group_versions", {})
    if mark is not None and (found := known.get((group_id, mark[0]))) is not None and found[0] == mark[1]:
        asked[group_id] = found[1]
        return found[1]
    asked[group_id] = version = tuple(db.session.execute(_version_statement(), {"group_id": group_id}).one())
    if mark is not None:
        if len(known) >= VERSIONS_KEPT:
            known.clear()  # groups times server threads: a busy server's are read again, once
        known[(group_id, mark[0])] = (mark[1], version)
    return version


@cache
def _version_statement() -> sa.Select:
    # Built once (a page kept for a big group costs little more than this read, and building it cost as much); the
    # tables and the seasons each read once, side by side.
    group_id = sa.bindparam("group_id")
    sessions = (sa.select(sa.func.count().label("count"), sa.func.coalesce(sa.func.sum(Table.id), 0).label("ids"),
                          sa.func.coalesce(sa.func.sum(Table.last_seq), 0).label("entries"))
                .where(Table.group_id == group_id, Table.status != REMOVED, Table.game.in_(list(GAMES.keys())))
                .subquery())
    own = (sa.select(sa.func.count(OwnSeason.id).label("seasons"),
                     sa.func.coalesce(sa.func.max(OwnSeason.id), 0).label("newest"))
           .where(OwnSeason.group_id == group_id).subquery())
    return sa.select(sessions, own).select_from(sessions.join(own, sa.true()))


@sa.event.listens_for(Session, "after_commit")
def _written(_session: Session) -> None:
    # What the request read of its groups' versions may be stale once it has written.
    if has_app_context():
        g.pop("group_versions", None)


# How long a group's sessions as read are kept while nothing changes: whether a session is abandoned moves with
# the clock alone (a day without an entry), and may be read this late.
ABANDONED_LATE = 60


def every_outcome(group_id: int) -> list[Outcome]:
    """Every session of the group's outcome (``outcomes.group_outcomes``: the players' pages read them all), kept
    while the group's sessions stand, for ``ABANDONED_LATE`` seconds at most."""
    return _kept(group_id, "every", lambda _version: group_outcomes(group_id),
                 late=int(now().timestamp()) // ABANDONED_LATE)


def players(group_id: int) -> dict[str, PlayerStats]:
    """Everyone who has played in the group with their record per game (``stats.player_stats``), by name key, by
    name; kept while ``every_outcome`` is."""
    return _kept(group_id, "players", lambda _version: {player.key: player for player in player_stats(
        every_outcome(group_id), list(GAMES.keys()))}, late=int(now().timestamp()) // ABANDONED_LATE)


def finished_outcomes(group_id: int, version: tuple | None = None) -> list[Outcome]:
    """Every finished session of the group, in the order they are rated: kept per group while its
    ``group_version`` stands (a big group's thousands of sessions are read once, not per page)."""
    return _kept(group_id, "finished", lambda _version: played_order(
        outcome for outcome in group_outcomes(group_id) if outcome.finished), version=version)


def game_choices(group_id: int) -> list[tuple[str, str]]:
    """The history's game filter (``history.game_choices``), kept while the group's sessions stand."""
    return _kept(group_id, "games", lambda _version: history.game_choices(group_id))


def played_quarters(group_id: int) -> set[str]:
    """The calendar quarters with a finished session of the group ("2026-Q4")."""
    return _kept(group_id, "quarters", lambda version: {quarter_key(day_of(outcome.created_at))
                                                        for outcome in finished_outcomes(group_id, version)})


def game_records(group_id: int, game: str) -> Records:
    """The records of one of the group's games (``records.records``), kept while its sessions stand."""
    return _kept(group_id, ("records", game), lambda version: records(
        [outcome for outcome in finished_outcomes(group_id, version) if in_game(outcome, game)]))


def _kept(group_id: int, what: Hashable, work: Callable[[tuple], object], late: int = 0,
          version: tuple | None = None):
    """What ``work`` makes of the group's sessions at their ``group_version`` (given it; read now unless the caller
    has), kept in this app while they stand (and ``late`` does not move)."""
    version = group_version(group_id) if version is None else version
    key = (group_id, what)
    kept: OrderedDict = current_app.extensions.setdefault("group_reads", OrderedDict())
    with _KEEPING:
        if (found := kept.get(key)) is not None and found[0] == (version, late):
            kept.move_to_end(key)
            return found[1]
    made = work(version)
    with _KEEPING:
        kept[key] = ((version, late), made)
        while len(kept) > LADDERS_KEPT:
            kept.popitem(last=False)
    return made


def _version(outcome: Outcome) -> tuple:
    # What a session's rating depends on: who sat where and their places (a reopen drops it from the pool).
    return (outcome.players, outcome.ranks, outcome.sides)


_KEEPING = threading.Lock()


@dataclass(frozen=True)
class Rated:
    """A pool's ratings as they stand: the players in standing order, and each session's changes by player."""

    standings: list[Standing]
    changes: dict[int, dict[str, tuple[int, int]]]  # per session: each player's (change, rating after it)


def rated(pool: Pool) -> Rated:
    """The pool's ratings: as kept while the group's sessions stand (``group_version``), else the kept ladder
    extended by what was finished since, or folded again from the season's start if an older session changed."""
    version = group_version(pool.group_id)
    kept: OrderedDict = current_app.extensions.setdefault("ladders", OrderedDict())
    with _KEEPING:
        if (found := kept.get(pool)) is not None and found[1] == version:
            kept.move_to_end(pool)
            return found[2]
    wanted = [outcome for outcome in finished_outcomes(pool.group_id, version) if pool.holds(outcome)]
    marks = [(outcome.table_id, _version(outcome)) for outcome in wanted]
    with _KEEPING:
        ladder = kept[pool][0] if pool in kept else None
        if ladder is None or ladder.folded != marks[:len(ladder.folded)]:
            ladder = Ladder()
        for outcome, mark in zip(wanted[len(ladder.folded):], marks[len(ladder.folded):]):
            ladder.add(outcome, mark[1])
        # Read while no other request extends it.
        snapshot = Rated(ladder.standings(), dict(ladder.changes))
        kept[pool] = (ladder, version, snapshot)
        kept.move_to_end(pool)
        while len(kept) > LADDERS_KEPT:
            kept.popitem(last=False)
        return snapshot
