"""Player statistics across sessions: players matched by name, whatever the case, spaces and accents.

A session counts for "sessions played" as soon as the player sat at it;
wins, win rate and the game's own figures count only finished sessions (a
game left half-way says nothing about who wins). A shared first place is a
win for each player sharing it. Each game says which figures mean something
for it (its review's ``stats``): Carambouille's best and average points,
Frutti di Mare's best and average money, Jaipur's rounds won and seals won
and lost (a match is won on seals: points summed over its rounds say little).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime


from ..inputs import names
from ..i18n.formats import number, percent
from ..rules.review import Stat
from ..rules.words import N_, _

# How the Players page can be ordered.
BY_NAME, BY_WINS = "name", "wins"


def name_key(name: str) -> str:
    """A player's name as matched: "  ANA ", "ana" and "Àna" are the same player; "Chloé" is found as "chloe" (``companion.inputs.names``)."""
    return names.key(name)


@dataclass(frozen=True)
class Outcome:
    """What the statistics need of one session."""

    table_id: int
    game: str
    game_name: str  # the name the table is shown by (``companion.table.log.game_title``)
    created_at: datetime
    finished: bool
    players: tuple[str, ...]
    winners: tuple[int, ...]  # seats ranked first
    record: tuple[Mapping[str, int], ...]  # per seat: what the session adds to the player's record
    link_token: str  # the watch token: the results page, read-only
    stats: tuple[Stat, ...] = ()  # the game's figures
    session_name: str = N_("Games")
    abandoned: bool = False
    ranks: tuple[int, ...] = ()  # per seat: its place in the standings (a team's seats their side's)
    sides: tuple[tuple[int, ...], ...] = ()  # the seats that count together (teams); () when each counts alone
    # What the chart adds up (points, money), per seat: at the end, and after each hand or round.
    totals: tuple[int, ...] = ()
    trail: tuple[tuple[int, ...], ...] = ()
    lowest_wins: bool = False
    chart_name: str = N_("Points")  # what the totals count: "Points", "Money"
    period_name: str = N_("Round")  # what the trail is after each of: "Hand", "Round"
    starter: int | None = None  # the seat that started (the First Trader, who dealt first), as the table knows it


def _figure(stat: Stat, records: Sequence[Mapping[str, int]]) -> str:
    """One figure over the finished sessions' records, as the reader's language writes numbers:
    "920", "212.5", "5 of 9", "5–3", or "–"."""
    if not records:
        return "–"
    values = [record.get(stat.key, 0) for record in records]
    if stat.how == "best":
        return number(max(values))
    if stat.how == "average":
        return number(round(sum(values) / len(values), 1))
    other = sum(record.get(stat.of, 0) for record in records)
    if stat.how == "out_of":
        # Translators: a player's record: "5 of 9" rounds won.
        return _("%(count)s of %(total)s", count=number(sum(values)), total=number(other))
    return f"{number(sum(values))}–{number(other)}"


@dataclass
class GameStats:
    """One player's record at one game."""

    game: str
    game_name: str
    session_name: str = N_("Games")
    stats: tuple[Stat, ...] = ()
    sessions: int = 0
    finished: int = 0
    wins: int = 0
    records: list[Mapping[str, int]] = field(default_factory=list)

    @property
    def win_rate(self) -> str:
        """ "67%" ("67 %" in French), or "–" before any finished session."""
        if not self.finished:
            return "–"
        return percent(round(self.wins / self.finished, 2))

    @property
    def figures(self) -> list[tuple[str, str]]:
        """(label, value) of each of the game's own figures: ("Best points", "920"), ("Rounds won", "5 of 9").

        The labels are the games' English words, worded here in the reader's language.
        """
        return [(_(stat.label), _figure(stat, self.records)) for stat in self.stats]


@dataclass
class PlayerStats:
    """Everything known about one player."""

    key: str
    name: str
    games: list[GameStats]
    sessions: int
    wins: int
    last_played: datetime

    @property
    def finished(self) -> int:
        return sum(game.finished for game in self.games)


def display_name(spellings: Counter, latest: str) -> str:
    """The spelling used most often; the latest one among equals."""
    best = max(spellings.values())
    return latest if spellings[latest] == best else next(s for s, n in spellings.most_common() if n == best)


def player_stats(outcomes: Iterable[Outcome], game_order: Sequence[str] = (),
                 order: str = BY_NAME) -> list[PlayerStats]:
    """Every player who has played, with their record per game; by name, or most wins first."""
    # A record per game and the name its tables are shown by: one for each game a score sheet scored, the
    # name matched as player names are ("Skat" and "skat " are one game) and shown as it was last typed.
    per_player: dict[str, dict[tuple[str, str], GameStats]] = defaultdict(dict)
    spellings: dict[str, Counter] = defaultdict(Counter)
    latest: dict[str, tuple[datetime, str]] = {}
    for outcome in sorted(outcomes, key=lambda o: (o.created_at, o.table_id)):
        for seat, name in enumerate(outcome.players):
            key = name_key(name)
            clean = names.clean(name)
            spellings[key][clean] += 1
            latest[key] = (outcome.created_at, clean)
            record = per_player[key].setdefault((outcome.game, names.key(outcome.game_name)), GameStats(
                outcome.game, outcome.game_name, outcome.session_name, outcome.stats))
            record.game_name = outcome.game_name
            record.sessions += 1
            if outcome.finished:
                record.finished += 1
                record.wins += seat in outcome.winners
                record.records.append(outcome.record[seat] if seat < len(outcome.record) else {})
    game_rank = {slug: i for i, slug in enumerate(game_order)}
    players = []
    for key, games in per_player.items():
        records = sorted(games.values(), key=lambda g: (game_rank.get(g.game, len(game_rank)), g.game, g.game_name))
        players.append(PlayerStats(
            key=key,
            name=display_name(spellings[key], latest[key][1]),
            games=records,
            sessions=sum(g.sessions for g in records),
            wins=sum(g.wins for g in records),
            last_played=latest[key][0],
        ))
    return in_order(players, order)


def in_order(players: Iterable[PlayerStats], order: str = BY_NAME) -> list[PlayerStats]:
    """The players by name, or who wins most first: most wins, then the better win rate, then the name."""
    if order == BY_WINS:
        return sorted(players, key=lambda p: (-p.wins, -(p.wins / p.finished if p.finished else 0),
                                              p.name.casefold(), p.key))
    return sorted(players, key=lambda p: (p.name.casefold(), p.key))


def sessions_of(outcomes: Iterable[Outcome], key: str) -> list[Outcome]:
    """The sessions a player sat at, newest first."""
    mine = [o for o in outcomes if any(name_key(n) == key for n in o.players)]
    return sorted(mine, key=lambda o: (o.created_at, o.table_id), reverse=True)
