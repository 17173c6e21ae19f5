"""A fair rating of a group's players: OpenSkill's Plackett-Luce model (the ``openskill`` package, its default
parameters), session by session.

Each finished session rates its players by their places as the results page gives them: equal places are ties,
a team (a score sheet's sides) is rated as a team, a lowest-wins sheet by its places (the lowest score first).
A player is matched by name as the players' pages match names; a forgotten person's seat ("Player 3") plays as
a newcomer the group never meets again: it is rated by no name, and the others' results against it still count.

A player stands by the conservative rating μ − 3σ (low while little is known of them), shown as
``1000 + 10 × (μ − 3σ)``: everyone starts at 1000, a first win of three is about +30. Under ``PROVISIONAL``
rated games a player's rating is marked provisional.

``Ladder`` folds sessions in the order they were played; folding the same sessions again in the same order gives
the same ratings, so a ladder is kept and extended by the new sessions alone (``tonight``/``standings`` keep them).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from ..inputs import names
from .evenings import is_no_one
from .stats import Outcome, display_name

PROVISIONAL = 5
# Rated games at a game before a player can be its champion (the best rating at it).
CHAMPION_GAMES = 5
START, SCALE = 1000, 10


def shown(mu: float, sigma: float) -> int:
    """The rating a player is shown and stands by: 1000 + 10 × (μ − 3σ), rounded."""
    return round(START + SCALE * (mu - 3 * sigma))


@dataclass(frozen=True)
class Standing:
    """One player's rating, as the standings list it."""

    key: str
    name: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def rating(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL


def teams_of(outcome: Outcome) -> list[tuple[tuple[int, ...], int]]:
    """The session's teams as (seats, place): each side together, every other seat alone; in a canonical order
    (by place, then by the seats' names), so that the order the seats were listed in changes nothing."""
    in_side = {seat for side in outcome.sides for seat in side}
    teams = [tuple(side) for side in outcome.sides] + [(seat,) for seat in range(len(outcome.players))
                                                      if seat not in in_side]
    keyed = [(tuple(sorted(names.key(outcome.players[seat]) for seat in team)), team) for team in teams]
    keyed.sort(key=lambda pair: (outcome.ranks[pair[1][0]], pair[0]))
    return [(team, outcome.ranks[team[0]]) for _key, team in keyed]


def rateable(outcome: Outcome) -> bool:
    """Whether the session rates its players: finished, its places known, and more than one team."""
    return (outcome.finished and len(outcome.ranks) == len(outcome.players) >= 2
            and len(teams_of(outcome)) >= 2)


@dataclass
class Ladder:
    """The ratings of one pool of sessions (a season, a game), folded in the order they were played."""

    model: PlackettLuce = field(default_factory=PlackettLuce)
    ratings: dict = field(default_factory=dict)
    games: Counter = field(default_factory=Counter)
    wins: Counter = field(default_factory=Counter)
    spellings: dict = field(default_factory=lambda: defaultdict(Counter))
    latest: dict = field(default_factory=dict)
    # Per session folded: each named player's change of shown rating and the rating it left them with
    # ({table id: {key: (change, rating)}}).
    changes: dict = field(default_factory=dict)
    folded: list = field(default_factory=list)  # (table id, version) in the order folded

    def add(self, outcome: Outcome, version: object = None) -> None:
        """Rate one finished session (one that rates nobody is only counted as folded)."""
        self.folded.append((outcome.table_id, version))
        if not rateable(outcome):
            return
        teams = teams_of(outcome)
        keys = [[None if is_no_one(outcome.players[seat]) else names.key(outcome.players[seat]) or None
                 for seat in team] for team, _place in teams]
        before = [[self.ratings.get(key) or self.model.rating() for key in team] for team in keys]
        after = self.model.rate(before, ranks=[place for _team, place in teams])
        change = {}
        for (team, place), team_keys, old, new in zip(teams, keys, before, after):
            for seat, key, was, now in zip(team, team_keys, old, new):
                if key is None:
                    continue  # a forgotten person's seat: rated once, kept by no name
                change[key] = (shown(now.mu, now.sigma) - shown(was.mu, was.sigma), shown(now.mu, now.sigma))
                self.ratings[key] = now
                self.games[key] += 1
                self.wins[key] += place == 1
                self.latest[key] = names.clean(outcome.players[seat])
                self.spellings[key][self.latest[key]] += 1
        self.changes[outcome.table_id] = change

    def standings(self) -> list[Standing]:
        """Every rated player, the best rating first (then the most games, then by name)."""
        rows = [Standing(key, display_name(self.spellings[key], self.latest[key]), rating.mu, rating.sigma,
                         self.games[key], self.wins[key]) for key, rating in self.ratings.items()]
        return sorted(rows, key=lambda row: (-(row.mu - 3 * row.sigma), -row.games, row.name.casefold(), row.key))


def ladder(outcomes: Iterable[Outcome]) -> Ladder:
    """The ratings of ``outcomes``, folded in the order they were played."""
    found = Ladder()
    for outcome in played_order(outcomes):
        found.add(outcome)
    return found


def played_order(outcomes: Iterable[Outcome]) -> list[Outcome]:
    """Sessions in the order they are rated: by their start, then as they were stored."""
    return sorted(outcomes, key=lambda o: (o.created_at, o.table_id))


def chances(rows: Sequence[Standing], seated: Sequence[str]) -> list[tuple[str, float]]:
    """Each seated player's chance of winning as OpenSkill predicts it from ``rows`` (a pool's standings), for
    those with a rating there, by the name the standings give them; none unless two of them have one (a newcomer
    plays at the model's first rating)."""
    model = PlackettLuce()
    known = {row.key: row for row in rows}
    keys = [names.key(name) for name in seated]
    if len({key for key in keys if key in known}) < 2 or len(set(keys)) != len(keys) or not all(keys):
        return []
    teams = [[model.rating(mu=known[key].mu, sigma=known[key].sigma) if key in known else model.rating()]
             for key in keys]
    return [(known[key].name, share) for key, share in zip(keys, model.predict_win(teams)) if key in known]
