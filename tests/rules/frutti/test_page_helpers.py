"""Frutti di Mare's read-outs for the pages: the quick tally, ranks, hands left, what moved."""

import pytest

from companion.rules import RuleError, frutti

TABLE = ["shrimp", "oysters", "mussels", "octopus", "sea_urchins"]


def laid_out(players=("Ana", "Bea", "Cy")):
    return frutti.apply(frutti.new_game(list(players)), {"type": "dishes", "order": TABLE})


def test_tally_earnings_shows_the_rule_texts_190_with_its_arithmetic():
    order = ["shrimp", "octopus", "oysters", "mussels", "sea_urchins"]
    money = frutti.tally_earnings(order, [{"mussels": 2, "sea_urchins": 2, "octopus": 3}, {"shrimp": 7}], ["Ana", "Bea"])
    assert [e.total for e in money] == [190, 0]
    assert money[0].words == "2 sea urchins × 50 + 3 octopuses × 10 + 2 mussels × 30 = 190"
    assert money[1].words == "7 shrimp × 0 = 0"


@pytest.mark.parametrize("order, cards, message, field", [
    (TABLE[:4], [{}, {}], "Each of the five dishes lies under exactly one stall.", "order"),
    (TABLE, [{}], "Enter the cards of all 2 players.", "cards"),
    (TABLE, [{"shrimp": 8}, {"oysters": 7}],
     "Ana has 8 cards: every player sells exactly 7 a round (played and laid down).", "cards"),
    (TABLE, [{"shrimp": 7}, {"oysters": 1}],
     "Bea has 1 card: every player sells exactly 7 a round (played and laid down).", "cards"),
    (TABLE, [{"shrimp": 5, "octopus": 2}, {"shrimp": 5, "mussels": 2}], "There are only 9 shrimp, not 10.",
     "cards"),
    (TABLE, [{"crab": 1}, {}], "Choose one of the seafood: shrimp, sea urchins, oysters, octopus, mussels.", "cards"),
    (TABLE, "shrimp", "Enter every player's cards, by seafood.", "cards"),
])
def test_an_impossible_tally_is_refused_with_the_field(order, cards, message, field):
    with pytest.raises(RuleError) as refused:
        frutti.tally_earnings(order, cards, ["Ana", "Bea"])
    assert (refused.value.message, refused.value.field) == (message, field)


def test_ranked_shares_a_rank_for_equal_money():
    ranks = frutti.ranked(["Ana", "Bea", "Cy", "Dan"], [90, 120, 90, 10])
    assert [(s.rank, s.player, s.money) for s in ranks] == [(1, "Bea", 120), (2, "Ana", 90), (2, "Cy", 90), (4, "Dan", 10)]


def test_hand_left_and_the_most_of_each_seafood_a_hand_can_hold():
    state = laid_out()
    assert frutti.hand_left(state, 0) == 7
    for _ in range(2):  # Ana, Bea, Cy each play shrimp twice: 6 of the 9 shrimp are out
        for seat in range(3):
            state = frutti.apply(state, {"type": "play", "player": seat, "seafood": "shrimp"})
    assert frutti.hand_left(state, 0) == 5
    assert frutti.most_in_hand(state, 0) == {"shrimp": 3, "sea_urchins": 5, "oysters": 5, "octopus": 5, "mussels": 5}
    state = frutti.apply(state, {"type": "suspend", "player": 0, "hand": {"oysters": 5}})  # all 5 left
    assert frutti.hand_left(state, 0) == 0 and frutti.most_in_hand(state, 0)["octopus"] == 0


def test_moved_seafood_names_the_dishes_the_last_card_moved():
    state = laid_out()
    assert frutti.moved_seafood(state) == frozenset() and not frutti.round_started(state)
    state = frutti.apply(state, {"type": "play", "player": 0, "seafood": "sea_urchins"})  # 50 wraps to 0
    assert frutti.moved_seafood(state) == frozenset(TABLE)
    assert frutti.round_started(state)


def test_winners_and_the_next_round_number():
    state = frutti.new_game(["Ana", "Bea"])
    assert frutti.next_round_number(state) == 2 and frutti.next_starter(state) == 1
    assert frutti.next_starter(frutti.new_game(["Ana", "Bea"], {"first_player": 1})) == 0
    for _ in range(3):
        state = frutti.apply(state, {"type": "tally", "order": TABLE,
                                     "cards": [{"octopus": 4, "shrimp": 3}, {"octopus": 4, "shrimp": 3}]})
        if not frutti.finished(state):
            state = frutti.apply(state, {"type": "next_round"})
    assert frutti.winners(state) == ["Ana", "Bea"]
    assert [s.rank for s in frutti.standings(state)] == [1, 1]
