"""The memo card and ``sale_value``: every example of RULES.md §1 and the rule text."""

import ast
import pathlib
import sys

import pytest

from companion.rules import GAMES, RuleError
from companion.rules import carambouille as game


@pytest.mark.parametrize(
    ("face_value", "cards", "effects", "value"),
    [
        # the examples, the rulebook's cheese sale step by step
        (40, 3, [], 180),
        (40, 3, ["illusion"], 300),
        (40, 3, ["illusion", "bargain"], 150),
        (40, 3, ["illusion", "bargain", "overstock"], 0),
        # RULES.md: two 10s sell for 25; one 20 for 20, two for 50
        (10, 2, [], 25),
        (20, 1, [], 20),
        (20, 2, [], 50),
        # the full default rows given in RULES.md
        *[(10, n, [], v) for n, v in zip(range(1, 6), (10, 25, 45, 75, 120))],
        *[(40, n, [], v) for n, v in zip(range(1, 6), (40, 100, 180, 300, 480))],
        *[(100, n, [], v) for n, v in zip(range(1, 6), (100, 250, 450, 750, 1200))],
        # Illusion: one column right; a second one, one more
        (10, 1, ["illusion"], 25),
        (10, 1, ["illusion", "illusion"], 45),
        (100, 4, ["illusion"], 1200),
        # Bargain halves, rounded up to a whole point, "whatever the number of cards"
        (10, 2, ["bargain"], 13),
        (30, 2, ["bargain"], 38),
        (10, 1, ["bargain"], 5),
        (10, 2, ["bargain", "bargain"], 7),  # 25 -> 13 -> 7, rounding up each time
        # Illusion after Bargain still moves the column, and the sale stays half price
        (40, 3, ["bargain", "illusion"], 150),
        (10, 1, ["bargain", "illusion"], 13),
        # Overstock cancels: 0, whatever came before
        (90, 5, ["overstock"], 0),
        (70, 2, ["bargain", "overstock"], 0),
    ],
)
def test_sale_value(face_value, cards, effects, value):
    assert game.sale_value(face_value, cards, effects) == value


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((40, 0), "1 to 5"),
        ((40, 6), "1 to 5"),
        ((40, True), "whole number"),
        ((40, "3"), "whole number"),
        ((45, 2), "No product has the face value 45"),
        ((40, 5, ["illusion"]), "past 5 cards"),
        ((40, 4, ["illusion", "illusion"]), "past 5 cards"),
        ((40, 3, ["discount"]), "Only Illusion, Bargain and Overstock"),
        ((40, 3, ["basket"]), "Only Illusion, Bargain and Overstock"),
        ((40, 3, "illusion"), "list"),
        ((40, 3, ["overstock", "illusion"]), "cancelled"),
    ],
)
def test_impossible_sales_are_refused(args, message):
    with pytest.raises(RuleError, match=message):
        game.sale_value(*args)


def test_catalogue_matches_the_rule_text():
    assert len(game.PRODUCTS) == 20
    assert {p.face_value for p in game.PRODUCTS} == set(range(10, 101, 10))
    counts = {value: len(products) for value, products in game.products_by_value()}
    assert counts == {10: 3, 20: 3, 30: 3, 40: 2, 50: 2, 60: 2, 70: 2, 80: 1, 90: 1, 100: 1}
    assert game.PRODUCT_BY_SLUG["foie_gras"].name == "foie gras"
    assert game.PRODUCT_BY_SLUG["cheese"].face_value == 40
    assert game.DECK_SIZE == 24 and len(game.CARD_TYPES) == 6
    assert game.UNCONFIRMED_COLUMNS == {5}


def test_house_memo_overrides_cells_and_says_which():
    memo, changed = game.effective_memo({"40": [None, None, None, None, 500], 10: [10, 20, 45, 75, 120]})
    assert memo[40] == (40, 100, 180, 300, 500)
    assert memo[10] == (10, 20, 45, 75, 120)
    assert memo[100] == game.DEFAULT_MEMO[100]
    assert changed == {(40, 5), (10, 2)}
    assert game.sale_value(40, 4, ["illusion"], memo={"40": [None, None, None, None, 500]}) == 500
    assert game.sale_value(10, 2, [], memo={10: [10, 20, 45, 75, 120]}) == 20
    assert game.effective_memo(None) == (dict(game.DEFAULT_MEMO), frozenset())


@pytest.mark.parametrize(
    ("memo", "message"),
    [
        ([40, 100], "map face values"),
        ({"45": [1, 2, 3, 4, 5]}, "no face value"),
        ({"cheese": [1, 2, 3, 4, 5]}, "no face value"),
        ({True: [1, 2, 3, 4, 5]}, "no face value"),
        ({40: [1, 2, 3, 4]}, "5 selling values"),
        ({40: "12345"}, "5 selling values"),
        ({40: [1, 2, 3, 4, -5]}, "whole points"),
        ({40: [1, 2, 3, 4, 2.5]}, "whole points"),
        ({40: [1, 2, 3, 4, True]}, "whole points"),
    ],
)
def test_bad_house_memo_is_refused(memo, message):
    with pytest.raises(RuleError, match=message) as error:
        game.effective_memo(memo)
    assert error.value.field == "memo"
    with pytest.raises(RuleError, match=message):
        game.new_game(["Ana", "Ben", "Cy"], {"memo": memo})


def test_sale_steps_in_words():
    steps = game.sale_steps(40, 3, ["illusion", "bargain", "overstock"])
    assert [s.value for s in steps] == [180, 300, 150, 0]
    assert steps[0].text("cheese") == "3 × cheese = 180"
    assert steps[1].text(by="Ben") == "Illusion by Ben → 300"
    assert steps[2].text() == "Bargain → 150"
    assert steps[3].text(by="Cy") == "Overstock by Cy → cancelled, 0"


def test_registered_and_standard_library_only():
    assert GAMES["carambouille"] is game
    assert (game.NAME, game.MIN_PLAYERS, game.MAX_PLAYERS) == ("Carambouille", 3, 7)
    folder = pathlib.Path(game.__file__).parent
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or name.startswith("companion.rules"), (path.name, name)
