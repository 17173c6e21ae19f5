"""The quick calculator's offline data (``calculator_values``): every value it holds is the rules' own."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.rules import carambouille as game
from companion.rules.carambouille.page_helpers import CANCELLED, RESTS_ON_RULING


def sales(values):
    """(face value, cards, sale cards played, node) for every sale the data holds."""
    for face, rows in values.items():
        for cards, root in enumerate(rows, start=1):
            stack = [(root, [])]
            while stack:
                node, effects = stack.pop()
                yield face, cards, effects, node
                for card, child in (node[2].items() if len(node) > 2 else ()):
                    stack.append((child, [*effects, card]))


def test_the_worked_example_of_the_memo_card():
    values = game.calculator_values(dict(game.DEFAULT_MEMO))
    cheese = values[40][3 - 1]
    assert cheese[0] == 180
    assert cheese[2]["illusion"][0] == 300
    assert cheese[2]["illusion"][2]["bargain"][0] == 150
    assert cheese[2]["illusion"][2]["bargain"][2]["overstock"][:2] == [0, CANCELLED]
    # 4 cards with an Illusion are valued on the 5-card column: this app's ruling, marked.
    assert values[40][4 - 1][2]["illusion"][:2] == [480, RESTS_ON_RULING]


def test_every_value_is_what_the_rules_compute_and_every_choice_what_the_calculator_offers():
    values = game.calculator_values(dict(game.DEFAULT_MEMO))
    assert sorted(values) == list(game.FACE_VALUES)
    count = 0
    for face, cards, effects, node in sales(values):
        steps = game.sale_steps(face, cards, effects)
        assert node[0] == steps[-1].value == game.sale_value(face, cards, effects)
        assert bool(node[1] & CANCELLED) == steps[-1].cancelled
        assert bool(node[1] & RESTS_ON_RULING) == (not steps[-1].cancelled and game.on_ruling(face, steps[-1].column))
        following = tuple(node[2]) if len(node) > 2 else ()
        assert following == game.next_sale_cards(cards, effects)
        count += 1
    assert count == 10 * (181 + 154 + 104 + 49 + 13)


@given(st.dictionaries(st.sampled_from(game.FACE_VALUES),
                       st.lists(st.integers(0, game.MAX_MEMO_VALUE), min_size=5, max_size=5).map(tuple), max_size=3))
def test_a_house_memo_is_followed_cell_by_cell(overrides):
    memo = {**game.DEFAULT_MEMO, **overrides}
    changed = frozenset((face, cards) for face in overrides for cards in range(1, 6))
    values = game.calculator_values(memo, changed)
    for face in overrides:
        for face_, cards, effects, node in sales({face: values[face]}):
            last = game.steps_on_row(memo[face], cards, effects)[-1]
            assert node[0] == last.value
            # A house value is the table's own: never marked as this app's ruling.
            assert not node[1] & RESTS_ON_RULING
