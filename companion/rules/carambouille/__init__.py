"""Carambouille (3–7 players): the game engine, one event at a time (RULES.md §1).

The memo card and ``sale_value`` are in ``memo``, the state and the table
view's queries in ``state``, the events and ``apply`` in ``events`` (sales and
purchases in ``sales``, the shape checks in ``checks``), what the forms offer
in ``page_helpers``; the public names are re-exported here.
Events are documented in ``docs/events.md (Carambouille)``.
"""

from __future__ import annotations

import copy

from companion.rules.words import N_, _, duration_words, ngettext, points_words  # noqa: F401  (duration_words re-exported)

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
    card_name,
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
    calculator_values,
    deal_outcome,
    dealing,
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
from companion.rules.carambouille.on_sale import (  # noqa: F401  (re-exported)
    after_card,
    allowed_on_sale,
    playable_on_sale,
    sale_on_the_table,
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
STARTER_LABEL = N_("First Trader (takes the bell)")  # worded where the new-table form shows it

NAME = "Carambouille"
# What the house asks of a game (companion/rules/__init__.py, "Optional declarations"): the board reads the same
# for every seat but the reader's own marks; the whole region is rendered once for all seats; the table's bell opens
# and closes the market of the exchange phase (market_opened / market_closed) instead of a table timer.
SHARED_BOARD = True
ONE_PASS = True
MARKET_BELL = True

# One move entered on two phones is recorded once (docs/events.md, "Recorded once"): the keys that
# name a move; () for a step of the hand taken once, whoever rang or dealt. Other types: every key sent.
MOVE_KEYS = {"market_opened": (), "market_closed": (), "deal": (), "house_memo": (), "end_game": (),
             "sale": ("player", "product", "cards"), "buy": ("player",), "persuasion": ("player",),
             "play_on_sale": ("player", "card")}


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
    """The event in words for the history, given the state before it, in the reader's language."""
    try:
        return _DESCRIPTIONS[event["type"]](state, event, lambda key: state.players[event[key]])
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        kind = event.get("type", "?") if isinstance(event, dict) else "?"
        return _("An entry Carambouille does not understand (%(type)s).", type=kind)


def _describe_sale(state: State, event: dict, who) -> str:
    preview = sale_preview(state, event)
    product, cards = PRODUCT_BY_SLUG[event["product"]], event["cards"]
    said = {"player": who("player"), "cards": product.cards(cards), "value": preview.base}
    if len(preview.lines) == 1:
        return _("%(player)s sold %(cards)s for %(value)d.", **said)
    steps = ", ".join(preview.lines[1:])
    if preview.overstocked:
        # Translators: %(steps)s are the sale cards' steps: "Illusion by Ben → 300, Overstock by Cy → cancelled, 0".
        return ngettext("%(player)s sold %(cards)s for %(value)d, %(steps)s: the card goes back to %(player)s's hand.",
                        "%(player)s sold %(cards)s for %(value)d, %(steps)s: the cards go back to %(player)s's hand.",
                        cards, steps=steps, **said)
    # Translators: %(steps)s are the sale cards' steps: "Illusion by Ben → 300, Bargain by Ana → 150".
    return _("%(player)s sold %(cards)s for %(value)d, %(steps)s.", steps=steps, **said)


def _describe_play_on_sale(state: State, event: dict, who) -> str:
    sale = sale_on_the_table(state)
    before, after = sale.value, after_card(state, sale, event["card"], event["player"])
    said = {"player": who("player"), "card": card_name(event["card"]), "seller": state.players[sale.seller],
            "cards": PRODUCT_BY_SLUG[sale.product].cards(sale.cards), "before": before, "after": after.value}
    if after.overstocked:
        # Translators: %(cards)s is the sale's cards: "3 cheeses"; %(before)d what it earned until then.
        return ngettext("%(player)s played %(card)s on %(seller)s's sale of %(cards)s: cancelled (%(before)d → 0), "
                        "the card goes back to %(seller)s's hand.",
                        "%(player)s played %(card)s on %(seller)s's sale of %(cards)s: cancelled (%(before)d → 0), "
                        "the cards go back to %(seller)s's hand.", sale.cards, **said)
    if event["player"] == sale.seller:
        return _("%(player)s played %(card)s on their sale of %(cards)s: %(before)d → %(after)d.", **said)
    return _("%(player)s played %(card)s on %(seller)s's sale of %(cards)s: %(before)d → %(after)d.", **said)


def _pinch(state: State, event: dict) -> str | None:
    """Who rang for the First Trader, when another player's phone rang the bell."""
    rung_by = event.get("rung_by")
    return None if rung_by is None or rung_by == state.first_trader else state.players[rung_by]


def _describe_market_opened(state: State, event: dict, who) -> str:
    trader = state.players[state.first_trader]
    pinch = _pinch(state, event)
    if pinch:
        return _("Hand %(hand)d: %(player)s rang the bell in a pinch for %(trader)s: the market is open.",
                 hand=state.hand, player=pinch, trader=trader)
    return _("Hand %(hand)d: %(trader)s rang the bell: the market is open.", hand=state.hand, trader=trader)


def _describe_market_closed(state: State, event: dict, who) -> str:
    seconds = event.get("seconds")
    said = {"trader": state.players[state.first_trader], "player": _pinch(state, event)}
    if seconds is not None:
        said["duration"] = duration_words(seconds)
        if said["player"]:
            # Translators: %(duration)s is "4 min 05 s"; %(player)s rang for the First Trader, %(trader)s.
            return _("Ding-a-Ding! The market closed after %(duration)s, rung by %(player)s in a pinch; "
                     "%(trader)s sells first.", **said)
        return _("Ding-a-Ding! The market closed after %(duration)s; %(trader)s sells first.", **said)
    if said["player"]:
        return _("Ding-a-Ding! The market closed, rung by %(player)s in a pinch; %(trader)s sells first.", **said)
    return _("Ding-a-Ding! The market closed; %(trader)s sells first.", **said)


def _describe_deal(state: State, event: dict, who) -> str:
    given = ", ".join(f"{name} {n}" for name, n in zip(state.players, event["cards"]))
    total = sum(event["cards"])
    left = state.stock - total
    said = {"hand": state.hand + 1, "trader": state.players[state.first_trader], "given": given,
            "stock": ngettext("%(num)d left in the stock", "%(num)d left in the stock", left)}
    # Translators: %(given)s lists each player with the cards dealt to them: "Ana 2, Ben 3, Cy 0".
    # Translators: %(stock)s is what is left: "20 left in the stock".
    dealt = ngettext("Hand %(hand)d: %(trader)s dealt %(num)d card (%(given)s); %(stock)s.",
                     "Hand %(hand)d: %(trader)s dealt %(num)d cards (%(given)s); %(stock)s.",
                     total, **said)
    if left:
        return dealt
    last = _("That is the last hand!")
    return f"{dealt} {last}"  # two sentences: the deal, then the warning


def _describe_end_sales_turn(state: State, event: dict, who) -> str:
    if state.turns_taken + 1 < len(state.players):
        return _("%(player)s ended their sales turn; %(next)s's turn.",
                 player=who("player"), next=state.players[seat_after(state, event["player"])])
    if state.last_hand:
        return _("%(player)s ended their sales turn: the last hand is over.", player=who("player"))
    return _("%(player)s ended their sales turn: hand %(hand)d is over, the bell passes to %(trader)s.",
             player=who("player"), hand=state.hand, trader=state.players[seat_after(state, state.first_trader)])


def _describe_house_memo(state: State, event: dict, who) -> str:
    changes = memo_changes(dict(state.memo), event["memo"])
    # Translators: one changed cell of the memo: "3 cards of 40 now 200 (was 180)".
    words = ", ".join(ngettext("%(num)d card of %(value)d now %(new)d (was %(old)d)",
                               "%(num)d cards of %(value)d now %(new)d (was %(old)d)",
                               cards, value=value, new=new, old=old)
                      for value, cards, old, new in changes[:3])
    if len(changes) > 3:
        # Translators: %(changes)s lists the first three cells changed: "3 cards of 40 now 200 (was 180), …".
        return ngettext("House memo changed: %(changes)s and %(num)d more; sales from now on use it.",
                        "House memo changed: %(changes)s and %(num)d more; sales from now on use it.",
                        len(changes) - 3, changes=words)
    return _("House memo changed: %(changes)s; sales from now on use it.", changes=words)


def _describe_end_game(state: State, event: dict, who) -> str:
    best = max(state.points)
    top = [state.players[s] for s in state.seats if state.points[s] == best]
    # Translators: the last two of a list of names: "Ana, Ben and Cy" is "%(names)s and %(last)s".
    names = top[0] if len(top) == 1 else _("%(names)s and %(last)s", names=", ".join(top[:-1]), last=top[-1])
    # Translators: %(points)s is the winning score: "120 points".
    return ngettext("The game is over: %(names)s wins with %(points)s.",
                    "The game is over: %(names)s share the win with %(points)s.",
                    len(top), names=names, points=points_words(best))


_DESCRIPTIONS = {
    "market_opened": _describe_market_opened,
    "market_closed": _describe_market_closed,
    "i_lied": lambda state, event, who: _("%(player)s played %(card)s.", player=who("player"),
                                          card=card_name("i_lied")),
    "persuasion": lambda state, event, who: (
        _("%(player)s played %(card)s on %(target)s.", player=who("player"), card=card_name("persuasion"),
          target=who("target")) if "target" in event
        else _("%(player)s played %(card)s.", player=who("player"), card=card_name("persuasion"))
    ),
    "give_card": lambda state, event, who: _("%(player)s gave a Carambouille card to %(to)s.",
                                             player=who("player"), to=who("to")),
    "basket": lambda state, event, who: _("%(player)s laid a Basket: hand limit %(limit)d.", player=who("player"),
                                          limit=HAND_LIMITS[baskets(state, event["player"]) + 1]),
    "sale": _describe_sale,
    "play_on_sale": _describe_play_on_sale,
    "buy": lambda state, event, who: ngettext(
        "%(player)s bought %(num)d Carambouille card for %(points)d points.",
        "%(player)s bought %(num)d Carambouille cards for %(points)d points.",
        len(event["cards"]), player=who("player"), points=CARD_PRICE * len(event["cards"])),
    "end_sales_turn": _describe_end_sales_turn,
    "deal": _describe_deal,
    "end_game": _describe_end_game,
    "house_memo": _describe_house_memo,
}
