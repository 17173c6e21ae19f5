"""Long games built entry by entry through companion.table.recording.record, with real Carambouille events."""

from __future__ import annotations

import random

from companion import groups
from companion.table import recording
from companion.table.state import state_of
from companion.extensions import db
from companion.models import Seat, Table
from companion.rules import carambouille

PLAYERS = ["Ana", "Ben", "Chloé", "Dario", "Elif", "Fatou", "Gus"]


def new_table(game: str, players: list[str], options: dict) -> Table:
    table = Table(game=game, options=options, group_id=groups.home_group().id,
                  seats=[Seat(position=i, name=n) for i, n in enumerate(players)])
    db.session.add(table)
    db.session.commit()
    return table


def play_carambouille(table: Table, hands: int, seed: int = 7) -> None:
    """Play ``hands`` hands of Carambouille at ``table`` (7 players), the way a table records them."""
    rng = random.Random(seed)
    players = len(table.players)
    unsold = {product.slug: 5 for product in carambouille.PRODUCTS}
    for hand in range(hands):
        record(table, {"type": "market_opened"})
        record(table, {"type": "market_closed", "seconds": rng.randint(60, 180)})
        state = state_of(table)
        for _ in range(players):
            seller = state.turn
            # A third of the turns sell 1 or 2 cards of a product not yet sold out (100 cards in the game).
            left = sorted(product for product, count in unsold.items() if count)
            if left and rng.random() < 0.35:
                product = rng.choice(left)
                cards = min(unsold[product], rng.randint(1, 2))
                unsold[product] -= cards
                record(table, {"type": "sale", "player": seller, "product": product, "cards": cards})
            record(table, {"type": "end_sales_turn", "player": seller})
            state = state_of(table)
        if hand < hands - 1:
            # Small deals keep the stock from running out before the last hand; never past a hand limit.
            cards = [0] * players
            room = [seat for seat in range(players)
                    if state.hand_estimates[seat] < carambouille.hand_limit(state, seat)]
            if room:
                cards[rng.choice(room)] = 1
            record(table, {"type": "deal", "cards": cards})


def pad_with_memo_changes(table: Table, total: int) -> None:
    """Grow the log to ``total`` entries with house-memo changes (allowed in any phase, each one a real entry)."""
    flip = False
    while table.last_seq < total:
        flip = not flip
        record(table, {"type": "house_memo", "memo": {"40": [None, None, None, None, 500 if flip else 520]}})


def record(table: Table, event: dict) -> None:
    recording.record(table, event, device="bench")
