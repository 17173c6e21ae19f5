"""A game's records over a group's finished sessions of it: the highest and lowest score, the biggest win, the
longest win streak and the current one, and the biggest comeback.

A score is what the game's chart adds up (Carambouille's and Jaipur's points, Frutti di Mare's money, a sheet's
points), at the end of the session. The biggest win is the widest gap between a sole winner and the next best
(a lowest-wins sheet: the next lowest); a Jaipur match won on seals with fewer points is no big win in points, and
is left out. A comeback is the deepest deficit a winner overcame: after each hand or round but the last, how far
behind the leader the winner stood. A win streak is a player's wins in a row at the sessions of the game they
played; the current one is the longest still going (two or more). A forgotten person's seat holds no record.
How often the start player won (a shared first place too) is set beside what an even chance would give.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..inputs import names
from .evenings import is_no_one
from .stats import Outcome

# The shortest streak worth naming as the current one.
CURRENT_STREAK = 2


@dataclass(frozen=True)
class Feat:
    """A record: its value, who holds it ("Ana", or "Ana and Cy" sharing a place) and the session it was set at."""

    value: int
    who: tuple[str, ...]
    outcome: Outcome
    period: int = 0  # a comeback: the hand or round after which the winner stood furthest behind (1, 2…)


@dataclass(frozen=True)
class Streak:
    """A player's wins in a row at a game: how many, who, and the session it reached that length (or ended) at."""

    length: int
    who: str
    outcome: Outcome


@dataclass(frozen=True)
class Records:
    """Everything a game's page says of its records (None where no session sets one)."""

    sessions: int
    highest: Feat | None = None
    lowest: Feat | None = None
    biggest_win: Feat | None = None
    longest_streak: Streak | None = None
    current_streak: Streak | None = None
    comeback: Feat | None = None
    # The start player: at how many sessions one was known, how many they won, and what an even chance would give
    # (the sum of one in the number of players, over those sessions).
    started: int = 0
    starter_won: int = 0
    even_chance: float = 0.0

    @property
    def starter_share(self) -> float:
        """The share of the sessions with a known start player that the start player won (0 without any)."""
        return self.starter_won / self.started if self.started else 0.0

    @property
    def even_share(self) -> float:
        """What an even chance would give over the same sessions (one in the number of players, on average)."""
        return self.even_chance / self.started if self.started else 0.0


def _named(outcome: Outcome) -> list[int]:
    return [seat for seat, name in enumerate(outcome.players) if not is_no_one(name)]


def _counted(outcome: Outcome) -> bool:
    return (outcome.finished and len(outcome.totals) == len(outcome.players) == len(outcome.ranks)
            and len(outcome.players) >= 2)


def _better(outcome: Outcome, value: int) -> int:
    """A total as "higher is better" (a lowest-wins sheet's turned over)."""
    return -value if outcome.lowest_wins else value


def _score_feats(sessions: Sequence[Outcome]) -> tuple[Feat | None, Feat | None]:
    found = [(outcome.totals[seat], outcome, seat) for outcome in sessions for seat in _named(outcome)]
    if not found:
        return None, None
    high = max(found, key=lambda item: (item[0], -item[1].table_id))
    low = min(found, key=lambda item: (item[0], item[1].table_id))
    return (Feat(high[0], (high[1].players[high[2]],), high[1]), Feat(low[0], (low[1].players[low[2]],), low[1]))


def _margin(outcome: Outcome) -> int | None:
    winners = [seat for seat, rank in enumerate(outcome.ranks) if rank == 1]
    others = [seat for seat in range(len(outcome.players)) if outcome.ranks[seat] != 1]
    if not others or len({outcome.totals[seat] for seat in winners}) != 1:
        return None
    gap = _better(outcome, outcome.totals[winners[0]]) - max(_better(outcome, outcome.totals[s]) for s in others)
    return gap if gap > 0 else None


def _winners_named(outcome: Outcome) -> tuple[str, ...]:
    return tuple(outcome.players[seat] for seat in _named(outcome) if outcome.ranks[seat] == 1)


def _comeback(outcome: Outcome) -> tuple[int, int] | None:
    """The deepest deficit a winner overcame at the session and after which hand or round, if any."""
    deepest = None
    for period, totals in enumerate(outcome.trail[:-1], start=1):
        leader = max(_better(outcome, total) for total in totals)
        for seat in _named(outcome):
            if outcome.ranks[seat] == 1 and (behind := leader - _better(outcome, totals[seat])) > 0:
                if deepest is None or behind > deepest[0]:
                    deepest = (behind, period)
    return deepest


def _streaks(sessions: Sequence[Outcome]) -> tuple[Streak | None, Streak | None]:
    running: dict[str, Streak] = {}
    longest = None
    for outcome in sessions:
        for seat in _named(outcome):
            key = names.key(outcome.players[seat])
            if outcome.ranks[seat] != 1:
                running.pop(key, None)
                continue
            now = Streak(running[key].length + 1 if key in running else 1, outcome.players[seat], outcome)
            running[key] = now
            if longest is None or now.length > longest.length:
                longest = now
    ongoing = [streak for streak in running.values() if streak.length >= CURRENT_STREAK]
    current = max(ongoing, key=lambda s: (s.length, s.outcome.created_at, s.outcome.table_id), default=None)
    return longest, current


def records(outcomes: Iterable[Outcome]) -> Records:
    """The records of one game's sessions (``outcomes`` are all of one game)."""
    sessions = sorted((o for o in outcomes if _counted(o)), key=lambda o: (o.created_at, o.table_id))
    highest, lowest = _score_feats(sessions)
    margins = [(margin, outcome) for outcome in sessions if (margin := _margin(outcome)) and _winners_named(outcome)]
    biggest = max(margins, key=lambda item: (item[0], -item[1].table_id), default=None)
    comebacks = [(found, outcome) for outcome in sessions if (found := _comeback(outcome))]
    comeback = max(comebacks, key=lambda item: (item[0][0], -item[1].table_id), default=None)
    longest, current = _streaks(sessions)
    started = [outcome for outcome in sessions if outcome.starter is not None]
    return Records(
        started=len(started), starter_won=sum(outcome.ranks[outcome.starter] == 1 for outcome in started),
        even_chance=sum(1 / len(outcome.players) for outcome in started),
        sessions=len(sessions), highest=highest, lowest=lowest,
        biggest_win=Feat(biggest[0], _winners_named(biggest[1]), biggest[1]) if biggest else None,
        longest_streak=longest, current_streak=current,
        comeback=Feat(comeback[0][0], _winners_named(comeback[1]), comeback[1], comeback[0][1]) if comeback else None)
