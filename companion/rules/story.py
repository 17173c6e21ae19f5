"""A game told again: who led when, what decided it, the closest moment, a comeback, read from the scores after
each entry (pure, standard library only).

The house reads a finished session's log into ``Moment``s, one per live entry (what the game ranks by, for each
place: a seat, or a team once), and asks the functions here what happened; each game's review adds its own best
move (``best_move``), and ``companion.review.story`` words it all. A place leads when it alone has the best score
(the lowest where the lowest wins); a tie leads nobody, so the lead changes hands when the sole leader is another
than the last sole leader, however many ties came between.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Moment:
    """The table after one entry: its number in the log, the hand or round it belongs to (None: the game names
    none), and each place's score."""

    seq: int
    period: int | None
    scores: tuple[int, ...]


@dataclass(frozen=True)
class Gap:
    """One place ahead of another by ``by`` at a moment (0: level)."""

    moment: Moment
    ahead: int
    behind: int
    by: int


def ahead_by(scores: Sequence[int], place: int, other: int, lowest_wins: bool = False) -> int:
    """How far ``place`` is ahead of ``other`` (negative: behind)."""
    gap = scores[place] - scores[other]
    return -gap if lowest_wins else gap


def order(scores: Sequence[int], lowest_wins: bool = False) -> list[int]:
    """The places best first; equal scores in seating order."""
    return sorted(range(len(scores)), key=lambda place: (scores[place] if lowest_wins else -scores[place], place))


def leader(scores: Sequence[int], lowest_wins: bool = False) -> int | None:
    """The place that alone has the best score; None on a tie for the lead (and with one place, that place)."""
    if len(scores) < 2:
        return 0 if scores else None
    first, second = order(scores, lowest_wins)[:2]
    return first if scores[first] != scores[second] else None


def lead_changes(moments: Sequence[Moment], lowest_wins: bool = False) -> list[Moment]:
    """The moments at which the lead changed hands: a sole leader other than the last one (the first lead taken
    is no change, nor a tie, nor the same leader again after one)."""
    changes, last = [], None
    for moment in moments:
        now = leader(moment.scores, lowest_wins)
        if now is None:
            continue
        if last is not None and now != last:
            changes.append(moment)
        last = now
    return changes


def took_for_good(moments: Sequence[Moment], place: int, lowest_wins: bool = False) -> Moment | None:
    """The moment ``place`` took the lead and kept it alone to the end; None if it does not lead alone at the end."""
    taken = None
    for moment in moments:
        if leader(moment.scores, lowest_wins) == place:
            taken = taken or moment
        else:
            taken = None
    return taken


def period_ends(moments: Sequence[Moment]) -> list[Moment]:
    """The last moment of each hand or round, in order; each moment for a game that names none."""
    ends: list[Moment] = []
    for moment in moments:
        if ends and moment.period is not None and ends[-1].period == moment.period:
            ends[-1] = moment
        else:
            ends.append(moment)
    return ends


def decider(moments: Sequence[Moment], winner: int, runner_up: int, lowest_wins: bool = False) -> Gap | None:
    """The hand or round that moved the final gap between the winner and the runner-up most the winner's way
    (the latest of equal swings: the one that settled it); None with fewer than two, or if none moved it so."""
    ends = period_ends(moments)
    if len(ends) < 2:
        return None
    best, before = None, 0
    for moment in ends:
        gap = ahead_by(moment.scores, winner, runner_up, lowest_wins)
        if gap - before > 0 and (best is None or gap - before >= best.by):
            best = Gap(moment, winner, runner_up, gap - before)
        before = gap
    return best


def closest(moments: Sequence[Moment], lowest_wins: bool = False) -> Gap | None:
    """The end of a hand or round (not the last) at which the first two places stood closest, once anything was
    scored (the latest of equal gaps); None with fewer than two."""
    ends = period_ends(moments)[:-1]
    found = None
    for moment in ends:
        if not any(moment.scores) or len(moment.scores) < 2:
            continue
        first, second = order(moment.scores, lowest_wins)[:2]
        by = ahead_by(moment.scores, first, second, lowest_wins)
        if found is None or by <= found.by:
            found = Gap(moment, first, second, by)
    return found


def comeback(moments: Sequence[Moment], winner: int, lowest_wins: bool = False) -> Gap | None:
    """The deepest the winner stood behind the leader at the end of a hand or round (not the last); None if the
    winner was never behind there."""
    deepest = None
    for moment in period_ends(moments)[:-1]:
        best = order(moment.scores, lowest_wins)[0]
        behind = ahead_by(moment.scores, best, winner, lowest_wins)
        if behind > 0 and (deepest is None or behind > deepest.by):
            deepest = Gap(moment, best, winner, behind)
    return deepest
