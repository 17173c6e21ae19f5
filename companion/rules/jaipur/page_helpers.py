"""What Jaipur's table page shows: the token bank, bonus piles, tallies, and a sale's preview."""

from __future__ import annotations

from dataclasses import dataclass

from ..words import _
from .components import (
    BONUS_PILE_LABELS,
    BONUS_PILE_SIZES,
    BONUS_RANGES,
    BONUS_TOKENS,
    GOODS,
    GOODS_CARDS,
    HAND_LIMIT,
    PRECIOUS_GOODS,
    PRECIOUS_MINIMUM,
    SEALS_OF_EXCELLENCE,
    bonus_pile_for,
)
from .state import (
    SELLING,
    JaipurState,
    Round,
    bonus_pile_left,
    check_card_count,
    check_good,
    check_sale,
    check_seat,
    next_starter,
    phase,
    require_phase,
)
from .tally import PlayerTally, tally


def token_bank(state: JaipurState) -> dict[str, tuple[int, ...]]:
    """The goods tokens still in each stack, top (taken next) first."""
    return dict(zip(GOODS, state.round.goods_left))


@dataclass(frozen=True)
class BonusPile:
    """One bonus pile: which sales take from it and what is left (face down on the table)."""

    size: int  # 3, 4 or 5 (5 or more cards)
    label: str  # "3 cards", in the reader's language
    range: str  # "1–3"
    left: int
    values: tuple[int, ...]  # the values left, sorted: what the app draws from


def bonus_piles(state: JaipurState) -> tuple[BonusPile, ...]:
    """The three bonus piles with the tokens left in each (worded for the page being shown)."""
    return tuple(
        BonusPile(size, _(BONUS_PILE_LABELS[size]), BONUS_RANGES[size], len(left), left)
        for size, left in zip(BONUS_PILE_SIZES, state.round.bonus_left)
    )


def breakdown(state: JaipurState) -> tuple[PlayerTally, PlayerTally]:
    """Each player's tokens this round; the camel token counts once the round is scored."""
    current = state.round
    if current.result is not None:
        return current.result.tallies
    return (tally(current.sales, 0), tally(current.sales, 1))


def round_points(state: JaipurState) -> list[int]:
    """Points per seat in the current round (goods + bonus, + camel token once scored)."""
    return [player.total for player in breakdown(state)]


def results(state: JaipurState) -> tuple[Round, ...]:
    """The rounds scored so far, each with its ``result``."""
    return tuple(r for r in state.rounds if r.result is not None)


@dataclass(frozen=True)
class SalePreview:
    """What a sale would take, shown before it is confirmed."""

    good: str | None
    cards: int | None
    goods_tokens: tuple[int, ...]
    goods_sum: int
    cards_without_token: int  # cards sold beyond the last token earn nothing
    bonus_range: str | None  # "1–3", "4–6", "8–10"; None under 3 cards
    bonus_available: bool  # whether that bonus pile still has tokens


def sale_preview(state: JaipurState, player=None, good=None, cards=None) -> SalePreview:
    """The tokens a sale would take; a choice not made yet (None) is previewed as nothing."""
    if good is None or cards is None:
        require_phase(state, SELLING)
        if player is not None:
            check_seat(player)
        if good is not None:
            check_good(good)
        if cards is not None:
            check_card_count(cards)
        return SalePreview(good, cards, (), 0, 0, None, False)
    event = {"player": 0 if player is None else player, "good": good, "cards": cards}
    _, good, cards = check_sale(state, event)
    taken = state.round.goods_left[GOODS.index(good)][:cards]
    size = bonus_pile_for(cards)
    return SalePreview(
        good=good,
        cards=cards,
        goods_tokens=taken,
        goods_sum=sum(taken),
        cards_without_token=cards - len(taken),
        bonus_range=BONUS_RANGES[size] if size else None,
        bonus_available=bool(bonus_pile_left(state.round, cards)),
    )


def card_choices(state: JaipurState, good: str | None = None) -> tuple[int, ...]:
    """The card counts a sale of ``good`` may have now; 1–7 before a good is chosen, none after the round."""
    if phase(state) != SELLING:
        return ()
    if good is None:
        return tuple(range(1, HAND_LIMIT + 1))
    check_good(good)
    left = GOODS_CARDS[good] - state.round.cards_sold[GOODS.index(good)]
    least = PRECIOUS_MINIMUM if good in PRECIOUS_GOODS else 1
    return tuple(range(least, min(HAND_LIMIT, left) + 1))


def bonus_choices(state: JaipurState, cards: int) -> tuple[int, ...]:
    """The values a bonus token entered for a sale of ``cards`` may have: every value printed on that pile's
    tokens, while it has any. Never only those still in it: the tokens taken lie face down, and what is
    left would tell their values."""
    size = bonus_pile_for(cards)
    if size is None or not bonus_pile_left(state.round, cards):
        return ()
    return tuple(sorted(set(BONUS_TOKENS[size])))


def seals_left(state: JaipurState) -> int:
    """The seals of excellence no one has won yet (3 in all)."""
    return SEALS_OF_EXCELLENCE - sum(state.seals)


def next_round_number(state: JaipurState) -> int | None:
    """The number of the round ``next_round`` would start; None until the round is scored, and after the match."""
    return None if next_starter(state) is None else state.round.number + 1
