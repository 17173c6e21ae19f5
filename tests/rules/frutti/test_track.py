"""Frutti di Mare's price track and selling arithmetic, against the rule text and an independent model."""

import ast
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import RuleError, frutti
from companion.rules.frutti.track import (
    SEAFOOD,
    STALLS,
    check_cards,
    check_order,
    earnings,
    moves_words,
    play_on_track,
    prices_of,
    round_earnings,
    seafood_cards,
    seafood_name,
)

# A track for the examples: sea urchins (the rule text's "sea chestnuts") under 50, octopus under 30.
TABLE = ("shrimp", "oysters", "mussels", "octopus", "sea_urchins")


# An independent model of the track: a price per seafood, stepped as RULES.md §3 says it in words.
NEXT_STALL = {0: 10, 10: 20, 20: 30, 30: 50}


def model_play(price: dict, played: str) -> dict:
    """The prices after a card of ``played``: up one stall, or from 50 to 0 pushing everyone else up."""
    if price[played] == 50:
        return {s: 0 if s == played else NEXT_STALL[p] for s, p in price.items()}
    higher = NEXT_STALL[price[played]]
    return {s: higher if s == played else price[played] if p == higher else p for s, p in price.items()}


@pytest.mark.parametrize(
    ("played", "after", "words"),
    [
        # Rule text: octopus under 30 is played, it goes under 50 and the sea chestnuts drop to 30.
        ("octopus", ("shrimp", "oysters", "mussels", "sea_urchins", "octopus"),
         "Octopus 30 → 50, sea urchins 50 → 30"),
        # Rule text: the dish under 50 goes under 0 and all the others move one stall right.
        ("sea_urchins", ("sea_urchins", "shrimp", "oysters", "mussels", "octopus"),
         "Sea urchins 50 → 0, shrimp 0 → 10, oysters 10 → 20, mussels 20 → 30, octopus 30 → 50"),
        ("shrimp", ("oysters", "shrimp", "mussels", "octopus", "sea_urchins"),
         "Shrimp 0 → 10, oysters 10 → 0"),
        ("mussels", ("shrimp", "oysters", "octopus", "mussels", "sea_urchins"),
         "Mussels 20 → 30, octopus 30 → 20"),
    ],
)
def test_a_card_moves_its_dish(played, after, words):
    track, moves = play_on_track(TABLE, played)
    assert track == after
    assert moves_words(moves) == words


def test_the_rule_texts_190():
    """2 mussels at 30, 2 sea chestnuts at 50, 3 octopuses at 10 earn 190."""
    prices = {"octopus": 10, "mussels": 30, "sea_urchins": 50}
    cards = {"mussels": 2, "sea_urchins": 2, "octopus": 3}
    assert round_earnings(prices, cards) == 190
    assert earnings(prices, cards, ["mussels", "sea_urchins", "octopus"]).words == (
        "2 mussels × 30 + 2 sea urchins × 50 + 3 octopuses × 10 = 190"
    )


def test_earnings_terms_follow_the_first_order_then_the_seafood_order():
    prices = prices_of(TABLE)
    cards = {"shrimp": 1, "oysters": 2, "octopus": 1, "sea_urchins": 1}
    assert earnings(prices, cards, ["octopus"]).words == (
        "1 octopus × 30 + 1 shrimp × 0 + 1 sea urchin × 50 + 2 oysters × 10 = 100"
    )
    assert earnings(prices, {}).words == "no cards = 0"


@pytest.mark.parametrize(
    ("seafood", "count", "words"),
    [("sea_urchins", 1, "1 sea urchin"), ("sea_urchins", 2, "2 sea urchins"), ("oysters", 1, "1 oyster"),
     ("octopus", 3, "3 octopuses"), ("shrimp", 1, "1 shrimp"), ("mussels", 0, "0 mussels")],
)
def test_seafood_names(seafood, count, words):
    assert seafood_cards(seafood, count) == words


def test_each_dish_is_named_in_the_plural():
    assert [seafood_name(s) for s in SEAFOOD] == ["shrimp", "sea urchins", "oysters", "octopus", "mussels"]


@pytest.mark.parametrize(
    ("prices", "cards", "message"),
    [
        ({"shrimp": 0}, {"crab": 1}, "Choose one of the seafood: shrimp, sea urchins, oysters, octopus, mussels."),
        ({"shrimp": 0}, {"shrimp": -1}, "The number of shrimp must be a whole number, 0 or more."),
        ({"shrimp": 0}, {"shrimp": True}, "The number of shrimp must be a whole number, 0 or more."),
        ({"shrimp": 0}, {"shrimp": 1.5}, "The number of shrimp must be a whole number, 0 or more."),
        ({"shrimp": 0}, {"oysters": 2}, "The price of oysters is missing."),
        ({}, ["shrimp"], "Give the number of cards of each seafood."),
    ],
)
def test_round_earnings_refuses_what_is_not_cards(prices, cards, message):
    with pytest.raises(RuleError) as refused:
        round_earnings(prices, cards)
    assert refused.value.message == message


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (None, "Give the dish under each stall, from 0 to 50."),
        ("shrimp", "Give the dish under each stall, from 0 to 50."),
        (["shrimp", "oysters", "mussels", "octopus"], "Each of the five dishes lies under exactly one stall."),
        (["shrimp"] * 5, "Each of the five dishes lies under exactly one stall."),
        (["shrimp", "oysters", "mussels", "octopus", "crab"],
         "Choose one of the seafood: shrimp, sea urchins, oysters, octopus, mussels."),
    ],
)
def test_check_order_refuses(order, message):
    with pytest.raises(RuleError) as refused:
        check_order(order)
    assert (refused.value.message, refused.value.field) == (message, "order")


def test_check_cards_fills_missing_seafood_with_zero():
    assert check_cards({"octopus": 2}, "hand") == (0, 0, 0, 2, 0)


@given(start=st.permutations(SEAFOOD), cards=st.lists(st.sampled_from(SEAFOOD), max_size=120))
def test_track_matches_the_model_and_stays_a_permutation(start, cards):
    track, price = tuple(start), prices_of(tuple(start))
    for played in cards:
        before = prices_of(track)
        track, moves = play_on_track(track, played)
        price = model_play(price, played)
        assert prices_of(track) == price
        assert sorted(track) == sorted(SEAFOOD)
        assert sorted(price.values()) == list(STALLS)
        assert moves[0].seafood == played
        assert {m.seafood: (m.before, m.after) for m in moves} == {
            s: (before[s], price[s]) for s in SEAFOOD if before[s] != price[s]
        }


def model_next_seat(after: int, players: int, out_of_turns: set) -> int | None:
    """The next seat clockwise still selling, or None."""
    seats = [(after + step) % players for step in range(1, players + 1)]
    return next((seat for seat in seats if seat not in out_of_turns), None)


@settings(max_examples=300)
@given(data=st.data(), players=st.integers(2, 6), start=st.permutations(SEAFOOD))
def test_random_rounds_in_the_engine_match_the_model(data, players, start):
    """Cards played and hands laid down at random: prices, turns and money as the model says."""
    first = data.draw(st.integers(0, players - 1))
    state = frutti.new_game([f"P{seat}" for seat in range(players)], {"first_player": first})
    state = frutti.apply(state, {"type": "dishes", "order": list(start)})
    price = {seafood: STALLS[i] for i, seafood in enumerate(start)}
    sold = [dict.fromkeys(SEAFOOD, 0) for _ in range(players)]
    played, out_of_turns, seat = [0] * players, set(), first
    while seat is not None:
        assert frutti.whose_turn(state) == seat
        unplayed = {s: 9 - sum(cards[s] for cards in sold) for s in SEAFOOD}
        if data.draw(st.integers(0, 9)) == 0:  # suspend selling, now and then: the whole hand left is laid down
            hand = dict.fromkeys(SEAFOOD, 0)
            while sum(hand.values()) < 7 - played[seat]:
                card = data.draw(st.sampled_from([s for s in SEAFOOD if hand[s] < unplayed[s]]))
                hand[card] += 1
            state = frutti.apply(state, {"type": "suspend", "player": seat, "hand": hand})
            for s in SEAFOOD:
                sold[seat][s] += hand[s]
            out_of_turns.add(seat)
        else:
            card = data.draw(st.sampled_from([s for s in SEAFOOD if unplayed[s]]))
            state = frutti.apply(state, {"type": "play", "player": seat, "seafood": card})
            price = model_play(price, card)
            sold[seat][card] += 1
            played[seat] += 1
            if played[seat] == 7:
                out_of_turns.add(seat)
        assert frutti.prices(state) == price
        assert sorted(frutti.prices(state).values()) == list(STALLS)
        seat = model_next_seat(seat, players, out_of_turns)
    assert state.phase == "round_over" and frutti.whose_turn(state) is None
    # every player sells exactly 7 cards a round, played or laid down
    assert [pile.cards for pile in frutti.round_results(state)[0].piles] == [7] * players
    money = [sum(cards[s] * price[s] for s in SEAFOOD) for cards in sold]
    assert frutti.scores(state) == money
    assert [e.total for e in frutti.round_results(state)[0].earnings] == money


@given(
    price=st.permutations(STALLS).map(lambda p: dict(zip(SEAFOOD, p))),
    cards=st.fixed_dictionaries({}, optional={s: st.integers(0, 9) for s in SEAFOOD}),
)
def test_round_earnings_is_cards_times_prices(price, cards):
    expected = 0
    for seafood, count in cards.items():
        expected += count * price[seafood]
    assert round_earnings(price, cards) == expected
    assert earnings(price, cards).words.endswith(f"= {expected}")


@pytest.mark.parametrize("module", ["__init__.py", "track.py"])
def test_rules_use_only_the_standard_library(module):
    tree = ast.parse((Path(frutti.__file__).parent / module).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    outside = {
        name for name in imported
        if name.split(".")[0] not in sys.stdlib_module_names and not name.startswith("companion.rules")
        and name != "companion.rules"
    }
    assert outside == set()
