"""A group's evenings: its sessions falling into evenings by themselves, and each evening's tally.

An evening is not a calendar day: a game night runs past midnight, and a Sunday afternoon and that
Sunday's evening are two. A new evening starts where more than ``GAP`` lies between the latest entry of
the evening so far and the next session's first entry. A session with no entry was never played: it is
in no evening.

The tally counts the evening's finished sessions only (a game reopened or undone to before its end
counts again once it is finished again): each player's games, wins (a shared first place is a win for
each, a winning team's too) and average place. The evening is won by the most wins, then the better
average place; players who are still level share it. A forgotten person's seat ("Player 3") is no
one: it is left out.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..inputs import names
from .stats import Outcome, display_name

GAP = timedelta(hours=6)


@dataclass(frozen=True)
class Span:
    """When one session was played: its first and its latest entry."""

    table_id: int
    start: datetime
    end: datetime


def evenings(spans: Iterable[Span]) -> list[tuple[Span, ...]]:
    """The sessions in evenings, oldest first, each evening's sessions in the order they began."""
    found: list[list[Span]] = []
    latest = None
    for span in sorted(spans, key=lambda s: (s.start, s.table_id)):
        if latest is None or span.start - latest > GAP:
            found.append([])
            latest = span.end
        found[-1].append(span)
        latest = max(latest, span.end)
    return [tuple(evening) for evening in found]


def is_on(evening: Sequence[Span], moment: datetime) -> bool:
    """Whether a session begun at ``moment`` would still be part of ``evening`` (the evening is on)."""
    return bool(evening) and moment - max(span.end for span in evening) <= GAP


def is_no_one(name: str) -> bool:
    """Whether ``name`` is a forgotten person's seat ("Player 3"), counted for no one (``names.is_forgotten``)."""
    return names.is_forgotten(name)


@dataclass(frozen=True)
class Tally:
    """One player's evening: ``place_total`` is the sum of their places over the finished games."""

    key: str
    name: str
    games: int
    wins: int
    place_total: int

    @property
    def average_place(self) -> float:
        return self.place_total / self.games if self.games else 0.0


def _order(row: Tally) -> tuple:
    return (-row.wins, row.average_place if row.games else float("inf"), -row.games, row.name.casefold(), row.key)


def tally(outcomes: Iterable[Outcome]) -> list[Tally]:
    """Each player of the evening's finished sessions, the evening's winner first (see the module's docstring)."""
    games: Counter = Counter()
    wins: Counter = Counter()
    places: Counter = Counter()
    spellings: dict[str, Counter] = defaultdict(Counter)
    latest: dict[str, str] = {}
    for outcome in sorted(outcomes, key=lambda o: (o.created_at, o.table_id)):
        if not outcome.finished or len(outcome.ranks) != len(outcome.players):
            continue
        for seat, name in enumerate(outcome.players):
            if is_no_one(name) or not (key := names.key(name)):
                continue
            latest[key] = names.clean(name)
            spellings[key][latest[key]] += 1
            games[key] += 1
            wins[key] += seat in outcome.winners
            places[key] += outcome.ranks[seat]
    rows = [Tally(key, display_name(spellings[key], latest[key]), games[key], wins[key], places[key]) for key in games]
    return sorted(rows, key=_order)


def winners(rows: Sequence[Tally]) -> list[Tally]:
    """Who won the evening: the first of the tally and whoever is level with them; nobody before a game is won."""
    if not rows or rows[0].wins == 0:
        return []
    first = rows[0]
    return [row for row in rows if row.wins == first.wins and row.average_place == first.average_place]
