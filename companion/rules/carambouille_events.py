"""Carambouille's events: reading, checking and applying each one (RULES.md §1).

One function per event type; ``apply`` picks it. Every refusal is a
``RuleError`` whose sentence a player understands, and the state is never
changed in place. The event vocabulary is in ``docs/events/carambouille.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.rules import RuleError
from companion.rules.carambouille_memo import (
    CARD_NAMES,
    CARD_PRICE,
    CARD_TYPES,
    COPIES_PER_TYPE,
    PRODUCT_BY_SLUG,
    PRODUCTS,
    SALE_CARDS,
    steps_on_row,
)
from companion.rules.carambouille_state import (
    DEAL,
    FINISHED,
    MARKET,
    MAX_DEAL,
    OPENING,
    OVER,
    SALES,
    Sale,
    State,
    copies_left_to_draw,
    deal_plan,
    deck_left,
    max_sale_cards,
    memo_row,
    seat_after,
)

MAX_PURCHASES = 2  # Carambouille cards per sales turn
MAX_SECONDS = 24 * 3600


# --- reading events --------------------------------------------------------


def _fields(event: object, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
    for key in required:
        if key not in event:
            raise RuleError(f"The entry is missing {key!r}.", key)
    for key in event:
        if key != "type" and key not in required and key not in optional:
            raise RuleError(f"A {event['type']!r} entry has no {key!r}.", key)
    return event


def _seat(state: State, value: object, field: str = "player") -> int:
    if type(value) is not int or not 0 <= value < len(state.players):
        raise RuleError(f"There is no player at seat {value!r}.", field)
    return value


def _count(value: object, low: int, high: int, field: str, what: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise RuleError(f"{what} is a whole number from {low} to {high}, not {value!r}.", field)
    return value


def _card_type(value: object, field: str = "card") -> str:
    if not isinstance(value, str) or value not in CARD_NAMES:
        raise RuleError(f"{value!r} is not a Carambouille card.", field)
    return value


def _situation(state: State) -> str:
    trader = state.players[state.first_trader]
    return {
        OPENING: f"{trader} has not rung the bell to open the market yet",
        MARKET: "the market is open (exchange phase)",
        SALES: "it is the sales phase",
        DEAL: f"the hand is over and {trader} deals the next one",
        OVER: "the last hand is over: the game can be ended",
    }[state.phase]


def _require_phase(state: State, phase: str, doing: str) -> None:
    if state.phase != phase:
        when = {MARKET: "while the market is open (exchange phase)", SALES: "in the sales phase", DEAL: "between hands"}
        raise RuleError(f"{doing} happens {when[phase]}; now {_situation(state)}.", "type")


def _require_turn(state: State, event: dict, doing: str) -> int:
    _require_phase(state, SALES, doing)
    seat = _seat(state, event["player"])
    if seat != state.turn:
        raise RuleError(
            f"It is {state.players[state.turn]}'s sales turn, not {state.players[seat]}'s.", "player"
        )
    return seat


def _spend(state: State, seat: int, card: str) -> State:
    """The player plays a Carambouille card they hold."""
    if not state.held[seat][CARD_TYPES.index(card)]:
        raise RuleError(f"{state.players[seat]} holds no {CARD_NAMES[card]} card.", "player")
    return replace(state, held=_bump(state.held, seat, card, -1), played=_bump(state.played, seat, card, 1))


def _bump(table: tuple[tuple[int, ...], ...], seat: int, card: str, by: int) -> tuple[tuple[int, ...], ...]:
    index = CARD_TYPES.index(card)
    return tuple(
        tuple(n + by if (s, i) == (seat, index) else n for i, n in enumerate(row)) for s, row in enumerate(table)
    )


def _set(values: tuple, seat: int, value) -> tuple:
    return values[:seat] + (value,) + values[seat + 1 :]


# --- the events ------------------------------------------------------------


def _market_opened(state: State, event: dict) -> State:
    _fields(event, ())
    if state.phase != OPENING:
        raise RuleError(f"The market can only be opened at the start of a hand; now {_situation(state)}.", "type")
    return replace(state, phase=MARKET)


def _market_closed(state: State, event: dict) -> State:
    _fields(event, (), ("seconds",))
    if state.phase != MARKET:
        raise RuleError(f"Only an open market can be closed; now {_situation(state)}.", "type")
    seconds = event.get("seconds")
    if seconds is not None:
        _count(seconds, 0, MAX_SECONDS, "seconds", "The length of the exchange phase in seconds")
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
        _fields(event, ("player",), ("target",) if card == "persuasion" else ())
        seat = _seat(state, event["player"])
        _require_phase(state, MARKET, f"Playing {CARD_NAMES[card]}")
        if "target" in event and _seat(state, event["target"], "target") == seat:
            raise RuleError("Persuasion compels another player to exchange.", "target")
        return _spend(state, seat, card)

    return play


def _give_card(state: State, event: dict) -> State:
    _fields(event, ("player", "to", "card"))
    seat, to = _seat(state, event["player"]), _seat(state, event["to"], "to")
    card = _card_type(event["card"])
    _require_phase(state, MARKET, "Trading a Carambouille card")
    if to == seat:
        raise RuleError("A card is given to another player.", "to")
    if not state.held[seat][CARD_TYPES.index(card)]:
        raise RuleError(f"{state.players[seat]} holds no {CARD_NAMES[card]} card.", "player")
    return replace(state, held=_bump(_bump(state.held, seat, card, -1), to, card, 1))


def _basket(state: State, event: dict) -> State:
    _fields(event, ("player",))
    return _spend(state, _seat(state, event["player"]), "basket")


def _parse_sale(state: State, event: dict) -> tuple[str, int, tuple[tuple[str, int], ...]]:
    """The sale's product, cards and (card, seat) effects, checked for shape and the cards left."""
    seller = _seat(state, event.get("player"))
    product = event.get("product")
    if not isinstance(product, str) or product not in PRODUCT_BY_SLUG:
        raise RuleError(f"{product!r} is not a Carambouille product.", "product")
    name = PRODUCT_BY_SLUG[product].name
    cards = _count(event.get("cards"), 1, 5, "cards", "The number of cards sold")
    left = max_sale_cards(state, product)
    if cards > left:
        sold = 5 - left
        raise RuleError(
            f"All 5 {name} cards have been sold already." if not left
            else f"Only {left} {name} card{'s are' if left > 1 else ' is'} left to sell ({sold} of 5 sold).",
            "cards",
        )
    raw = event.get("effects", [])
    if not isinstance(raw, list):
        raise RuleError("The sale cards are a list.", "effects")
    effects = []
    for item in raw:
        if not isinstance(item, dict) or set(item) != {"card", "player"}:
            raise RuleError("Each sale card played names the card and who played it.", "effects")
        card, by = item["card"], _seat(state, item["player"], "effects")
        if not isinstance(card, str) or card not in SALE_CARDS:
            raise RuleError(f"{card!r} is not played on a sale: Illusion, Bargain or Overstock.", "effects")
        if card == "illusion" and by != seller:
            raise RuleError("Only the seller can play Illusion on a sale.", "effects")
        if card != "illusion" and by == seller:
            raise RuleError(f"{CARD_NAMES[card]} is played by another player, not the seller.", "effects")
        effects.append((card, by))
    return product, cards, tuple(effects)


@dataclass(frozen=True)
class SalePreview:
    """What a sale would earn, with its arithmetic in words."""

    lines: tuple[str, ...]
    base: int  # the memo value of the cards sold
    value: int  # what the sale earns
    overstocked: bool

    @property
    def text(self) -> str:
        return ", ".join(self.lines)


def sale_preview(state: State, event: dict) -> SalePreview:
    """The arithmetic of a (draft) sale event on this table: "3 × cheese = 180", "Illusion by Ben → 300"…"""
    return _preview(state, *_parse_sale(state, event))


def _preview(state: State, product: str, cards: int, effects: tuple[tuple[str, int], ...]) -> SalePreview:
    item = PRODUCT_BY_SLUG[product]
    steps = steps_on_row(memo_row(state, item.face_value), cards, [card for card, _ in effects])
    lines = [steps[0].text(item.name)]
    lines += [step.text(by=state.players[by]) for step, (_, by) in zip(steps[1:], effects)]
    return SalePreview(tuple(lines), steps[0].value, steps[-1].value, steps[-1].cancelled)


def _sale(state: State, event: dict) -> State:
    _fields(event, ("player", "product", "cards"), ("effects",))
    seller = _require_turn(state, event, "Selling")
    if state.bought_this_turn:
        raise RuleError(
            f"{state.players[seller]} has bought Carambouille cards this turn: sales come before purchases.", "type"
        )
    product, cards, effects = _parse_sale(state, event)
    for card, by in dict.fromkeys(effects):
        have, want = state.held[by][CARD_TYPES.index(card)], effects.count((card, by))
        if have < want:
            holds = f"holds only {have}" if have else "holds no"
            raise RuleError(
                f"{state.players[by]} {holds} {CARD_NAMES[card]} card{'s' if have > 1 else ''}"
                + (f" and cannot play {want}." if have else "."),
                "effects",
            )
    preview = _preview(state, product, cards, effects)
    for card, by in effects:
        state = _spend(state, by, card)
    if not preview.overstocked:
        index = PRODUCTS.index(PRODUCT_BY_SLUG[product])
        state = replace(
            state,
            points=_set(state.points, seller, state.points[seller] + preview.value),
            sold=_set(state.sold, index, state.sold[index] + cards),
            hand_estimates=_set(state.hand_estimates, seller, max(0, state.hand_estimates[seller] - cards)),
        )
    return replace(state, sales=state.sales + (Sale(state.hand, seller, product, cards, effects, preview.value),))


def _buy(state: State, event: dict) -> State:
    _fields(event, ("player", "cards"))
    seat = _require_turn(state, event, "Buying Carambouille cards")
    kinds = event["cards"]
    if not isinstance(kinds, list) or not 1 <= len(kinds) <= MAX_PURCHASES:
        raise RuleError("A purchase is 1 or 2 Carambouille cards, named as drawn.", "cards")
    for kind in kinds:
        _card_type(kind, "cards")
    name, count = state.players[seat], len(kinds)
    if state.bought_this_turn + count > MAX_PURCHASES:
        raise RuleError(
            f"At most {MAX_PURCHASES} Carambouille cards per sales turn: {name} has already bought "
            f"{state.bought_this_turn}.",
            "cards",
        )
    left = deck_left(state)
    if count > left:
        raise RuleError(
            "The Carambouille deck is empty." if not left else f"Only {left} card is left in the Carambouille deck.",
            "cards",
        )
    for kind in dict.fromkeys(kinds):
        if kinds.count(kind) > copies_left_to_draw(state, kind):
            raise RuleError(
                f"All {COPIES_PER_TYPE} {CARD_NAMES[kind]} cards have been drawn already: check the cards drawn.",
                "cards",
            )
    price = CARD_PRICE * count
    if state.points[seat] < price:
        raise RuleError(
            f"{name} has {state.points[seat]} points: {count} Carambouille card{'s' if count > 1 else ''}"
            f" cost{'' if count > 1 else 's'} {price}. A score never goes below zero.",
            "cards",
        )
    bought, cards_held = state.bought, state.held
    for kind in kinds:
        bought, cards_held = _bump(bought, seat, kind, 1), _bump(cards_held, seat, kind, 1)
    return replace(
        state,
        points=_set(state.points, seat, state.points[seat] - price),
        bought=bought,
        held=cards_held,
        bought_this_turn=state.bought_this_turn + count,
    )


def _end_sales_turn(state: State, event: dict) -> State:
    _fields(event, ("player",))
    seat = _require_turn(state, event, "Ending a sales turn")
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
    _fields(event, ("cards",), ("hand_sizes",))
    if state.phase == OVER:
        raise RuleError("The stock ran out: that was the last hand. End the game to see the standings.", "type")
    _require_phase(state, DEAL, "Dealing a new hand")
    cards = event["cards"]
    if not isinstance(cards, list) or len(cards) != len(state.players):
        raise RuleError(f"The deal gives a number of cards to each of the {len(state.players)} players.", "cards")
    for given in cards:
        _count(given, 0, MAX_DEAL, "cards", "The cards dealt to a player")
    if sum(cards) > state.stock:
        raise RuleError(f"Only {state.stock} product cards are left in the stock, not {sum(cards)}.", "cards")
    sizes = event.get("hand_sizes")
    if sizes is not None:
        plan = deal_plan(state, sizes)
        if cards != plan:
            who = ", ".join(f"{state.players[s]} {plan[s]}" for s in state.seats)
            raise RuleError(f"With these hand sizes the deal is: {who}.", "cards")
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


def _end_game(state: State, event: dict) -> State:
    _fields(event, ())
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
    "sale": _sale,
    "buy": _buy,
    "end_sales_turn": _end_sales_turn,
    "deal": _deal,
    "end_game": _end_game,
}
EVENT_TYPES = tuple(_EVENTS)


def apply(state: State, event: dict) -> State:
    """The state after one event; ``RuleError`` with the reason when the rules do not allow it."""
    kind = event.get("type") if isinstance(event, dict) else None
    if not isinstance(kind, str) or kind not in _EVENTS:
        raise RuleError(f"Carambouille has no entry of type {kind!r}.", "type")
    if state.phase == FINISHED:
        raise RuleError("The game is over: nothing more can be recorded.", "type")
    return _EVENTS[event["type"]](state, event)
