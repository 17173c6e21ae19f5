"""Frutti di Mare's quick tally: a whole round's money from the final dish order and every player's cards.

Used by the ``tally`` event (a round entered at once at a table) and by the
quick-tally page, so both check and count the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules import RuleError
from companion.rules.words import _, ngettext
from companion.rules.frutti.track import (
    CARDS_PER_SEAFOOD,
    HAND_SIZE,
    SEAFOOD,
    Counts,
    Earnings,
    Track,
    check_cards,
    check_order,
    earnings,
    prices_of,
    seafood_cards,
)


def check_tally(order: object, cards: object, names: Sequence[str]) -> tuple[Track, tuple[Counts, ...]]:
    """The final dish order and each player's cards (one entry per name), or RuleError."""
    track = check_order(order)
    if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
        raise RuleError(_("Enter every player's cards, by seafood."), "cards")
    if len(cards) != len(names):
        raise RuleError(ngettext("Enter the cards of the %(num)d player.", "Enter the cards of all %(num)d players.",
                                 len(names)), "cards")
    hands = tuple(check_cards(c, "cards") for c in cards)
    for name, hand in zip(names, hands):
        if sum(hand) != HAND_SIZE:
            raise RuleError(
                ngettext(
                    "%(name)s has %(num)d card: every player sells exactly %(hand)d a round (played and laid down).",
                    "%(name)s has %(num)d cards: every player sells exactly %(hand)d a round (played and laid down).",
                    sum(hand), name=name, hand=HAND_SIZE,
                ),
                "cards",
            )
    for seafood, total in zip(SEAFOOD, map(sum, zip(*hands))):
        if total > CARDS_PER_SEAFOOD:
            raise RuleError(
                # Translators: %(cards)s is every card of one seafood, counted: "9 sea urchins".
                _("There are only %(cards)s, not %(total)d.", cards=seafood_cards(seafood, CARDS_PER_SEAFOOD),
                  total=total),
                "cards",
            )
    return track, hands


def tally_earnings(order: object, cards: object, names: Sequence[str]) -> tuple[Earnings, ...]:
    """Each player's money for the round, with the arithmetic; RuleError if the tally is impossible."""
    track, hands = check_tally(order, cards, names)
    prices = prices_of(track)
    return tuple(earnings(prices, dict(zip(SEAFOOD, hand))) for hand in hands)
