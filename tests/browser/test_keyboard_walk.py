"""The walk from the home page to a finished Carambouille game with the keyboard alone, focus visible at every step:
the names, the starter, "Who are you?", the bell, the end of the game, the results.

Every stop of the walk is reached with Tab (or Shift+Tab) and used with Enter, Space or the arrow keys, as a
player with a keyboard (or a switch) would; at each stop the focused control carries a visible focus ring
(an outline at least 2 px wide in a colour that stands out from the page behind it, WCAG 2.4.7 / 2.4.11),
in light and in dark.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.phone import newest_entry

pytestmark = pytest.mark.browser
MAX_TABS = 80

# The focused element's ring, and the contrast of its colour with what is behind the element.
FOCUS_RING = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  let node = el.parentElement, behind = "rgb(255, 255, 255)";
  while (node) {
    const bg = getComputedStyle(node).backgroundColor;
    if (bg && !/rgba\\(0, 0, 0, 0\\)|transparent/.test(bg)) { behind = bg; break; }
    node = node.parentElement;
  }
  const ring = style.outlineStyle !== "none" ? parseFloat(style.outlineWidth) : 0;
  const a = lum(rgb(style.outlineColor)), b = lum(rgb(behind));
  const contrast = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  return {tag: el.tagName, text: (el.textContent || el.value || el.name || "").trim().replace(/\\s+/g, " ").slice(0, 120), ring, contrast};
}"""


def focused(page) -> dict | None:
    """The focused control and its ring, which must be visible; None between the page's last control and its
    first (the Tab key passes by the browser's own bar)."""
    found = page.evaluate(FOCUS_RING)
    if found is not None:
        assert found["ring"] >= 2 and found["contrast"] >= 3, f"no visible focus on {found}"
    return found


def tab_to(page, matches, back: bool = False) -> dict:
    """Press Tab until the focused control ``matches`` (a regular expression on its text), checking the focus
    ring at every stop on the way."""
    page.wait_for_load_state()
    for _ in range(MAX_TABS):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        found = focused(page)
        if found is not None and re.search(matches, found["text"]):
            return found
    raise AssertionError(f"no control matching {matches!r} within {MAX_TABS} tabs; newest entry: "
                         f"{newest_entry(page).inner_text()}")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_from_the_home_page_to_a_finished_game_with_the_keyboard_alone(new_phone, scheme):
    page = new_phone(color_scheme=scheme)
    page.goto("/")
    tab_to(page, r"^Carambouille")
    page.keyboard.press("Enter")
    page.wait_for_url("**/new/carambouille")
    for number, name in enumerate(("Ana", "Ben", "Chloé")):
        tab_to(page, rf"^players-{number}$")
        page.keyboard.type(name)
    # Ana starts: the starter list names the players just typed.
    tab_to(page, r"^Chosen at random")
    page.keyboard.press("ArrowDown")
    expect(page.locator("select#starter option:checked")).to_have_text("Ana")
    tab_to(page, r"^Open the table$")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    # Who are you? Ana.
    tab_to(page, r"^Ana$")
    page.keyboard.press("Enter")
    expect(page.locator(".seat-picker summary")).to_have_text("This phone is Ana's")
    # Ana is the First Trader: she opens the market.
    tab_to(page, r"^Ding-a-Ding!")
    page.keyboard.press("Enter")
    expect(newest_entry(page)).to_have_text("Hand 1: Ana rang the bell: the market is open.")
    # The end, two steps: open "End the game now…", then confirm.
    tab_to(page, r"^End the game now…")
    page.keyboard.press("Enter")
    tab_to(page, r"^End the game now$")
    page.keyboard.press("Enter")
    expect(page.locator("h1.table-title")).to_contain_text("finished")
    expect(newest_entry(page)).to_have_text("The game is over: Ana, Ben and Chloé share the win with 0 points.")
    # On to the results, still by keyboard.
    tab_to(page, r"^Results$", back=True)
    page.keyboard.press("Enter")
    page.wait_for_url("**/results")
    expect(page.get_by_role("heading", level=1)).to_have_text("Carambouille results")
    assert page.errors == []
