"""Carambouille's game state and what the table view reads from it.

The state is immutable (tuples only); ``carambouille.apply`` builds each new
one. Everything here is a pure query: hand limits, cards held, the deal plan,
score rows, standings and the session highlights.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules import RuleError
from companion.rules.words import _, ngettext
from companion.rules.carambouille.memo import (
    CARD_TYPES,
    COPIES_PER_TYPE,
    DECK_SIZE,
    PRODUCT_BY_SLUG,
    PRODUCT_CARDS,
    PRODUCTS,
    effective_memo,
)

MIN_PLAYERS = 3
MAX_PLAYERS = 7
FIRST_DEAL = 6
MAX_DEAL = 3  # cards per player in each later deal
HAND_LIMITS = (8, 10, 11, 12, 14)  # product cards in hand, by Baskets laid (0..4)

# Phases of a hand, in order (see docs/events.md (Carambouille)):
OPENING = "opening"  # cards dealt, the First Trader has not rung the bell yet
MARKET = "market"  # the market is open: the exchange phase
SALES = "sales"  # the market is closed: sales turns from the First Trader to the left
DEAL = "deal"  # the hand is over, the bell has passed left: the new First Trader deals
OVER = "over"  # the last hand's sales are done: only "end_game" remains
FINISHED = "finished"


@dataclass(frozen=True)
class Sale:
    """One sale as recorded: seller, product, cards, the sale cards played (card, seat), value."""

    hand: int
    seller: int
    product: str
    cards: int
    effects: tuple[tuple[str, int], ...]
    value: int

    @property
    def overstocked(self) -> bool:
        """Cancelled by Overstock: earned 0, the cards went back to the seller's hand."""
        return any(card == "overstock" for card, _ in self.effects)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    memo: tuple[tuple[int, tuple[int, ...]], ...]  # (face value, 5 selling values), the table's memo
    first_trader_start: int
    hand: int = 1
    phase: str = OPENING
    first_trader: int = 0
    turn: int | None = None  # whose sales turn it is
    turns_taken: int = 0  # sales turns finished this hand
    bought_this_turn: int = 0
    points: tuple[int, ...] = ()
    bought: tuple[tuple[int, ...], ...] = ()  # per seat, per CARD_TYPES
    played: tuple[tuple[int, ...], ...] = ()  # per seat, per CARD_TYPES (Baskets laid included)
    held: tuple[tuple[int, ...], ...] = ()  # per seat, per CARD_TYPES: bought - played ± given
    sold: tuple[int, ...] = ()  # cards sold per product, in PRODUCTS order
    stock: int = 0  # product cards not dealt yet
    dealt: tuple[int, ...] = ()  # product cards dealt to each seat over the game
    hand_estimates: tuple[int, ...] = ()  # product cards each seat should hold, trades unseen
    last_hand: bool = False
    sales: tuple[Sale, ...] = ()
    hand_totals: tuple[tuple[int, ...], ...] = ()  # points at the end of each finished hand
    market_seconds: tuple[int | None, ...] = ()  # exchange phase duration, per hand

    @property
    def seats(self) -> range:
        return range(len(self.players))


def new_game(players, options=None, rng=None) -> State:
    """The table after the first deal: 6 product cards each, the bell with the first First Trader."""
    if isinstance(players, (str, bytes)) or not all(isinstance(name, str) for name in players):
        raise RuleError(_("Players are given as a list of names."), "players")
    count = len(players)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise RuleError(ngettext("Carambouille is for %(low)d to %(num)d player, not %(count)d.",
                                 "Carambouille is for %(low)d to %(num)d players, not %(count)d.",
                                 MAX_PLAYERS, low=MIN_PLAYERS, count=count), "players")
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise RuleError(_("The table settings are not readable."), "options")
    unknown = sorted(set(options) - {"first_trader", "memo"})
    if unknown:
        raise RuleError(_("Carambouille has no setting %(setting)s.", setting=repr(unknown[0])), unknown[0])
    first = options.get("first_trader", 0)
    if type(first) is not int or not 0 <= first < count:
        raise RuleError(_("The first First Trader must be one of the players."), "first_trader")
    memo = effective_memo(options.get("memo"))[0]
    zeros = tuple((0,) * len(CARD_TYPES) for _ in range(count))
    return State(
        players=tuple(players),
        memo=tuple(sorted(memo.items())),
        first_trader_start=first,
        first_trader=first,
        points=(0,) * count,
        bought=zeros,
        played=zeros,
        held=zeros,
        sold=(0,) * len(PRODUCTS),
        stock=PRODUCT_CARDS - FIRST_DEAL * count,
        dealt=(FIRST_DEAL,) * count,
        hand_estimates=(FIRST_DEAL,) * count,
    )


def seat_after(state: State, seat: int) -> int:
    """The player to the left (the next seat in seating order)."""
    return (seat + 1) % len(state.players)


def baskets(state: State, seat: int) -> int:
    """Baskets the player has laid in front of them."""
    return state.played[seat][CARD_TYPES.index("basket")]


def hand_limit(state: State, seat: int) -> int:
    """The most product cards the player may hold after a deal: 8, or 10/11/12/14 with Baskets."""
    return HAND_LIMITS[baskets(state, seat)]


def held(state: State, seat: int) -> dict[str, int]:
    """Carambouille cards the player holds, by type."""
    return dict(zip(CARD_TYPES, state.held[seat]))


def drawn(state: State) -> dict[str, int]:
    """Carambouille cards drawn from the deck so far, by type (at most 4 each)."""
    return {kind: sum(row[i] for row in state.bought) for i, kind in enumerate(CARD_TYPES)}


def played(state: State) -> dict[str, int]:
    """Carambouille cards played (discarded or laid) so far, by type, of 4 each."""
    return {kind: sum(row[i] for row in state.played) for i, kind in enumerate(CARD_TYPES)}


def deck_left(state: State) -> int:
    """Carambouille cards still in the deck (24 at the start)."""
    return DECK_SIZE - sum(map(sum, state.bought))


def sold_of(state: State, product: str) -> int:
    """Cards of a product sold over the game (of 5)."""
    return state.sold[PRODUCTS.index(PRODUCT_BY_SLUG[product])]


def max_sale_cards(state: State, product: str) -> int:
    """The most cards of a product that can still be sold at once (0 when all 5 are sold)."""
    return 5 - sold_of(state, product)


def sold_by_product(state: State) -> dict[str, int]:
    """Cards sold over the game per product slug (of 5 each)."""
    return {product.slug: count for product, count in zip(PRODUCTS, state.sold)}


def house_memo(state: State) -> tuple[dict[int, tuple[int, ...]], frozenset[tuple[int, int]]]:
    """The table's memo and the cells ``(face value, cards)`` its house memo changed."""
    return effective_memo(dict(state.memo))


def memo_row(state: State, face_value: int) -> tuple[int, ...]:
    """The table's selling values of a face value for 1..5 cards."""
    return dict(state.memo)[face_value]


def deal_plan(state: State, hand_sizes) -> list[int]:
    """Cards the First Trader gives each player: one at a time round the table from their left, 3 rounds."""
    count = len(state.players)
    if isinstance(hand_sizes, (str, bytes)) or len(hand_sizes) != count:
        raise RuleError(ngettext("Give the hand size of the %(num)d player.", "Give the hand size of each of the %(num)d players.",
                                 count), "hand_sizes")
    for size in hand_sizes:
        if type(size) is not int or not 0 <= size <= PRODUCT_CARDS:
            raise RuleError(_("A hand size is a whole number of product cards (0 or more)."), "hand_sizes")
    wanted = [max(0, min(MAX_DEAL, hand_limit(state, s) - hand_sizes[s])) for s in state.seats]
    given, stock = [0] * count, state.stock
    order = [(state.first_trader + k) % count for k in range(1, count + 1)]
    for _round in range(MAX_DEAL):
        for seat in order:
            if stock and given[seat] < wanted[seat]:
                given[seat] += 1
                stock -= 1
    return given


def first_trader_of(state: State, hand: int) -> int:
    """The First Trader of a hand (the bell passes left after every hand)."""
    return (state.first_trader_start + hand - 1) % len(state.players)


@dataclass(frozen=True)
class HandRow:
    """One row of the score pad: a hand's gains per seat and the running totals."""

    hand: int
    first_trader: int
    gains: tuple[int, ...]
    totals: tuple[int, ...]
    in_progress: bool


def score_rows(state: State) -> list[HandRow]:
    """The score pad: one row per hand (the hand being played last), with running totals."""
    rows, before = [], (0,) * len(state.players)
    totals = list(state.hand_totals)
    in_progress = state.phase in (OPENING, MARKET, SALES)
    if in_progress:
        totals.append(state.points)
    for index, after in enumerate(totals):
        gains = tuple(a - b for a, b in zip(after, before))
        last = in_progress and index == len(totals) - 1
        rows.append(HandRow(index + 1, first_trader_of(state, index + 1), gains, after, last))
        before = after
    return rows


def standings(state: State) -> list[tuple[int, int, int]]:
    """(rank, seat, points), best first; equal points share a rank (1, 1, 3…)."""
    order = sorted(state.seats, key=lambda s: (-state.points[s], s))
    return [(1 + sum(p > state.points[s] for p in state.points), s, state.points[s]) for s in order]


def winners(state: State) -> list[int]:
    """Seats with the most points."""
    return [seat for rank, seat, _ in standings(state) if rank == 1]


@dataclass(frozen=True)
class Highlights:
    """For the session review: biggest sale, most Carambouille cards played, longest market."""

    biggest_sale: Sale | None
    most_cards_played: tuple[tuple[int, ...], int]  # (seats, cards played), ties together
    longest_market: tuple[int, int] | None  # (hand, seconds)


def highlights(state: State) -> Highlights:
    """The highlights of the game so far."""
    biggest = max(state.sales, key=lambda sale: sale.value, default=None)
    if biggest is not None and biggest.value == 0:
        biggest = None
    counts = [sum(row) for row in state.played]
    top = max(counts)
    timed = [(seconds, -hand) for hand, seconds in enumerate(state.market_seconds, 1) if seconds is not None]
    longest = max(timed, default=None)
    return Highlights(
        biggest,
        (tuple(s for s in state.seats if counts[s] == top) if top else (), top),
        (-longest[1], longest[0]) if longest else None,
    )


def copies_left_to_draw(state: State, kind: str) -> int:
    """Cards of a Carambouille type still in the deck (4 minus those drawn)."""
    return COPIES_PER_TYPE - drawn(state)[kind]
