"""A sale card played on the sale just made, from the phone of whoever plays it (RULES.md §1).

The cards played on a sale "take effect one after another, in the order played, starting with the
seller". The seller records the sale; each card played on it is an entry of its own, made by the
player who plays it: Illusion by the seller, Bargain or Overstock by another player. So no phone ever
names a card another player holds, and no refusal ever tells a phone what another player holds.
A card is played on the seller's newest sale while it is still on the table: before the seller sells
again, buys or ends the turn, and unless an Overstock cancelled it.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules import RuleError
from companion.rules.words import _
from companion.rules.carambouille.checks import read_fields, read_seat, spend, with_item
from companion.rules.carambouille.memo import CARD_TYPES, PRODUCT_BY_SLUG, PRODUCTS, SALE_CARDS
from companion.rules.carambouille.sales import SalePreview, preview_of, read_sale_card
from companion.rules.carambouille.state import SALES, Sale, State


def sale_on_the_table(state: State) -> Sale | None:
    """The sale a card can still be played on: the newest of this sales turn, not cancelled, nothing bought since."""
    if state.phase != SALES or not state.sales or state.bought_this_turn:
        return None
    sale = state.sales[-1]
    if sale.hand != state.hand or sale.seller != state.turn or sale.overstocked:
        return None
    return sale


def allowed_on_sale(state: State, seat: int) -> tuple[str, ...]:
    """The sale cards the rules let ``seat`` play on the sale on the table, whatever it holds: Illusion by the
    seller while the sale is under 5 cards, Bargain and Overstock by the others."""
    sale = sale_on_the_table(state)
    if sale is None:
        return ()
    allowed = []
    for card in SALE_CARDS:
        try:
            read_sale_card(card, seat, sale.seller, "card")
            after_card(state, sale, card, seat)
        except RuleError:
            continue
        allowed.append(card)
    return tuple(allowed)


def playable_on_sale(state: State, seat: int) -> tuple[str, ...]:
    """The sale cards ``seat`` can play on the sale on the table, by the rules and the cards it holds:
    for that seat's own phone only (what a player holds is theirs alone)."""
    return tuple(card for card in allowed_on_sale(state, seat) if state.held[seat][CARD_TYPES.index(card)])


def after_card(state: State, sale: Sale, card: str, by: int) -> SalePreview:
    """The sale's arithmetic with ``card`` played on it by ``by`` (refused: Illusion past 5 cards)."""
    return preview_of(state, sale.product, sale.cards, (*sale.effects, (card, by)))


def play_on_sale(state: State, event: dict) -> State:
    """A sale card played on the sale on the table: the sale is valued again, the card is spent."""
    read_fields(event, ("player", "card"))
    by = read_seat(state, event["player"])
    sale = sale_on_the_table(state)
    if sale is None:
        raise RuleError(_("There is no sale on the table to play a card on: a card is played on the seller's "
                          "newest sale, before they sell again, buy or end their turn."), "card")
    card = read_sale_card(event["card"], by, sale.seller, "card")
    preview = after_card(state, sale, card, by)
    state = spend(state, by, card)
    earned = 0 if preview.overstocked else preview.value
    seller, index = sale.seller, PRODUCTS.index(PRODUCT_BY_SLUG[sale.product])
    if preview.overstocked:
        # Cancelled: the points go, the cards go back to the seller's hand and are not sold after all.
        state = replace(state, sold=with_item(state.sold, index, state.sold[index] - sale.cards),
                        hand_estimates=with_item(state.hand_estimates, seller,
                                                 state.hand_estimates[seller] + sale.cards))
    return replace(
        state,
        points=with_item(state.points, seller, state.points[seller] - sale.value + earned),
        sales=state.sales[:-1] + (replace(sale, effects=(*sale.effects, (card, by)), value=preview.value),),
    )
