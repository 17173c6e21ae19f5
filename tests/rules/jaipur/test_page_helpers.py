"""Jaipur's read-outs for the sale form and the match bar: card choices, bonus choices, seals left."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import RuleError, replay
from companion.rules import jaipur

ANA, BEN = 0, 1


def sale(player, good, cards, bonus=None):
    event = {"type": "sale", "player": player, "good": good, "cards": cards}
    if bonus is not None:
        event["bonus"] = bonus
    return event


def play(*events, options=None):
    return replay(jaipur, ["Ana", "Ben"], options, events)


@pytest.mark.parametrize("good, choices", [
    (None, (1, 2, 3, 4, 5, 6, 7)),
    ("diamonds", (2, 3, 4, 5, 6)),
    ("gold", (2, 3, 4, 5, 6)),
    ("silver", (2, 3, 4, 5, 6)),
    ("cloth", (1, 2, 3, 4, 5, 6, 7)),
    ("spice", (1, 2, 3, 4, 5, 6, 7)),
    ("leather", (1, 2, 3, 4, 5, 6, 7)),
])
def test_card_choices_on_a_fresh_bank(good, choices):
    assert jaipur.card_choices(jaipur.new_game(["Ana", "Ben"]), good) == choices


def test_card_choices_shrink_with_the_cards_sold():
    state = play(sale(ANA, "diamonds", 3, 1), sale(BEN, "cloth", 5, 8))
    assert jaipur.card_choices(state, "diamonds") == (2, 3)
    assert jaipur.card_choices(state, "cloth") == (1, 2, 3)
    state = play(sale(ANA, "diamonds", 5, 8))
    # One diamond card is left, and diamonds sell 2 at a time: none can be sold.
    assert jaipur.card_choices(state, "diamonds") == ()


def test_every_card_choice_is_a_sale_the_rules_accept():
    state = play(sale(ANA, "gold", 4, 4), sale(BEN, "leather", 6, 8))
    for good in jaipur.GOODS:
        for cards in range(1, 8):
            allowed = cards in jaipur.card_choices(state, good)
            try:
                jaipur.sale_preview(state, ANA, good, cards)
            except RuleError:
                assert not allowed, (good, cards)
            else:
                assert allowed, (good, cards)


def test_no_card_choices_once_the_round_has_ended():
    state = play({"type": "end_round"})
    assert jaipur.card_choices(state, "cloth") == ()
    assert jaipur.card_choices(state) == ()


def test_card_choices_refuse_an_unknown_good():
    with pytest.raises(RuleError) as refused:
        jaipur.card_choices(jaipur.new_game(["Ana", "Ben"]), "camels")
    assert refused.value.field == "good"


def test_bonus_choices_are_the_values_printed_on_the_pile_while_it_has_tokens():
    state = jaipur.new_game(["Ana", "Ben"])
    assert jaipur.bonus_choices(state, 2) == ()
    assert jaipur.bonus_choices(state, 3) == (1, 2, 3)
    assert jaipur.bonus_choices(state, 4) == (4, 5, 6)
    assert jaipur.bonus_choices(state, 7) == (8, 9, 10)
    # Only 8s are left, but the 9 and 10s taken lie face down: offering "8" alone would tell them.
    state = play(sale(ANA, "cloth", 5, 9), sale(BEN, "spice", 5, 10), sale(ANA, "leather", 5, 10))
    assert jaipur.bonus_choices(state, 5) == (8, 9, 10)
    state = play(*(sale(p, g, 3, v) for p, g, v in [
        (ANA, "leather", 3), (BEN, "leather", 3), (ANA, "cloth", 1)]))
    assert jaipur.bonus_choices(state, 3) == (1, 2, 3)
    emptied = play(*(sale(p, g, 4, v) for p, g, v in [
        (ANA, "leather", 4), (BEN, "cloth", 4), (ANA, "spice", 5), (BEN, "leather", 5), (ANA, "cloth", 6),
        (BEN, "spice", 6)]))
    assert jaipur.bonus_choices(emptied, 4) == ()  # how many are left is public: none


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(jaipur.GOODS), st.integers(3, 7)), max_size=12),
       st.randoms(use_true_random=False))
def test_bonus_choices_never_tell_what_was_drawn(sales, rng):
    state = jaipur.new_game(["Ana", "Ben"], {"bonus": "enter"})
    for turn, (good, cards) in enumerate(sales):
        pile = jaipur.bonus_pile_left(state.round, cards)
        event = {"type": "sale", "player": turn % 2, "good": good, "cards": cards}
        try:
            state = jaipur.apply(state, dict(event, bonus=rng.choice(pile)) if pile else event)
        except RuleError:
            continue
        for cards in range(3, 8):
            left = jaipur.bonus_pile_left(state.round, cards)
            printed = tuple(sorted(set(jaipur.BONUS_TOKENS[jaipur.bonus_pile_for(cards)])))
            assert jaipur.bonus_choices(state, cards) == (printed if left else ())


def test_seals_left():
    state = jaipur.new_game(["Ana", "Ben"])
    assert jaipur.seals_left(state) == 3
    state = play(sale(ANA, "cloth", 1), {"type": "end_round"}, {"type": "camels", "counts": [0, 0]})
    assert state.seals == (1, 0) and jaipur.seals_left(state) == 2


def test_next_round_number_once_the_round_is_scored():
    assert jaipur.next_round_number(jaipur.new_game(["Ana", "Ben"])) is None
    state = play(sale(ANA, "cloth", 1), {"type": "end_round"})
    assert jaipur.next_round_number(state) is None
    state = play(sale(ANA, "cloth", 1), {"type": "end_round"}, {"type": "camels", "counts": [0, 0]})
    assert jaipur.next_round_number(state) == 2
    won = play(sale(ANA, "cloth", 1), {"type": "end_round"}, {"type": "camels", "counts": [0, 0]},
               {"type": "next_round"}, sale(ANA, "cloth", 1), {"type": "end_round"},
               {"type": "camels", "counts": [0, 0]})
    assert jaipur.finished(won) and jaipur.next_round_number(won) is None
