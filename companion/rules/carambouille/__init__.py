"""Carambouille (3–7 players): the game engine, one event at a time (RULES.md §1).

The memo card and ``sale_value`` are in ``memo``, the state and the table
view's queries in ``state``, the events and ``apply`` in ``events`` (sales and
purchases in ``sales``, the shape checks in ``checks``), what the forms offer
in ``page_helpers``; the public names are re-exported here.
Events are documented in ``docs/events.md (Carambouille)``.
"""

from __future__ import annotations

import copy

from companion.rules.words import pick, plural

from companion.rules.carambouille.events import EVENT_TYPES, apply  # noqa: F401  (re-exported)
from companion.rules.carambouille.memo import (  # noqa: F401  (re-exported)
    CARD_NAMES,
    CARD_PRICE,
    CARD_TYPES,
    COPIES_PER_TYPE,
    DECK_SIZE,
    DEFAULT_MEMO,
    FACE_VALUES,
    MAX_MEMO_VALUE,
    PRODUCT_BY_SLUG,
    PRODUCT_CARDS,
    PRODUCTS,
    SALE_CARDS,
    UNCONFIRMED_COLUMNS,
    Product,
    SaleStep,
    effective_memo,
    normalise_memo,
    on_ruling,
    products_by_value,
    sale_steps,
    sale_value,
    steps_on_row,
)
from companion.rules.carambouille.page_helpers import (  # noqa: F401  (re-exported)
    MAX_SALE_EFFECTS,
    DealOutcome,
    deal_outcome,
    dealing,
    duration_words,
    exchange_open,
    held_count,
    memo_changes,
    memo_overrides,
    next_sale_cards,
    next_seller,
    sale_card_choices,
    sale_card_label,
    sale_card_slots,
    sellers_after,
)
from companion.rules.carambouille.sales import (  # noqa: F401  (re-exported)
    MAX_PURCHASES,
    SalePreview,
    overstocked_products,
    purchase_refusal,
    sale_preview,
)
from companion.rules.carambouille.state import (  # noqa: F401  (re-exported)
    DEAL,
    FINISHED,
    HAND_LIMITS,
    MARKET,
    MAX_DEAL,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPENING,
    OVER,
    SALES,
    HandRow,
    Highlights,
    Sale,
    State,
    baskets,
    copies_left_to_draw,
    deal_plan,
    deck_left,
    drawn,
    first_trader_of,
    hand_limit,
    held,
    highlights,
    house_memo,
    max_sale_cards,
    memo_row,
    new_game,
    played,
    score_rows,
    seat_after,
    sold_by_product,
    sold_of,
    standings,
    winners,
)

# The option naming who starts, and how the new-table form asks for it.
STARTER_OPTION = "first_trader"
STARTER_LABEL = "First Trader (takes the bell)"

NAME = "Carambouille"

# One move entered on two phones is recorded once (docs/events.md, "Recorded once"): the keys that
# name a move; () for a step of the hand taken once, whoever rang or dealt. Other types: every key sent.
MOVE_KEYS = {"market_opened": (), "market_closed": (), "deal": (), "house_memo": (), "end_game": (),
             "sale": ("player", "product", "cards"), "buy": ("player",), "persuasion": ("player",)}


def scores(state: State) -> list[int]:
    """Points per seat, in seating order."""
    return list(state.points)


def finished(state: State) -> bool:
    """Whether the players have ended the game."""
    return state.phase == FINISHED


# What a player holds by type is theirs alone until the game is over: the types drawn, the card traded.
_SECRET_KEYS = {"buy": ("cards",), "give_card": ("card",)}


def withheld(before: State, event: dict, now: State) -> tuple[str, ...]:
    """The keys of a recorded event still secret from the table: the Carambouille cards drawn in a purchase
    and the card given in a trade, until the game is over."""
    if finished(now) or not isinstance(event, dict):
        return ()
    return _SECRET_KEYS.get(event.get("type"), ())


def complete(state: State, event: dict, rng=None) -> dict:
    """A copy of the event: the app leaves nothing to chance (the players draw the cards)."""
    return copy.deepcopy(event)


def describe(state: State, event: dict) -> str:
    """The event in words for the history, given the state before it."""
    try:
        return _DESCRIPTIONS[event["type"]](state, event, lambda key: state.players[event[key]])
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return f"An entry Carambouille does not understand ({event.get('type', '?') if isinstance(event, dict) else '?'})."


def _describe_sale(state: State, event: dict, who) -> str:
    preview = sale_preview(state, event)
    product, cards = PRODUCT_BY_SLUG[event["product"]], event["cards"]
    lines = [f"{who('player')} sold {product.cards(cards)} for {preview.base}", *preview.lines[1:]]
    back = f": the {pick(cards, 'card goes', 'cards go')} back to {who('player')}'s hand" if preview.overstocked else ""
    return ", ".join(lines) + back + "."


def _pinch(state: State, event: dict) -> str | None:
    """Who rang for the First Trader, when another player's phone rang the bell."""
    rung_by = event.get("rung_by")
    return None if rung_by is None or rung_by == state.first_trader else state.players[rung_by]


def _describe_market_opened(state: State, event: dict, who) -> str:
    trader = state.players[state.first_trader]
    pinch = _pinch(state, event)
    rang = f"{pinch} rang the bell in a pinch for {trader}" if pinch else f"{trader} rang the bell"
    return f"Hand {state.hand}: {rang}: the market is open."


def _describe_market_closed(state: State, event: dict, who) -> str:
    seconds = event.get("seconds")
    after = ""
    if seconds is not None:
        after = f" after {seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f" after {seconds} s"
    pinch = _pinch(state, event)
    rung = f", rung by {pinch} in a pinch" if pinch else ""
    return f"Ding-a-Ding! The market closed{after}{rung}; {state.players[state.first_trader]} sells first."


def _describe_deal(state: State, event: dict, who) -> str:
    given = ", ".join(f"{name} {n}" for name, n in zip(state.players, event["cards"]))
    left = state.stock - sum(event["cards"])
    last = " That is the last hand!" if left == 0 else ""
    return (
        f"Hand {state.hand + 1}: {state.players[state.first_trader]} dealt "
        f"{plural(sum(event['cards']), 'card', 'cards')}"
        f" ({given}); {left} left in the stock.{last}"
    )


def _describe_end_sales_turn(state: State, event: dict, who) -> str:
    if state.turns_taken + 1 < len(state.players):
        return f"{who('player')} ended their sales turn; {state.players[seat_after(state, event['player'])]}'s turn."
    if state.last_hand:
        return f"{who('player')} ended their sales turn: the last hand is over."
    return (
        f"{who('player')} ended their sales turn: hand {state.hand} is over, the bell passes to "
        f"{state.players[seat_after(state, state.first_trader)]}."
    )


def _describe_house_memo(state: State, event: dict, who) -> str:
    changes = memo_changes(dict(state.memo), event["memo"])
    words = [f"{plural(cards, 'card', 'cards')} of {value} now {new} (was {old})"
             for value, cards, old, new in changes[:3]]
    more = f" and {len(changes) - 3} more" if len(changes) > 3 else ""
    return f"House memo changed: {', '.join(words)}{more}; sales from now on use it."


def _describe_end_game(state: State, event: dict, who) -> str:
    best = max(state.points)
    top = [state.players[s] for s in state.seats if state.points[s] == best]
    names = top[0] if len(top) == 1 else f"{', '.join(top[:-1])} and {top[-1]}"
    return f"The game is over: {names} {pick(len(top), 'wins', 'share the win')} with {best} points."


_DESCRIPTIONS = {
    "market_opened": _describe_market_opened,
    "market_closed": _describe_market_closed,
    "i_lied": lambda state, event, who: f"{who('player')} played “I lied!”.",
    "persuasion": lambda state, event, who: (
        f"{who('player')} played Persuasion" + (f" on {who('target')}." if "target" in event else ".")
    ),
    "give_card": lambda state, event, who: f"{who('player')} gave a Carambouille card to {who('to')}.",
    "basket": lambda state, event, who: (
        f"{who('player')} laid a Basket: hand limit {HAND_LIMITS[baskets(state, event['player']) + 1]}."
    ),
    "sale": _describe_sale,
    "buy": lambda state, event, who: (
        f"{who('player')} bought {plural(len(event['cards']), 'Carambouille card', 'Carambouille cards')}"
        f" for {CARD_PRICE * len(event['cards'])} points."
    ),
    "end_sales_turn": _describe_end_sales_turn,
    "deal": _describe_deal,
    "end_game": _describe_end_game,
    "house_memo": _describe_house_memo,
}
