"""Every entry Frutti di Mare refuses: the sentence players see, and nothing changed."""

import copy

import pytest

from companion.rules import RuleError, frutti

TABLE = ["shrimp", "oysters", "mussels", "octopus", "sea_urchins"]
DISHES = {"type": "dishes", "order": TABLE}


def play(seat, seafood):
    return {"type": "play", "player": seat, "seafood": seafood}


def tally(cards, order=TABLE):
    return {"type": "tally", "order": order, "cards": cards}


def build(*events, players=("Ana", "Bea")):
    state = frutti.new_game(list(players))
    for event in events:
        state = frutti.apply(state, event)
    return state


# Ana has played 5 octopus and Bea 4: all 9 are out, and it is Bea's turn.
NINE_OCTOPUS = [DISHES] + [play(n % 2, "octopus") for n in range(9)]
# Every player sells exactly 7 cards a round.
FULL = [{"shrimp": 7}, {"oysters": 7}]
ROUND_OVER = [tally(FULL)]
FINISHED = ROUND_OVER + [{"type": "next_round"}, tally(FULL), {"type": "next_round"}, tally(FULL)]
# Ana and Bea have played 6 cards each: Ana holds her last card.
SIX_EACH = [DISHES] + [play(n % 2, frutti.SEAFOOD[n % 5]) for n in range(12)]

CHOOSE_SEAFOOD = "Choose one of the seafood: shrimp, sea urchins, oysters, octopus, mussels."
NOT_AT_START = "A whole round can be entered only at its start, before any card is played."
ORDER = "Give the dish under each stall, from 0 to 50."
OVER = "Round 1 is over: start round 2 first."
SEAT = "Choose one of the players at the table."

REFUSALS = [
    # What no game has
    ([], "play", "This entry is not readable.", "type"),
    ([], {}, "Frutti di Mare has no such entry.", "type"),
    ([], {"type": "pass"}, "Frutti di Mare has no such entry.", "type"),
    ([], {"type": ["play"]}, "Frutti di Mare has no such entry.", "type"),
    # Dish order
    ([], {"type": "dishes"}, ORDER, "order"),
    ([], {"type": "dishes", "shuffle": True}, ORDER, "order"),
    ([], {"type": "dishes", "order": TABLE[:4]}, "Each of the five dishes lies under exactly one stall.", "order"),
    ([], {"type": "dishes", "order": TABLE[:4] + ["shrimp"]},
     "Each of the five dishes lies under exactly one stall.", "order"),
    ([], {"type": "dishes", "order": TABLE[:4] + ["crab"]}, CHOOSE_SEAFOOD, "order"),
    ([], {"type": "dishes", "order": "shrimp oysters"}, ORDER, "order"),
    ([], {"type": "dishes", "keep": True}, "In round 1 there is no earlier dish order to keep.", "order"),
    ([], {"type": "dishes", "keep": "yes"}, "Say whether the dishes are kept or shuffled: yes or no.", "order"),
    (ROUND_OVER + [{"type": "next_round"}], {"type": "dishes", "keep": True, "shuffle": True},
     "Either keep the dishes as they lie or shuffle them, not both.", "order"),
    (ROUND_OVER + [{"type": "next_round"}], {"type": "dishes", "keep": True, "order": TABLE[::-1]},
     "Kept dishes must lie as they did at the end of the last round.", "order"),
    ([DISHES], DISHES, "The dishes of round 1 are already laid out.", "type"),
    (ROUND_OVER, DISHES, OVER, "type"),
    # Playing a card
    ([], play(0, "shrimp"), "Lay out the dishes for round 1 first.", "type"),
    ([DISHES], play(1, "shrimp"), "It is Ana's turn, not Bea's.", "player"),
    ([DISHES], {"type": "play", "seafood": "shrimp"}, SEAT, "player"),
    ([DISHES], play(True, "shrimp"), SEAT, "player"),
    ([DISHES], play("0", "shrimp"), SEAT, "player"),
    ([DISHES], play(2, "shrimp"), SEAT, "player"),
    ([DISHES], play(-1, "shrimp"), SEAT, "player"),
    ([DISHES], play(0, "crab"), CHOOSE_SEAFOOD, "seafood"),
    ([DISHES], {"type": "play", "player": 0}, CHOOSE_SEAFOOD, "seafood"),
    (NINE_OCTOPUS, play(1, "octopus"), "All 9 octopuses are already out this round.", "seafood"),
    (ROUND_OVER, play(0, "shrimp"), OVER, "type"),
    # Suspended selling
    ([DISHES], {"type": "suspend", "player": 1, "hand": {}}, "It is Ana's turn, not Bea's.", "player"),
    ([DISHES], {"type": "suspend", "player": 0}, "Enter the cards left in hand, by seafood.", "hand"),
    ([DISHES], {"type": "suspend", "player": 0, "hand": ["shrimp"]},
     "Give the number of cards of each seafood.", "hand"),
    ([DISHES], {"type": "suspend", "player": 0, "hand": {"crab": 1}}, CHOOSE_SEAFOOD, "hand"),
    ([DISHES], {"type": "suspend", "player": 0, "hand": {"shrimp": -1}},
     "The number of shrimp must be a whole number, 0 or more.", "hand"),
    ([DISHES], {"type": "suspend", "player": 0, "hand": {"shrimp": 4, "octopus": 4}},
     "Ana has played 0 cards, so 7 cards are left in hand: lay all 7 down, not 8.", "hand"),
    # A hand holds exactly 7 − the cards played: a card left out would vanish from the scoring.
    ([DISHES], {"type": "suspend", "player": 0, "hand": {"shrimp": 2}},
     "Ana has played 0 cards, so 7 cards are left in hand: lay all 7 down, not 2.", "hand"),
    ([DISHES], {"type": "suspend", "player": 0, "hand": {}},
     "Ana has played 0 cards, so 7 cards are left in hand: lay all 7 down, not 0.", "hand"),
    (NINE_OCTOPUS, {"type": "suspend", "player": 1, "hand": {"shrimp": 4}},
     "Bea has played 4 cards, so 3 cards are left in hand: lay all 3 down, not 4.", "hand"),
    (SIX_EACH, {"type": "suspend", "player": 0, "hand": {}},
     "Ana has played 6 cards, so 1 card is left in hand: lay it down, not 0.", "hand"),
    (NINE_OCTOPUS, {"type": "suspend", "player": 1, "hand": {"octopus": 1, "shrimp": 2}},
     "Only 0 of the 9 octopus cards are still unplayed this round, not 1.", "hand"),
    (ROUND_OVER, {"type": "suspend", "player": 0, "hand": {}}, OVER, "type"),
    # Rounds
    ([], {"type": "next_round"}, "Round 1 is not over yet.", "type"),
    ([DISHES], {"type": "next_round"}, "Round 1 is not over yet.", "type"),
    (FINISHED, {"type": "next_round"}, "The game is over: all 3 rounds have been played.", "type"),
    (FINISHED, DISHES, "The game is over: all 3 rounds have been played.", "type"),
    (FINISHED, play(0, "shrimp"), "The game is over: all 3 rounds have been played.", "type"),
    (FINISHED, tally([{}, {}]), "The game is over: all 3 rounds have been played.", "type"),
    # Quick tally
    ([DISHES, play(0, "shrimp")], tally([{}, {}]), NOT_AT_START, "type"),
    ([DISHES, {"type": "suspend", "player": 0, "hand": {"shrimp": 7}}], tally([{}, {}]), NOT_AT_START, "type"),
    (ROUND_OVER, tally([{}, {}]), NOT_AT_START, "type"),
    ([], tally([{}, {}], order=TABLE[1:]), "Each of the five dishes lies under exactly one stall.", "order"),
    ([], tally({"0": {}, "1": {}}), "Enter every player's cards, by seafood.", "cards"),
    ([], tally([{}]), "Enter the cards of all 2 players.", "cards"),
    ([], tally([{}, {"octopus": 1.0}]), "The number of octopus must be a whole number, 0 or more.", "cards"),
    ([], tally([{"shrimp": 4, "mussels": 4}, {"oysters": 7}]),
     "Ana has 8 cards: every player sells exactly 7 a round (played and laid down).", "cards"),
    ([], tally([{"shrimp": 7}, {"octopus": 6}]),
     "Bea has 6 cards: every player sells exactly 7 a round (played and laid down).", "cards"),
    ([], tally([{"shrimp": 7}, {}]), "Bea has 0 cards: every player sells exactly 7 a round (played and laid down).",
     "cards"),
    ([], tally([{"mussels": 1, "shrimp": 6}, {"shrimp": 7}]),
     "There are only 9 shrimp, not 13.", "cards"),
    ([], tally([{"oysters": 5, "shrimp": 2}, {"oysters": 5, "mussels": 2}]),
     "There are only 9 oysters, not 10.", "cards"),
]


@pytest.mark.parametrize(("events", "event", "message", "field"), REFUSALS)
def test_refused_with_a_sentence_and_nothing_changes(events, event, message, field):
    state = build(*events)
    state_before, event_before = copy.deepcopy(state), copy.deepcopy(event)
    with pytest.raises(RuleError) as refused:
        frutti.apply(state, event)
    assert (refused.value.message, refused.value.field) == (message, field)
    assert state == state_before and event == event_before


@pytest.mark.parametrize(
    ("players", "options", "message", "field"),
    [
        (["Ana"], None, "Frutti di Mare is for 2 to 6 players.", "players"),
        (["P1", "P2", "P3", "P4", "P5", "P6", "P7"], None, "Frutti di Mare is for 2 to 6 players.", "players"),
        (["Ana", "Bea"], {"first_player": 2}, "The first player must be one of the players at the table.",
         "first_player"),
        (["Ana", "Bea"], {"first_player": -1}, "The first player must be one of the players at the table.",
         "first_player"),
        (["Ana", "Bea"], {"first_player": True}, "The first player must be one of the players at the table.",
         "first_player"),
        (["Ana", "Bea"], {"first_player": "1"}, "The first player must be one of the players at the table.",
         "first_player"),
        (["Ana", "Bea"], {"rounds": 4}, "Frutti di Mare has no setting 'rounds'.", "options"),
        (["Ana", "Bea"], ["first_player"], "The table's settings are not readable.", "options"),
    ],
)
def test_new_game_refuses(players, options, message, field):
    with pytest.raises(RuleError) as refused:
        frutti.new_game(players, options)
    assert (refused.value.message, refused.value.field) == (message, field)


def test_six_players_and_any_first_player_are_fine():
    state = frutti.new_game(["P1", "P2", "P3", "P4", "P5", "P6"], {"first_player": 5})
    assert frutti.apply(state, DISHES).turn == 5
