"""Reading Carambouille entries: the shape checks and small state updates every event uses."""

from __future__ import annotations

from dataclasses import replace

from companion.rules import RuleError
from companion.rules.carambouille.memo import CARD_NAMES, CARD_TYPES
from companion.rules.carambouille.state import DEAL, MARKET, OPENING, OVER, SALES, State


def read_fields(event: object, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
    """The event, refused when a key is missing or one it cannot have is there."""
    for key in required:
        if key not in event:
            raise RuleError(f"The entry is missing {key!r}.", key)
    for key in event:
        if key != "type" and key not in required and key not in optional:
            raise RuleError(f"A {event['type']!r} entry has no {key!r}.", key)
    return event


def read_seat(state: State, value: object, field: str = "player") -> int:
    """A seat index at this table."""
    if type(value) is not int or not 0 <= value < len(state.players):
        raise RuleError(f"There is no player at seat {value!r}.", field)
    return value


def read_count(value: object, low: int, high: int, field: str, what: str) -> int:
    """A whole number (never a bool) within bounds."""
    if type(value) is not int or not low <= value <= high:
        raise RuleError(f"{what} is a whole number from {low} to {high}, not {value!r}.", field)
    return value


def read_card(value: object, field: str = "card") -> str:
    """A Carambouille card type."""
    if not isinstance(value, str) or value not in CARD_NAMES:
        raise RuleError(f"Carambouille has no card called {value!r}.", field)
    return value


def situation(state: State) -> str:
    """Where the hand stands, in words, for the refusals."""
    trader = state.players[state.first_trader]
    return {
        OPENING: f"{trader} has not rung the bell to open the market yet",
        MARKET: "the market is open (exchange phase)",
        SALES: "it is the sales phase",
        DEAL: f"the hand is over and {trader} deals the next one",
        OVER: "the last hand is over: the game can be ended",
    }[state.phase]


def require_phase(state: State, phase: str, doing: str) -> None:
    """Refuse ``doing`` outside ``phase``."""
    if state.phase != phase:
        when = {MARKET: "while the market is open (exchange phase)", SALES: "in the sales phase", DEAL: "between hands"}
        raise RuleError(f"{doing} happens {when[phase]}; now {situation(state)}.", "type")


def require_turn(state: State, event: dict, doing: str) -> int:
    """The event's player, refused unless it is their sales turn."""
    require_phase(state, SALES, doing)
    seat = read_seat(state, event["player"])
    if seat != state.turn:
        raise RuleError(
            f"It is {state.players[state.turn]}'s sales turn, not {state.players[seat]}'s.", "player"
        )
    return seat


def spend(state: State, seat: int, card: str) -> State:
    """The player plays a Carambouille card they hold."""
    if not state.held[seat][CARD_TYPES.index(card)]:
        raise RuleError(f"{state.players[seat]} holds no {CARD_NAMES[card]} card.", "player",
                        public=not_held(state, seat))
    return replace(state, held=bump(state.held, seat, card, -1), played=bump(state.played, seat, card, 1))


def not_held(state: State, seat: int) -> str:
    """Why a recorded entry would become impossible, without saying which card a player holds."""
    return f"{state.players[seat]} would no longer hold the Carambouille card that entry plays or gives."


def bump(table: tuple[tuple[int, ...], ...], seat: int, card: str, by: int) -> tuple[tuple[int, ...], ...]:
    """A per seat, per card type table with one count changed."""
    index = CARD_TYPES.index(card)
    return tuple(
        tuple(n + by if (s, i) == (seat, index) else n for i, n in enumerate(row)) for s, row in enumerate(table)
    )


def with_item(values: tuple, seat: int, value) -> tuple:
    """A per seat tuple with one value replaced."""
    return values[:seat] + (value,) + values[seat + 1 :]
