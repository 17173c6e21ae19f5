"""Point entries typed as sums: what they make, how they are shown, and every refusal a player may meet."""

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import RuleError
from companion.rules.sheet.sums import LIMIT, Entry, entry_words, parse

VALID = [
    ("12+7-3", 16, "12+7-3 = 16"),
    ("-5", -5, "-5"),
    ("2*(3+4)", 14, "2*(3+4) = 14"),
    ("3×4", 12, "3×4 = 12"),
    ("3x4", 12, "3x4 = 12"),  # x and X between two numbers: a times, as people write it
    ("3X4", 12, "3X4 = 12"),
    ("2 x 15 + 1", 31, "2 x 15 + 1 = 31"),
    ("2x(3+4)", 14, "2x(3+4) = 14"),
    ("−2", -2, "-2"),  # the minus a phone's keyboard offers
    (" 7 ", 7, "7"),
    ("", 0, "0"),
    ("   ", 0, "0"),
    ("2*-3", -6, "2*-3 = -6"),
    ("-(3+2)", -5, "-(3+2) = -5"),
    ("2+3*4", 14, "2+3*4 = 14"),  # × before +
    ("10-2-3", 5, "10-2-3 = 5"),  # left to right
    ("007", 7, "7"),  # leading zeros are fine: just the number
    ("+5", 5, "5"),
    ("12 + 7 − 3", 16, "12 + 7 − 3 = 16"),
    ("1000*1000", LIMIT, "1000*1000 = 1000000"),
    ("-1000000", -LIMIT, "-1000000"),
    ("((((1))))", 1, "((((1)))) = 1"),
    ("0000001000000", LIMIT, "1000000"),  # 7 digits once its leading zeros are left out
]


@pytest.mark.parametrize("typed, value, shown", VALID)
def test_a_sum_makes_its_value_and_is_shown_as_typed(typed, value, shown):
    entry = parse(typed)
    assert entry == Entry(typed.strip(), value)
    assert entry_words(entry) == shown


REFUSED = [
    ("1/2", "Only digits, brackets and the signs + − × (also typed - * x X): not “/”."),
    ("2**3", "A number must follow “*”."),
    ("2^3", "Only digits, brackets and the signs + − × (also typed - * x X): not “^”."),
    ("(1+2", "A bracket is opened and never closed."),
    ("1+2)", "A bracket is closed that was never opened."),
    (")", "A bracket is closed that was never opened."),
    ("1+", "The entry ends with “+”: a number must follow it."),
    ("5 −", "The entry ends with “−”: a number must follow it."),
    ("12 3", "A sign is missing between “12” and “3”."),
    ("2(3)", "A sign is missing between “2” and “(”."),
    ("(1)(2)", "A sign is missing between “)” and “(”."),
    ("(1 2)", "A sign is missing between “1” and “2”."),
    ("()", "Empty brackets: put a number between them."),
    ("×3", "A number must come before “×”."),
    ("(*3)", "A number must come before “*”."),
    ("1+*2", "A number must follow “+”."),
    ("__import__('os')", "Only digits, brackets and the signs + − × (also typed - * x X): not “_”."),
    ("1.5", "Only digits, brackets and the signs + − × (also typed - * x X): not “.”."),
    ("3y4", "Only digits, brackets and the signs + − × (also typed - * x X): not “y”."),
    ("x3", "A number must come before “x”."),
    ("3x", "The entry ends with “x”: a number must follow it."),
    ("3xx4", "A number must follow “x”."),
    # Two signs in a row: a slip of the thumb, never a guess at what was meant.
    ("--5", "Two signs in a row, “--”: keep the one you mean."),
    ("+-5", "Two signs in a row, “+-”: keep the one you mean."),
    ("-+5", "Two signs in a row, “-+”: keep the one you mean."),
    ("++5", "Two signs in a row, “++”: keep the one you mean."),
    ("- -5", "Two signs in a row, “--”: keep the one you mean."),
    ("−-5", "Two signs in a row, “−-”: keep the one you mean."),
    ("12+-3", "Two signs in a row, “+-”: keep the one you mean."),
    ("12 - - 3", "Two signs in a row, “--”: keep the one you mean."),
    ("2*--3", "Two signs in a row, “--”: keep the one you mean."),
    ("-(--3)", "Two signs in a row, “--”: keep the one you mean."),
    ("1" * 41, "An entry holds at most 40 characters, not 41."),
    ("9999999*9999999", "9999999*9999999 makes more than 1000000."),
    ("1000001", "1000001 makes more than 1000000."),
    ("12345678", "12345678 makes more than 1000000."),
    ("1000*1001", "1000*1001 makes more than 1000000."),
    ("-1000000-1", "-1000000-1 makes less than −1000000."),
    ("999999+999999-999999", "999999+999999-999999 makes more than 1000000."),  # a step past it, not only the end
]


@pytest.mark.parametrize("typed, said", REFUSED)
def test_a_wrong_entry_is_refused_with_why(typed, said):
    with pytest.raises(RuleError) as refused:
        parse(typed, "points-2")
    assert (str(refused.value), refused.value.field) == (said, "points-2")


@pytest.mark.parametrize("typed", [None, 5, 5.0, True, ["5"], b"5"])
def test_an_entry_is_text(typed):
    with pytest.raises(RuleError, match="Enter a number, or a sum such as 12\\+7-3."):
        parse(typed)


@pytest.mark.parametrize("typed, value", [("--5", 5), ("+-5", -5), ("-+5", -5), ("12+-3", 9), ("2*--3", 6),
                                           ("- -(1+1)", 2)])
def test_an_entry_recorded_with_two_signs_in_a_row_still_makes_what_it_made(typed, value):
    # Recorded before the slip was refused: the session replays as it was played.
    assert parse(typed, recorded=True) == Entry(typed, value)


@pytest.mark.parametrize("typed", ["2*-3", "-(3+2)", "-(-5)", "+5", "1-(-2)", "(-1)-(-1)"])
def test_one_sign_in_front_of_a_number_or_a_bracket_is_no_slip(typed):
    assert parse(typed) == parse(typed, recorded=True)


def test_digits_of_another_script_are_digits():
    assert parse("١٢+3").value == 15  # Arabic-Indic 12


# The parser's refusals are RuleErrors, whatever is typed, as a new entry or a recorded one.
@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from("0123456789+-−*×xX() /_.'\n\t١²e"), max_size=60) | st.text(max_size=60),
       st.booleans())
def test_nothing_typed_breaks_the_parser(typed, recorded):
    try:
        entry = parse(typed, recorded=recorded)
    except RuleError as refused:
        assert str(refused)
    else:
        assert abs(entry.value) <= LIMIT
        assert entry.text == typed.strip()


# Sums as a player might type them: numbers, the seven signs, signs in front (two in a row, now and then), brackets.
SUMS = st.recursive(
    st.integers(0, 99).map(str),
    lambda inner: st.one_of(
        st.builds(lambda a, sign, b: f"{a}{sign}{b}", inner, st.sampled_from("+-−*×xX"), inner),
        inner.map(lambda text: f"({text})"),
        st.builds(lambda sign, text: f"{sign}{text}", st.sampled_from("+-−"), inner),
    ),
    max_leaves=10,
)


DOUBLED = re.compile(r"[-+−]\s*[-+−]")


@settings(max_examples=400, deadline=None)
@given(SUMS)
def test_a_sum_makes_what_python_makes_and_two_signs_in_a_row_are_refused(text):
    if len(text) > 40:
        with pytest.raises(RuleError, match="at most 40 characters"):
            parse(text)
        return
    python = eval(re.sub("[×xX]", "*", text.replace("−", "-")))  # noqa: S307 -- our own generated sums, in the test only
    # No step of a sum of numbers n can go beyond the product of every (n + 1): below the limit, nothing is refused.
    bound = math.prod(int(number) + 1 for number in re.findall(r"\d+", text))
    for recorded in (False, True):
        try:
            entry = parse(text, recorded=recorded)
        except RuleError as refused:
            said = str(refused)
            slip = not recorded and DOUBLED.search(text) and said.startswith("Two signs in a row, “")
            assert slip or (bound > LIMIT and "makes" in said), said
        else:
            assert entry.value == python
            assert recorded or not DOUBLED.search(text)
