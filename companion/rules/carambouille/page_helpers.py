"""What Carambouille's pages ask of a state: the phase in one word, whose turn is next, the choices a form offers.

Pure queries on ``State``, built on the engine's own checks so a page never
offers what the rules would refuse for a public reason. What a player holds
by type is private: the choices here use only the public counts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.rules.words import _
from companion.rules.carambouille.memo import (
    COPIES_PER_TYPE,
    DEFAULT_MEMO,
    FACE_VALUES,
    SALE_CARDS,
    card_name,
    effective_memo,
    on_ruling,
    steps_on_row,
)
from companion.rules.carambouille.state import (
    DEAL,
    MARKET,
    MAX_DEAL,
    SALES,
    State,
    deal_plan,
    hand_limit,
    played,
    seat_after,
)

# The most sale cards a form offers on one sale: 4 Illusions cannot all move a
# sale, so a longer chain is not a real one.
MAX_SALE_EFFECTS = 6


def held_count(state: State, seat: int) -> int:
    """How many Carambouille cards the player holds (public: the backs are seen)."""
    return sum(state.held[seat])


def next_seller(state: State) -> int | None:
    """Who sells after the player whose turn it is (None when they are the last of the hand)."""
    if state.phase != SALES or state.turns_taken + 1 >= len(state.players):
        return None
    return seat_after(state, state.turn)


def sellers_after(state: State) -> list[int]:
    """The players still to sell this hand after the current one, in order."""
    if state.phase != SALES:
        return []
    remaining = len(state.players) - state.turns_taken - 1
    seats, seat = [], state.turn
    for _step in range(remaining):
        seat = seat_after(state, seat)
        seats.append(seat)
    return seats


def exchange_open(state: State) -> bool:
    """Whether "I lied!", Persuasion and trades of Carambouille cards can be recorded now."""
    return state.phase == MARKET


def next_sale_cards(cards: int, effects: Sequence[str]) -> tuple[str, ...]:
    """The sale cards that can still follow ``effects`` on a sale of ``cards`` (memo rules only)."""
    column, cancelled = cards, False
    for card in effects:
        column += card == "illusion"
        cancelled = cancelled or card == "overstock"
    if cancelled or len(effects) >= MAX_SALE_EFFECTS:
        return ()
    return tuple(card for card in SALE_CARDS if card != "illusion" or column < 5)


# One sale of the quick calculator, as its offline data holds it: [value, marks] and, where sale cards
# can still follow, {card: the sale after it}. Marks: RESTS_ON_RULING if the value rests on the
# unconfirmed 5-card column, CANCELLED if an Overstock cancelled the sale.
RESTS_ON_RULING, CANCELLED = 1, 2
SaleTree = list


def calculator_values(memo: Mapping[int, Sequence[int]], changed: frozenset = frozenset()) -> dict[int, list[SaleTree]]:
    """Every value the quick calculator can show on ``memo``: for each face value, for 1 to 5 cards, the
    sale as a tree of the sale cards it offers (``next_sale_cards``), each node the value after the
    cards on its path. A phone without a connection looks its answer up here: no rule is written twice."""

    def sale(face: int, cards: int, effects: list[str]) -> SaleTree:
        last = steps_on_row(memo[face], cards, effects)[-1]
        ruling = not last.cancelled and on_ruling(face, last.column, changed)
        node: SaleTree = [last.value, (RESTS_ON_RULING if ruling else 0) | (CANCELLED if last.cancelled else 0)]
        following = {card: sale(face, cards, [*effects, card]) for card in next_sale_cards(cards, effects)}
        return [*node, following] if following else node

    return {face: [sale(face, cards, []) for cards in range(1, 6)] for face in FACE_VALUES}


def sale_card_choices(
    state: State, seller: int, cards: int, effects: Sequence[tuple[str, int]]
) -> list[tuple[str, int]]:
    """(card, seat) pairs the next sale card can be: Illusion by the seller, the others by another
    player, only by players with a Carambouille card left (a public count: types stay private), and
    never a type whose 4 copies have all been played (on the table, or already on this sale)."""
    left = [held_count(state, seat) for seat in state.seats]
    for _card, seat in effects:
        if 0 <= seat < len(left):
            left[seat] -= 1
    gone = played(state)
    for card, _seat in effects:
        gone[card] = gone.get(card, 0) + 1
    choices = []
    for card in next_sale_cards(cards, [card for card, _ in effects]):
        if gone[card] >= COPIES_PER_TYPE:
            continue
        seats = [seller] if card == "illusion" else [s for s in state.seats if s != seller]
        choices += [(card, seat) for seat in seats if left[seat] > 0]
    return choices


def sale_card_slots(
    state: State, seller: int, cards: int, chosen: Sequence[tuple[str, int]]
) -> list[tuple[tuple[str, int] | None, list[tuple[str, int]]]]:
    """The sale form's "then…" selects: each card chosen with what it could have been, then one empty
    select while another card can still be played."""
    slots = [(chosen[i], sale_card_choices(state, seller, cards, chosen[:i])) for i in range(len(chosen))]
    if following := sale_card_choices(state, seller, cards, chosen):
        slots.append((None, following))
    return slots


def sale_card_label(state: State, card: str, seat: int) -> str:
    """ "Bargain by Ana" """
    who = state.players[seat] if 0 <= seat < len(state.players) else _("nobody at this table")
    # Translators: a sale card and who plays it: "Bargain by Ana".
    return _("%(card)s by %(player)s", card=card_name(card), player=who)


@dataclass(frozen=True)
class DealOutcome:
    """The deal the First Trader makes for the hand sizes given, and what it leaves."""

    cards: tuple[int, ...]  # to give each seat
    after: tuple[int, ...]  # each hand after the deal
    limits: tuple[int, ...]
    total: int
    stock_left: int
    last_hand: bool


def deal_outcome(state: State, hand_sizes: Sequence[int]) -> DealOutcome:
    """``deal_plan`` with the hands and the stock after it; RuleError for impossible hand sizes."""
    plan = deal_plan(state, list(hand_sizes))
    total = sum(plan)
    return DealOutcome(
        cards=tuple(plan),
        after=tuple(size + given for size, given in zip(hand_sizes, plan)),
        limits=tuple(hand_limit(state, seat) for seat in state.seats),
        total=total,
        stock_left=state.stock - total,
        last_hand=state.stock - total == 0,
    )


def dealing(state: State) -> bool:
    """Whether the new First Trader is to deal now."""
    return state.phase == DEAL


def memo_overrides(memo: dict[int, Sequence[int]]) -> dict[str, list[int | None]]:
    """A house memo as an event carries it: only the rows that differ, ``None`` for a printed cell."""
    rows = {}
    for value in FACE_VALUES:
        row = [None if cell == printed else cell for cell, printed in zip(memo[value], DEFAULT_MEMO[value])]
        if any(cell is not None for cell in row):
            rows[str(value)] = row
    return rows


def memo_changes(before: dict[int, Sequence[int]], overrides: object) -> list[tuple[int, int, int, int]]:
    """(face value, cards, old value, new value) of every cell a house memo changes from ``before``."""
    after = effective_memo(overrides)[0]
    return [
        (value, n + 1, before[value][n], after[value][n])
        for value in FACE_VALUES
        for n in range(5)
        if before[value][n] != after[value][n]
    ]


__all__ = [
    "MAX_DEAL",
    "MAX_SALE_EFFECTS",
    "DealOutcome",
    "deal_outcome",
    "dealing",
    "exchange_open",
    "held_count",
    "memo_changes",
    "memo_overrides",
    "next_sale_cards",
    "next_seller",
    "sale_card_choices",
    "sale_card_label",
    "sale_card_slots",
    "sellers_after",
]
