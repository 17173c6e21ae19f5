"""The words of the rules (companion/rules/words.py): the catalog of the reader, real plurals ("1 seal", "2 seals")."""

from __future__ import annotations

import pathlib
import re

import pytest

from companion.rules import RuleError, carambouille, frutti, jaipur
from companion.rules.words import N_, _, ngettext

RULES = pathlib.Path(carambouille.__file__).parent.parent


@pytest.mark.parametrize("count, said", [(0, "0 seals"), (1, "1 seal"), (2, "2 seals"), (11, "11 seals")])
def test_without_an_app_the_words_are_the_english_source(count, said):
    assert ngettext("%(num)d seal", "%(num)d seals", count) == said
    assert _("%(name)s wins", name="Ana") == "Ana wins"
    assert _("100% sure") == "100% sure"  # no placeholders: nothing is formatted


def test_the_rules_word_through_the_catalog_the_app_points_at(marked):
    # The stub catalog marks what it words, the way a French one would change it.
    assert _("%(name)s wins", name="Ana") == "«Ana wins»"
    assert ngettext("%(num)d seal", "%(num)d seals", 2) == "«2 seals»"
    assert N_("Illusion") == "Illusion"  # only marked: worded where it is shown
    with pytest.raises(RuleError) as refused:
        carambouille.apply(carambouille.new_game(["Ana", "Ben", "Cy"]), {"type": "market_closed"})
    assert str(refused.value).startswith("«")


@pytest.mark.parametrize("slug, one, two", [
    ("onions", "1 onion", "2 onions"), ("truffles", "1 truffle", "2 truffles"), ("herbs", "1 herb", "2 herbs"),
    ("sweet_peppers", "1 sweet pepper", "2 sweet peppers"), ("cheese", "1 cheese", "2 cheeses"),
    ("foie_gras", "1 foie gras", "2 foie gras"),
])
def test_every_product_has_one_card_and_many(slug, one, two):
    product = carambouille.PRODUCT_BY_SLUG[slug]
    assert (product.cards(1), product.cards(2)) == (one, two)


def carambouille_selling():
    state = carambouille.new_game(["Ana", "Ben", "Cy"])
    return carambouille.apply(carambouille.apply(state, {"type": "market_opened"}), {"type": "market_closed"})


@pytest.mark.parametrize("product, cards, words", [
    ("onions", 1, "Ana sold 1 onion for 10."),
    ("truffles", 1, "Ana sold 1 truffle for 90."),
    ("truffles", 2, "Ana sold 2 truffles for 225."),
    ("hens", 1, "Ana sold 1 hen for 60."),
])
def test_a_carambouille_sale_of_one_card_is_said_in_the_singular(product, cards, words):
    state = carambouille_selling()
    sale = {"type": "sale", "player": 0, "product": product, "cards": cards}
    assert carambouille.describe(state, sale) == words
    preview = carambouille.sale_preview(state, sale)
    assert preview.lines[0] == f"{cards} × {carambouille.PRODUCT_BY_SLUG[product].word(cards)} = {preview.base}"


def test_the_carambouille_highlights_say_1_truffle():
    from companion.rules.carambouille import review
    state = carambouille.apply(carambouille_selling(), {"type": "sale", "player": 0, "product": "truffles", "cards": 1})
    lines = {h.title: h.text for h in review.highlights(state)}
    assert lines["Biggest sale"] == "Ana sold 1 truffle for 90 in hand 1."


def test_a_sold_out_product_is_named_as_its_cards():
    state = carambouille.apply(carambouille_selling(), {"type": "sale", "player": 0, "product": "onions", "cards": 4})
    with pytest.raises(RuleError) as refused:
        carambouille.apply(state, {"type": "sale", "player": 0, "product": "onions", "cards": 2})
    assert str(refused.value) == "Only 1 onion card is left to sell (4 of 5 sold)."


def test_jaipur_scores_are_1_seal_and_2_seals():
    assert [jaipur.score_unit(n) for n in (0, 1, 2)] == ["seals", "seal", "seals"]


def test_frutti_one_card_of_a_seafood():
    assert frutti.cards_words((1, 2, 1, 0, 1)) == "1 shrimp, 2 sea urchins, 1 oyster, 1 mussel"


# Hand-made plurals ("card{'s' if n > 1 else ''}") are what the coming translation cannot find.
HAND_MADE = re.compile(r"""['"]s['"] if |else ['"]s['"]|'' if [^}]*== 1 else""")


def test_no_plural_is_made_by_hand_in_the_rules_forms_views_or_templates():
    root = RULES.parent.parent
    files = [*root.glob("companion/**/*.py"), *root.glob("templates/**/*.html")]
    offenders = [str(path.relative_to(root)) for path in files if HAND_MADE.search(path.read_text())]
    assert offenders == []


# A sentence built by an f-string is English for every reader: the catalogs cannot hold it.
UNTRANSLATABLE = re.compile(r"""(?:RuleError|_|ngettext|_l)\(\s*f["']""")


def test_no_sentence_is_made_by_an_f_string():
    root = RULES.parent.parent
    offenders = [str(path.relative_to(root)) for path in root.glob("companion/**/*.py")
                 if UNTRANSLATABLE.search(path.read_text())]
    assert offenders == []
