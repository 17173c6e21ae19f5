"""The score pad on a wide screen: the 🔔 of each hand's First Trader sits beside that player's own total."""

from __future__ import annotations

import pytest

from browser.tables import record_table

pytestmark = pytest.mark.browser
PLAYERS = ["Ana", "Ben", "Chloé", "Dario"]
WIDE = {"width": 1280, "height": 800}


def quiet_hands(count: int) -> list[dict]:
    """``count`` hands in which nobody sells: the bell passes left every hand."""
    events = []
    for hand in range(count):
        first = hand % len(PLAYERS)
        events += [{"type": "market_opened"}, {"type": "market_closed"}]
        events += [{"type": "end_sales_turn", "player": (first + k) % len(PLAYERS)} for k in range(len(PLAYERS))]
        events.append({"type": "deal", "cards": [0] * len(PLAYERS), "hand_sizes": [8] * len(PLAYERS)})
    return events


# How far each bell is from its own total's digits, and from the previous column's, in CSS pixels.
MEASURE = """table => [...table.querySelectorAll('td.ft')].map(cell => {
  const bell = cell.querySelector('.bell-mark').getBoundingClientRect();
  const digits = document.createRange();
  digits.selectNodeContents(cell.querySelector('.total').lastChild);
  const own = digits.getBoundingClientRect();
  const before = cell.previousElementSibling.getBoundingClientRect();
  return {toOwn: own.left - bell.right, fromPrevious: bell.left - before.right,
          inside: bell.left >= cell.getBoundingClientRect().left};
})"""


@pytest.mark.parametrize("size", [WIDE, {"width": 390, "height": 844}], ids=["1280", "390"])
def test_the_first_traders_bell_sits_beside_their_own_total(new_phone, live_server, size):
    token, watch = record_table(live_server, "carambouille", PLAYERS, {"first_trader": 0}, quiet_hands(8))
    screen = new_phone(size=size)
    for path in (f"/w/{watch}/pad", f"/t/{token}/pad"):
        screen.goto(path)
        gaps = screen.locator("table.pad").evaluate(MEASURE)
        assert len(gaps) == 9  # hands 1 to 8 and the hand now
        for gap in gaps:
            assert gap["inside"] and 0 <= gap["toOwn"] < 12, gap  # right before its own number
            assert gap["fromPrevious"] > gap["toOwn"], gap  # nearer its own number than the column before
    assert screen.errors == []
