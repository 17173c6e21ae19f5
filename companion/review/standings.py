"""A group's standings: its finished sessions rated (``ratings``) in seasons, over all games or one.

A season is a calendar quarter on the players' clock ("2026-Q4"), or all time. A season's ladder is kept per
group, season and game in each app and extended by the sessions finished since; a session changed before the
newest one folded (an undo, a reopen, a rename, a removal or a restore) folds that season again from its start.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from babel import dates
from flask import current_app

from ..i18n.formats import formatting_locale
from ..inputs import names
from ..models import now
from . import history
from .ratings import Ladder, Standing, played_order
from .stats import Outcome

ALL = "all"
SEASON_SHAPE = re.compile(r"(\d{4})-Q([1-4])")
# How many ladders a process keeps (a group's seasons and games).
LADDERS_KEPT = 512


def season_of(moment: datetime) -> str:
    """The calendar quarter a moment falls in, on the players' clock: "2026-Q4"."""
    local = history.local(moment)
    return f"{local.year}-Q{(local.month - 1) // 3 + 1}"


def current_season() -> str:
    return season_of(now())


def season_name(season: str) -> str:
    """A season as this phone writes it: "Oct – Dec 2026", "oct. – déc. 2026"; all time in words elsewhere."""
    year, quarter = (int(part) for part in SEASON_SHAPE.fullmatch(season).groups())
    months = dates.get_month_names("abbreviated", "stand-alone", locale=formatting_locale())
    return f"{months[3 * quarter - 2]} – {months[3 * quarter]} {year}"


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
    season: str
    game: str | None

    def holds(self, outcome: Outcome) -> bool:
        return (outcome.finished and in_game(outcome, self.game)
                and (self.season == ALL or season_of(outcome.created_at) == self.season))


def finished_outcomes(group_id: int) -> list[Outcome]:
    """Every finished session of the group, in the order they are rated."""
    return played_order(outcome for outcome in history.all_outcomes(group_id) if outcome.finished)


def seasons(outcomes: list[Outcome]) -> list[str]:
    """The seasons with a finished session, newest first, the current one always among them."""
    return sorted({season_of(outcome.created_at) for outcome in outcomes} | {current_season()}, reverse=True)


def _version(outcome: Outcome) -> tuple:
    # What a session's rating depends on: who sat where and their places (a reopen drops it from the pool).
    return (outcome.players, outcome.ranks, outcome.sides)


_KEEPING = threading.Lock()


@dataclass(frozen=True)
class Rated:
    """A pool's ratings as they stand: the players in standing order, and each session's changes by player."""

    standings: list[Standing]
    changes: dict[int, dict[str, tuple[int, int]]]  # per session: each player's (change, rating after it)


def rated(pool: Pool, outcomes: list[Outcome]) -> Rated:
    """The pool's ratings over ``outcomes`` (``finished_outcomes``): the kept ladder extended by what was finished
    since, or folded again from the season's start if an older session changed."""
    wanted = [outcome for outcome in outcomes if pool.holds(outcome)]
    marks = [(outcome.table_id, _version(outcome)) for outcome in wanted]
    kept: OrderedDict = current_app.extensions.setdefault("ladders", OrderedDict())
    with _KEEPING:
        found = kept.get(pool)
        if found is None or found.folded != marks[:len(found.folded)]:
            found = Ladder()
        for outcome, mark in zip(wanted[len(found.folded):], marks[len(found.folded):]):
            found.add(outcome, mark[1])
        kept[pool] = found
        kept.move_to_end(pool)
        while len(kept) > LADDERS_KEPT:
            kept.popitem(last=False)
        # Read while no other request extends it.
        return Rated(found.standings(), dict(found.changes))
