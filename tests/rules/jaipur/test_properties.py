"""Jaipur's invariants under any sequence of entries (hypothesis)."""

from __future__ import annotations

import ast
import pathlib
import sys
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import RuleError, replay
from companion.rules import jaipur
from companion.rules.jaipur.tally import tally

sales = st.builds(
    lambda player, good, cards: {"type": "sale", "player": player, "good": good, "cards": cards},
    st.integers(0, 1),
    st.sampled_from(jaipur.GOODS),
    st.integers(1, 7),
)
camel_counts = st.builds(
    lambda a, b: {"type": "camels", "counts": [a, b]}, st.integers(0, 11), st.integers(0, 11)
)
# A round: sales (so stacks empty and rounds end by themselves), the odd
# entry out of its time, then what closes it: end_round (refused when the
# round already ended), the camels, next_round.
stray = st.one_of(camel_counts, st.just({"type": "next_round"}))
a_round = st.builds(
    lambda entries, counts: entries + [{"type": "end_round"}, counts, {"type": "next_round"}],
    st.lists(st.one_of(sales, sales, sales, sales, sales, stray), min_size=15, max_size=40),
    camel_counts,
)
matches = st.lists(a_round, min_size=1, max_size=5).map(
    lambda rounds: [entry for entries in rounds for entry in entries]
)


def check_round(current: jaipur.Round) -> None:
    """The bank and what the players took add up to the published tokens."""
    for at, good in enumerate(jaipur.GOODS):
        taken = [t for s in current.sales if s.good == good for t in s.goods_tokens]
        # Tokens are taken from the top, each once: taken + left is the stack.
        assert tuple(taken) + current.goods_left[at] == jaipur.GOODS_TOKENS[good]
        sold = sum(s.cards for s in current.sales if s.good == good)
        assert sold == current.cards_sold[at] <= jaipur.GOODS_CARDS[good]
    for at, size in enumerate(jaipur.BONUS_PILE_SIZES):
        drawn = [s.bonus for s in current.sales if s.bonus_pile == size]
        assert Counter(drawn) + Counter(current.bonus_left[at]) == Counter(
            jaipur.BONUS_TOKENS[size]
        )
    for sale in current.sales:
        assert 1 <= sale.cards <= jaipur.HAND_LIMIT
        if sale.good in jaipur.PRECIOUS_GOODS:
            assert sale.cards >= 2
        assert sale.bonus_pile == (
            jaipur.bonus_pile_for(sale.cards) if sale.bonus is not None else None
        )
    tallies = (
        current.result.tallies
        if current.result
        else tuple(tally(current.sales, seat) for seat in (0, 1))
    )
    bank_total = sum(map(sum, current.goods_left))
    assert sum(t.goods_sum for t in tallies) + bank_total == sum(
        map(sum, jaipur.GOODS_TOKENS.values())
    )
    if current.result:
        assert sum(t.camel_token for t in tallies) in (0, jaipur.CAMEL_TOKEN)


@settings(max_examples=300, deadline=None)
@given(
    matches,
    st.randoms(use_true_random=False),
    st.sampled_from(["draw", "enter"]),
)
def test_any_sequence_of_entries_keeps_the_bank_whole(events, rng, mode):
    players = ["Ana", "Ben"]
    options = {"bonus": mode}
    state = jaipur.new_game(players, options)
    recorded, states = [], [state]
    for event in events:
        if mode == "enter" and event["type"] == "sale" and event["cards"] >= 3:
            pile = jaipur.bonus_pile_left(state.round, event["cards"])
            if pile:
                event = dict(event, bonus=rng.choice(pile))
        before = state
        try:
            event = jaipur.complete(state, event, rng)
            state = jaipur.apply(state, event)
        except RuleError as refused:
            assert str(refused)  # a sentence for the players
            assert refused.field in (None, "player", "good", "cards", "bonus", "counts")
            continue
        assert jaipur.describe(before, event)
        recorded.append(event)
        states.append(state)

        for current in state.rounds:
            check_round(current)
        seals = jaipur.scores(state)
        assert all(0 <= n <= jaipur.SEALS_TO_WIN for n in seals)
        assert sum(seals) <= min(len(jaipur.results(state)), jaipur.SEALS_OF_EXCELLENCE)
        assert jaipur.round_points(state) == [
            t.goods_sum + t.bonus_sum + t.camel_token for t in jaipur.breakdown(state)
        ]
        assert all(p >= 0 for p in jaipur.round_points(state))
        hash(state)

    assert replay(jaipur, players, options, recorded) == state  # replays identically
    half = len(recorded) // 2  # undoing entries is replaying fewer of them
    assert replay(jaipur, players, options, recorded[:half]) == states[half]
    assert (jaipur.phase(state) == jaipur.FINISHED) == jaipur.finished(state)


# Sales that draw a whole bonus pile without emptying three goods stacks.
WHOLE_PILE = {
    3: ["leather"] * 3 + ["cloth"] * 2 + ["spice"] * 2,
    4: ["leather", "cloth", "spice"] * 2,
    5: ["leather", "leather", "cloth", "spice", "diamonds"],
}


@given(st.sampled_from(jaipur.BONUS_PILE_SIZES), st.randoms(use_true_random=False))
def test_drawing_a_whole_pile_gives_exactly_its_tokens(size, rng):
    state = jaipur.new_game(["Ana", "Ben"])
    drawn = []
    for turn, good in enumerate(WHOLE_PILE[size]):
        event = {"type": "sale", "player": turn % 2, "good": good, "cards": size}
        completed = jaipur.complete(state, event, rng)
        drawn.append(completed["bonus"])
        state = jaipur.apply(state, completed)
    assert sorted(drawn) == sorted(jaipur.BONUS_TOKENS[size])
    assert jaipur.bonus_piles(state)[jaipur.BONUS_PILE_SIZES.index(size)].left == 0
    assert jaipur.phase(state) == jaipur.SELLING


def test_the_rules_use_the_standard_library_only():
    package = pathlib.Path(jaipur.__file__).parent
    for module in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "__future__", (module, name)
