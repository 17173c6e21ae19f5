"""A sale card played on the sale just made, as an entry of its own from the player who plays it.

The rulebook's example played card by card, the cases a card is refused, and the property that matters:
playing the cards one by one on the recorded sale ends exactly where recording the sale with them does.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules import RuleError
from companion.rules import carambouille as game

ANA, BEN, CY = 0, 1, 2
OPEN, CLOSE = {"type": "market_opened"}, {"type": "market_closed"}


def on_sale(player, card):
    return {"type": "play_on_sale", "player": player, "card": card}


def sale(player, product, cards, *effects):
    event = {"type": "sale", "player": player, "product": product, "cards": cards}
    if effects:
        event["effects"] = [{"card": card, "player": by} for card, by in effects]
    return event


def play(state, events):
    for event in events:
        state = game.apply(state, event)
    return state


@pytest.mark.parametrize("cards, expected", [
    # (who plays what, in order) → the seller's points from the sale, and whether it was cancelled
    ([], (180, False)),
    ([(ANA, "illusion")], (300, False)),
    ([(ANA, "illusion"), (BEN, "bargain")], (150, False)),
    ([(BEN, "bargain"), (ANA, "illusion")], (150, False)),  # an Illusion after a Bargain: still half price
    ([(BEN, "bargain"), (CY, "bargain")], (45, False)),  # halved twice, rounding up: 180 → 90 → 45
    ([(ANA, "illusion"), (BEN, "bargain"), (CY, "overstock")], (0, True)),  # the rulebook's example, to the end
])
def test_cards_played_on_anas_three_cheeses(cards, expected):
    start = ana_selling()
    state = play(start, [sale(ANA, "cheese", 3)])
    for by, card in cards:
        state = play(state, [on_sale(by, card)])
    earned, cancelled = expected
    assert state.points[ANA] - start.points[ANA] == earned
    assert state.sales[-1].overstocked == cancelled
    assert state.sales[-1].effects == tuple((card, by) for by, card in cards)
    assert game.sold_of(state, "cheese") == (0 if cancelled else 3)
    if cancelled:
        with pytest.raises(RuleError, match="Ana was overstocked on cheeses this hand"):
            play(state, [sale(ANA, "cheese", 2)])
    # Each card is spent from its player's hand.
    for by in (ANA, BEN, CY):
        spent = [card for who, card in cards if who == by]
        for card in game.SALE_CARDS:
            assert game.held(start, by)[card] - game.held(state, by)[card] == spent.count(card)


def ana_selling():
    """Hand 2 with Ana to sell first, holding 2 Illusions; Ben and Cy each a Bargain and an Overstock."""
    state = play(game.new_game(["Ana", "Ben", "Cy"], {"first_trader": 1}), [OPEN, CLOSE])
    holdings = {BEN: ["bargain", "overstock"], CY: ["bargain", "overstock"], ANA: ["illusion", "illusion"]}
    for seat, product in ((BEN, "saffron"), (CY, "truffles"), (ANA, "foie_gras")):
        state = play(state, [sale(seat, product, 2), {"type": "buy", "player": seat, "cards": holdings[seat]},
                             {"type": "end_sales_turn", "player": seat}])
    state = play(state, [{"type": "deal", "cards": [3, 3, 3]}, OPEN, CLOSE])
    # The bell passed to Cy, who sells first; Ana sells after Cy ended a quiet turn.
    state = play(state, [{"type": "end_sales_turn", "player": CY}])
    assert state.turn == ANA
    return state


@pytest.mark.parametrize("before, event, refusal", [
    ([], on_sale(BEN, "bargain"), "There is no sale on the table to play a card on"),
    ([sale(ANA, "cheese", 3), {"type": "buy", "player": ANA, "cards": ["basket"]}], on_sale(BEN, "bargain"),
     "There is no sale on the table"),  # the seller has bought: the sales are over for this turn
    ([sale(ANA, "cheese", 3), on_sale(CY, "overstock")], on_sale(BEN, "bargain"),
     "There is no sale on the table"),  # cancelled: nothing more is played on it
    ([sale(ANA, "cheese", 3), {"type": "end_sales_turn", "player": ANA}], on_sale(CY, "bargain"),
     "There is no sale on the table"),
    ([sale(ANA, "cheese", 3)], on_sale(BEN, "illusion"), "Only the seller can play Illusion on a sale."),
    ([sale(ANA, "cheese", 3)], on_sale(ANA, "bargain"), "Bargain is played by another player, not the seller."),
    ([sale(ANA, "cheese", 3)], on_sale(BEN, "persuasion"), "Only Illusion, Bargain and Overstock"),
    ([sale(ANA, "cheese", 5)], on_sale(ANA, "illusion"), "Illusion cannot value a sale past 5 cards."),
    ([sale(ANA, "cheese", 3), on_sale(BEN, "bargain")], on_sale(BEN, "bargain"), "Ben holds no Bargain card."),
    ([sale(ANA, "cheese", 3)], on_sale(7, "bargain"), "There is no player at seat 7."),
])
def test_a_card_that_cannot_be_played_is_refused_and_changes_nothing(before, event, refusal):
    state = play(ana_selling(), before)
    with pytest.raises(RuleError, match=refusal.replace(".", r"\.")):
        game.apply(state, event)


def test_what_a_seat_may_play_is_what_it_holds_and_the_rules_allow():
    state = play(ana_selling(), [sale(ANA, "cheese", 3)])
    assert game.playable_on_sale(state, ANA) == ("illusion",)
    assert game.playable_on_sale(state, BEN) == ("bargain", "overstock")
    state = play(state, [on_sale(BEN, "bargain")])
    assert game.playable_on_sale(state, BEN) == ("overstock",)
    assert game.playable_on_sale(play(state, [on_sale(CY, "overstock")]), BEN) == ()
    five = play(ana_selling(), [sale(ANA, "cheese", 5)])
    assert game.playable_on_sale(five, ANA) == ()  # no Illusion past 5 cards


def test_the_entry_says_the_card_and_the_new_value():
    state = play(ana_selling(), [sale(ANA, "cheese", 3)])
    assert game.describe(state, on_sale(ANA, "illusion")) == "Ana played Illusion on their sale of 3 cheeses: 180 → 300."
    state = play(state, [on_sale(ANA, "illusion")])
    assert game.describe(state, on_sale(BEN, "bargain")) == "Ben played Bargain on Ana's sale of 3 cheeses: 300 → 150."
    state = play(state, [on_sale(BEN, "bargain")])
    assert game.describe(state, on_sale(CY, "overstock")) == (
        "Cy played Overstock on Ana's sale of 3 cheeses: cancelled (150 → 0), the cards go back to Ana's hand.")


CARDS = st.lists(st.sampled_from([(ANA, "illusion"), (BEN, "bargain"), (CY, "bargain"), (BEN, "overstock"),
                                  (CY, "overstock"), (ANA, "illusion")]), max_size=4)


@given(st.sampled_from([p.slug for p in game.PRODUCTS]), st.integers(1, 5), CARDS)
def test_cards_played_one_by_one_end_where_the_sale_with_them_does(product, cards, played):
    start = ana_selling()
    with_them = sale(ANA, product, cards, *((card, by) for by, card in played))
    try:
        whole = game.apply(start, with_them)
    except RuleError:
        whole = None
    state = start
    try:
        state = play(state, [sale(ANA, product, cards)])
        for by, card in played:
            state = play(state, [on_sale(by, card)])
    except RuleError:
        state = None
    if whole is None or state is None:
        # Refused one way only where a card came after an Overstock (no sale left on the table) or the
        # plain sale was refused (never with the cards either).
        assert whole is None or any(card == "overstock" for _, card in played[:-1])
        return
    for field in ("points", "sold", "held", "played", "hand_estimates"):
        assert getattr(state, field) == getattr(whole, field), field
    assert state.sales == whole.sales
