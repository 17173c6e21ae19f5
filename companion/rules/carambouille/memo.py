"""Carambouille's cards and memo card: the catalogue, the selling values, ``sale_value``.

Pure data and arithmetic, no game state: the memo page and its calculator use
this module alone; the game engine (the ``carambouille`` package) builds on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from companion.rules import RuleError
from companion.rules.words import N_, N_plural, _, ngettext


@dataclass(frozen=True)
class Product:
    """One of the 20 products; 5 identical cards of each are in the game."""

    slug: str
    name: str  # as the products are named on the cards and the memo: "onions", "cheese" (English, the key)
    face_value: int
    one: str  # one card of it: "onion", "cheese" (English)

    def cards(self, count: int) -> str:
        """ "1 truffle", "3 truffles", "2 cheeses", in the reader's language."""
        # Translators: a number of product cards: "3 truffles"; %(product)s is the product's word for that number.
        return _("%(num)d %(product)s", num=count, product=self.word(count))

    def word(self, count: int) -> str:
        """The name for ``count`` cards, without the number: "truffle", "truffles", in the reader's language."""
        return ngettext(*_WORDS[self.slug], count)

    def label(self) -> str:
        """The product as the memo card names it, in the reader's language: "truffles", "cheeses"."""
        # The memo names a product by its pile of 5 cards: the plural in every language the app speaks.
        return self.word(CARDS_PER_PRODUCT)


# Each product's word for one card and for several (in a table of its own: a word is plural by its count).
_WORDS = {
    "onions": N_plural("onion", "onions"),
    "garlic": N_plural("garlic", "garlic"),
    "herbs": N_plural("herb", "herbs"),
    "tomatoes": N_plural("tomato", "tomatoes"),
    "sweet_peppers": N_plural("sweet pepper", "sweet peppers"),
    "aubergines": N_plural("aubergine", "aubergines"),
    "lemons": N_plural("lemon", "lemons"),
    "hot_peppers": N_plural("hot pepper", "hot peppers"),
    "lavender": N_plural("lavender", "lavender"),
    "cheese": N_plural("cheese", "cheeses"),
    "sausage": N_plural("sausage", "sausages"),
    "wine": N_plural("wine", "wines"),
    "ham": N_plural("ham", "hams"),
    "hens": N_plural("hen", "hens"),
    "rabbits": N_plural("rabbit", "rabbits"),
    "olive_oil": N_plural("olive oil", "olive oil"),
    "fabric": N_plural("fabric", "fabrics"),
    "foie_gras": N_plural("foie gras", "foie gras"),
    "truffles": N_plural("truffle", "truffles"),
    "saffron": N_plural("saffron", "saffron"),
}

# The name of one card, where it differs from the product's name.
_ONE = {"onions": "onion", "herbs": "herb", "tomatoes": "tomato", "sweet peppers": "sweet pepper",
        "aubergines": "aubergine", "lemons": "lemon", "hot peppers": "hot pepper", "hens": "hen",
        "rabbits": "rabbit", "truffles": "truffle"}
CARDS_PER_PRODUCT = 5

PRODUCTS: tuple[Product, ...] = tuple(
    Product(name.replace(" ", "_"), name, value, _ONE.get(name, name))
    for value, names in (
        (10, ("onions", "garlic", "herbs")),
        (20, ("tomatoes", "sweet peppers", "aubergines")),
        (30, ("lemons", "hot peppers", "lavender")),
        (40, ("cheese", "sausage")),
        (50, ("wine", "ham")),
        (60, ("hens", "rabbits")),
        (70, ("olive oil", "fabric")),
        (80, ("foie gras",)),
        (90, ("truffles",)),
        (100, ("saffron",)),
    )
    for name in names
)
PRODUCT_BY_SLUG: Mapping[str, Product] = MappingProxyType({p.slug: p for p in PRODUCTS})
FACE_VALUES: tuple[int, ...] = tuple(sorted({p.face_value for p in PRODUCTS}))
PRODUCT_CARDS = CARDS_PER_PRODUCT * len(PRODUCTS)  # 100

# The Carambouille cards: 4 of each type, 24 in the deck, 50 points each. Worded where shown: ``card_name``.
CARD_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "basket": N_("Basket"),
        # Translators: the card's printed name, with its quotes (French edition: « J'ai menti ! »).
        "i_lied": N_("“I lied!”"),
        "persuasion": N_("Persuasion"),
        "illusion": N_("Illusion"),
        "bargain": N_("Bargain"),
        "overstock": N_("Overstock"),
    }
)
CARD_TYPES: tuple[str, ...] = tuple(CARD_NAMES)
COPIES_PER_TYPE = 4
DECK_SIZE = COPIES_PER_TYPE * len(CARD_TYPES)  # 24
CARD_PRICE = 50
SALE_CARDS: tuple[str, ...] = ("illusion", "bargain", "overstock")

# Selling value = face value × multiplier for 1..5 identical cards sold together.
# The ×12 of the 5-card column is a ruling: no source confirms it (RULES.md §1).
MULTIPLIERS: tuple[tuple[int, int], ...] = ((1, 1), (5, 2), (9, 2), (15, 2), (12, 1))
UNCONFIRMED_COLUMNS: frozenset[int] = frozenset({5})
MAX_MEMO_VALUE = 100_000

DEFAULT_MEMO: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {value: tuple(value * num // den for num, den in MULTIPLIERS) for value in FACE_VALUES}
)


def card_name(card: str) -> str:
    """A Carambouille card's name in the reader's language (the French edition's printed names in French)."""
    return _(CARD_NAMES[card])


def on_ruling(face_value: int, cards: int, changed: frozenset[tuple[int, int]] = frozenset()) -> bool:
    """Whether the memo value of ``cards`` cards of a face value is this app's ruling, not confirmed by any
    source (the 5-card column), rather than the printed memo or the table's own house memo (``changed``)."""
    return cards in UNCONFIRMED_COLUMNS and (face_value, cards) not in changed


def products_by_value() -> list[tuple[int, tuple[Product, ...]]]:
    """The catalogue grouped by face value, cheapest first (as on the memo card)."""
    return [(value, tuple(p for p in PRODUCTS if p.face_value == value)) for value in FACE_VALUES]


def normalise_memo(overrides: object) -> dict[int, tuple[int | None, ...]]:
    """Validate a house memo ``{face_value: [5 values or None]}``; keys may be strings (JSON).

    ``None`` in a row keeps the default value of that cell.
    """
    if overrides is None:
        return {}
    if not isinstance(overrides, Mapping):
        raise RuleError(_("The house memo must map face values to 5 selling values."), "memo")
    rows: dict[int, tuple[int | None, ...]] = {}
    for key, row in overrides.items():
        try:
            value = int(key) if isinstance(key, str) else key
        except ValueError:
            value = None
        if type(value) is not int or value not in DEFAULT_MEMO:
            raise RuleError(
                # Translators: %(key)s is what was sent, %(values)s the list "10, 20, 30, …, 100".
                _("The memo has no face value %(key)s: the face values are %(values)s.",
                  key=repr(key), values=", ".join(map(str, FACE_VALUES))),
                "memo",
            )
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) != 5:
            raise RuleError(_("The memo row for %(value)d needs 5 selling values (1 to 5 cards).", value=value),
                            "memo")
        for cell in row:
            if cell is not None and (type(cell) is not int or not 0 <= cell <= MAX_MEMO_VALUE):
                raise RuleError(
                    _("Selling values on the memo are whole points from 0 to %(most)d (row %(value)d: %(cell)s).",
                      most=MAX_MEMO_VALUE, value=value, cell=repr(cell)),
                    "memo",
                )
        rows[value] = tuple(row)
    return rows


def effective_memo(overrides: object = None) -> tuple[dict[int, tuple[int, ...]], frozenset[tuple[int, int]]]:
    """A table's memo: the default with its house overrides, and the cells ``(value, cards)`` that differ."""
    memo = dict(DEFAULT_MEMO)
    for value, row in normalise_memo(overrides).items():
        memo[value] = tuple(d if cell is None else cell for cell, d in zip(row, DEFAULT_MEMO[value]))
    changed = frozenset(
        (value, n + 1) for value in FACE_VALUES for n in range(5) if memo[value][n] != DEFAULT_MEMO[value][n]
    )
    return memo, changed


@dataclass(frozen=True)
class SaleStep:
    """One line of a sale's arithmetic: the memo value, then one per sale card played."""

    card: str | None  # None for the memo value of the cards sold
    column: int  # memo column the sale is valued at (1..5)
    halvings: int  # Bargains so far
    cancelled: bool  # an Overstock was played
    value: int

    def text(self, product: str | None = None, by: str | None = None) -> str:
        """The step in words: "3 × cheese = 180", "Illusion by Ben → 300", "Overstock → cancelled, 0"."""
        if self.card is None:
            # Translators: the memo value of a sale: "3 × cheese = 180" (%(product)s names the cards sold).
            return _("%(cards)d × %(product)s = %(value)d", cards=self.column, product=product or str(self.value),
                     value=self.value)
        card = card_name(self.card)
        if self.cancelled:
            if by:
                # Translators: a step of a sale's arithmetic: "Overstock by Ben → cancelled, 0".
                return _("%(card)s by %(player)s → cancelled, 0", card=card, player=by)
            return _("%(card)s → cancelled, 0", card=card)
        if by:
            # Translators: a step of a sale's arithmetic: "Illusion by Ben → 300" (the sale's new value).
            return _("%(card)s by %(player)s → %(value)d", card=card, player=by, value=self.value)
        return _("%(card)s → %(value)d", card=card, value=self.value)


def _whole(number: object, field: str) -> int:
    if type(number) is not int:
        raise RuleError(_("A whole number is needed here, not %(value)s.", value=repr(number)), field)
    return number


def sale_steps(
    face_value: int,
    cards: int,
    effects: Sequence[str] = (),
    memo: Mapping[int, Sequence[int]] | None = None,
) -> tuple[SaleStep, ...]:
    """The arithmetic of a sale, step by step; the last step's value is what the sale earns."""
    row = (effective_memo(memo)[0] if memo else DEFAULT_MEMO).get(_whole(face_value, "product"))
    if row is None:
        raise RuleError(_("No product has the face value %(value)d.", value=face_value), "product")
    return steps_on_row(row, cards, effects)


def steps_on_row(row: Sequence[int], cards: int, effects: Sequence[str] = ()) -> tuple[SaleStep, ...]:
    """``sale_steps`` on one memo row (the engine passes its table's row)."""
    column = _whole(cards, "cards")
    if not 1 <= column <= 5:
        raise RuleError(_("A sale is 1 to 5 identical product cards."), "cards")
    if isinstance(effects, (str, bytes)):
        raise RuleError(_("The sale cards must be a list of cards."), "effects")
    halvings, cancelled = 0, False
    steps = [SaleStep(None, column, 0, False, row[column - 1])]
    for card in effects:
        if card not in SALE_CARDS:
            raise RuleError(_("Only Illusion, Bargain and Overstock change a sale, not %(card)s.", card=repr(card)),
                            "effects")
        if cancelled:
            raise RuleError(_("Overstock has cancelled this sale: no card can be played on it after that."),
                            "effects")
        if card == "illusion":
            if column == 5:
                raise RuleError(_("Illusion cannot value a sale past 5 cards."), "effects")
            column += 1
        elif card == "bargain":
            halvings += 1
        else:
            cancelled = True
        value = row[column - 1]
        for _halving in range(halvings):
            value = -(-value // 2)  # half price, rounded up to a whole point
        steps.append(SaleStep(card, column, halvings, cancelled, 0 if cancelled else value))
    return tuple(steps)


def sale_value(
    face_value: int,
    cards: int,
    effects: Sequence[str] = (),
    memo: Mapping[int, Sequence[int]] | None = None,
) -> int:
    """Points earned by selling ``cards`` identical cards of a face value, after the sale cards played."""
    return sale_steps(face_value, cards, effects, memo)[-1].value
