"""Jaipur's rounds: the tally, the tie-break chain, seals, who starts, the history sentences."""

from __future__ import annotations

import pytest

from companion.rules import RuleError, replay
from companion.rules import jaipur
from companion.rules.jaipur.tally import Sale, round_result

ANA, BEN = 0, 1
END = {"type": "end_round"}
NEXT = {"type": "next_round"}


def sale(player, good, cards, bonus=None):
    event = {"type": "sale", "player": player, "good": good, "cards": cards}
    if bonus is not None:
        event["bonus"] = bonus
    return event


def camels(ana, ben):
    return {"type": "camels", "counts": [ana, ben]}


def play(*events, options=None):
    return replay(jaipur, ["Ana", "Ben"], options, events)


def took(player, goods=(), bonus=()):
    """Sales whose tokens add up to what a player has in front of them."""
    sales = [Sale(player, "silver", len(goods), tuple(goods))]
    sales += [Sale(player, "leather", 3, (), 3, value) for value in bonus]
    return sales


# The sentences the table page shows, from RULES.md §2's tie-break chain.
@pytest.mark.parametrize(
    "sales, camel_counts, winner, decided_by, explanation",
    [
        (took(ANA, [5] * 12, [3, 3, 6]) + took(BEN, [5] * 10, [3, 5]), (0, 0),
         ANA, "points", "Ana wins 72 to 58"),
        (took(ANA, [5] * 10, [3, 3, 5]) + took(BEN, [5] * 10, [5, 6]), (0, 0),
         ANA, "bonus_tokens", "Equal at 61; Ana wins with 3 bonus tokens to 2"),
        (took(ANA, [5] * 6 + [4, 3, 2, 1], [3, 3, 5]) + took(BEN, [5] * 8, [3, 3, 5]), (0, 0),
         ANA, "goods_tokens",
         "Equal at 51 with 3 bonus tokens each; Ana wins with 10 goods tokens to 8"),
        (took(ANA, [7, 5, 5, 5, 5, 5, 4], [8, 8, 9]) + took(BEN, [7, 7, 6, 5, 5, 5], [10, 10, 6]),
         (0, 0), ANA, "goods_tokens",
         "Equal at 61 with 3 bonus tokens each; Ana wins with 7 goods tokens to 6"),
        (took(ANA, [5] * 10, [3, 3, 5]) + took(BEN, [5] * 9, [3, 3, 5]), (2, 7),
         ANA, "goods_tokens",
         "Equal at 61 with 3 bonus tokens each; Ana wins with 10 goods tokens to 9"),
        (took(ANA, [5] * 7, [1]) + took(BEN, [5] * 7, [1]), (3, 3),
         None, "drawn", "Drawn round: equal points, bonus tokens and goods tokens; no seal"),
        (took(ANA, [2], [1]) + took(BEN, [1, 1]), (0, 4),
         BEN, "points", "Ben wins 7 to 3"),
        (took(ANA, [2, 1]) + took(BEN, [3]), (0, 0),
         ANA, "goods_tokens",
         "Equal at 3 with 0 bonus tokens each; Ana wins with 2 goods tokens to 1"),
        (took(ANA, [3]) + took(BEN, [], [3]), (0, 0),
         BEN, "bonus_tokens", "Equal at 3; Ben wins with 1 bonus token to 0"),
    ],
)
def test_the_round_result_and_the_sentence_that_explains_it(
    sales, camel_counts, winner, decided_by, explanation
):
    result = round_result(("Ana", "Ben"), tuple(sales), camel_counts)
    assert (result.winner, result.decided_by, result.explanation) == (
        winner, decided_by, explanation,
    )


def test_the_bonus_tie_break_through_the_game():
    state = play(
        sale(ANA, "leather", 3, bonus=1),  # 4 + 3 + 2 + 1
        sale(ANA, "spice", 3, bonus=1),  # 5 + 3 + 3 + 1
        sale(BEN, "gold", 2),  # 6 + 6
        sale(BEN, "spice", 2),  # 2 + 2
        sale(BEN, "leather", 1),  # 1
        END,
        camels(2, 3),  # + 5 for Ben
    )
    ana, ben = jaipur.breakdown(state)
    assert (ana.goods_sum, ana.bonus_count, ana.bonus_sum, ana.camel_token, ana.total) == (
        20, 2, 2, 0, 22,
    )
    assert (ben.goods_sum, ben.bonus_count, ben.bonus_sum, ben.camel_token, ben.total) == (
        17, 0, 0, 5, 22,
    )
    assert state.round.result.explanation == "Equal at 22; Ana wins with 2 bonus tokens to 0"
    assert jaipur.scores(state) == [1, 0]
    assert jaipur.next_starter(state) == BEN


def test_the_goods_tie_break_through_the_game():
    state = play(
        sale(ANA, "diamonds", 2),  # 7 + 7
        sale(BEN, "silver", 2),  # 5 + 5
        sale(BEN, "leather", 1),  # 4
        END,
        camels(4, 4),
    )
    assert state.round.result.explanation == (
        "Equal at 14 with 0 bonus tokens each; Ben wins with 3 goods tokens to 2"
    )
    assert jaipur.scores(state) == [0, 1]


def test_a_drawn_round_gives_no_seal_and_the_other_player_starts_next():
    state = play(sale(ANA, "silver", 2), sale(BEN, "silver", 2), END, camels(3, 3),
                 options={"first_player": BEN})
    assert state.round.starter == BEN
    assert state.round.result.winner is None
    assert state.round.result.decided_by == "drawn"
    assert jaipur.scores(state) == [0, 0]
    assert jaipur.next_starter(state) == ANA
    state = jaipur.apply(state, NEXT)
    assert (state.round.number, state.round.starter) == (2, ANA)


def test_a_full_match_of_three_rounds():
    round_1 = [
        sale(ANA, "diamonds", 2),  # 7 7
        sale(BEN, "leather", 4, bonus=5),  # 4 3 2 1
        sale(ANA, "cloth", 3, bonus=2),  # 5 3 3
        sale(BEN, "gold", 3, bonus=3),  # 6 6 5
        sale(ANA, "spice", 5, bonus=10),  # 5 3 3 2 2
        sale(BEN, "diamonds", 3, bonus=1),  # 5 5 5: diamonds empty
        sale(ANA, "gold", 2),  # 5 5: gold empty
        sale(BEN, "silver", 2),  # 5 5
        sale(ANA, "spice", 2),  # 1 1: spice empty, the third stack
    ]
    state = play(*round_1)
    assert jaipur.phase(state) == jaipur.COUNTING_CAMELS
    assert [t.total for t in jaipur.breakdown(state)] == [64, 61]  # no camel token yet
    state = jaipur.apply(state, camels(2, 6))

    # The hand count of the same tokens.
    ana, ben = jaipur.breakdown(state)
    assert ana.goods_tokens == (7, 7, 5, 3, 3, 5, 3, 3, 2, 2, 5, 5, 1, 1)
    assert (ana.goods_sum, ana.bonus_tokens, ana.camel_token, ana.total) == (52, (2, 10), 0, 64)
    assert ben.goods_tokens == (4, 3, 2, 1, 6, 6, 5, 5, 5, 5, 5, 5)
    assert (ben.goods_sum, ben.bonus_tokens, ben.camel_token, ben.total) == (52, (5, 3, 1), 5, 66)
    assert state.round.result.explanation == "Ben wins 66 to 64"
    assert jaipur.scores(state) == [0, 1]
    assert jaipur.round_points(state) == [64, 66]
    assert jaipur.phase(state) == jaipur.ROUND_OVER
    assert jaipur.next_starter(state) == ANA  # the loser starts

    with pytest.raises(RuleError, match="start the next round first"):
        jaipur.apply(state, sale(ANA, "cloth", 1))
    state = jaipur.apply(state, NEXT)
    assert (state.round.number, state.round.starter) == (2, ANA)
    assert jaipur.token_bank(state) == dict(jaipur.GOODS_TOKENS)  # a fresh bank
    assert jaipur.round_points(state) == [0, 0]

    for event in [sale(ANA, "silver", 3, bonus=2), sale(BEN, "cloth", 2), END, camels(0, 0)]:
        state = jaipur.apply(state, event)
    assert state.round.result.explanation == "Ana wins 17 to 8"
    assert jaipur.scores(state) == [1, 1]
    assert not jaipur.finished(state)
    state = jaipur.apply(state, NEXT)
    assert state.round.starter == BEN

    for event in [sale(BEN, "gold", 2), sale(ANA, "diamonds", 2), END, camels(3, 4)]:
        state = jaipur.apply(state, event)
    assert state.round.result.explanation == "Ben wins 17 to 14"
    assert jaipur.scores(state) == [1, 2]
    assert jaipur.finished(state) and jaipur.winner(state) == BEN
    assert jaipur.phase(state) == jaipur.FINISHED
    assert jaipur.next_starter(state) is None
    assert [r.result.winner for r in jaipur.results(state)] == [BEN, ANA, BEN]
    assert [r.starter for r in state.rounds] == [ANA, ANA, BEN]
    for event in [NEXT, sale(ANA, "cloth", 1), END, camels(1, 1)]:
        with pytest.raises(RuleError, match="The match is over: Ben has won it"):
            jaipur.apply(state, event)
    assert jaipur.complete(state, sale(ANA, "cloth", 3)) == sale(ANA, "cloth", 3)


def test_a_match_with_a_drawn_round_needs_a_fourth():
    state = play(
        sale(ANA, "cloth", 1), END, camels(0, 0),  # Ana 5 to 0
        NEXT,  # Ben lost, Ben starts
        sale(ANA, "cloth", 1), sale(BEN, "spice", 1), END, camels(1, 1),  # drawn 5 all
        NEXT,  # Ben started the drawn round, Ana starts
        sale(BEN, "leather", 2), END, camels(0, 1),  # Ben 12 to 0
        NEXT,  # Ana lost, Ana starts
    )
    assert [r.starter for r in state.rounds] == [ANA, BEN, ANA, ANA]
    assert jaipur.scores(state) == [1, 1]
    state = jaipur.apply(jaipur.apply(state, END), camels(6, 5))
    assert jaipur.scores(state) == [2, 1] and jaipur.winner(state) == ANA
    assert len(jaipur.results(state)) == 4


def test_camels_only_once_the_round_has_ended():
    state = play(sale(ANA, "cloth", 2))
    with pytest.raises(RuleError, match="Round 1 is still going"):
        jaipur.apply(state, camels(1, 2))
    state = jaipur.apply(jaipur.apply(state, END), camels(1, 2))
    with pytest.raises(RuleError, match="start the next round first"):
        jaipur.apply(state, camels(1, 2))


def test_next_round_only_once_the_round_is_scored():
    with pytest.raises(RuleError, match="still going"):
        play(NEXT)
    with pytest.raises(RuleError, match="enter both camel counts"):
        play(END, NEXT)


# --- the history ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "before, event, sentence",
    [
        ([], sale(ANA, "diamonds", 3, bonus=2),
         "Ana sold 3 diamonds for 19 (7 + 7 + 5) and a bonus token (1–3)."),
        ([], sale(BEN, "cloth", 1), "Ben sold 1 cloth for 5."),
        ([sale(ANA, "leather", 7, bonus=9)], sale(BEN, "leather", 3, bonus=1),
         "Ben sold 3 leather for 2 (1 + 1; 1 card took no token) and a bonus token (1–3)."),
        ([sale(ANA, "leather", 7, bonus=9), sale(BEN, "leather", 2)], sale(ANA, "leather", 1),
         "Ana sold 1 leather: no leather tokens were left."),
        ([sale(p, g, 5, bonus=b) for p, g, b in
          [(ANA, "leather", 8), (BEN, "leather", 8), (ANA, "cloth", 9), (BEN, "spice", 10),
           (ANA, "gold", 10)]],
         sale(BEN, "diamonds", 5),
         "Ben sold 5 diamonds for 29 (7 + 7 + 5 + 5 + 5); the bonus pile for 5 or more "
         "cards was empty. 3 goods stacks are empty: round 1 is over."),
        ([], END, "Round 1 ended: the market could not be refilled."),
        ([END], END, "The round ended."),
        ([sale(ANA, "cloth", 2), END], camels(5, 3),
         "Camels: Ana 5, Ben 3, the camel token to Ana. Ana wins 13 to 0 and takes a seal "
         "(1 of 2)."),
        ([sale(ANA, "silver", 2), sale(BEN, "silver", 2), END], camels(3, 3),
         "Camels: Ana 3, Ben 3, no camel token. Drawn round: equal points, bonus tokens and "
         "goods tokens; no seal."),
        ([sale(ANA, "cloth", 2), END, camels(0, 0)], NEXT, "Round 2 began; Ben starts."),
        ([sale(ANA, "cloth", 2), END, camels(0, 0), NEXT, sale(ANA, "cloth", 2), END],
         camels(0, 0),
         "Camels: Ana 0, Ben 0, no camel token. Ana wins 8 to 0 and takes a seal (2 of 2). "
         "Ana wins the match."),
        ([], {"type": "sale", "player": 0, "good": "gold", "cards": 1}, "A sale."),
        ([], camels(1, 1), "The camels were counted."),
        ([], {"type": "camels", "counts": "many"}, "The camels were counted."),
        ([], NEXT, "The next round began."),
        ([], {"type": "bribe"}, "An entry this app cannot read."),
        ([], "sale", "An entry this app cannot read."),
    ],
)
def test_describe(before, event, sentence):
    assert jaipur.describe(play(*before), event) == sentence


def test_describe_does_not_tell_the_bonus_value():
    state = jaipur.new_game(["Ana", "Ben"])
    assert "9" not in jaipur.describe(state, sale(ANA, "cloth", 5, bonus=9))
