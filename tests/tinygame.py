"""A tiny test-only game that speaks the rules protocol: players add points until someone reaches the target."""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.rules import RuleError

NAME = "Tiny tally"
MIN_PLAYERS = 2
MAX_PLAYERS = 4

# The option naming who starts, and how the new-table form asks for it.
STARTER_OPTION = "first_player"
STARTER_LABEL = "Who starts"

# Its views are not in companion/views/ (companion/rules/__init__.py, "Optional declarations").
VIEWS = "tinyviews"


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    points: tuple[int, ...]
    target: int
    over: bool = False


def new_game(players, options=None, rng=None) -> State:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise RuleError("Tiny tally needs 2 to 4 players.", "players")
    # Far beyond any test that does not ask for an end: a crash test posts hundreds of points.
    target = (options or {}).get("target", 10**6)
    return State(tuple(players), (0,) * len(players), target)


def complete(state, event, rng=None) -> dict:
    return dict(event)


def apply(state: State, event: dict) -> State:
    if event.get("type") != "score":
        raise RuleError("Tiny tally only knows scores.", "type")
    player, points = event.get("player"), event.get("points")
    if type(player) is not int or not 0 <= player < len(state.players):
        raise RuleError("Pick a player.", "player")
    if type(points) is not int or not 1 <= points <= 50:
        raise RuleError("Points go from 1 to 50.", "points")
    if state.over:
        raise RuleError("The game is over.")
    if event.get("needs", 0) > state.points[player]:
        raise RuleError(f"{state.players[player]} needs {event['needs']} points first.", "points")
    total = list(state.points)
    total[player] += points
    return replace(state, points=tuple(total), over=total[player] >= state.target)


def scores(state: State) -> list[int]:
    return list(state.points)


def finished(state: State) -> bool:
    return state.over


def describe(state: State, event: dict) -> str:
    return f"{state.players[event['player']]} scored {event['points']}"
