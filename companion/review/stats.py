"""Player statistics across sessions: players matched by name, whatever the case and spaces.

A session counts for "sessions played" as soon as the player sat at it;
wins, win rate, best and average score count only finished sessions (a
game left half-way says nothing about who wins). A shared first place is a
win for each player sharing it. The score is what the game's review calls
``stat_scores``: Carambouille points, Frutti di Mare money, Jaipur points
over the match's scored rounds (the match itself is won on seals).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from .. import names


def name_key(name: str) -> str:
    """A player's name as matched: "  ANA ", "ana" and "Àna" are the same player (``companion.names``)."""
    return names.key(name)


@dataclass(frozen=True)
class Outcome:
    """What the statistics need of one session."""

    table_id: int
    game: str
    game_name: str
    created_at: datetime
    finished: bool
    players: tuple[str, ...]
    winners: tuple[int, ...]  # seats ranked first
    scores: tuple[int, ...]  # per seat, see the module's docstring
    link_token: str  # the watch token: the results page, read-only


@dataclass
class GameStats:
    """One player's record at one game."""

    game: str
    game_name: str
    sessions: int = 0
    finished: int = 0
    wins: int = 0
    scores: list[int] = field(default_factory=list)

    @property
    def win_rate(self) -> str:
        """ "67 %", or "–" before any finished session."""
        return f"{round(100 * self.wins / self.finished)} %" if self.finished else "–"

    @property
    def best(self) -> int | None:
        return max(self.scores) if self.scores else None

    @property
    def average(self) -> str:
        """The average score with one decimal when it has one ("212.5", "180"), or "–"."""
        if not self.scores:
            return "–"
        value = round(sum(self.scores) / len(self.scores), 1)
        return f"{value:g}"


@dataclass
class PlayerStats:
    """Everything known about one player."""

    key: str
    name: str
    games: list[GameStats]
    sessions: int
    wins: int
    last_played: datetime


def _display_name(spellings: Counter, latest: str) -> str:
    """The spelling used most often; the latest one among equals."""
    best = max(spellings.values())
    return latest if spellings[latest] == best else next(s for s, n in spellings.most_common() if n == best)


def player_stats(outcomes: Iterable[Outcome], game_order: Sequence[str] = ()) -> list[PlayerStats]:
    """Every player who has played, by name, with their record per game."""
    per_player: dict[str, dict[str, GameStats]] = defaultdict(dict)
    spellings: dict[str, Counter] = defaultdict(Counter)
    latest: dict[str, tuple[datetime, str]] = {}
    for outcome in sorted(outcomes, key=lambda o: (o.created_at, o.table_id)):
        for seat, name in enumerate(outcome.players):
            key = name_key(name)
            clean = names.clean(name)
            spellings[key][clean] += 1
            latest[key] = (outcome.created_at, clean)
            record = per_player[key].setdefault(outcome.game, GameStats(outcome.game, outcome.game_name))
            record.sessions += 1
            if outcome.finished:
                record.finished += 1
                record.wins += seat in outcome.winners
                record.scores.append(outcome.scores[seat])
    order = {slug: i for i, slug in enumerate(game_order)}
    players = []
    for key, games in per_player.items():
        records = sorted(games.values(), key=lambda g: (order.get(g.game, len(order)), g.game))
        players.append(PlayerStats(
            key=key,
            name=_display_name(spellings[key], latest[key][1]),
            games=records,
            sessions=sum(g.sessions for g in records),
            wins=sum(g.wins for g in records),
            last_played=latest[key][0],
        ))
    return sorted(players, key=lambda p: (p.name.casefold(), p.key))


def sessions_of(outcomes: Iterable[Outcome], key: str) -> list[Outcome]:
    """The sessions a player sat at, newest first."""
    mine = [o for o in outcomes if any(name_key(n) == key for n in o.players)]
    return sorted(mine, key=lambda o: (o.created_at, o.table_id), reverse=True)
