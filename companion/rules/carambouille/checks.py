"""Reading Carambouille entries: the shape checks and small state updates every event uses."""

from __future__ import annotations

from dataclasses import replace

from companion.rules import RuleError
from companion.rules.carambouille.memo import CARD_NAMES, CARD_TYPES, card_name
from companion.rules.words import N_, _
from companion.rules.carambouille.state import DEAL, MARKET, OPENING, OVER, SALES, State


def read_fields(event: object, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
    """The event, refused when a key is missing or one it cannot have is there."""
    for key in required:
        if key not in event:
            raise RuleError(_("The entry is missing %(key)s.", key=repr(key)), key)
    for key in event:
        if key != "type" and key not in required and key not in optional:
            # Translators: %(type)s is the entry's type as sent ('sale'), %(key)s a field it cannot have.
            raise RuleError(_("A %(type)s entry has no %(key)s.", type=repr(event["type"]), key=repr(key)), key)
    return event


def read_seat(state: State, value: object, field: str = "player") -> int:
    """A seat index at this table."""
    if type(value) is not int or not 0 <= value < len(state.players):
        raise RuleError(_("There is no player at seat %(seat)s.", seat=repr(value)), field)
    return value


def read_count(value: object, low: int, high: int, field: str, refusal: str) -> int:
    """A whole number (never a bool) within bounds; ``refusal`` (marked with ``N_``) says what it must be,
    with ``%(low)d``, ``%(high)d`` and ``%(value)s``."""
    if type(value) is not int or not low <= value <= high:
        raise RuleError(_(refusal, low=low, high=high, value=repr(value)), field)
    return value


def read_card(value: object, field: str = "card") -> str:
    """A Carambouille card type."""
    if not isinstance(value, str) or value not in CARD_NAMES:
        raise RuleError(_("Carambouille has no card called %(card)s.", card=repr(value)), field)
    return value


# Where the hand stands in each phase ("%(trader)s": the First Trader); worded by ``situation``.
SITUATIONS = {
    # Translators: where a hand stands, ending a refusal: "Selling happens in the sales phase; now …".
    OPENING: N_("%(trader)s has not rung the bell to open the market yet"),
    MARKET: N_("the market is open (exchange phase)"),
    SALES: N_("it is the sales phase"),
    DEAL: N_("the hand is over and %(trader)s deals the next one"),
    OVER: N_("the last hand is over: the game can be ended"),
}


def situation(state: State) -> str:
    """Where the hand stands, in words, for the refusals."""
    return _(SITUATIONS[state.phase], trader=state.players[state.first_trader])


# What may only happen in one phase, and the refusal outside it ("%(situation)s": where the hand stands now).
OUT_OF_PHASE = {
    # Translators: %(situation)s says where the hand stands now: "the market is open (exchange phase)".
    "i_lied": N_("Playing “I lied!” happens while the market is open (exchange phase); now %(situation)s."),
    "persuasion": N_("Playing Persuasion happens while the market is open (exchange phase); now %(situation)s."),
    "trade": N_("Trading a Carambouille card happens while the market is open (exchange phase); now %(situation)s."),
    "deal": N_("Dealing a new hand happens between hands; now %(situation)s."),
    "sell": N_("Selling happens in the sales phase; now %(situation)s."),
    "buy": N_("Buying Carambouille cards happens in the sales phase; now %(situation)s."),
    "end_turn": N_("Ending a sales turn happens in the sales phase; now %(situation)s."),
}


def require_phase(state: State, phase: str, doing: str) -> None:
    """Refuse ``doing`` (a key of ``OUT_OF_PHASE``) outside ``phase``."""
    if state.phase != phase:
        raise RuleError(_(OUT_OF_PHASE[doing], situation=situation(state)), "type")


def require_turn(state: State, event: dict, doing: str) -> int:
    """The event's player, refused unless it is their sales turn."""
    require_phase(state, SALES, doing)
    seat = read_seat(state, event["player"])
    if seat != state.turn:
        raise RuleError(
            _("It is %(seller)s's sales turn, not %(player)s's.", seller=state.players[state.turn],
              player=state.players[seat]),
            "player",
        )
    return seat


def spend(state: State, seat: int, card: str) -> State:
    """The player plays a Carambouille card they hold."""
    if not state.held[seat][CARD_TYPES.index(card)]:
        raise RuleError(_("%(player)s holds no %(card)s card.", player=state.players[seat], card=card_name(card)),
                        "player", public=not_held(state, seat))
    return replace(state, held=bump(state.held, seat, card, -1), played=bump(state.played, seat, card, 1))


def not_held(state: State, seat: int) -> str:
    """Why a recorded entry would become impossible, without saying which card a player holds."""
    return _("%(player)s would no longer hold the Carambouille card that entry plays or gives.",
             player=state.players[seat])


def bump(table: tuple[tuple[int, ...], ...], seat: int, card: str, by: int) -> tuple[tuple[int, ...], ...]:
    """A per seat, per card type table with one count changed."""
    index = CARD_TYPES.index(card)
    return tuple(
        tuple(n + by if (s, i) == (seat, index) else n for i, n in enumerate(row)) for s, row in enumerate(table)
    )


def with_item(values: tuple, seat: int, value) -> tuple:
    """A per seat tuple with one value replaced."""
    return values[:seat] + (value,) + values[seat + 1 :]
