"""Frutti di Mare rounds: dishes, turns, suspended selling, round ends, three rounds, quick tallies."""

import copy
import random

import pytest

from companion.rules import GAMES, frutti, replay
from companion.rules.frutti.track import prices_of, round_earnings

NAMES = ["Ana", "Bea", "Cy", "Dan"]
# Sea urchins (the rule text's "sea chestnuts") under 50, octopus under 30.
TABLE = ["shrimp", "oysters", "mussels", "octopus", "sea_urchins"]


def laid_out(players=NAMES, order=TABLE, **options):
    """A new game with the round-1 dishes laid out."""
    return frutti.apply(frutti.new_game(players, options or None), {"type": "dishes", "order": order})


def play(state, *cards):
    """Whoever's turn it is plays each card in turn."""
    for seafood in cards:
        state = frutti.apply(state, {"type": "play", "player": state.turn, "seafood": seafood})
    return state


def suspend(state, **hand):
    return frutti.apply(state, {"type": "suspend", "player": state.turn, "hand": hand})


def test_the_registry_finds_frutti():
    assert GAMES["frutti"] is frutti
    assert (frutti.NAME, frutti.MIN_PLAYERS, frutti.MAX_PLAYERS) == ("Frutti di Mare", 2, 6)
    assert frutti.STALLS == (0, 10, 20, 30, 50)
    assert frutti.SEAFOOD == ("shrimp", "sea_urchins", "oysters", "octopus", "mussels")
    assert frutti.PLURAL["sea_urchins"] == "sea urchins" and frutti.CARDS["sea_urchins"] == "sea urchin cards"


def test_a_new_game_waits_for_the_dishes():
    state = frutti.new_game(NAMES)
    assert (frutti.round_number(state), state.phase, frutti.whose_turn(state)) == (1, "dishes", None)
    assert frutti.price_track(state) == [] and frutti.prices(state) == {}
    assert frutti.scores(state) == [0, 0, 0, 0] and not frutti.finished(state)


def test_laid_out_dishes_set_the_prices_and_the_first_player_starts():
    state = laid_out(first_player=2)
    assert frutti.price_track(state) == [
        (0, "shrimp"), (10, "oysters"), (20, "mussels"), (30, "octopus"), (50, "sea_urchins")
    ]
    assert frutti.prices(state)["octopus"] == 30
    assert frutti.whose_turn(state) == 2
    assert frutti.last_move_words(state) is None


def test_the_rule_texts_octopus_move():
    state = play(laid_out(), "octopus")
    assert frutti.prices(state)["octopus"] == 50 and frutti.prices(state)["sea_urchins"] == 30
    assert frutti.last_move_words(state) == "Octopus 30 → 50, sea urchins 50 → 30"
    assert frutti.whose_turn(state) == 1


def test_the_dish_under_50_wraps_around_to_0():
    state = play(laid_out(), "sea_urchins")
    assert [s for _, s in frutti.price_track(state)] == ["sea_urchins", "shrimp", "oysters", "mussels", "octopus"]
    assert frutti.last_move_words(state) == (
        "Sea urchins 50 → 0, shrimp 0 → 10, oysters 10 → 20, mussels 20 → 30, octopus 30 → 50"
    )


def test_piles_show_the_last_card_on_top():
    state = play(laid_out(["Ana", "Bea"]), "octopus", "shrimp", "mussels", "shrimp", "octopus")
    ana, bea = state.piles
    assert ana.top == "octopus" and bea.top == "shrimp"
    assert ana.played == {"shrimp": 0, "sea_urchins": 0, "oysters": 0, "octopus": 2, "mussels": 1}
    assert (ana.cards, bea.cards) == (3, 2)
    assert frutti.cards_left(state)["shrimp"] == 7


def the_190_round():
    """Ana ends with 2 mussels, 2 sea urchins and 3 octopuses, selling at 30, 50 and 10."""
    state = play(laid_out(["Ana", "Bea"]), "mussels", "sea_urchins", "sea_urchins", "mussels", "octopus", "oysters")
    state = suspend(state, mussels=1, sea_urchins=1, octopus=2)  # Ana lays down her 4 cards
    state = play(state, "mussels")  # Ana is skipped: Bea plays on
    return suspend(state, shrimp=3)  # Bea has played 4: she lays down her last 3


def test_the_rule_texts_190_with_suspended_selling_counted_at_round_end():
    state = the_190_round()
    assert state.phase == "round_over" and frutti.whose_turn(state) is None
    assert frutti.prices(state) == {"oysters": 0, "octopus": 10, "shrimp": 20, "mussels": 30, "sea_urchins": 50}
    ana, bea = frutti.round_results(state)[0].earnings
    assert ana.words == "2 mussels × 30 + 2 sea urchins × 50 + 3 octopuses × 10 = 190"
    assert bea.words == "1 sea urchin × 50 + 2 mussels × 30 + 1 oyster × 0 + 3 shrimp × 20 = 170"
    assert frutti.scores(state) == [190, 170]
    assert state.piles[0].laid_down_cards["octopus"] == 2 and state.piles[0].suspended


def test_turns_skip_a_player_who_suspended():
    state = play(laid_out(["Ana", "Bea", "Cy"]), "shrimp")
    state = suspend(state, oysters=7)  # Bea lays down her whole hand
    turns = []
    while state.phase == "playing":
        turns.append(frutti.whose_turn(state))
        state = play(state, "shrimp" if state.piles[0].cards < 4 else "octopus")
    assert turns == [2] + [0, 2] * 6
    assert state.phase == "round_over"
    assert [pile.cards for pile in state.piles] == [7, 7, 7]
    assert frutti.round_results(state)[0].earnings[1].words.startswith("7 oysters × ")


def test_the_round_ends_by_itself_when_everyone_has_played_seven():
    state = laid_out(["Ana", "Bea"])
    for n in range(14):
        assert state.phase == "playing"
        state = play(state, frutti.SEAFOOD[n % 5])
    assert state.phase == "round_over"
    assert frutti.current_earnings(state) == list(frutti.round_results(state)[0].earnings)


def test_three_rounds_with_the_starter_moving_left():
    rng = random.Random(7)
    state = frutti.new_game(NAMES, {"first_player": 2})
    starters, hand_money = [], [0, 0, 0, 0]
    for number in (1, 2, 3):
        if number > 1:
            state = frutti.apply(state, {"type": "next_round"})
        dishes = {"type": "dishes", "shuffle": True} if number != 2 else {"type": "dishes", "keep": True}
        state = frutti.apply(state, frutti.complete(state, dishes, rng))
        starters.append(frutti.whose_turn(state))
        while state.phase == "playing":
            left = [s for s, n in frutti.cards_left(state).items() if n]
            state = play(state, rng.choice(left))
        assert frutti.round_number(state) == number
        result = frutti.round_results(state)[-1]
        for seat, pile in enumerate(result.piles):  # the hand calculation
            hand_money[seat] += sum(n * prices_of(result.track)[s] for s, n in pile.sold.items())
    assert starters == [2, 3, 0]
    assert [r.starter for r in frutti.round_results(state)] == [2, 3, 0]
    assert frutti.finished(state) and state.phase == "finished"
    assert frutti.scores(state) == hand_money
    standings = frutti.standings(state)
    assert [s.money for s in standings] == sorted(hand_money, reverse=True)
    assert standings[0].rank == 1


def test_keep_takes_the_order_the_last_round_ended_with():
    state = frutti.apply(the_190_round(), {"type": "next_round"})
    final = list(frutti.round_results(state)[0].track)
    assert frutti.complete(state, {"type": "dishes", "keep": True}) == {"type": "dishes", "keep": True, "order": final}
    kept = frutti.apply(state, {"type": "dishes", "keep": True})
    assert kept == frutti.apply(state, frutti.complete(state, {"type": "dishes", "keep": True}))
    assert [s for _, s in frutti.price_track(kept)] == final
    assert frutti.whose_turn(kept) == 1  # round 2 starts left of Ana
    assert kept.piles == (frutti.Pile(), frutti.Pile())


def test_complete_shuffles_once_and_the_stored_event_replays_identically():
    state = frutti.new_game(NAMES)
    event = {"type": "dishes", "shuffle": True}
    completed = frutti.complete(state, event, random.Random(3))
    assert event == {"type": "dishes", "shuffle": True}
    assert sorted(completed["order"]) == sorted(frutti.SEAFOOD)
    assert frutti.complete(state, completed, random.Random(4)) == completed
    assert replay(frutti, NAMES, None, [completed]) == frutti.apply(state, completed)
    assert frutti.complete(state, {"type": "play", "player": 0, "seafood": "shrimp"}) == {
        "type": "play", "player": 0, "seafood": "shrimp"
    }
    assert sorted(frutti.complete(state, event)["order"]) == sorted(frutti.SEAFOOD)  # system randomness


def test_a_tally_enters_a_whole_round_at_its_start():
    order = ["shrimp", "octopus", "oysters", "mussels", "sea_urchins"]
    cards = [{"mussels": 2, "sea_urchins": 2, "octopus": 3}, {"shrimp": 7}, {"oysters": 7}]
    state = frutti.apply(frutti.new_game(["Ana", "Bea", "Cy"]), {"type": "tally", "order": order, "cards": cards})
    assert state.phase == "round_over"
    assert [e.words for e in frutti.round_results(state)[0].earnings] == [
        "2 sea urchins × 50 + 3 octopuses × 10 + 2 mussels × 30 = 190", "7 shrimp × 0 = 0", "7 oysters × 20 = 140"
    ]
    assert frutti.scores(state) == [190, 0, 140]
    assert state.piles[0].played["octopus"] == 3 and state.piles[0].top is None
    assert frutti.round_results(state)[0].tallied
    # The dishes lie as the tally left them: the next round can keep them.
    state = frutti.apply(frutti.apply(state, {"type": "next_round"}), {"type": "dishes", "keep": True})
    assert [s for _, s in frutti.price_track(state)] == order


def test_a_tally_is_allowed_after_the_dishes_before_any_card():
    cards = [{"octopus": 7}, {"shrimp": 7}]
    state = frutti.apply(laid_out(["Ana", "Bea"]), {"type": "tally", "order": TABLE, "cards": cards})
    assert frutti.scores(state) == [210, 0]


def test_equal_money_shares_a_rank():
    state = frutti.new_game(["Ana", "Bea", "Cy"])
    for number in (1, 2, 3):
        if number > 1:
            state = frutti.apply(state, {"type": "next_round"})
        cards = [{"octopus": 4, "shrimp": 3}, {"octopus": 4, "shrimp": 3}, {"mussels": 3, "shrimp": 2, "oysters": 2}]
        state = frutti.apply(state, {"type": "tally", "order": TABLE, "cards": cards})
    assert [(s.rank, s.player, s.money) for s in frutti.standings(state)] == [
        (1, "Ana", 360), (1, "Bea", 360), (3, "Cy", 240)
    ]


@pytest.mark.parametrize(
    ("events", "event", "words"),
    [
        ([], {"type": "dishes", "order": TABLE},
         "Round 1 dishes: shrimp 0, oysters 10, mussels 20, octopus 30, sea urchins 50."),
        ([{"type": "dishes", "order": TABLE}], {"type": "play", "player": 0, "seafood": "octopus"},
         "Ana played octopus: Octopus 30 → 50, sea urchins 50 → 30."),
        ([{"type": "dishes", "order": TABLE}],
         {"type": "suspend", "player": 0, "hand": {"shrimp": 2, "oysters": 1, "octopus": 4}},
         "Ana suspended selling, laying down 2 shrimp, 1 oyster, 4 octopuses."),
        ([{"type": "tally", "order": TABLE, "cards": [{"shrimp": 7}, {"oysters": 7}]}], {"type": "next_round"},
         "Round 2 starts with Bea."),
        ([], {"type": "tally", "order": TABLE, "cards": [{"octopus": 7}, {"shrimp": 7}]},
         "Round 1 entered at once: Ana 210, Bea 0."),
        ([], {"type": "play", "player": 0, "seafood": "octopus"}, "Refused entry: Lay out the dishes for round 1 first."),
    ],
)
def test_describe_says_each_entry_in_words(events, event, words):
    state = replay(frutti, ["Ana", "Bea"], None, events)
    assert frutti.describe(state, event) == words


def test_states_are_immutable_and_never_shared_lists():
    state = the_190_round()
    before = copy.deepcopy(state)
    hash(state)  # only tuples and frozen dataclasses inside
    frutti.apply(state, {"type": "next_round"})
    assert state == before


def test_round_earnings_of_the_quick_tally_page():
    assert frutti.round_earnings({"octopus": 10, "mussels": 30, "sea_urchins": 50},
                                 {"mussels": 2, "sea_urchins": 2, "octopus": 3}) == 190
    assert round_earnings is frutti.round_earnings
