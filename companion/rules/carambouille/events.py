"""Carambouille's events: the bell, the sales turns, the deals and the end (RULES.md §1).

One function per event type; ``apply`` picks it. Sales and purchases are in
``sales``. Every refusal is a ``RuleError`` whose sentence a
player understands, and the state is never changed in place. The event
vocabulary is in ``docs/events.md (Carambouille)``.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules import RuleError
from companion.rules.words import N_, _, ngettext
from companion.rules.carambouille.checks import (
    bump,
    not_held,
    read_card,
    read_count,
    read_fields,
    read_seat,
    require_phase,
    require_turn,
    situation,
    spend,
)
from companion.rules.carambouille.memo import CARD_TYPES, card_name, effective_memo
from companion.rules.carambouille.on_sale import play_on_sale
from companion.rules.carambouille.sales import buy, sell
from companion.rules.carambouille.state import (
    DEAL,
    FINISHED,
    MARKET,
    MAX_DEAL,
    OPENING,
    OVER,
    SALES,
    State,
    deal_plan,
    hand_limit,
    seat_after,
)

MAX_SECONDS = 24 * 3600


def _market_opened(state: State, event: dict) -> State:
    read_fields(event, (), ("rung_by",))
    if "rung_by" in event:
        read_seat(state, event["rung_by"], "rung_by")
    if state.phase != OPENING:
        # Translators: %(situation)s says where the hand stands now: "the market is open (exchange phase)".
        raise RuleError(_("The market can only be opened at the start of a hand; now %(situation)s.",
                          situation=situation(state)), "type")
    return replace(state, phase=MARKET)


def _market_closed(state: State, event: dict) -> State:
    read_fields(event, (), ("seconds", "rung_by"))
    if "rung_by" in event:
        read_seat(state, event["rung_by"], "rung_by")
    if state.phase != MARKET:
        raise RuleError(_("Only an open market can be closed; now %(situation)s.", situation=situation(state)), "type")
    seconds = event.get("seconds")
    if seconds is not None:
        read_count(seconds, 0, MAX_SECONDS, "seconds",
                   N_("The length of the exchange phase in seconds is a whole number from %(low)d to %(high)d, "
                      "not %(value)s."))
    return replace(
        state,
        phase=SALES,
        turn=state.first_trader,
        turns_taken=0,
        bought_this_turn=0,
        market_seconds=state.market_seconds + (seconds,),
    )


def _exchange_card(card: str):
    def play(state: State, event: dict) -> State:
        read_fields(event, ("player",), ("target",) if card == "persuasion" else ())
        seat = read_seat(state, event["player"])
        require_phase(state, MARKET, card)
        if "target" in event and read_seat(state, event["target"], "target") == seat:
            raise RuleError(_("Persuasion compels another player to exchange."), "target")
        return spend(state, seat, card)

    return play


def _give_card(state: State, event: dict) -> State:
    read_fields(event, ("player", "to", "card"))
    seat, to = read_seat(state, event["player"]), read_seat(state, event["to"], "to")
    card = read_card(event["card"])
    require_phase(state, MARKET, "trade")
    if to == seat:
        raise RuleError(_("A card is given to another player."), "to")
    if not state.held[seat][CARD_TYPES.index(card)]:
        raise RuleError(_("%(player)s holds no %(card)s card.", player=state.players[seat], card=card_name(card)),
                        "card", public=not_held(state, seat))
    return replace(state, held=bump(bump(state.held, seat, card, -1), to, card, 1))


def _basket(state: State, event: dict) -> State:
    read_fields(event, ("player",))
    return spend(state, read_seat(state, event["player"]), "basket")


def _end_sales_turn(state: State, event: dict) -> State:
    read_fields(event, ("player",))
    seat = require_turn(state, event, "end_turn")
    if state.turns_taken + 1 < len(state.players):
        return replace(state, turn=seat_after(state, seat), turns_taken=state.turns_taken + 1, bought_this_turn=0)
    return replace(
        state,
        phase=OVER if state.last_hand else DEAL,
        first_trader=state.first_trader if state.last_hand else seat_after(state, state.first_trader),
        turn=None,
        turns_taken=0,
        bought_this_turn=0,
        hand_totals=state.hand_totals + (state.points,),
    )


def _deal(state: State, event: dict) -> State:
    read_fields(event, ("cards",), ("hand_sizes",))
    if state.phase == OVER:
        raise RuleError(_("The stock ran out: that was the last hand. End the game to see the standings."), "type")
    require_phase(state, DEAL, "deal")
    cards = event["cards"]
    if not isinstance(cards, list) or len(cards) != len(state.players):
        raise RuleError(ngettext("The deal gives a number of cards to the %(num)d player.",
                                 "The deal gives a number of cards to each of the %(num)d players.",
                                 len(state.players)), "cards")
    for given in cards:
        read_count(given, 0, MAX_DEAL, "cards",
                   N_("The cards dealt to a player is a whole number from %(low)d to %(high)d, not %(value)s."))
    if sum(cards) > state.stock:
        raise RuleError(ngettext("Only %(num)d product card is left in the stock, not %(dealt)d.",
                                 "Only %(num)d product cards are left in the stock, not %(dealt)d.",
                                 state.stock, dealt=sum(cards)), "cards")
    sizes = event.get("hand_sizes")
    if sizes is not None:
        plan = deal_plan(state, sizes)
        if cards != plan:
            who = ", ".join(f"{state.players[s]} {plan[s]}" for s in state.seats)
            # Translators: %(deal)s lists each player with the cards they get: "Ana 2, Ben 3, Cy 0".
            raise RuleError(_("With these hand sizes the deal is: %(deal)s.", deal=who), "cards")
    else:
        # Nobody counted (an import, a direct entry): the app's estimate of each hand is the count.
        for seat, given in enumerate(cards):
            before, limit = state.hand_estimates[seat], hand_limit(state, seat)
            if given and before + given > limit:
                raise RuleError(
                    ngettext("%(player)s would hold %(num)d product card by the app's count (%(before)d + %(given)d), "
                             "over the hand limit of %(limit)d: count the hands and give their sizes, or deal fewer.",
                             "%(player)s would hold %(num)d product cards by the app's count (%(before)d + %(given)d), "
                             "over the hand limit of %(limit)d: count the hands and give their sizes, or deal fewer.",
                             before + given, player=state.players[seat], before=before, given=given, limit=limit),
                    "cards",
                )
    stock = state.stock - sum(cards)
    before = state.hand_estimates if sizes is None else tuple(sizes)
    return replace(
        state,
        phase=OPENING,
        hand=state.hand + 1,
        stock=stock,
        last_hand=stock == 0,
        dealt=tuple(d + c for d, c in zip(state.dealt, cards)),
        hand_estimates=tuple(b + c for b, c in zip(before, cards)),
    )


def _house_memo(state: State, event: dict) -> State:
    read_fields(event, ("memo",))
    memo = effective_memo(event["memo"])[0]
    if tuple(sorted(memo.items())) == state.memo:
        raise RuleError(_("That is the memo the table already uses: nothing changed."), "memo")
    return replace(state, memo=tuple(sorted(memo.items())))


def _end_game(state: State, event: dict) -> State:
    read_fields(event, ())
    in_hand = state.phase in (OPENING, MARKET, SALES)
    return replace(
        state,
        phase=FINISHED,
        turn=None,
        hand_totals=state.hand_totals + ((state.points,) if in_hand else ()),
    )


_EVENTS = {
    "market_opened": _market_opened,
    "market_closed": _market_closed,
    "i_lied": _exchange_card("i_lied"),
    "persuasion": _exchange_card("persuasion"),
    "give_card": _give_card,
    "basket": _basket,
    "sale": sell,
    "play_on_sale": play_on_sale,
    "buy": buy,
    "end_sales_turn": _end_sales_turn,
    "deal": _deal,
    "end_game": _end_game,
    "house_memo": _house_memo,
}
EVENT_TYPES = tuple(_EVENTS)


def apply(state: State, event: dict) -> State:
    """The state after one event; ``RuleError`` with the reason when the rules do not allow it."""
    kind = event.get("type") if isinstance(event, dict) else None
    if not isinstance(kind, str) or kind not in _EVENTS:
        raise RuleError(_("Carambouille has no entry of type %(type)s.", type=repr(kind)), "type")
    if state.phase == FINISHED:
        raise RuleError(_("The game is over: nothing more can be recorded."), "type")
    return _EVENTS[event["type"]](state, event)
