"""Jaipur's token bank and sales: real cases from RULES.md §2 and the rule text."""

from __future__ import annotations

import random

import pytest

from companion.rules import GAMES, RuleError, replay
from companion.rules import jaipur

ANA, BEN = 0, 1


def sale(player, good, cards, bonus=None):
    event = {"type": "sale", "player": player, "good": good, "cards": cards}
    if bonus is not None:
        event["bonus"] = bonus
    return event


def play(*events, options=None):
    return replay(jaipur, ["Ana", "Ben"], options, events)


def test_registered_under_its_slug():
    assert GAMES["jaipur"] is jaipur
    assert (jaipur.NAME, jaipur.MIN_PLAYERS, jaipur.MAX_PLAYERS) == ("Jaipur", 2, 2)


# --- components -----------------------------------------------------------------


def test_components_match_the_published_game():
    assert jaipur.GOODS == ("diamonds", "gold", "silver", "cloth", "spice", "leather")
    assert dict(jaipur.GOODS_COLOURS) == {
        "diamonds": "red", "gold": "yellow", "silver": "grey",
        "cloth": "purple", "spice": "green", "leather": "brown",
    }
    assert sum(jaipur.GOODS_CARDS.values()) + jaipur.CAMEL_CARDS == 55
    assert dict(jaipur.GOODS_TOKENS) == {
        "diamonds": (7, 7, 5, 5, 5),
        "gold": (6, 6, 5, 5, 5),
        "silver": (5, 5, 5, 5, 5),
        "cloth": (5, 3, 3, 2, 2, 1, 1),
        "spice": (5, 3, 3, 2, 2, 1, 1),
        "leather": (4, 3, 2, 1, 1, 1, 1, 1, 1),
    }
    assert dict(jaipur.BONUS_TOKENS) == {
        3: (1, 1, 2, 2, 2, 3, 3), 4: (4, 4, 5, 5, 6, 6), 5: (8, 8, 9, 10, 10),
    }
    assert (jaipur.CAMEL_TOKEN, jaipur.SEALS_OF_EXCELLENCE, jaipur.SEALS_TO_WIN) == (5, 3, 2)


def test_a_new_game_has_the_full_bank():
    state = jaipur.new_game(["Ana", "Ben"])
    assert jaipur.token_bank(state) == dict(jaipur.GOODS_TOKENS)
    assert [(p.range, p.left) for p in jaipur.bonus_piles(state)] == [
        ("1–3", 7), ("4–6", 6), ("8–10", 5),
    ]
    assert jaipur.scores(state) == [0, 0]
    assert jaipur.round_points(state) == [0, 0]
    assert jaipur.phase(state) == jaipur.SELLING
    assert state.round.number == 1 and state.round.starter == 0
    assert not jaipur.finished(state)
    hash(state)  # immutable all the way down: the app caches and shares states


# --- options ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, mode, first",
    [(None, "draw", 0), ({}, "draw", 0), ({"bonus": "enter"}, "enter", 0),
     ({"first_player": 1}, "draw", 1), ({"bonus": "draw", "first_player": 0}, "draw", 0)],
)
def test_options(options, mode, first):
    state = jaipur.new_game(["Ana", "Ben"], options)
    assert (state.bonus_mode, state.first_player, state.round.starter) == (mode, first, first)


@pytest.mark.parametrize(
    "players, options, field",
    [
        (["Ana"], None, "players"),
        (["Ana", "Ben", "Cy"], None, "players"),
        (["Ana", ""], None, "players"),
        (["Ana", "Ben"], {"bonus": "guess"}, "bonus"),
        (["Ana", "Ben"], {"first_player": 2}, "first_player"),
        (["Ana", "Ben"], {"first_player": True}, "first_player"),
        (["Ana", "Ben"], {"first_player": "1"}, "first_player"),
        (["Ana", "Ben"], {"camels": "yes"}, "camels"),
        (["Ana", "Ben"], ["bonus"], "options"),
    ],
)
def test_bad_settings_are_refused(players, options, field):
    with pytest.raises(RuleError) as refused:
        jaipur.new_game(players, options)
    assert refused.value.field == field


# --- sales --------------------------------------------------------------------------


def test_three_diamonds_from_a_fresh_bank_take_7_7_5_and_a_3_card_bonus():
    state = play(sale(ANA, "diamonds", 3, bonus=2))
    assert jaipur.token_bank(state)["diamonds"] == (5, 5)
    ana, ben = jaipur.breakdown(state)
    assert ana.goods_tokens == (7, 7, 5) and ana.goods_sum == 19
    assert (ana.bonus_count, ana.bonus_sum) == (1, 2)
    assert ana.total == 21 and ben.total == 0
    assert jaipur.bonus_piles(state)[0].values == (1, 1, 2, 2, 3, 3)


@pytest.mark.parametrize(
    "good, cards, tokens, bonus_range",
    [
        ("diamonds", 2, (7, 7), None),
        ("gold", 2, (6, 6), None),
        ("silver", 3, (5, 5, 5), "1–3"),
        ("cloth", 1, (5,), None),
        ("spice", 4, (5, 3, 3, 2), "4–6"),
        ("leather", 5, (4, 3, 2, 1, 1), "8–10"),
        ("leather", 7, (4, 3, 2, 1, 1, 1, 1), "8–10"),
    ],
)
def test_sale_preview_shows_the_tokens_and_the_bonus_range(good, cards, tokens, bonus_range):
    state = jaipur.new_game(["Ana", "Ben"])
    preview = jaipur.sale_preview(state, ANA, good, cards)
    assert preview.goods_tokens == tokens and preview.goods_sum == sum(tokens)
    assert preview.bonus_range == bonus_range
    assert preview.bonus_available is (bonus_range is not None)
    assert preview.cards_without_token == 0


@pytest.mark.parametrize("good", ["diamonds", "gold", "silver"])
def test_a_precious_good_is_refused_at_1_card(good):
    state = jaipur.new_game(["Ana", "Ben"])
    with pytest.raises(RuleError, match="at least 2 at a time") as refused:
        jaipur.apply(state, sale(ANA, good, 1))
    assert refused.value.field == "cards"
    with pytest.raises(RuleError, match="at least 2 at a time"):
        jaipur.sale_preview(state, ANA, good, 1)


@pytest.mark.parametrize("good", ["cloth", "spice", "leather"])
def test_common_goods_sell_one_at_a_time(good):
    state = play(sale(BEN, good, 1))
    assert jaipur.breakdown(state)[BEN].goods_tokens == (jaipur.GOODS_TOKENS[good][0],)


def test_the_last_token_of_a_stack():
    state = play(sale(ANA, "leather", 7, bonus=9), sale(BEN, "leather", 2))
    assert jaipur.token_bank(state)["leather"] == ()
    assert jaipur.breakdown(state)[BEN].goods_tokens == (1, 1)


def test_a_sale_larger_than_the_stack_left_takes_what_is_left_and_its_bonus():
    state = play(sale(ANA, "leather", 7, bonus=8))
    preview = jaipur.sale_preview(state, BEN, "leather", 3)
    assert (preview.goods_tokens, preview.cards_without_token) == ((1, 1), 1)
    assert preview.bonus_range == "1–3"
    state = jaipur.apply(state, sale(BEN, "leather", 3, bonus=3))
    ben = jaipur.breakdown(state)[BEN]
    assert (ben.goods_tokens, ben.bonus_tokens, ben.total) == ((1, 1), (3,), 5)


def test_precious_goods_still_sell_2_when_one_token_is_left():
    state = play(sale(ANA, "diamonds", 2), sale(BEN, "diamonds", 2))
    assert jaipur.token_bank(state)["diamonds"] == (5,)
    state = jaipur.apply(state, sale(ANA, "diamonds", 2))
    assert jaipur.breakdown(state)[ANA].goods_tokens == (7, 7, 5)


def test_no_more_cards_of_a_good_than_exist():
    state = play(sale(ANA, "diamonds", 2), sale(BEN, "diamonds", 2), sale(ANA, "diamonds", 2))
    with pytest.raises(RuleError, match=r"at most 0 more cards can be sold \(6 in the game, 6 sold this round\)") \
            as refused:
        jaipur.apply(state, sale(BEN, "diamonds", 2))
    assert refused.value.field == "cards"
    state = play(sale(ANA, "cloth", 6, bonus=10))
    with pytest.raises(RuleError, match="at most 2 more"):
        jaipur.sale_preview(state, BEN, "cloth", 3)


def test_at_most_7_cards_a_sale():
    with pytest.raises(RuleError, match="hand holds 7"):
        play(sale(ANA, "leather", 8, bonus=8))


@pytest.mark.parametrize(
    "event, field",
    [
        ([], "type"),
        ({"player": 0}, "type"),
        ({"type": "trade"}, "type"),
        ({"type": "sale", "good": "gold", "cards": 2}, "player"),
        ({"type": "sale", "player": 2, "good": "gold", "cards": 2}, "player"),
        ({"type": "sale", "player": True, "good": "gold", "cards": 2}, "player"),
        ({"type": "sale", "player": 0, "good": "camels", "cards": 2}, "good"),
        ({"type": "sale", "player": 0, "good": "gold"}, "cards"),
        ({"type": "sale", "player": 0, "good": "gold", "cards": "2"}, "cards"),
        ({"type": "sale", "player": 0, "good": "cloth", "cards": True}, "cards"),
        ({"type": "sale", "player": 0, "good": "gold", "cards": 0}, "cards"),
        ({"type": "sale", "player": 0, "good": "gold", "cards": 3}, "bonus"),
        ({"type": "sale", "player": 0, "good": "gold", "cards": 3, "bonus": 4}, "bonus"),
        ({"type": "sale", "player": 0, "good": "gold", "cards": 3, "bonus": "2"}, "bonus"),
        ({"type": "sale", "player": 0, "good": "gold", "cards": 3, "bonus": True}, "bonus"),
        ({"type": "sale", "player": 0, "good": "gold", "cards": 2, "bonus": 1}, "bonus"),
        ({"type": "sale", "player": 0, "good": "gold", "cards": 4, "bonus": 3}, "bonus"),
        ({"type": "sale", "player": 0, "good": "gold", "cards": 5, "bonus": 6}, "bonus"),
        ({"type": "camels", "counts": [1, 2]}, None),
        ({"type": "next_round"}, None),
    ],
)
def test_malformed_or_untimely_entries_are_refused_and_change_nothing(event, field):
    state = jaipur.new_game(["Ana", "Ben"])
    before = state
    with pytest.raises(RuleError) as refused:
        jaipur.apply(state, event)
    assert refused.value.field == field
    assert str(refused.value)
    assert state == before


# --- bonus tokens -------------------------------------------------------------------


def test_the_app_draws_the_bonus_from_what_is_left_in_the_pile():
    state = jaipur.new_game(["Ana", "Ben"])
    event = sale(ANA, "spice", 4)
    drawn = jaipur.complete(state, event, random.Random(7))
    assert "bonus" not in event  # the caller's event is not changed
    assert drawn["bonus"] in (4, 5, 6)
    again = jaipur.complete(state, event, random.Random(7))
    assert again == drawn  # a seeded source draws the same token
    after = jaipur.apply(state, drawn)
    left = list(jaipur.BONUS_TOKENS[4])
    left.remove(drawn["bonus"])
    assert jaipur.bonus_piles(after)[1].values == tuple(left)


def test_the_draw_defaults_to_a_system_random_source():
    state = jaipur.new_game(["Ana", "Ben"])
    assert jaipur.complete(state, sale(ANA, "leather", 5))["bonus"] in (8, 9, 10)


def test_every_token_left_is_drawn_in_turn():
    state = play(sale(ANA, "leather", 3, bonus=1), sale(BEN, "leather", 3, bonus=1))
    draws = {jaipur.complete(state, sale(ANA, "cloth", 3), random.Random(n))["bonus"]
             for n in range(200)}
    assert draws == {2, 3}  # both 1s are gone


@pytest.mark.parametrize(
    "event", [sale(ANA, "cloth", 2), {"type": "end_round"}, {"type": "next_round"}]
)
def test_complete_copies_entries_without_chance(event):
    state = jaipur.new_game(["Ana", "Ben"])
    completed = jaipur.complete(state, event, random.Random(1))
    assert completed == event and completed is not event


def test_complete_keeps_a_value_already_given():
    state = jaipur.new_game(["Ana", "Ben"])
    assert jaipur.complete(state, sale(ANA, "cloth", 3, bonus=3))["bonus"] == 3


def test_complete_refuses_an_impossible_sale_before_drawing():
    state = jaipur.new_game(["Ana", "Ben"])
    with pytest.raises(RuleError, match="at least 2"):
        jaipur.complete(state, sale(ANA, "gold", 1), random.Random(1))


def test_entered_bonus_values_must_be_given_and_still_in_their_pile():
    state = jaipur.new_game(["Ana", "Ben"], {"bonus": "enter"})
    with pytest.raises(RuleError, match="Enter the value of the bonus token") as refused:
        jaipur.complete(state, sale(ANA, "cloth", 3))
    assert refused.value.field == "bonus"
    with pytest.raises(RuleError, match="Enter the value") as refused:
        jaipur.apply(state, sale(ANA, "cloth", 3))
    assert refused.value.field == "bonus"
    state = jaipur.apply(state, jaipur.complete(state, sale(ANA, "cloth", 5, bonus=9)))
    with pytest.raises(RuleError, match="no bonus token of 9 left") as refused:
        jaipur.apply(state, sale(BEN, "leather", 5, bonus=9))
    assert refused.value.field == "bonus"


def test_an_empty_bonus_pile_gives_nothing_more():
    events = [sale(p, g, 5, bonus=b) for p, g, b in
              [(ANA, "leather", 8), (BEN, "leather", 8), (ANA, "cloth", 9), (BEN, "spice", 10)]]
    state = play(*events)
    assert jaipur.bonus_piles(state)[2].values == (10,)
    state = jaipur.apply(state, sale(ANA, "gold", 5, bonus=10))
    assert jaipur.bonus_piles(state)[2].left == 0
    assert jaipur.phase(state) == jaipur.SELLING  # only leather and gold are empty
    preview = jaipur.sale_preview(state, BEN, "silver", 5)
    assert preview.bonus_range == "8–10" and preview.bonus_available is False
    completed = jaipur.complete(state, sale(BEN, "silver", 5), random.Random(3))
    assert "bonus" not in completed
    with pytest.raises(RuleError, match="pile for 5 or more cards is empty"):
        jaipur.apply(state, sale(BEN, "silver", 5, bonus=8))
    state = jaipur.apply(state, completed)
    ben = jaipur.breakdown(state)[BEN]
    assert ben.bonus_tokens == (8, 10)  # the silver sale added none
    assert ben.goods_tokens[-5:] == (5, 5, 5, 5, 5)
    assert jaipur.phase(state) == jaipur.COUNTING_CAMELS  # leather, gold, silver empty


# --- the end of a round -------------------------------------------------------------


def test_the_round_ends_at_once_when_the_third_stack_empties():
    state = play(
        sale(ANA, "diamonds", 5, bonus=8),
        sale(BEN, "gold", 5, bonus=9),
    )
    assert jaipur.phase(state) == jaipur.SELLING
    state = jaipur.apply(state, sale(ANA, "silver", 3, bonus=1))
    assert jaipur.phase(state) == jaipur.SELLING
    state = jaipur.apply(state, sale(ANA, "silver", 2))
    assert jaipur.phase(state) == jaipur.COUNTING_CAMELS
    assert state.round.end_reason == jaipur.END_THREE_STACKS
    with pytest.raises(RuleError, match="enter both camel counts"):
        jaipur.apply(state, sale(BEN, "cloth", 1))
    with pytest.raises(RuleError, match="enter both camel counts"):
        jaipur.apply(state, {"type": "end_round"})


def test_the_players_end_the_round_when_the_market_cannot_be_refilled():
    state = play(sale(ANA, "cloth", 2), {"type": "end_round"})
    assert jaipur.phase(state) == jaipur.COUNTING_CAMELS
    assert state.round.end_reason == jaipur.END_MARKET
    with pytest.raises(RuleError, match="Round 1 has ended"):
        jaipur.apply(state, sale(BEN, "spice", 1))


@pytest.mark.parametrize(
    "counts", [[5], [5, 3, 1], "5,3", [12, 0], [-1, 3], [6, 6], [True, 0], [1.0, 2]]
)
def test_impossible_camel_counts_are_refused(counts):
    state = play({"type": "end_round"})
    with pytest.raises(RuleError) as refused:
        jaipur.apply(state, {"type": "camels", "counts": counts})
    assert refused.value.field == "counts"


@pytest.mark.parametrize(
    "counts, token_to, points",
    [([5, 3], ANA, [13, 0]), ([2, 9], BEN, [8, 5]), ([4, 4], None, [8, 0]), ([0, 0], None, [8, 0])],
)
def test_the_camel_token_goes_only_to_strictly_more_camels(counts, token_to, points):
    state = play(sale(ANA, "cloth", 2), {"type": "end_round"}, {"type": "camels", "counts": counts})
    result = state.round.result
    assert result.camel_token_to == token_to
    assert jaipur.round_points(state) == points
    assert [t.camel_token for t in result.tallies] == [5 if s == token_to else 0 for s in (0, 1)]
