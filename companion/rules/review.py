"""The shapes every game's session review (``<game>/review.py``) returns: standings, rows, highlights.

Pure data, standard library only, like the rules themselves: the review
pages, the CSV files and the player statistics read these and never add
anything up themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .words import N_, _


@dataclass(frozen=True)
class Standing:
    """A player's place: ``score`` is what the game ranks by; equal scores share a rank."""

    rank: int
    seat: int
    score: int


@dataclass(frozen=True)
class Period:
    """One row of the breakdown: a hand or a round, each seat's gain in it and the running totals."""

    number: int
    label: str  # "Hand 3", "Round 2"
    gains: tuple[int, ...]
    totals: tuple[int, ...]
    note: str = ""  # "Ben was First Trader", "Ana wins 72 to 58"
    in_progress: bool = False


@dataclass(frozen=True)
class Highlight:
    """One line of the highlights box: a title and a sentence."""

    title: str
    text: str


@dataclass(frozen=True)
class Stat:
    """One figure of a player's record at a game (the Players page), added up over their finished sessions.

    ``how`` says how: ``"best"`` (the highest ``key``), ``"average"`` (of ``key``), ``"out_of"`` (the total
    of ``key`` out of the total of ``of``: "5 of 9"), ``"won_lost"`` (the totals of ``key`` and ``of``:
    "5–3"). ``key`` and ``of`` name values of ``Review.record``.
    """

    label: str  # an English source word, marked with N_ and worded where shown: "Rounds won"
    key: str
    how: str
    of: str | None = None


# The figures of a game whose sessions are won on a score, by what it scores: whole labels, since
# "Best points" is no "Best" followed by "points" in every language.
SCORE_STATS = {
    "points": (N_("Best points"), N_("Average points")),
    "money": (N_("Best money"), N_("Average money")),
}


def score_stats(name: str) -> tuple[Stat, ...]:
    """The record of a game won on a score: "Best points", "Average points"."""
    best, average = SCORE_STATS.get(name, (N_("Best score"), N_("Average score")))
    return (Stat(best, "score", "best"), Stat(average, "score", "average"))


@dataclass(frozen=True)
class Review:
    """Everything the results page shows about one session, derived from its state.

    The names (``period_name``, ``score_name``, ``chart_name``, ``session_name``, ``extra_name``)
    are English source words: the review pages choose their whole sentences by them and word
    them in the reader's language (``companion/review/words.py``).
    """

    period_name: str  # "Hand" or "Round"
    score_name: str  # what the standings rank by: "Points", "Seals", "Money"
    chart_name: str  # what the chart and the breakdown add up: "Points", "Money"
    standings: tuple[Standing, ...]
    winners: tuple[int, ...]  # the seats ranked first (the leaders while the game goes on)
    periods: tuple[Period, ...]
    highlights: tuple[Highlight, ...]
    # What this session adds to each seat's record on the Players page (values by name), and the
    # figures of that record that mean something for the game.
    record: tuple[dict[str, int], ...] = ()
    stats: tuple[Stat, ...] = ()
    session_name: str = "Games"  # "Games", "Matches": what the Players page counts
    # A second standings column where the game has one (Jaipur: the points behind the seals).
    extra_name: str | None = None
    extra: tuple[int, ...] | None = None
    # Who counts together (teams): each side's seats, their score the side's; () when every seat counts alone.
    sides: tuple[tuple[int, ...], ...] = ()
    # Whether the lowest score wins (a sheet of Hearts): the standings put it first, and BG Stats is told so.
    lowest_wins: bool = False

    @property
    def places(self) -> tuple[tuple[Standing, tuple[int, ...]], ...]:
        """The standings as the pages show them, each with the seats it stands for: each seat alone, or each side
        once with all its seats, since a team's score is no one player's; sides rank among sides (1, 2, not 1, 3)."""
        side_of = {seat: side for side in self.sides for seat in side}
        shown: dict[tuple[int, ...], Standing] = {}
        for standing in self.standings:
            shown.setdefault(side_of.get(standing.seat, (standing.seat,)), standing)
        better = [standing.rank for standing in shown.values()]
        return tuple((replace(standing, rank=1 + sum(rank < standing.rank for rank in better)), seats)
                     for seats, standing in shown.items())

    @property
    def progression(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The chart's points: the start at zero, then the running totals after each period."""
        seats = len(self.standings)
        return ((N_("Start"), (0,) * seats),) + tuple((p.label, p.totals) for p in self.periods)


def ranked(scores: Sequence[int]) -> tuple[Standing, ...]:
    """Standings by score, best first; equal scores share a rank (1, 1, 3)."""
    order = sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat))
    return tuple(Standing(1 + sum(other > scores[seat] for other in scores), seat, scores[seat]) for seat in order)


def first_placed(standings: Sequence[Standing]) -> tuple[int, ...]:
    """The seats ranked first, in seating order."""
    return tuple(sorted(s.seat for s in standings if s.rank == 1))


def names(players: Sequence[str], seats: Sequence[int]) -> str:
    """Seats as names: "Ana", "Ana and Ben", "Ana, Ben and Cy"."""
    chosen = [players[seat] for seat in seats]
    if len(chosen) <= 1:
        return "".join(chosen)
    # Translators: the last of several names: "Ana, Ben and Cy"; %(names)s is "Ana, Ben".
    return _("%(names)s and %(last)s", names=", ".join(chosen[:-1]), last=chosen[-1])


def running(rows: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """Running totals of per-period gains."""
    totals: list[tuple[int, ...]] = []
    for gains in rows:
        before = totals[-1] if totals else (0,) * len(gains)
        totals.append(tuple(a + b for a, b in zip(before, gains)))
    return totals
