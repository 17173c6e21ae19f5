"""Frutti di Mare's price track and what seafood sells for (RULES.md §3).

The track is a tuple of the five seafood keys, left to right, one dish under
each stall of ``STALLS``: the stall above a dish is that seafood's price.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.rules import RuleError
from companion.rules.words import N_, N_plural, _, ngettext

STALLS = (0, 10, 20, 30, 50)
SEAFOOD = ("shrimp", "sea_urchins", "oysters", "octopus", "mussels")
CARDS_PER_SEAFOOD = 9
HAND_SIZE = 7

# The English source of each name, worded where it is shown: ``_(PLURAL[seafood])``.
# Translators: the cards of one seafood, as in "All 9 oyster cards are already out this round."
CARDS = {
    "shrimp": N_("shrimp cards"),
    "sea_urchins": N_("sea urchin cards"),
    "oysters": N_("oyster cards"),
    "octopus": N_("octopus cards"),
    "mussels": N_("mussel cards"),
}
# Translators: a seafood dish, in the plural, lower case as inside a sentence ("the price of oysters"). It also
# names a stall of the price track, a fifth of a 320 px phone wide: mark where a long word may break with a soft
# hyphen (U+00AD, "Mies\u00admuscheln").
PLURAL = {
    "shrimp": N_("shrimp"),
    "sea_urchins": N_("sea urchins"),
    "oysters": N_("oysters"),
    "octopus": N_("octopus"),
    "mussels": N_("mussels"),
}
# A number of cards of one seafood: "1 sea urchin", "2 sea urchins"; worded by ``seafood_cards``.
SEAFOOD_CARDS = {
    "shrimp": N_plural("%(num)d shrimp", "%(num)d shrimp"),
    "sea_urchins": N_plural("%(num)d sea urchin", "%(num)d sea urchins"),
    "oysters": N_plural("%(num)d oyster", "%(num)d oysters"),
    "octopus": N_plural("%(num)d octopus", "%(num)d octopuses"),
    "mussels": N_plural("%(num)d mussel", "%(num)d mussels"),
}

Track = tuple[str, ...]
Counts = tuple[int, ...]  # one number per seafood, in SEAFOOD order

NO_CARDS: Counts = (0,) * len(SEAFOOD)


def capital(text: str) -> str:
    """``text`` with its first letter a capital, the rest as it is ("Sea urchins", "Ricci di mare")."""
    return text[:1].upper() + text[1:]


def seafood_name(seafood: str) -> str:
    """The seafood's dish in the reader's words, in the plural: "sea urchins", "oursins"."""
    return _(PLURAL[seafood])


def cards_name(seafood: str) -> str:
    """The seafood's cards in the reader's words: "sea urchin cards" ("All 9 sea urchin cards are out")."""
    return _(CARDS[seafood])


def seafood_cards(seafood: str, count: int) -> str:
    """A number of cards of one seafood in words: "1 sea urchin", "2 sea urchins"."""
    return ngettext(*SEAFOOD_CARDS[seafood], count)


def joined(items: Sequence[str]) -> str:
    """Words as a list read aloud: "a", "a and b", "a, b and c"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    # Translators: the end of a list: "shrimp, oysters and mussels", "Ana and Bea", "10 and 30".
    return _("%(items)s and %(last)s", items=", ".join(items[:-1]), last=items[-1])


def cards_words(counts: Counts) -> str:
    """Cards by seafood in words: "2 shrimp, 1 oyster" (or "no cards")."""
    parts = [seafood_cards(s, n) for s, n in zip(SEAFOOD, counts) if n]
    return ", ".join(parts) or _("no cards")


def check_seafood(value: object, field: str = "seafood") -> str:
    """``value`` as a seafood key, or RuleError."""
    if not isinstance(value, str) or value not in SEAFOOD:
        names = ", ".join(seafood_name(s) for s in SEAFOOD)
        raise RuleError(_("Choose one of the seafood: %(names)s.", names=names), field)
    return value


def check_order(order: object, field: str = "order") -> Track:
    """A dish order (five different seafood, under stalls 0..50), or RuleError."""
    if isinstance(order, str | bytes) or not isinstance(order, Sequence):
        raise RuleError(_("Give the dish under each stall, from 0 to 50."), field)
    track = tuple(check_seafood(s, field) for s in order)
    if len(track) != len(STALLS) or len(set(track)) != len(STALLS):
        raise RuleError(_("Each of the five dishes lies under exactly one stall."), field)
    return track


def check_cards(cards: object, field: str) -> Counts:
    """Cards by seafood ({"shrimp": 2, ...}; missing means 0) as Counts, or RuleError."""
    if not isinstance(cards, Mapping):
        raise RuleError(_("Give the number of cards of each seafood."), field)
    for key in cards:
        check_seafood(key, field)
    counts = tuple(cards.get(s, 0) for s in SEAFOOD)
    for seafood, n in zip(SEAFOOD, counts):
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise RuleError(
                _("The number of %(seafood)s must be a whole number, 0 or more.", seafood=seafood_name(seafood)),
                field,
            )
    return counts


def prices_of(track: Track) -> dict[str, int]:
    """Each seafood's price on ``track``."""
    return {seafood: stall for stall, seafood in zip(STALLS, track)}


@dataclass(frozen=True)
class DishMove:
    """One dish changing stalls."""

    seafood: str
    before: int
    after: int

    @property
    def words(self) -> str:
        # Translators: a dish moving along the price track: "octopus 30 → 50".
        return _("%(seafood)s %(before)d → %(after)d", seafood=seafood_name(self.seafood),
                 before=self.before, after=self.after)


def play_on_track(track: Track, seafood: str) -> tuple[Track, tuple[DishMove, ...]]:
    """The track after a ``seafood`` card is played, and every dish that moved (the played one first)."""
    i = track.index(seafood)
    if i < len(track) - 1:
        after = track[:i] + (track[i + 1], seafood) + track[i + 2 :]
    else:  # the dish under 50 goes to 0, the others move one stall right
        after = (seafood,) + track[:-1]
    old, new = prices_of(track), prices_of(after)
    moved = sorted((s for s in track if old[s] != new[s]), key=lambda s: (s != seafood, old[s]))
    return after, tuple(DishMove(s, old[s], new[s]) for s in moved)


def moves_words(moves: Sequence[DishMove]) -> str:
    """ "Octopus 30 → 50, sea urchins 50 → 30"."""
    return capital(", ".join(move.words for move in moves))


@dataclass(frozen=True)
class Term:
    """Cards of one seafood sold at one price: "2 mussels × 30"."""

    count: int
    seafood: str
    price: int

    @property
    def amount(self) -> int:
        return self.count * self.price

    @property
    def words(self) -> str:
        return f"{seafood_cards(self.seafood, self.count)} × {self.price}"


@dataclass(frozen=True)
class Earnings:
    """A player's money for a round, with the arithmetic."""

    terms: tuple[Term, ...]

    @property
    def total(self) -> int:
        return sum(term.amount for term in self.terms)

    @property
    def words(self) -> str:
        """ "2 mussels × 30 + 2 sea urchins × 50 + 3 octopus × 10 = 190"."""
        if not self.terms:
            return _("no cards = 0")
        return " + ".join(term.words for term in self.terms) + f" = {self.total}"


def earnings(prices: Mapping[str, int], cards: Mapping[str, int], first: Sequence[str] = ()) -> Earnings:
    """The money ``cards`` earn at ``prices``; terms in the order ``first``, then the rest in SEAFOOD order."""
    counts = dict(zip(SEAFOOD, check_cards(cards, "cards")))
    terms = []
    for seafood in dict.fromkeys((*first, *SEAFOOD)):
        if counts[seafood]:
            price = prices.get(seafood)
            if isinstance(price, bool) or not isinstance(price, int):
                raise RuleError(_("The price of %(seafood)s is missing.", seafood=seafood_name(seafood)), "prices")
            terms.append(Term(counts[seafood], seafood, price))
    return Earnings(tuple(terms))


def round_earnings(prices: Mapping[str, int], cards: Mapping[str, int]) -> int:
    """Σ cards × price: what a player's cards sell for at the end of a round."""
    return earnings(prices, cards).total
