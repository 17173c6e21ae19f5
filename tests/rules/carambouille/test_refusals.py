"""Every constraint of RULES.md §1 refused with its sentence, and the state unchanged."""

import copy
from dataclasses import replace

import pytest

from companion.rules import RuleError
from companion.rules import carambouille as game

ANA, BEN, CY = 0, 1, 2


def holding(state, seat, **cards):
    """The state with a player holding Carambouille cards, as if drawn from the deck."""
    row = tuple(cards.get(kind, 0) for kind in game.CARD_TYPES)
    bought = list(state.bought)
    held = list(state.held)
    bought[seat] = tuple(a + b for a, b in zip(bought[seat], row))
    held[seat] = tuple(a + b for a, b in zip(held[seat], row))
    return replace(state, bought=tuple(bought), held=tuple(held))


def fresh():
    return game.new_game(["Ana", "Ben", "Cy"])


def market():
    return game.apply(fresh(), {"type": "market_opened"})


def sales(points=(0, 0, 0)):
    state = game.apply(market(), {"type": "market_closed"})
    return replace(state, points=tuple(points))


def armed():
    """Sales phase, Ana's turn, everyone holding one of each sale card and 200 points."""
    state = sales((200, 200, 200))
    for seat in (ANA, BEN, CY):
        state = holding(state, seat, illusion=1, bargain=1, overstock=1)
    return state


def between_hands():
    state = sales()
    for seat in (ANA, BEN, CY):
        state = game.apply(state, {"type": "end_sales_turn", "player": seat})
    return state


def last_hand_over():
    state = replace(between_hands(), stock=9, hand_estimates=(5, 5, 5))
    state = game.apply(state, {"type": "deal", "cards": [3, 3, 3]})
    assert state.last_hand
    state = game.apply(game.apply(state, {"type": "market_opened"}), {"type": "market_closed"})
    for seat in (BEN, CY, ANA):
        state = game.apply(state, {"type": "end_sales_turn", "player": seat})
    return state


def with_basket(state, estimates):
    """Ana has laid a Basket (hand limit 10); the app estimates the hands at ``estimates``."""
    played = ((1, 0, 0, 0, 0, 0),) + state.played[1:]
    return replace(state, played=played, bought=played, hand_estimates=estimates)


def sold_out(product, count):
    state = armed()
    index = [p.slug for p in game.PRODUCTS].index(product)
    return replace(state, sold=state.sold[:index] + (count,) + state.sold[index + 1 :])


def sale(player, product, cards, *effects):
    return {
        "type": "sale", "player": player, "product": product, "cards": cards,
        "effects": [{"card": card, "player": by} for card, by in effects],
    }


def buy(player, *cards):
    return {"type": "buy", "player": player, "cards": list(cards)}


CASES = [
    # --- the shape of an entry
    ("not a dict", fresh, ["sale"], "no entry of type None", "type"),
    ("unknown type", fresh, {"type": "steal"}, "no entry of type 'steal'", "type"),
    ("unhashable type", fresh, {"type": ["sale"]}, "no entry of type", "type"),
    ("extra key", fresh, {"type": "market_opened", "mode": "timer"}, "no 'mode'", "mode"),
    ("missing key", armed, {"type": "sale", "player": 0, "cards": 1}, "missing 'product'", "product"),
    ("seat out of range", armed, sale(3, "cheese", 1), "no player at seat 3", "player"),
    ("seat as bool", armed, sale(True, "cheese", 1), "no player at seat True", "player"),
    ("seat as text", armed, sale("0", "cheese", 1), "no player at seat '0'", "player"),
    # --- the bell
    ("open twice", market, {"type": "market_opened"}, "market is open", "type"),
    ("open during sales", sales, {"type": "market_opened"}, "sales phase", "type"),
    ("close before opening", fresh, {"type": "market_closed"}, "has not rung the bell", "type"),
    ("rung by nobody at the table", fresh, {"type": "market_opened", "rung_by": 3}, "no player at seat 3", "rung_by"),
    ("rung by a bool", market, {"type": "market_closed", "rung_by": True}, "no player at seat True", "rung_by"),
    ("close twice", sales, {"type": "market_closed"}, "Only an open market", "type"),
    ("negative seconds", market, {"type": "market_closed", "seconds": -1}, "0 to 86400", "seconds"),
    ("seconds as bool", market, {"type": "market_closed", "seconds": True}, "whole number", "seconds"),
    ("seconds as float", market, {"type": "market_closed", "seconds": 9.5}, "whole number", "seconds"),
    # --- sales: phase and turn order
    ("sale before the market", fresh, sale(0, "cheese", 1), "Selling happens in the sales phase", "type"),
    ("sale while the market is open", market, sale(0, "cheese", 1), "market is open", "type"),
    ("sale between hands", between_hands, sale(0, "cheese", 1), "the hand is over and Ben deals", "type"),
    ("sale out of turn", armed, sale(1, "cheese", 1), "It is Ana's sales turn, not Ben's", "player"),
    # --- sales: what is sold
    ("unknown product", armed, sale(0, "caviar", 1), "Carambouille has no product called 'caviar'", "product"),
    ("product as list", armed, sale(0, ["cheese"], 1), "no product called ['cheese']", "product"),
    ("no cards", armed, sale(0, "cheese", 0), "from 1 to 5", "cards"),
    ("six cards", armed, sale(0, "cheese", 6), "from 1 to 5", "cards"),
    ("cards as text", armed, sale(0, "cheese", "3"), "from 1 to 5", "cards"),
    ("more than the cards left", lambda: sold_out("cheese", 3), sale(0, "cheese", 3),
     "Only 2 cheese cards are left to sell (3 of 5 sold)", "cards"),
    ("one card left", lambda: sold_out("saffron", 4), sale(0, "saffron", 2),
     "Only 1 saffron card is left to sell (4 of 5 sold)", "cards"),
    ("all five sold", lambda: sold_out("foie_gras", 5), sale(0, "foie_gras", 1),
     "All 5 foie gras cards have been sold already", "cards"),
    # --- sale cards
    ("effects not a list", armed, {**sale(0, "cheese", 1), "effects": "illusion"}, "are a list", "effects"),
    ("effect without its player", armed, {**sale(0, "cheese", 1), "effects": [{"card": "bargain"}]},
     "who played it", "effects"),
    ("basket on a sale", armed, sale(0, "cheese", 1, ("basket", 0)), "Only Illusion, Bargain and Overstock are played on a sale, not 'basket'", "effects"),
    ("Illusion by another player", armed, sale(0, "cheese", 1, ("illusion", 1)),
     "Only the seller can play Illusion", "effects"),
    ("Bargain by the seller", armed, sale(0, "cheese", 1, ("bargain", 0)),
     "Bargain is played by another player, not the seller", "effects"),
    ("Overstock by the seller", armed, sale(0, "cheese", 1, ("overstock", 0)),
     "Overstock is played by another player", "effects"),
    ("card not held", sales, sale(0, "cheese", 1, ("bargain", 2)), "Cy holds no Bargain card", "effects"),
    ("two Illusions, one held", armed, sale(0, "cheese", 1, ("illusion", 0), ("illusion", 0)),
     "Ana holds only 1 Illusion card and cannot play 2", "effects"),
    ("Illusion past 5 cards", armed, sale(0, "cheese", 5, ("illusion", 0)), "past 5 cards", "effects"),
    ("card after Overstock", armed, sale(0, "cheese", 2, ("overstock", 1), ("bargain", 2)),
     "Overstock has cancelled this sale", "effects"),
    ("overstocked product sold again in the same turn",
     lambda: game.apply(armed(), sale(0, "cheese", 3, ("overstock", 1))), sale(0, "cheese", 3),
     "Ana was overstocked on cheeses this hand: those cards wait for another sales phase, in the next hand",
     "product"),
    ("overstocked product sold again with fewer cards",
     lambda: game.apply(armed(), sale(0, "truffles", 2, ("bargain", 2), ("overstock", 1))), sale(0, "truffles", 1),
     "Ana was overstocked on truffles this hand", "product"),
    ("sale after buying", lambda: game.apply(armed(), buy(0, "basket")), sale(0, "cheese", 1),
     "Ana has bought Carambouille cards this turn: sales come before purchases", "type"),
    # --- purchases
    ("buy out of turn", armed, buy(2, "basket"), "It is Ana's sales turn, not Cy's", "player"),
    ("buy before the sales phase", market, buy(0, "basket"), "Buying Carambouille cards happens in the sales", "type"),
    ("buy nothing", armed, buy(0), "1 or 2 Carambouille cards", "cards"),
    ("buy three", armed, buy(0, "basket", "basket", "bargain"), "1 or 2 Carambouille cards", "cards"),
    ("buy an unknown card", armed, buy(0, "joker"), "Carambouille has no card called 'joker'", "cards"),
    ("third purchase in a turn", lambda: game.apply(armed(), buy(0, "basket", "i_lied")), buy(0, "basket"),
     "At most 2 Carambouille cards per sales turn: Ana has already bought 2", "cards"),
    ("score below zero", lambda: sales((40, 0, 0)), buy(0, "basket"),
     "Ana has 40 points: 1 Carambouille card costs 50. A score never goes below zero", "cards"),
    ("two cards on 99 points", lambda: sales((99, 0, 0)), buy(0, "basket", "bargain"),
     "Ana has 99 points: 2 Carambouille cards cost 100", "cards"),
    ("deck empty", lambda: holding(sales((500, 0, 0)), CY, **{k: 4 for k in game.CARD_TYPES}),
     buy(0, "basket"), "The Carambouille deck is empty", "cards"),
    ("one card left in the deck",
     lambda: holding(holding(sales((500, 0, 0)), CY, **{k: 4 for k in game.CARD_TYPES[1:]}), BEN, basket=3),
     buy(0, "basket", "basket"), "Only 1 card is left in the Carambouille deck", "cards"),
    ("a fifth Illusion", lambda: holding(holding(sales((500, 0, 0)), BEN, illusion=3), CY, illusion=1),
     buy(0, "illusion"), "All 4 Illusion cards have been drawn already", "cards"),
    # --- cards played during the exchange phase, Baskets, trades
    ("I lied! not held", market, {"type": "i_lied", "player": 1}, "Ben holds no “I lied!” card", "player"),
    ("I lied! in the sales phase", lambda: holding(sales(), BEN, i_lied=1), {"type": "i_lied", "player": 1},
     "Playing “I lied!” happens while the market is open", "type"),
    ("Persuasion before the bell", lambda: holding(fresh(), BEN, persuasion=1), {"type": "persuasion", "player": 1},
     "Ana has not rung the bell", "type"),
    ("Persuasion on oneself", lambda: holding(market(), BEN, persuasion=1),
     {"type": "persuasion", "player": 1, "target": 1}, "compels another player", "target"),
    ("Basket not held", fresh, {"type": "basket", "player": 2}, "Cy holds no Basket card", "player"),
    ("a fifth Basket", lambda: replace(holding(fresh(), CY, basket=4), held=fresh().held),
     {"type": "basket", "player": 2}, "Cy holds no Basket card", "player"),
    ("give a card not held", market, {"type": "give_card", "player": 0, "to": 1, "card": "bargain"},
     "Ana holds no Bargain card", "card"),
    ("give a card to oneself", lambda: holding(market(), ANA, bargain=1),
     {"type": "give_card", "player": 0, "to": 0, "card": "bargain"}, "another player", "to"),
    ("give a card in the sales phase", lambda: holding(sales(), ANA, bargain=1),
     {"type": "give_card", "player": 0, "to": 1, "card": "bargain"}, "Trading a Carambouille card happens", "type"),
    # --- sales turns
    ("end another's turn", sales, {"type": "end_sales_turn", "player": 1}, "It is Ana's sales turn", "player"),
    ("end a turn while the market is open", market, {"type": "end_sales_turn", "player": 0},
     "Ending a sales turn happens in the sales phase", "type"),
    # --- deals
    ("deal during sales", sales, {"type": "deal", "cards": [3, 3, 3]}, "Dealing a new hand happens between hands",
     "type"),
    ("deal four cards", between_hands, {"type": "deal", "cards": [4, 3, 3]}, "from 0 to 3, not 4", "cards"),
    ("deal to two of three", between_hands, {"type": "deal", "cards": [3, 3]}, "each of the 3 players", "cards"),
    ("deal more than the stock", lambda: replace(between_hands(), stock=5), {"type": "deal", "cards": [2, 2, 2]},
     "Only 5 product cards are left in the stock, not 6", "cards"),
    ("deal above the hand limit", between_hands, {"type": "deal", "cards": [3, 3, 3], "hand_sizes": [6, 5, 5]},
     "With these hand sizes the deal is: Ana 2, Ben 3, Cy 3", "cards"),
    ("deal out of order when short", lambda: replace(between_hands(), stock=2),
     {"type": "deal", "cards": [1, 1, 0], "hand_sizes": [5, 5, 5]}, "the deal is: Ana 1, Ben 0, Cy 1", "cards"),
    # Without hand sizes (an import, a direct entry) the app's estimate of each hand is the count: 6 each here.
    ("deal past the hand limit by the estimate", between_hands, {"type": "deal", "cards": [2, 3, 2]},
     "Ben would hold 9 product cards by the app's count (6 + 3), over the hand limit of 8", "cards"),
    ("deal past a Basket's hand limit by the estimate", lambda: with_basket(between_hands(), (9, 6, 6)),
     {"type": "deal", "cards": [2, 2, 2]},
     "Ana would hold 11 product cards by the app's count (9 + 2), over the hand limit of 10", "cards"),
    ("bad hand sizes", between_hands, {"type": "deal", "cards": [3, 3, 3], "hand_sizes": [5, 5]},
     "hand size of each of the 3 players", "hand_sizes"),
    ("deal after the last hand", last_hand_over, {"type": "deal", "cards": [0, 0, 0]},
     "that was the last hand", "type"),
    ("sell after the last hand", last_hand_over, sale(0, "cheese", 1), "the last hand is over", "type"),
    # --- the end
    ("anything after the end", lambda: game.apply(fresh(), {"type": "end_game"}), {"type": "end_game"},
     "The game is over", "type"),
]


@pytest.mark.parametrize(("name", "make", "event", "message", "field"), CASES, ids=[case[0] for case in CASES])
def test_refused_with_a_sentence_and_nothing_changes(name, make, event, message, field):
    state = make()
    before, sent = copy.deepcopy(state), copy.deepcopy(event)
    with pytest.raises(RuleError) as error:
        game.apply(state, event)
    assert message in error.value.message
    assert error.value.field == field
    assert error.value.message[0].isupper() and error.value.message.endswith((".", "!"))
    assert state == before and event == sent


def test_the_same_events_are_allowed_when_the_rules_say_so():
    """The refusals above are not blanket ones: the nearby legal entries are accepted."""
    state = armed()
    state = game.apply(state, sale(0, "cheese", 4, ("illusion", 0), ("bargain", 1)))
    assert state.points[ANA] == 200 + 240  # 4 cheeses as 5: 480, halved
    state = game.apply(state, sale(0, "cheese", 1, ("overstock", 2)))
    assert state.points[ANA] == 440 and game.sold_of(state, "cheese") == 4
    state = game.apply(state, buy(0, "basket"))
    state = game.apply(state, buy(0, "basket"))
    assert state.points[ANA] == 340 and game.deck_left(state) == 24 - 9 - 2
    state = game.apply(state, {"type": "basket", "player": 0})
    assert game.hand_limit(state, ANA) == 10
    assert game.held(state, ANA) == {
        "basket": 1, "i_lied": 0, "persuasion": 0, "illusion": 0, "bargain": 1, "overstock": 1,
    }


def test_overstocked_cards_are_sold_in_the_next_hand():
    state = game.apply(armed(), sale(0, "cheese", 3, ("overstock", 1)))
    state = game.apply(state, sale(0, "wine", 1))  # another product, the same turn: fine
    for seat in (ANA, BEN, CY):
        state = game.apply(state, {"type": "end_sales_turn", "player": seat})
    state = game.apply(state, {"type": "deal", "cards": [2, 2, 2], "hand_sizes": [6, 6, 6]})
    state = game.apply(game.apply(state, {"type": "market_opened"}), {"type": "market_closed"})
    for seat in (BEN, CY):  # Ben is First Trader now
        state = game.apply(state, {"type": "end_sales_turn", "player": seat})
    state = game.apply(state, sale(0, "cheese", 3))
    assert state.points[ANA] == 200 + 50 + 180


def test_a_deal_without_hand_sizes_is_checked_against_the_estimate():
    state = with_basket(between_hands(), (8, 6, 9))
    # Ana up to her limit of 10, Ben 2 to 8, Cy nothing: he is over by the app's count already.
    dealt = game.apply(state, {"type": "deal", "cards": [2, 2, 0]})
    assert dealt.hand_estimates == (10, 8, 9)
    # Counted hand sizes win over the estimate: the deal is the plan for them.
    counted = game.apply(state, {"type": "deal", "cards": [3, 3, 3], "hand_sizes": [5, 5, 5]})
    assert counted.hand_estimates == (8, 8, 8)


def test_a_traded_card_can_be_played_by_its_new_holder():
    state = holding(market(), ANA, bargain=1)
    state = game.apply(state, {"type": "give_card", "player": 0, "to": 2, "card": "bargain"})
    assert game.held(state, CY)["bargain"] == 1 and game.held(state, ANA)["bargain"] == 0
    state = replace(game.apply(state, {"type": "market_closed"}), points=(0, 0, 0))
    state = game.apply(state, sale(0, "hens", 2, ("bargain", 2)))
    assert state.points == (75, 0, 0)
    assert game.played(state)["bargain"] == 1 and game.drawn(state)["bargain"] == 1


def test_buying_the_last_card_then_the_deck_is_empty():
    state = holding(sales((100, 0, 0)), CY, **{k: 4 for k in game.CARD_TYPES[1:]})
    state = holding(state, BEN, basket=3)
    state = game.apply(state, buy(0, "basket"))
    assert game.deck_left(state) == 0 and state.points[ANA] == 50
