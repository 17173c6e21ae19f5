"""Carambouille through ``apply``: whole games of 3 and 7 players, the phases, the helpers."""

import json
from dataclasses import replace

import pytest

from companion.rules import RuleError, replay
from companion.rules import carambouille as game

OPEN = {"type": "market_opened"}


def close(seconds=None):
    return {"type": "market_closed"} | ({"seconds": seconds} if seconds is not None else {})


def sale(player, product, cards, *effects):
    event = {"type": "sale", "player": player, "product": product, "cards": cards}
    if effects:
        event["effects"] = [{"card": card, "player": by} for card, by in effects]
    return event


def buy(player, *cards):
    return {"type": "buy", "player": player, "cards": list(cards)}


def end(player):
    return {"type": "end_sales_turn", "player": player}


def deal(cards, hand_sizes=None):
    return {"type": "deal", "cards": cards} | ({"hand_sizes": hand_sizes} if hand_sizes else {})


def quiet_hand(state):
    """A hand in which nobody sells: open, close, every sales turn ended."""
    events = [OPEN, close()]
    events += [end((state.first_trader + k) % len(state.players)) for k in range(len(state.players))]
    return events


def play(state, events):
    for event in events:
        json.dumps(event)  # the vocabulary is JSON
        state = game.apply(state, event)
    return state


def test_three_player_game_to_the_end():
    ana, ben, cy = 0, 1, 2
    state = game.new_game(["Ana", "Ben", "Cy"])
    assert (state.stock, state.first_trader, state.phase) == (82, ana, game.OPENING)
    # Hand 1, Ana first: 3 cheeses 180, buys 2 (80); Ben 2 onions 25; Cy saffron 100, buys 1 (50).
    state = play(state, [OPEN, close(120), sale(ana, "cheese", 3), buy(ana, "illusion", "bargain"), end(ana)])
    state = play(state, [sale(ben, "onions", 2), end(ben), sale(cy, "saffron", 1), buy(cy, "overstock"), end(cy)])
    assert state.points == (80, 25, 50)
    assert (state.phase, state.first_trader) == (game.DEAL, ben)
    assert game.deal_plan(state, [3, 4, 5]) == [3, 3, 3]
    state = play(state, [deal([3, 3, 3], [3, 4, 5])])
    assert (state.hand, state.stock) == (2, 73)
    # Hand 2, Ben first: tomatoes 50 and a Basket bought; Cy's hens 150 halved by Ana's Bargain;
    # Ana's 2 cheeses with Illusion overstocked by Cy (the cheese waits for the next hand), then 2 sausages
    # sold plainly for 100; Ana buys 2.
    state = play(state, [OPEN, close(45), sale(ben, "tomatoes", 2), buy(ben, "basket"), end(ben)])
    state = play(state, [sale(cy, "hens", 2, ("bargain", ana)), end(cy)])
    state = play(state, [sale(ana, "cheese", 2, ("illusion", ana), ("overstock", cy))])
    assert state.sales[-1].overstocked and state.sales[-1].value == 0
    assert game.max_sale_cards(state, "cheese") == 2  # the overstocked cheese went back to Ana's hand
    with pytest.raises(RuleError, match="Ana was overstocked on cheeses this hand"):
        play(state, [sale(ana, "cheese", 2)])
    state = play(state, [sale(ana, "sausage", 2), buy(ana, "persuasion", "i_lied"), end(ana)])
    assert state.points == (80, 25, 125)
    assert game.max_sale_cards(state, "cheese") == 2 and game.max_sale_cards(state, "sausage") == 3
    # Ben's Basket: hand limit 10, so he gets 3 cards with 7 in hand.
    state = play(state, [{"type": "basket", "player": ben}])
    assert game.hand_limit(state, ben) == 10
    assert game.deal_plan(state, [6, 7, 4]) == [2, 3, 3]
    state = play(state, [deal([2, 3, 3], [6, 7, 4])])
    # Hand 3, Cy first: Ana lies and persuades Ben during the exchanges; truffles 90, 4 garlic 75.
    state = play(state, [OPEN, {"type": "i_lied", "player": ana}, {"type": "persuasion", "player": ana, "target": ben}])
    state = play(state, [close(), end(cy), sale(ana, "truffles", 1), end(ana), sale(ben, "garlic", 4), end(ben)])
    assert state.points == (170, 100, 125)
    assert state.market_seconds == (120, 45, None)
    # Hands 4 to 10: nobody sells, everyone has 5 cards, 9 cards a deal.
    stocks = []
    while state.stock > 9:
        state = play(state, [deal([3, 3, 3], [5, 5, 5])])
        stocks.append(state.stock)
        assert not state.last_hand
        state = play(state, quiet_hand(state))
    assert stocks == [56, 47, 38, 29, 20, 11, 2]
    # Hand 11, dealt by Ben: 2 cards left, one each for Cy and Ana (left of the dealer first).
    assert state.first_trader == ben
    assert game.deal_plan(state, [5, 5, 5]) == [1, 0, 1]
    state = play(state, [deal([1, 0, 1], [5, 5, 5])])
    assert (state.hand, state.stock, state.last_hand) == (11, 0, True)
    state = play(state, [OPEN, close(), sale(ben, "foie_gras", 3), end(ben), sale(cy, "lavender", 5), end(cy)])
    state = play(state, [sale(ana, "saffron", 4), end(ana)])
    assert state.phase == game.OVER and not game.finished(state)
    with pytest.raises(RuleError, match="last hand"):
        game.apply(state, deal([0, 0, 0]))
    state = play(state, [{"type": "end_game"}])
    assert game.finished(state)
    # By hand: Ana 80+0+90+750 = 920; Ben 25+0+75+360 = 460; Cy 50+75+0+360 = 485.
    assert game.scores(state) == [920, 460, 485]
    assert game.standings(state) == [(1, ana, 920), (2, cy, 485), (3, ben, 460)]
    assert game.winners(state) == [ana]
    rows = game.score_rows(state)
    assert [row.hand for row in rows] == list(range(1, 12))
    assert [row.totals for row in rows[:3]] == [(80, 25, 50), (80, 25, 125), (170, 100, 125)]
    assert rows[1].gains == (0, 0, 75) and rows[-1].gains == (750, 360, 360)
    assert [row.first_trader for row in rows[:4]] == [ana, ben, cy, ana]
    assert not any(row.in_progress for row in rows)
    assert game.played(state) == {
        "basket": 1, "i_lied": 1, "persuasion": 1, "illusion": 1, "bargain": 1, "overstock": 1,
    }
    assert game.deck_left(state) == 24 - 6
    assert sum(map(sum, state.held)) == 0
    spotlight = game.highlights(state)
    assert (spotlight.biggest_sale.product, spotlight.biggest_sale.value) == ("saffron", 750)
    assert spotlight.most_cards_played == ((ana,), 4)  # Bargain, Illusion, "I lied!", Persuasion
    assert spotlight.longest_market == (1, 120)
    with pytest.raises(RuleError, match="game is over"):
        game.apply(state, OPEN)


def test_seven_player_game_with_a_shared_rank():
    state = game.new_game(list("ABCDEFG"), {"first_trader": 3})
    assert state.stock == 58 and state.first_trader == 3
    state = play(state, [OPEN, close(), sale(3, "wine", 2), end(3), sale(4, "ham", 2), end(4)])
    state = play(state, [end(5), end(6), end(0), end(1), end(2)])
    assert state.first_trader == 4
    state = play(state, [deal([3] * 7, [5] * 7)])
    assert state.stock == 37
    state = play(state, [OPEN, close(), end(4), sale(5, "rabbits", 1), buy(5, "bargain"), end(5)])
    state = play(state, [sale(6, "tomatoes", 3), end(6), sale(0, "hens", 2, ("bargain", 5)), end(0), end(1), end(2)])
    state = play(state, [end(3)])
    state = play(state, [deal([3] * 7, [5] * 7)])
    assert state.stock == 16
    state = play(state, quiet_hand(state))
    assert state.first_trader == 6
    plan = game.deal_plan(state, [5] * 7)
    assert plan == [3, 3, 2, 2, 2, 2, 2]  # 16 cards: two rounds for all, a third for seats 0 and 1
    state = play(state, [deal(plan, [5] * 7)])
    assert state.last_hand and state.hand == 4
    state = play(state, [OPEN, close(), end(6), end(0), sale(1, "sweet_peppers", 5), end(1)])
    state = play(state, [sale(2, "herbs", 1), end(2), end(3), end(4), end(5), {"type": "end_game"}])
    assert game.scores(state) == [75, 240, 10, 125, 125, 10, 90]
    assert game.standings(state) == [
        (1, 1, 240), (2, 3, 125), (2, 4, 125), (4, 6, 90), (5, 0, 75), (6, 2, 10), (6, 5, 10),
    ]
    assert len(game.score_rows(state)) == 4


def test_ending_the_game_mid_hand_keeps_the_hand_as_a_row():
    state = play(game.new_game(["Ana", "Ben", "Cy"]), [OPEN, close(), sale(0, "cheese", 1)])
    rows = game.score_rows(state)
    assert len(rows) == 1 and rows[0].in_progress and rows[0].totals == (40, 0, 0)
    state = game.apply(state, {"type": "end_game"})
    assert game.finished(state)
    assert [(row.totals, row.in_progress) for row in game.score_rows(state)] == [((40, 0, 0), False)]


def test_turn_order_and_phases():
    state = game.new_game(["Ana", "Ben", "Cy", "Dan"], {"first_trader": 2})
    assert state.turn is None
    state = play(state, [OPEN])
    assert state.phase == game.MARKET
    state = play(state, [close(30)])
    assert (state.phase, state.turn) == (game.SALES, 2)
    turns = []
    for _ in range(4):
        turns.append(state.turn)
        state = game.apply(state, end(state.turn))
    assert turns == [2, 3, 0, 1]
    assert (state.phase, state.first_trader, state.hand_totals) == (game.DEAL, 3, ((0, 0, 0, 0),))


def test_replay_is_deterministic_and_complete_copies():
    events = [OPEN, close(9), sale(0, "cheese", 3), buy(0, "illusion"), end(0)]
    state = play(game.new_game(["Ana", "Ben", "Cy"]), events)
    assert replay(game, ["Ana", "Ben", "Cy"], None, events) == state
    event = buy(1, "basket")
    copied = game.complete(state, event)
    assert copied == event and copied is not event and copied["cards"] is not event["cards"]


def test_sale_preview_gives_the_arithmetic():
    state = game.new_game(["Ana", "Ben", "Cy"], {"memo": {"40": [None, None, 200, None, None]}})
    preview = game.sale_preview(state, sale(1, "cheese", 3, ("illusion", 1), ("bargain", 0)))
    assert preview.lines == ("3 × cheeses = 200", "Illusion by Ben → 300", "Bargain by Ana → 150")
    assert (preview.base, preview.value, preview.overstocked) == (200, 150, False)
    assert preview.text == "3 × cheeses = 200, Illusion by Ben → 300, Bargain by Ana → 150"


def test_house_memo_is_used_by_the_table():
    state = game.new_game(["Ana", "Ben", "Cy"], {"memo": {"10": [10, 20, 45, 75, 120]}})
    memo, changed = game.house_memo(state)
    assert memo[10] == (10, 20, 45, 75, 120) and memo[40] == game.DEFAULT_MEMO[40]
    assert changed == {(10, 2)}
    state = play(state, [OPEN, close(), sale(0, "onions", 2)])
    assert state.points == (20, 0, 0)
    assert game.sold_by_product(state)["onions"] == 2 and sum(game.sold_by_product(state).values()) == 2


def test_purchase_refusal_for_the_buttons():
    state = game.new_game(["Ana", "Ben", "Cy"])
    assert "sales phase" in game.purchase_refusal(state, 1)
    state = play(state, [OPEN, close()])
    assert game.purchase_refusal(state, 1) == (
        "Ana has 0 points: 1 Carambouille card costs 50. A score never goes below zero."
    )
    state = play(state, [sale(0, "wine", 2)])  # 125
    assert game.purchase_refusal(state, 1) is None and game.purchase_refusal(state, 2) is None
    state = play(state, [buy(0, "basket")])
    assert game.purchase_refusal(state, 1) is None
    assert "has already bought 1" in game.purchase_refusal(state, 2)


def test_describe_in_words():
    state = game.new_game(["Ana", "Ben", "Cy"], {"first_trader": 1})
    assert game.describe(state, OPEN) == "Hand 1: Ben rang the bell: the market is open."
    assert game.describe(state, OPEN | {"rung_by": 1}) == "Hand 1: Ben rang the bell: the market is open."
    assert game.describe(state, OPEN | {"rung_by": 0}) == "Hand 1: Ana rang the bell in a pinch for Ben: the market is open."
    assert play(state, [OPEN | {"rung_by": 0}]) == play(state, [OPEN])  # who rang changes nothing else
    state = play(state, [OPEN])
    assert game.describe(state, {"type": "i_lied", "player": 2}) == "Cy played “I lied!”."
    assert game.describe(state, {"type": "persuasion", "player": 2, "target": 0}) == "Cy played Persuasion on Ana."
    assert game.describe(state, {"type": "give_card", "player": 2, "to": 0, "card": "bargain"}) == (
        "Cy gave a Carambouille card to Ana."  # the type stays between the two traders
    )
    assert game.describe(state, {"type": "basket", "player": 0}) == "Ana laid a Basket: hand limit 10."
    assert game.describe(state, close(95)) == "Ding-a-Ding! The market closed after 1 min 35 s; Ben sells first."
    assert game.describe(state, close(7)) == "Ding-a-Ding! The market closed after 7 s; Ben sells first."
    assert game.describe(state, close()) == "Ding-a-Ding! The market closed; Ben sells first."
    # Another player's phone rang for the First Trader: the history says who.
    assert game.describe(state, close(95) | {"rung_by": 2}) == (
        "Ding-a-Ding! The market closed after 1 min 35 s, rung by Cy in a pinch; Ben sells first."
    )
    assert game.describe(state, close(95) | {"rung_by": 1}) == (
        "Ding-a-Ding! The market closed after 1 min 35 s; Ben sells first."
    )
    state = play(state, [close(95)])
    # the rulebook's example, Ben selling
    words = game.describe(state, sale(1, "cheese", 3, ("illusion", 1), ("bargain", 0), ("overstock", 2)))
    assert words == (
        "Ben sold 3 cheeses for 180, Illusion by Ben → 300, Bargain by Ana → 150, "
        "Overstock by Cy → cancelled, 0: the cards go back to Ben's hand."
    )
    assert game.describe(state, sale(1, "hens", 2)) == "Ben sold 2 hens for 150."
    assert game.describe(state, buy(1, "basket")) == "Ben bought 1 Carambouille card for 50 points."
    assert game.describe(state, buy(1, "basket", "bargain")) == "Ben bought 2 Carambouille cards for 100 points."
    assert game.describe(state, end(1)) == "Ben ended their sales turn; Cy's turn."
    state = play(state, [sale(1, "cheese", 3), end(1), end(2)])
    assert game.describe(state, end(0)) == "Ana ended their sales turn: hand 1 is over, the bell passes to Cy."
    state = play(state, [end(0)])
    assert game.describe(state, deal([1, 2, 3])) == (
        "Hand 2: Cy dealt 6 cards (Ana 1, Ben 2, Cy 3); 76 left in the stock."
    )
    assert game.describe(state, {"type": "end_game"}) == "The game is over: Ben wins with 180 points."
    assert game.describe(game.new_game(["Ana", "Ben", "Cy"]), {"type": "end_game"}) == (
        "The game is over: Ana, Ben and Cy share the win with 0 points."
    )
    assert "does not understand" in game.describe(state, {"type": "nonsense"})
    assert "does not understand" in game.describe(state, {"type": "sale", "player": 9})


def test_hand_estimates_follow_deals_and_sales():
    state = play(game.new_game(["Ana", "Ben", "Cy"]), [OPEN, close(), sale(0, "cheese", 3), end(0), end(1), end(2)])
    assert state.hand_estimates == (3, 6, 6)
    assert game.deal_plan(state, list(state.hand_estimates)) == [3, 2, 2]
    state = game.apply(state, deal([3, 2, 3], [4, 6, 5]))  # the players' count beats the estimate
    assert state.hand_estimates == (7, 8, 8) and state.dealt == (9, 8, 9)


@pytest.mark.parametrize(
    ("hand_sizes", "stock", "first_trader", "plan"),
    [
        ([5, 5, 5], 82, 0, [3, 3, 3]),
        ([8, 7, 6], 82, 0, [0, 1, 2]),
        ([9, 0, 0], 82, 0, [0, 3, 3]),  # above the limit after trades: nothing
        ([5, 5, 5], 4, 0, [1, 2, 1]),  # from the First Trader's left: Ben, Cy, Ana, Ben
        ([5, 5, 5], 4, 2, [2, 1, 1]),  # Ana, Ben, Cy, Ana
        ([5, 5, 5], 0, 0, [0, 0, 0]),
    ],
)
def test_deal_plan(hand_sizes, stock, first_trader, plan):
    state = game.new_game(["Ana", "Ben", "Cy"])
    state = replace(state, stock=stock, first_trader=first_trader)
    assert game.deal_plan(state, hand_sizes) == plan


@pytest.mark.parametrize("hand_sizes", [[5, 5], [5, 5, -1], [5, 5, "5"], [5, 5, True], "555"])
def test_deal_plan_refuses_bad_hand_sizes(hand_sizes):
    with pytest.raises(RuleError) as error:
        game.deal_plan(game.new_game(["Ana", "Ben", "Cy"]), hand_sizes)
    assert error.value.field == "hand_sizes"


@pytest.mark.parametrize(("laid", "limit"), [(0, 8), (1, 10), (2, 11), (3, 12), (4, 14)])
def test_hand_limit_with_baskets(laid, limit):
    state = game.new_game(["Ana", "Ben", "Cy"])
    row = tuple(laid if kind == "basket" else 0 for kind in game.CARD_TYPES)
    state = replace(state, played=(row,) + state.played[1:])
    assert game.hand_limit(state, 0) == limit
    assert game.deal_plan(state, [limit - 2, 8, 0]) == [2, 0, 3]


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (["Ana", "Ben"], None, "3 to 7 players, not 2"),
        (list("ABCDEFGH"), None, "3 to 7 players, not 8"),
        ("Ana", None, "list of names"),
        (["Ana", "Ben", "Cy"], {"first_trader": 3}, "First Trader"),
        (["Ana", "Ben", "Cy"], {"first_trader": True}, "First Trader"),
        (["Ana", "Ben", "Cy"], {"rounds": 3}, "no setting 'rounds'"),
        (["Ana", "Ben", "Cy"], [1], "settings"),
    ],
)
def test_new_game_refusals(players, options, message):
    with pytest.raises(RuleError, match=message):
        game.new_game(players, options)
