"""A group's seasons: calendar quarters on the players' clock until the group starts its own (a name and a first
day, each running to the next one's first day), and all time.

A season the group starts cuts the quarter it begins in short: the quarters before it stay as they were (frozen:
their sessions are all played), the group's own seasons follow one another from its first day on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

import sqlalchemy as sa
from babel import dates

from ..extensions import db
from ..i18n.formats import formatting_locale
from ..models import Season as OwnSeason
from ..models import now
from ..rules.words import _
from . import history

ALL = "all"
QUARTER_SHAPE = re.compile(r"(\d{4})-Q([1-4])")
OWN_SHAPE = re.compile(r"s(\d{1,9})")


@dataclass(frozen=True)
class Season:
    """A season: its key ("2026-Q4", "s12" for one the group started, "all"), its days (``start`` included, ``end``
    not; None: no bound) and, for one the group started, its name."""

    key: str
    start: date | None = None
    end: date | None = None
    name: str = ""

    def holds(self, day: date) -> bool:
        return (self.start is None or self.start <= day) and (self.end is None or day < self.end)

    @property
    def label(self) -> str:
        """How this phone names it: "Oct – Dec 2026", "Winter league", "All time"."""
        if self.key == ALL:
            return _("All time")
        if self.name:
            return self.name
        year, quarter = (int(part) for part in QUARTER_SHAPE.fullmatch(self.key).groups())
        months = dates.get_month_names("abbreviated", "stand-alone", locale=formatting_locale())
        return f"{months[3 * quarter - 2]} – {months[3 * quarter]} {year}"


ALL_TIME = Season(ALL)


def day_of(moment: datetime) -> date:
    """The day a moment falls on, on the players' clock."""
    return history.local(moment).date()


def quarter_key(day: date) -> str:
    return f"{day.year}-Q{(day.month - 1) // 3 + 1}"


def _quarter(key: str, first_own: date | None) -> Season:
    year, quarter = (int(part) for part in QUARTER_SHAPE.fullmatch(key).groups())
    start = date(year, 3 * quarter - 2, 1)
    # The last quarter of time (a session dated there by hand) has no end.
    end = (date(year + 1, 1, 1) if year < date.max.year else None) if quarter == 4 else date(year, 3 * quarter + 1, 1)
    return Season(key, start, min(end, first_own) if first_own and end else first_own or end)


def own(group_id: int) -> list[OwnSeason]:
    """The seasons the group started, in the order they begin."""
    return list(db.session.scalars(sa.select(OwnSeason).where(OwnSeason.group_id == group_id)
                                   .order_by(OwnSeason.starts_on)))


def _owns(started: list[OwnSeason]) -> list[Season]:
    return [Season(f"s{season.id}", season.starts_on, started[i + 1].starts_on if i + 1 < len(started) else None,
                   season.name) for i, season in enumerate(started)]


def of_day(day: date, started: list[OwnSeason]) -> Season:
    """The season ``day`` falls in."""
    first_own = started[0].starts_on if started else None
    if first_own is not None and day >= first_own:
        return next(season for season in reversed(_owns(started)) if season.holds(day))
    return _quarter(quarter_key(day), first_own)


def current(started: list[OwnSeason]) -> Season:
    return of_day(day_of(now()), started)


def choices(played: set[str], started: list[OwnSeason]) -> list[Season]:
    """The seasons to choose from, newest first: the group's own, the quarters before them with a finished session
    (``played``: their keys), the current one always; then all time."""
    first_own = started[0].starts_on if started else None
    quarters = {key for key in played if first_own is None or _quarter(key, None).start < first_own}
    found = [*reversed(_owns(started)),
             *(_quarter(key, first_own) for key in sorted(quarters, reverse=True))]
    if (today := current(started)) not in found:
        found.insert(0, today)
    return [*found, ALL_TIME]


def by_key(key: str, played: set[str], started: list[OwnSeason]) -> Season | None:
    """The season of that key among ``choices`` (None: no such season)."""
    return next((season for season in choices(played, started) if season.key == key), None)
