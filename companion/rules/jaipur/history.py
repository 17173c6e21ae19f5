"""Jaipur's entries in words, for the table's history."""

from __future__ import annotations

from .. import RuleError
from ..words import plural
from .components import (
    BONUS_PILE_LABELS,
    BONUS_RANGES,
    EMPTY_STACKS_TO_END,
    GOODS,
    SEALS_TO_WIN,
    bonus_pile_for,
)
from .state import (
    COUNTING_CAMELS,
    SELLING,
    JaipurState,
    bonus_pile_left,
    check_sale,
    event_type,
    is_int,
    next_starter,
    require_phase,
)
from .tally import round_result

_GENERIC = {
    "sale": "A sale",
    "end_round": "The round ended",
    "camels": "The camels were counted",
    "next_round": "The next round began",
}


def describe(state: JaipurState, event) -> str:
    """One sentence for the history, given the state before ``event``.

    A bonus token's value is not told: on the table it lies face down.
    """
    try:
        kind = event_type(event)
    except RuleError:
        return "An entry this app cannot read."
    try:
        if kind == "sale":
            return _sale(state, event)
        if kind == "end_round":
            require_phase(state, SELLING)
            return f"Round {state.round.number} ended: the market could not be refilled."
        if kind == "camels":
            return _camels(state, event)
        return _next_round(state)
    except RuleError:
        return _GENERIC[kind] + "."


def _sale(state: JaipurState, event) -> str:
    player, good, cards = check_sale(state, event)
    name = state.players[player]
    index = GOODS.index(good)
    taken = state.round.goods_left[index][:cards]
    if not taken:
        sentence = f"{name} sold {cards} {good}: no {good} tokens were left"
    else:
        sentence = f"{name} sold {cards} {good} for {sum(taken)}"
        parts = " + ".join(str(value) for value in taken)
        untaken = cards - len(taken)
        if untaken:
            parts += f"; {plural(untaken, 'card', 'cards')} took no token"
        if len(taken) > 1 or untaken:
            sentence += f" ({parts})"
    size = bonus_pile_for(cards)
    if size is not None:
        if event.get("bonus") is not None:
            sentence += f" and a bonus token ({BONUS_RANGES[size]})"
        elif not bonus_pile_left(state.round, cards):
            sentence += f"; the bonus pile for {BONUS_PILE_LABELS[size]} was empty"
    empty_after = sum(
        1
        for at, left in enumerate(state.round.goods_left)
        if not (left[cards:] if at == index else left)
    )
    if empty_after >= EMPTY_STACKS_TO_END:
        sentence += (
            f". {EMPTY_STACKS_TO_END} goods stacks are empty: "
            f"round {state.round.number} is over"
        )
    return sentence + "."


def _camels(state: JaipurState, event) -> str:
    require_phase(state, COUNTING_CAMELS)
    counts = event.get("counts")
    if (
        not isinstance(counts, (list, tuple))
        or len(counts) != 2
        or not all(is_int(n) for n in counts)
    ):
        raise RuleError("unreadable camel counts")
    players = state.players
    result = round_result(players, state.round.sales, (counts[0], counts[1]))
    if result.camel_token_to is None:
        token = "no camel token"
    else:
        token = f"the camel token to {players[result.camel_token_to]}"
    sentence = f"Camels: {players[0]} {counts[0]}, {players[1]} {counts[1]}, {token}. "
    sentence += result.explanation
    if result.winner is not None:
        seals = state.seals[result.winner] + 1
        sentence += f" and takes a seal ({seals} of {SEALS_TO_WIN})"
        if seals >= SEALS_TO_WIN:
            sentence += f". {players[result.winner]} wins the match"
    return sentence + "."


def _next_round(state: JaipurState) -> str:
    starter = next_starter(state)
    if starter is None:
        raise RuleError("no next round")
    return f"Round {state.round.number + 1} began; {state.players[starter]} starts."
