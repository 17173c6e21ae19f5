"""Known sessions of each game, as real events, shared by the review tests; and their reviews through the log."""

from __future__ import annotations

import sqlalchemy as sa

from companion.table import log, recording
from companion.table.state import state_of
from companion.extensions import db
from companion.models import Table
from companion.review.session import review_of
from helpers import make_table

# --- Carambouille: the 3-player game of tests/rules/carambouille/test_game.py, 11 hands ---
ANA, BEN, CY = 0, 1, 2
OPEN = {"type": "market_opened"}
END_GAME = {"type": "end_game"}


def close(seconds=None):
    return {"type": "market_closed"} | ({"seconds": seconds} if seconds is not None else {})


def c_sale(player, product, cards, *effects):
    event = {"type": "sale", "player": player, "product": product, "cards": cards}
    if effects:
        event["effects"] = [{"card": card, "player": by} for card, by in effects]
    return event


def buy(player, *cards):
    return {"type": "buy", "player": player, "cards": list(cards)}


def end(player):
    return {"type": "end_sales_turn", "player": player}


def deal(cards, hand_sizes):
    return {"type": "deal", "cards": cards, "hand_sizes": hand_sizes}


def carambouille_events() -> list[dict]:
    events = [
        OPEN, close(120), c_sale(ANA, "cheese", 3), buy(ANA, "illusion", "bargain"), end(ANA),
        c_sale(BEN, "onions", 2), end(BEN), c_sale(CY, "saffron", 1), buy(CY, "overstock"), end(CY),
        deal([3, 3, 3], [3, 4, 5]),
        OPEN, close(45), c_sale(BEN, "tomatoes", 2), buy(BEN, "basket"), end(BEN),
        c_sale(CY, "hens", 2, ("bargain", ANA)), end(CY),
        c_sale(ANA, "cheese", 2, ("illusion", ANA), ("overstock", CY)),
        c_sale(ANA, "sausage", 2), buy(ANA, "persuasion", "i_lied"), end(ANA),
        {"type": "basket", "player": BEN},
        deal([2, 3, 3], [6, 7, 4]),
        OPEN, {"type": "i_lied", "player": ANA}, {"type": "persuasion", "player": ANA, "target": BEN},
        close(), end(CY), c_sale(ANA, "truffles", 1), end(ANA), c_sale(BEN, "garlic", 4), end(BEN),
    ]
    for hand in range(4, 11):  # nobody sells in hands 4 to 10
        first = (hand - 1) % 3
        events += [deal([3, 3, 3], [5, 5, 5]), OPEN, close()] + [end((first + k) % 3) for k in range(3)]
    events += [
        deal([1, 0, 1], [5, 5, 5]),
        OPEN, close(), c_sale(BEN, "foie_gras", 3), end(BEN), c_sale(CY, "lavender", 5), end(CY),
        c_sale(ANA, "saffron", 4), end(ANA), END_GAME,
    ]
    return events


CARAMBOUILLE = ("carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0}, carambouille_events())

# --- Jaipur: the three-round match of tests/rules/jaipur/test_rounds.py ---
J_END = {"type": "end_round"}
J_NEXT = {"type": "next_round"}


def j_sale(player, good, cards, bonus=None):
    event = {"type": "sale", "player": player, "good": good, "cards": cards}
    if bonus is not None:
        event["bonus"] = bonus
    return event


def camels(ana, ben):
    return {"type": "camels", "counts": [ana, ben]}


JAIPUR_EVENTS = [
    j_sale(ANA, "diamonds", 2), j_sale(BEN, "leather", 4, bonus=5), j_sale(ANA, "cloth", 3, bonus=2),
    j_sale(BEN, "gold", 3, bonus=3), j_sale(ANA, "spice", 5, bonus=10), j_sale(BEN, "diamonds", 3, bonus=1),
    j_sale(ANA, "gold", 2), j_sale(BEN, "silver", 2), j_sale(ANA, "spice", 2),  # the third empty stack
    camels(2, 6),  # Ben 66, Ana 64
    J_NEXT, j_sale(ANA, "silver", 3, bonus=2), j_sale(BEN, "cloth", 2), J_END, camels(0, 0),  # Ana 17 to 8
    J_NEXT, j_sale(BEN, "gold", 2), j_sale(ANA, "diamonds", 2), J_END, camels(3, 4),  # Ben 17 to 14
]
JAIPUR = ("jaipur", ["Ana", "Ben"], {"bonus": "draw", "first_player": 0}, JAIPUR_EVENTS)

# --- Frutti di Mare: a round played card by card, a round tallied, a round kept and played ---
TRACK = ["shrimp", "oysters", "mussels", "octopus", "sea_urchins"]  # sea urchins 50, octopus 30


def play(player, seafood):
    return {"type": "play", "player": player, "seafood": seafood}


def suspend(player, **hand):
    return {"type": "suspend", "player": player, "hand": hand}


# Every player sells exactly 7 cards a round: a suspend lays down the whole hand left.
FRUTTI_EVENTS = [
    {"type": "dishes", "order": TRACK},
    play(ANA, "octopus"),  # octopus 30 → 50, sea urchins 50 → 30
    play(BEN, "octopus"),  # octopus 50 → 0, every other dish one stall right
    play(CY, "mussels"),  # mussels 30 → 50, sea urchins 50 → 30
    suspend(ANA, octopus=6), suspend(BEN, shrimp=6), suspend(CY, mussels=2, oysters=4),
    {"type": "next_round"},
    {"type": "tally", "order": TRACK,
     "cards": [{"sea_urchins": 2, "oysters": 5}, {"octopus": 3, "mussels": 4}, {"shrimp": 7}]},
    {"type": "next_round"},
    {"type": "dishes", "keep": True, "order": TRACK},
    play(CY, "octopus"), suspend(ANA, shrimp=7), suspend(BEN, sea_urchins=1, oysters=6), suspend(CY, mussels=6),
]
FRUTTI = ("frutti", ["Ana", "Ben", "Cy"], {"first_player": 0}, FRUTTI_EVENTS)

# Equal money at the top: Ana and Ben 330 each, Cy 270 (ranks 1, 1, 3).
FRUTTI_TIE_EVENTS = [
    event
    for round_number in range(3)
    for event in [{"type": "tally", "order": TRACK,
                   "cards": [{"sea_urchins": 2, "shrimp": 4, "oysters": 1}, {"sea_urchins": 2, "shrimp": 4, "oysters": 1},
                             {"octopus": 1, "oysters": 6}]}]
    + ([{"type": "next_round"}] if round_number < 2 else [])
]

SESSIONS = {"carambouille": CARAMBOUILLE, "jaipur": JAIPUR, "frutti": FRUTTI}


def table_of(token: str) -> Table:
    return db.session.scalar(sa.select(Table).where(Table.token == token))


def record_all(app, game: str, players: list[str], options: dict, events: list[dict]) -> str:
    """A table with every event recorded through the entry log; its player token."""
    token = make_table(app, game, players, options)
    with app.app_context():
        for event in events:
            recording.record(table_of(token), event)
    return token


def review_for(app, token: str):
    with app.app_context():
        table = table_of(token)
        return review_of(table.game, log.game_of(table), state_of(table))


def test_the_known_sessions_finish_through_the_entry_log(app):
    for game, players, options, events in SESSIONS.values():
        token = record_all(app, game, players, options, events)
        with app.app_context():
            assert table_of(token).finished, game
            assert table_of(token).last_seq == len(events)


def test_carambouille_review_through_the_log(app):
    review = review_for(app, record_all(app, *CARAMBOUILLE))
    assert [(s.rank, s.seat, s.score) for s in review.standings] == [(1, ANA, 920), (2, CY, 485), (3, BEN, 460)]
    assert review.winners == (ANA,)
    assert len(review.periods) == 11
    assert review.periods[-1].totals == (920, 460, 485)


def test_frutti_equal_money_shares_the_first_rank(app):
    review = review_for(app, record_all(app, "frutti", ["Ana", "Ben", "Cy"], {}, FRUTTI_TIE_EVENTS))
    assert [(s.rank, s.score) for s in review.standings] == [(1, 330), (1, 330), (3, 270)]
    assert review.winners == (ANA, BEN)
