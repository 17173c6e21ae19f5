"""Games built entry by entry through companion.table.recording.record, with each game's real events: a long
Carambouille game, a Jaipur match, three rounds of Frutti di Mare and an evening of Rummy on a score sheet."""

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


def play_jaipur(table: Table) -> None:
    """A three-round Jaipur match (2 players, bonus tokens drawn): Ben takes the first round, Ana the next two."""
    def sale(player: int, good: str, cards: int, bonus: int | None = None) -> dict:
        return {"type": "sale", "player": player, "good": good, "cards": cards, **({} if bonus is None else {"bonus": bonus})}

    def camels(ana: int, ben: int) -> dict:
        return {"type": "camels", "counts": [ana, ben]}

    for event in [
        sale(0, "diamonds", 2), sale(1, "leather", 4, 5), sale(0, "cloth", 3, 2), sale(1, "gold", 3, 3),
        sale(0, "spice", 5, 10), sale(1, "diamonds", 3, 1), sale(0, "gold", 2), sale(1, "silver", 2),
        sale(0, "spice", 2), camels(2, 6),
        {"type": "next_round"}, sale(0, "silver", 3, 2), sale(1, "cloth", 2), {"type": "end_round"}, camels(0, 0),
        {"type": "next_round"}, sale(1, "gold", 2), sale(0, "diamonds", 2), {"type": "end_round"}, camels(3, 4),
    ]:
        record(table, event)


FRUTTI_TRACK = ["shrimp", "oysters", "mussels", "octopus", "sea_urchins"]


def play_frutti(table: Table) -> None:
    """Three rounds of Frutti di Mare at three players: one played card by card, one tallied, one kept and played."""
    def play(player: int, seafood: str) -> dict:
        return {"type": "play", "player": player, "seafood": seafood}

    def suspend(player: int, **hand: int) -> dict:
        return {"type": "suspend", "player": player, "hand": hand}

    for event in [
        {"type": "dishes", "order": FRUTTI_TRACK}, play(0, "octopus"), play(1, "octopus"), play(2, "mussels"),
        suspend(0, octopus=6), suspend(1, shrimp=6), suspend(2, mussels=2, oysters=4),
        {"type": "next_round"},
        {"type": "tally", "order": FRUTTI_TRACK,
         "cards": [{"sea_urchins": 2, "oysters": 5}, {"octopus": 3, "mussels": 4}, {"shrimp": 7}]},
        {"type": "next_round"},
        {"type": "dishes", "keep": True, "order": FRUTTI_TRACK},
        play(2, "octopus"), suspend(0, shrimp=7), suspend(1, sea_urchins=1, oysters=6), suspend(2, mussels=6),
    ]:
        record(table, event)


# A round's points as players type them: sums and negatives among plain numbers.
SHEET_POINTS = ["12+7-3", "-5", "25", "0", "2×15", "8"]


def play_sheet(table: Table, rounds: int) -> None:
    """``rounds`` rounds of a score sheet, each player's points typed as on the table page (a sum, a negative)."""
    players = len(table.players)
    for number in range(1, rounds + 1):
        points = [SHEET_POINTS[(number + seat) % len(SHEET_POINTS)] for seat in range(players)]
        record(table, {"type": "round", "round": number, "points": points})


def pad_with_memo_changes(table: Table, total: int) -> None:
    """Grow the log to ``total`` entries with house-memo changes (allowed in any phase, each one a real entry)."""
    flip = False
    while table.last_seq < total:
        flip = not flip
        record(table, {"type": "house_memo", "memo": {"40": [None, None, None, None, 500 if flip else 520]}})


def record(table: Table, event: dict) -> None:
    recording.record(table, event, device="bench")
