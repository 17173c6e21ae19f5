"""Carambouille's sales and purchases: the sale arithmetic on a table, and buying Carambouille cards."""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.rules import RuleError
from companion.rules.words import N_, _, ngettext, points_words
from companion.rules.carambouille.checks import (
    bump,
    not_held,
    read_card,
    read_count,
    read_fields,
    read_seat,
    require_turn,
    spend,
    with_item,
)
from companion.rules.carambouille.memo import (
    CARD_PRICE,
    CARD_TYPES,
    COPIES_PER_TYPE,
    PRODUCT_BY_SLUG,
    PRODUCTS,
    SALE_CARDS,
    card_name,
    on_ruling,
    steps_on_row,
)
from companion.rules.carambouille.state import (
    Sale,
    State,
    copies_left_to_draw,
    deck_left,
    house_memo,
    max_sale_cards,
    memo_row,
)

MAX_PURCHASES = 2  # Carambouille cards per sales turn


def _parse_sale(state: State, event: dict) -> tuple[str, int, tuple[tuple[str, int], ...]]:
    """The sale's product, cards and (card, seat) effects, checked for shape and the cards left."""
    seller = read_seat(state, event.get("player"))
    product = event.get("product")
    if not isinstance(product, str) or product not in PRODUCT_BY_SLUG:
        raise RuleError(_("Carambouille has no product called %(product)s.", product=repr(product)), "product")
    one = PRODUCT_BY_SLUG[product].word(1)
    cards = read_count(event.get("cards"), 1, 5, "cards",
                       N_("The number of cards sold is a whole number from %(low)d to %(high)d, not %(value)s."))
    left = max_sale_cards(state, product)
    if cards > left:
        # Translators: %(product)s is the word for one card of the product: "All 5 cheese cards…".
        refusal = _("All 5 %(product)s cards have been sold already.", product=one) if not left else ngettext(
            "Only %(num)d %(product)s card is left to sell (%(sold)d of 5 sold).",
            "Only %(num)d %(product)s cards are left to sell (%(sold)d of 5 sold).",
            left, product=one, sold=5 - left)
        raise RuleError(refusal, "cards")
    raw = event.get("effects", [])
    if not isinstance(raw, list):
        raise RuleError(_("The sale cards are a list."), "effects")
    effects = []
    for item in raw:
        if not isinstance(item, dict) or set(item) != {"card", "player"}:
            raise RuleError(_("Each sale card played names the card and who played it."), "effects")
        card, by = item["card"], read_seat(state, item["player"], "effects")
        effects.append((read_sale_card(card, by, seller, "effects"), by))
    return product, cards, tuple(effects)


def read_sale_card(card: object, by: int, seller: int, field: str) -> str:
    """A sale card played on a sale of ``seller``'s by ``by``: Illusion by the seller, the others by another player."""
    if not isinstance(card, str) or card not in SALE_CARDS:
        raise RuleError(_("Only Illusion, Bargain and Overstock are played on a sale, not %(card)s.",
                          card=repr(card)), field)
    if card == "illusion" and by != seller:
        raise RuleError(_("Only the seller can play Illusion on a sale."), field)
    if card != "illusion" and by == seller:
        raise RuleError(_("%(card)s is played by another player, not the seller.", card=card_name(card)), field)
    return card


@dataclass(frozen=True)
class SalePreview:
    """What a sale would earn, with its arithmetic in words."""

    lines: tuple[str, ...]
    base: int  # the memo value of the cards sold
    value: int  # what the sale earns
    overstocked: bool
    # Per line: its value rests on the unconfirmed 5-card column (RULES.md: say so wherever it shows).
    ruling: tuple[bool, ...] = ()

    @property
    def on_ruling(self) -> bool:
        """Whether what the sale earns rests on the unconfirmed 5-card column."""
        return bool(self.ruling) and self.ruling[-1]

    @property
    def text(self) -> str:
        return ", ".join(self.lines)


def sale_preview(state: State, event: dict) -> SalePreview:
    """The arithmetic of a (draft) sale event on this table: "3 × cheese = 180", "Illusion by Ben → 300"…"""
    return preview_of(state, *_parse_sale(state, event))


def preview_of(state: State, product: str, cards: int, effects: tuple[tuple[str, int], ...]) -> SalePreview:
    """The arithmetic of ``cards`` of ``product`` with the sale cards ``effects`` played on it, in order."""
    item = PRODUCT_BY_SLUG[product]
    steps = steps_on_row(memo_row(state, item.face_value), cards, [card for card, _ in effects])
    lines = [steps[0].text(item.word(cards))]
    lines += [step.text(by=state.players[by]) for step, (_, by) in zip(steps[1:], effects)]
    changed = house_memo(state)[1]
    ruling = tuple(not step.cancelled and on_ruling(item.face_value, step.column, changed) for step in steps)
    return SalePreview(tuple(lines), steps[0].value, steps[-1].value, steps[-1].cancelled, ruling)


def overstocked_products(state: State, seller: int) -> frozenset[str]:
    """The products the seller cannot sell again this hand: an Overstock sent them back to their hand, and they
    "will have to wait another sales phase to sell them" (the rule text)."""
    return frozenset(sale.product for sale in state.sales
                     if sale.hand == state.hand and sale.seller == seller and sale.overstocked)


def sell(state: State, event: dict) -> State:
    """A sale: the seller earns its value unless Overstock cancels it; every sale card played is spent."""
    read_fields(event, ("player", "product", "cards"), ("effects",))
    seller = require_turn(state, event, "sell")
    if state.bought_this_turn:
        raise RuleError(
            _("%(player)s has bought Carambouille cards this turn: sales come before purchases.",
              player=state.players[seller]),
            "type",
        )
    product, cards, effects = _parse_sale(state, event)
    if product in overstocked_products(state, seller):
        raise RuleError(
            # Translators: %(product)s is the product as the memo names it: "cheese", "truffles".
            _("%(player)s was overstocked on %(product)s this hand: those cards wait for another sales phase, "
              "in the next hand.", player=state.players[seller], product=PRODUCT_BY_SLUG[product].label()),
            "product",
        )
    for card, by in dict.fromkeys(effects):
        have, want = state.held[by][CARD_TYPES.index(card)], effects.count((card, by))
        if have < want:
            refusal = ngettext(
                "%(player)s holds only %(num)d %(card)s card and cannot play %(want)d.",
                "%(player)s holds only %(num)d %(card)s cards and cannot play %(want)d.",
                have, player=state.players[by], card=card_name(card), want=want,
            ) if have else _("%(player)s holds no %(card)s card.", player=state.players[by], card=card_name(card))
            raise RuleError(refusal, "effects", public=not_held(state, by))
    preview = preview_of(state, product, cards, effects)
    for card, by in effects:
        state = spend(state, by, card)
    if not preview.overstocked:
        index = PRODUCTS.index(PRODUCT_BY_SLUG[product])
        state = replace(
            state,
            points=with_item(state.points, seller, state.points[seller] + preview.value),
            sold=with_item(state.sold, index, state.sold[index] + cards),
            hand_estimates=with_item(state.hand_estimates, seller, max(0, state.hand_estimates[seller] - cards)),
        )
    return replace(state, sales=state.sales + (Sale(state.hand, seller, product, cards, effects, preview.value),))


def check_purchase(state: State, seat: int, count: int) -> None:
    """Refuse buying ``count`` cards now when the turn, the turn's limit, the deck or the points forbid it."""
    name = state.players[seat]
    if state.bought_this_turn + count > MAX_PURCHASES:
        raise RuleError(
            ngettext("At most %(num)d Carambouille card per sales turn: %(player)s has already bought %(bought)d.",
                     "At most %(num)d Carambouille cards per sales turn: %(player)s has already bought %(bought)d.",
                     MAX_PURCHASES, player=name, bought=state.bought_this_turn),
            "cards",
        )
    left = deck_left(state)
    if count > left:
        raise RuleError(
            _("The Carambouille deck is empty.") if not left else ngettext(
                "Only %(num)d card is left in the Carambouille deck.",
                "Only %(num)d cards are left in the Carambouille deck.", left),
            "cards",
        )
    price = CARD_PRICE * count
    if state.points[seat] < price:
        raise RuleError(
            # Translators: %(points)s is the player's score: "40 points", "1 point".
            ngettext("%(player)s has %(points)s: %(num)d Carambouille card costs %(price)d. "
                     "A score never goes below zero.",
                     "%(player)s has %(points)s: %(num)d Carambouille cards cost %(price)d. "
                     "A score never goes below zero.",
                     count, player=name, points=points_words(state.points[seat]), price=price),
            "cards",
        )


def purchase_refusal(state: State, count: int) -> str | None:
    """Why the player whose sales turn it is cannot buy ``count`` cards now (None when they can)."""
    try:
        seat = require_turn(state, {"player": state.turn}, "buy")
        check_purchase(state, seat, count)
    except RuleError as error:
        return error.message
    return None


def buy(state: State, event: dict) -> State:
    """A purchase of 1 or 2 Carambouille cards at 50 points each, with the types drawn."""
    read_fields(event, ("player", "cards"))
    seat = require_turn(state, event, "buy")
    kinds = event["cards"]
    if not isinstance(kinds, list) or not 1 <= len(kinds) <= MAX_PURCHASES:
        raise RuleError(_("A purchase is 1 or 2 Carambouille cards, named as drawn."), "cards")
    for kind in kinds:
        read_card(kind, "cards")
    check_purchase(state, seat, len(kinds))
    for kind in dict.fromkeys(kinds):
        if kinds.count(kind) > copies_left_to_draw(state, kind):
            raise RuleError(
                ngettext("The %(num)d %(card)s card has been drawn already: check the cards drawn.",
                         "All %(num)d %(card)s cards have been drawn already: check the cards drawn.",
                         COPIES_PER_TYPE, card=card_name(kind)),
                "cards",
            )
    bought, cards_held = state.bought, state.held
    for kind in kinds:
        bought, cards_held = bump(bought, seat, kind, 1), bump(cards_held, seat, kind, 1)
    return replace(
        state,
        points=with_item(state.points, seat, state.points[seat] - CARD_PRICE * len(kinds)),
        bought=bought,
        held=cards_held,
        bought_this_turn=state.bought_this_turn + len(kinds),
    )
