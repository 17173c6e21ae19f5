"""The read-outs Carambouille's pages use: turns, sale card choices, the deal outcome, the house memo entry."""

from dataclasses import replace

import pytest

from companion.rules import RuleError
from companion.rules import carambouille as game

ANA, BEN, CY = 0, 1, 2


def holding(state, seat, **cards):
    row = tuple(cards.get(kind, 0) for kind in game.CARD_TYPES)
    held = list(state.held)
    held[seat] = tuple(a + b for a, b in zip(held[seat], row))
    return replace(state, held=tuple(held))


def sales(first=ANA):
    state = game.new_game(["Ana", "Ben", "Cy"], {"first_trader": first})
    return game.apply(game.apply(state, {"type": "market_opened"}), {"type": "market_closed"})


def test_turns_go_left_from_the_first_trader():
    state = sales(first=BEN)
    assert (state.turn, game.next_seller(state), game.sellers_after(state)) == (BEN, CY, [CY, ANA])
    state = game.apply(state, {"type": "end_sales_turn", "player": BEN})
    state = game.apply(state, {"type": "end_sales_turn", "player": CY})
    assert (state.turn, game.next_seller(state), game.sellers_after(state)) == (ANA, None, [])


def test_no_seller_outside_the_sales_phase():
    state = game.new_game(["Ana", "Ben", "Cy"])
    assert game.next_seller(state) is None and game.sellers_after(state) == []
    assert not game.exchange_open(state)
    assert game.exchange_open(game.apply(state, {"type": "market_opened"}))


@pytest.mark.parametrize("cards, effects, offered", [
    (3, [], ("illusion", "bargain", "overstock")),
    (4, ["illusion"], ("bargain", "overstock")),
    (5, [], ("bargain", "overstock")),
    (3, ["bargain", "illusion"], ("illusion", "bargain", "overstock")),
    (2, ["overstock"], ()),
    (1, ["bargain"] * 6, ()),
])
def test_next_sale_cards_follow_the_memo_rules(cards, effects, offered):
    assert game.next_sale_cards(cards, effects) == offered


def test_sale_card_choices_use_only_public_counts():
    state = holding(holding(sales(), ANA, illusion=1), BEN, basket=1)
    # Ben holds a Basket only, but types are private: he is offered as a possible Bargain and Overstock.
    assert game.sale_card_choices(state, ANA, 3, []) == [("illusion", ANA), ("bargain", BEN), ("overstock", BEN)]
    # Once Ben's one card is used on this sale, he is offered no more; Ana's Illusion is used too.
    assert game.sale_card_choices(state, ANA, 3, [("illusion", ANA), ("bargain", BEN)]) == []
    assert game.sale_card_label(state, "bargain", BEN) == "Bargain by Ben"


def test_held_count_is_the_number_of_cards_in_hand():
    state = holding(sales(), CY, bargain=2, basket=1)
    assert [game.held_count(state, s) for s in state.seats] == [0, 0, 3]


def test_deal_outcome_says_what_each_hand_becomes_and_announces_the_last_hand():
    state = sales()
    for seat in (ANA, BEN, CY):
        state = game.apply(state, {"type": "end_sales_turn", "player": seat})
    assert game.dealing(state)
    outcome = game.deal_outcome(state, [6, 7, 2])
    assert outcome.cards == (2, 1, 3) and outcome.after == (8, 8, 5)
    assert (outcome.total, outcome.stock_left, outcome.last_hand, outcome.limits) == (6, 76, False, (8, 8, 8))
    short = game.deal_outcome(replace(state, stock=4), [0, 0, 0])
    # Ben is the new First Trader: Cy, then Ana, then Ben, one card at a time.
    assert short.cards == (1, 1, 2) and short.stock_left == 0 and short.last_hand
    with pytest.raises(RuleError, match="hand size of each of the 3 players"):
        game.deal_outcome(state, [1, 2])


def test_house_memo_entry_changes_the_values_of_later_sales():
    state = holding(sales(), ANA)
    state = game.apply(state, {"type": "sale", "player": ANA, "product": "onions", "cards": 5})
    assert state.points == (120, 0, 0)
    memo = {"10": [None, None, None, None, 150]}
    assert game.describe(state, {"type": "house_memo", "memo": memo}) == (
        "House memo changed: 5 cards of 10 now 150 (was 120); sales from now on use it."
    )
    state = game.apply(state, {"type": "house_memo", "memo": memo})
    assert state.points == (120, 0, 0)  # the sale already made keeps its value
    memo_now, changed = game.house_memo(state)
    assert memo_now[10] == (10, 25, 45, 75, 150) and changed == {(10, 5)}
    state = game.apply(state, {"type": "sale", "player": ANA, "product": "garlic", "cards": 5})
    assert state.points == (270, 0, 0)


@pytest.mark.parametrize("memo, message", [
    ({}, "already uses"),
    ({"15": [1, 2, 3, 4, 5]}, "no face value"),
    ({"10": [1, 2, 3]}, "needs 5 selling values"),
    ({"10": [1, 2, 3, 4, -5]}, "whole points from 0"),
    ([1], "must map face values"),
])
def test_house_memo_refusals(memo, message):
    state = sales()
    with pytest.raises(RuleError, match=message) as error:
        game.apply(state, {"type": "house_memo", "memo": memo})
    assert error.value.field == "memo"


def test_house_memo_resets_to_the_printed_memo_and_many_changes_are_summed_up():
    state = game.new_game(["Ana", "Ben", "Cy"], {"memo": {"40": [41, 101, 181, 301, 481]}})
    assert "1 card of 40 now 40 (was 41)" in game.describe(state, {"type": "house_memo", "memo": {}})
    assert "and 2 more" in game.describe(state, {"type": "house_memo", "memo": {}})
    state = game.apply(state, {"type": "house_memo", "memo": {}})
    assert game.house_memo(state)[1] == frozenset()


def test_memo_overrides_keep_only_what_differs_from_the_print():
    memo = dict(game.DEFAULT_MEMO) | {40: (40, 100, 180, 300, 500)}
    assert game.memo_overrides(memo) == {"40": [None, None, None, None, 500]}
    assert game.memo_overrides(dict(game.DEFAULT_MEMO)) == {}


def having_played(state, **cards):
    """The table after these Carambouille cards were played (by Cy: played cards are public)."""
    row = tuple(cards.get(kind, 0) for kind in game.CARD_TYPES)
    played = list(state.played)
    played[CY] = tuple(a + b for a, b in zip(played[CY], row))
    return replace(state, played=tuple(played))


@pytest.mark.parametrize("played, chosen, offered", [
    # All 4 Bargains have been played: nobody can hold one.
    ({"bargain": 4}, [], [("illusion", ANA), ("overstock", BEN), ("overstock", CY)]),
    ({"overstock": 4, "illusion": 4}, [], [("bargain", BEN), ("bargain", CY)]),
    ({"bargain": 3}, [], [("illusion", ANA), ("bargain", BEN), ("bargain", CY), ("overstock", BEN),
                          ("overstock", CY)]),
    # The fourth Bargain is the one chosen first on this very sale: no second one.
    ({"bargain": 3}, [("bargain", BEN)], [("illusion", ANA), ("overstock", BEN), ("overstock", CY)]),
    ({"illusion": 2}, [("illusion", ANA), ("illusion", ANA)], [("bargain", BEN), ("bargain", CY),
                                                                ("overstock", BEN), ("overstock", CY)]),
])
def test_sale_card_choices_leave_out_a_type_whose_4_copies_are_played(played, chosen, offered):
    state = holding(holding(holding(sales(), ANA, illusion=3), BEN, basket=3), CY, basket=3)
    assert game.sale_card_choices(having_played(state, **played), ANA, 1, chosen) == offered


@pytest.mark.parametrize("cards, effects, ruling", [
    (5, [], (True,)),
    (4, [], (False,)),
    (4, [("illusion", ANA)], (False, True)),  # the Illusion moves the sale onto the 5-card column
    (5, [("bargain", BEN)], (True, True)),  # half of the unconfirmed value rests on it too
    (5, [("overstock", BEN)], (True, False)),  # cancelled: 0 is no ruling
    (3, [("illusion", ANA), ("illusion", ANA)], (False, False, True)),
])
def test_a_sale_preview_says_which_lines_rest_on_the_unconfirmed_5_card_column(cards, effects, ruling):
    state = holding(holding(sales(), ANA, illusion=2), BEN, bargain=1, overstock=1)
    event = {"type": "sale", "player": ANA, "product": "cheese", "cards": cards,
             "effects": [{"card": card, "player": by} for card, by in effects]}
    preview = game.sale_preview(state, event)
    assert preview.ruling == ruling and preview.on_ruling == ruling[-1]
    # A table that wrote its own 5-card value on its memo plays with a confirmed value.
    state = game.apply(state, {"type": "house_memo", "memo": {"40": [None, None, None, None, 500]}})
    assert not any(game.sale_preview(state, event).ruling)
    assert game.on_ruling(40, 5) and not game.on_ruling(40, 5, frozenset({(40, 5)})) and not game.on_ruling(40, 4)


@pytest.mark.parametrize("seconds, words", [(45, "45 s"), (60, "1 min"), (245, "4 min 05 s")])
def test_duration_words(seconds, words):
    assert game.duration_words(seconds) == words


def test_sale_card_slots_show_each_choice_then_one_empty_select():
    state = holding(holding(sales(), ANA, illusion=1), BEN, bargain=1)
    assert game.sale_card_slots(state, ANA, 3, []) == [(None, [("illusion", ANA), ("bargain", BEN), ("overstock", BEN)])]
    slots = game.sale_card_slots(state, ANA, 3, [("bargain", BEN)])
    assert slots == [(("bargain", BEN), [("illusion", ANA), ("bargain", BEN), ("overstock", BEN)]),
                     (None, [("illusion", ANA)])]
    assert game.sale_card_slots(state, ANA, 3, [("overstock", BEN)])[-1][0] == ("overstock", BEN)
