"""Jaipur's components as data: goods, cards, token stacks, bonus piles (RULES.md §2)."""

from __future__ import annotations

from types import MappingProxyType

from ..words import N_, N_plural, ngettext

# The six goods, in the order the tokens lie on the table (most precious first).
GOODS: tuple[str, ...] = ("diamonds", "gold", "silver", "cloth", "spice", "leather")

# Each good's name, as a heading or at the start of a sentence; worded where shown: _(GOODS_LABELS[good]).
GOODS_LABELS = MappingProxyType(
    {
        "diamonds": N_("Diamonds"),
        "gold": N_("Gold"),
        "silver": N_("Silver"),
        "cloth": N_("Cloth"),
        "spice": N_("Spice"),
        "leather": N_("Leather"),
    }
)

# Each good's name inside a sentence ("no cloth tokens were left"); worded where shown: _(GOODS_WORDS[good]).
GOODS_WORDS = MappingProxyType(
    {
        "diamonds": N_("diamonds"),
        "gold": N_("gold"),
        "silver": N_("silver"),
        "cloth": N_("cloth"),
        "spice": N_("spice"),
        "leather": N_("leather"),
    }
)

# A number of cards of each good inside a sentence ("3 diamonds", "1 cloth"); worded by ``goods_sold``.
# One message per good, so that each language can give each its own plural.
GOODS_SOLD = MappingProxyType(
    {
        "diamonds": N_plural("%(num)d diamond", "%(num)d diamonds"),
        "gold": N_plural("%(num)d gold", "%(num)d gold"),
        "silver": N_plural("%(num)d silver", "%(num)d silver"),
        "cloth": N_plural("%(num)d cloth", "%(num)d cloth"),
        "spice": N_plural("%(num)d spice", "%(num)d spice"),
        "leather": N_plural("%(num)d leather", "%(num)d leather"),
    }
)

# The colour of each good's cards and tokens, for the page.
GOODS_COLOURS = MappingProxyType(
    {
        "diamonds": "red",
        "gold": "yellow",
        "silver": "grey",
        "cloth": "purple",
        "spice": "green",
        "leather": "brown",
    }
)

# Cards of each good in the deck (55 cards with the 11 camels).
GOODS_CARDS = MappingProxyType(
    {"diamonds": 6, "gold": 6, "silver": 6, "cloth": 8, "spice": 8, "leather": 10}
)
CAMEL_CARDS = 11

# Diamonds, gold and silver are sold at least 2 at a time.
PRECIOUS_GOODS = frozenset({"diamonds", "gold", "silver"})
PRECIOUS_MINIMUM = 2

# A sale is made from the hand, which holds at most 7 cards.
HAND_LIMIT = 7

# Goods tokens, top of the stack (taken first) first.
GOODS_TOKENS = MappingProxyType(
    {
        "diamonds": (7, 7, 5, 5, 5),
        "gold": (6, 6, 5, 5, 5),
        "silver": (5, 5, 5, 5, 5),
        "cloth": (5, 3, 3, 2, 2, 1, 1),
        "spice": (5, 3, 3, 2, 2, 1, 1),
        "leather": (4, 3, 2, 1, 1, 1, 1, 1, 1),
    }
)

# The round ends at once when this many goods token stacks are empty.
EMPTY_STACKS_TO_END = 3

# Bonus piles, keyed by the cards sold: 3, 4, and 5 (meaning 5 or more).
BONUS_PILE_SIZES: tuple[int, ...] = (3, 4, 5)
BONUS_TOKENS = MappingProxyType(
    {
        3: (1, 1, 2, 2, 2, 3, 3),
        4: (4, 4, 5, 5, 6, 6),
        5: (8, 8, 9, 10, 10),
    }
)
BONUS_RANGES = MappingProxyType({3: "1–3", 4: "4–6", 5: "8–10"})
# Which sales take from each bonus pile ("the pile for 3 cards"); worded where shown: _(BONUS_PILE_LABELS[size]).
BONUS_PILE_LABELS = MappingProxyType({3: N_("3 cards"), 4: N_("4 cards"), 5: N_("5 or more cards")})

CAMEL_TOKEN = 5
SEALS_OF_EXCELLENCE = 3
SEALS_TO_WIN = 2


def bonus_pile_for(cards: int) -> int | None:
    """The bonus pile a sale of ``cards`` cards takes from (3, 4 or 5), or None under 3."""
    if cards < 3:
        return None
    return min(cards, 5)


def goods_sold(good: str, cards: int) -> str:
    """``cards`` cards of ``good`` in the reader's language, inside a sentence: "3 diamonds", "1 cloth"."""
    return ngettext(*GOODS_SOLD[good], cards)
