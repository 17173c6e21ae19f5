"""Invariants of Carambouille over random games (hypothesis)."""

import copy
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import RuleError, replay
from companion.rules import carambouille as game

SLUGS = [p.slug for p in game.PRODUCTS]


def candidate(data, state):
    """A plausible next entry for the phase: mostly legal, sometimes not."""
    n = len(state.players)
    seat = st.integers(0, n - 1)
    turn = state.turn if state.turn is not None else 0
    player = data.draw(st.one_of(st.just(turn), st.just(turn), seat))
    if state.phase == game.OVER or data.draw(st.integers(0, 400)) == 0:
        return {"type": "end_game"}
    if data.draw(st.integers(0, 20)) == 0:
        return {"type": "basket", "player": player}
    if state.phase == game.OPENING:
        return {"type": "market_opened"}
    if state.phase == game.MARKET:
        kind = data.draw(st.sampled_from(["market_closed", "market_closed", "i_lied", "persuasion", "give_card"]))
        if kind == "market_closed":
            return {"type": kind, "seconds": data.draw(st.integers(0, 600))}
        if kind == "give_card":
            card = data.draw(st.sampled_from(game.CARD_TYPES))
            return {"type": kind, "player": player, "to": data.draw(seat), "card": card}
        return {"type": kind, "player": player}
    if state.phase == game.SALES:
        kind = data.draw(st.sampled_from(["sale", "sale", "sale", "play_on_sale", "play_on_sale", "buy", "buy",
                                          "end_sales_turn", "end_sales_turn"]))
        if kind == "play_on_sale":
            # mostly a card its player holds, sometimes any card by anyone
            held = [(card, by) for by in range(n) for card in game.SALE_CARDS if game.held(state, by)[card]]
            pool = [st.sampled_from(held)] if held else []
            card, by = data.draw(st.one_of(*pool, st.tuples(st.sampled_from(game.SALE_CARDS), seat)))
            return {"type": kind, "player": by, "card": card}
        if kind == "sale":
            # mostly cards someone holds, sometimes any card by anyone
            held = [(card, by) for by in range(n) for card in game.SALE_CARDS if game.held(state, by)[card]]
            pool = st.one_of(st.sampled_from(held), st.tuples(st.sampled_from(game.SALE_CARDS), seat)) if held else (
                st.tuples(st.sampled_from(game.SALE_CARDS), seat)
            )
            effects = data.draw(st.lists(pool, max_size=3))
            left = [slug for slug in SLUGS if game.max_sale_cards(state, slug)] or SLUGS
            # often the product just sold (or overstocked) again
            recent = [sale.product for sale in state.sales[-2:]]
            product = data.draw(st.sampled_from(recent + recent + left) if recent else st.sampled_from(left))
            return {
                "type": "sale", "player": player, "product": product,
                "cards": data.draw(st.integers(1, 5)),
                "effects": [{"card": card, "player": by} for card, by in effects],
            }
        if kind == "buy":
            cards = data.draw(st.lists(st.sampled_from(game.CARD_TYPES), min_size=1, max_size=2))
            return {"type": "buy", "player": player, "cards": cards}
        return {"type": "end_sales_turn", "player": player}
    sizes = data.draw(st.lists(st.integers(0, 9), min_size=n, max_size=n))
    if data.draw(st.integers(0, 3)):
        return {"type": "deal", "cards": game.deal_plan(state, sizes), "hand_sizes": sizes}
    return {"type": "deal", "cards": data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))}


def check_invariants(state):
    n = len(state.players)
    assert all(points >= 0 for points in state.points)
    # points are exactly the sales earned minus 50 per card bought
    for seat in range(n):
        earned = sum(sale.value for sale in state.sales if sale.seller == seat)
        assert state.points[seat] == earned - game.CARD_PRICE * sum(state.bought[seat])
    # Carambouille cards: held + played = drawn <= 4 per type; the deck is what is left of 24
    for index, kind in enumerate(game.CARD_TYPES):
        drawn = sum(row[index] for row in state.bought)
        assert all(row[index] >= 0 for row in state.held)
        assert sum(row[index] for row in state.held) + sum(row[index] for row in state.played) == drawn
        assert drawn <= game.COPIES_PER_TYPE and game.drawn(state)[kind] == drawn
    assert game.deck_left(state) == game.DECK_SIZE - sum(map(sum, state.bought)) >= 0
    assert all(row[game.CARD_TYPES.index("basket")] <= 4 for row in state.played)
    # overstocked sales earn 0 and sell nothing; at most 5 cards of a product are sold
    for at, sale in enumerate(state.sales):
        if sale.overstocked:
            assert sale.value == 0
            # the seller waits for another sales phase to sell those cards
            assert not any((later.hand, later.seller, later.product) == (sale.hand, sale.seller, sale.product)
                           for later in state.sales[at + 1:])
    for index, slug in enumerate(SLUGS):
        sold = sum(s.cards for s in state.sales if s.product == slug and not s.overstocked)
        assert state.sold[index] == sold <= 5
    # product cards: stock + dealt = 100, the last hand when the stock is empty
    assert state.stock >= 0 and state.stock + sum(state.dealt) == 100
    assert state.last_hand == (state.stock == 0)
    rows = game.score_rows(state)
    if rows:
        assert rows[-1].totals == state.points
    assert [seat for _, seat, _ in game.standings(state)] == sorted(range(n), key=lambda s: -state.points[s])


@settings(max_examples=150, deadline=None)
@given(st.data(), st.integers(game.MIN_PLAYERS, game.MAX_PLAYERS), st.integers(0, 6))
def test_random_games_keep_the_invariants(data, count, first):
    players = [f"P{seat}" for seat in range(count)]
    options = {"first_trader": first % count}
    state = game.new_game(players, options)
    accepted = []
    for _ in range(data.draw(st.integers(0, 400))):
        if game.finished(state):
            break
        event = candidate(data, state)
        before = copy.deepcopy(state)
        try:
            after = game.apply(state, event)
        except RuleError as error:
            assert error.message and state == before
            continue
        assert state == before  # apply never changes its input
        game.describe(state, event)  # always has words for an accepted entry
        if event["type"] == "deal" and "hand_sizes" not in event:
            # uncounted, a deal never takes a hand past its limit by the app's estimate
            for seat, given in enumerate(event["cards"]):
                assert not given or after.hand_estimates[seat] <= game.hand_limit(state, seat)
        state = after
        accepted.append(event)
        check_invariants(state)
    assert replay(game, players, options, accepted) == state


def selling_with_every_card():
    """Ana's sales turn, 3 players, each holding one of each sale card."""
    state = game.apply(game.apply(game.new_game(["Ana", "Ben", "Cy"]), {"type": "market_opened"}),
                       {"type": "market_closed"})
    row = tuple(1 if kind in game.SALE_CARDS else 0 for kind in game.CARD_TYPES)
    return replace(state, bought=(row,) * 3, held=(row,) * 3)


@given(st.sampled_from(SLUGS), st.integers(1, 4), st.integers(1, 5), st.booleans())
def test_overstocked_cards_wait_for_the_next_hand(product, cards, again, bargain):
    state = selling_with_every_card()
    effects = [{"card": "bargain", "player": 2}] if bargain else []
    state = game.apply(state, {"type": "sale", "player": 0, "product": product, "cards": cards,
                               "effects": effects + [{"card": "overstock", "player": 1}]})
    try:
        game.apply(state, {"type": "sale", "player": 0, "product": product, "cards": again})
    except RuleError as refused:
        assert refused.field == "product" and "next hand" in refused.message
    else:
        raise AssertionError("an overstocked product was sold again in the same hand")


memo_value = st.sampled_from(game.FACE_VALUES)


@given(memo_value, st.integers(1, 4), st.lists(st.sampled_from(["illusion", "bargain"]), max_size=3))
def test_illusion_is_the_next_column(face_value, cards, more):
    if more.count("illusion") + cards + 1 <= 5:
        assert game.sale_value(face_value, cards, ["illusion", *more]) == game.sale_value(face_value, cards + 1, more)


@given(memo_value, st.integers(1, 5), st.lists(st.sampled_from(["illusion", "bargain"]), max_size=2))
def test_bargain_halves_rounding_up_and_overstock_cancels(face_value, cards, before):
    try:
        value = game.sale_value(face_value, cards, before)
    except RuleError:
        return
    assert game.sale_value(face_value, cards, [*before, "bargain"]) == (value + 1) // 2
    assert game.sale_value(face_value, cards, [*before, "overstock"]) == 0
    assert 0 < value <= game.DEFAULT_MEMO[face_value][4]
