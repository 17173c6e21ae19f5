"""Who beats whom: two players' finished games together and who finished ahead, per game and in all; each
player's nemesis (who most often finishes ahead of them) and the one they most often beat.

Ahead means a better place on the results page (a team's players share their side's place, so teammates are
level). Players are matched by name as the players' pages match them; a forgotten person's seat ("Player 3") is
no one's rival.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ..inputs import names
from .evenings import is_no_one
from .stats import Outcome

# Games together before a rival is named nemesis or favourite: two games say little.
MEETINGS = 3


@dataclass(frozen=True)
class Record:
    """Two players' finished games together: how often the first finished ahead, the second, and level."""

    together: int = 0
    ahead: int = 0
    behind: int = 0

    @property
    def level(self) -> int:
        return self.together - self.ahead - self.behind


def _places(outcome: Outcome) -> dict[str, int]:
    """Each named player's place at a finished session."""
    if not outcome.finished or len(outcome.ranks) != len(outcome.players):
        return {}
    return {names.key(name): outcome.ranks[seat] for seat, name in enumerate(outcome.players)
            if not is_no_one(name) and names.key(name)}


def head_to_head(outcomes: Iterable[Outcome], first: str, second: str) -> tuple[Record, list[tuple[str, Record]]]:
    """``first`` against ``second`` (name keys): in all, and per game (by the name its tables are shown by), the
    games they played most together first."""
    total: Counter = Counter()
    per_game: dict[str, Counter] = {}
    shown: dict[str, str] = {}
    for outcome in outcomes:
        places = _places(outcome)
        if first not in places or second not in places or first == second:
            continue
        game = names.key(outcome.game_name)
        shown[game] = outcome.game_name
        for counter in (total, per_game.setdefault(game, Counter())):
            counter["together"] += 1
            counter["ahead"] += places[first] < places[second]
            counter["behind"] += places[second] < places[first]
    games = sorted(per_game, key=lambda game: (-per_game[game]["together"], game))
    return Record(**total), [(shown[game], Record(**per_game[game])) for game in games]


@dataclass(frozen=True)
class Rival:
    """Another player, as one player's rival: their name and their record against each other (seen from the one)."""

    key: str
    name: str
    record: Record


def rivals(outcomes: Iterable[Outcome], key: str) -> list[Rival]:
    """Everyone ``key`` finished a game with, the most games together first."""
    together: Counter = Counter()
    ahead: Counter = Counter()
    behind: Counter = Counter()
    spelling: dict[str, str] = {}
    for outcome in sorted(outcomes, key=lambda o: (o.created_at, o.table_id)):
        places = _places(outcome)
        if key not in places:
            continue
        for seat, name in enumerate(outcome.players):
            other = names.key(name)
            if other == key or other not in places:
                continue
            spelling[other] = names.clean(name)
            together[other] += 1
            ahead[other] += places[key] < places[other]
            behind[other] += places[other] < places[key]
    found = [Rival(other, spelling[other], Record(together[other], ahead[other], behind[other])) for other in together]
    return sorted(found, key=lambda rival: (-rival.record.together, rival.name.casefold(), rival.key))


def nemesis(found: list[Rival]) -> Rival | None:
    """Who most often finished ahead (at least ``MEETINGS`` games together; then the larger share, then by name)."""
    named = [rival for rival in found if rival.record.together >= MEETINGS and rival.record.behind > 0]
    return min(named, key=lambda r: (-r.record.behind, -r.record.behind / r.record.together, r.name.casefold()),
               default=None)


def favourite(found: list[Rival]) -> Rival | None:
    """The one most often beaten (at least ``MEETINGS`` games together; then the larger share, then by name)."""
    named = [rival for rival in found if rival.record.together >= MEETINGS and rival.record.ahead > 0]
    return min(named, key=lambda r: (-r.record.ahead, -r.record.ahead / r.record.together, r.name.casefold()),
               default=None)
