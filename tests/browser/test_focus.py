"""Every control shows where the keyboard is (WCAG 2.4.7 and 2.4.11), light and dark (issue #40).

The pages are walked with the Tab key alone, as a person without a mouse or a touch screen does: each
control the focus reaches draws a ring at least 2 px wide whose colour stands out 3:1 or more from what
lies around it (the first background behind it that is not transparent).
"""

from __future__ import annotations

import pytest

from browser.phone import take_seat
from browser.tables import record_table

pytestmark = pytest.mark.browser

# The ring of the element that has the focus (or of the label that shows a hidden radio or checkbox), and
# the contrast of its colour with the background around it, by WCAG's relative luminance.
RING = """() => {
  const focused = document.activeElement;
  if (!focused || focused === document.body) return null;
  const outlined = (el) => { const s = getComputedStyle(el);
    return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 ? s : null; };
  // A radio drawn by its label is itself a transparent pixel: its label shows the focus.
  const box = focused.getBoundingClientRect();
  const hidden = getComputedStyle(focused).opacity === '0' || box.width < 4 || box.height < 4;
  const label = focused.closest('label') || (focused.labels && focused.labels[0]);
  let holder = hidden && label ? label : focused, style = outlined(holder);
  const rgb = (text) => { const [r, g, b, a = 1] = text.match(/[\\d.]+/g).map(Number); return {r, g, b, a}; };
  const luminance = ({r, g, b}) => { const c = [r, g, b].map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]; };
  let around = null;
  for (let up = holder.parentElement; up && !around; up = up.parentElement) {
    const colour = rgb(getComputedStyle(up).backgroundColor);
    if (colour.a > 0.5) around = colour;
  }
  around = around || rgb(getComputedStyle(document.documentElement).backgroundColor);
  const name = `${focused.tagName.toLowerCase()} “${(focused.innerText || focused.value || focused.name || '').trim().slice(0, 40)}”`;
  if (!style) return {name, width: 0, contrast: 0};
  const ring = rgb(style.outlineColor);
  const [light, dark] = [luminance(ring), luminance(around)].sort((a, b) => b - a);
  return {name, width: parseFloat(style.outlineWidth), contrast: (light + 0.05) / (dark + 0.05), alpha: ring.a};
}"""


def walk(page, steps: int = 120) -> list[dict]:
    """Tab from the top of the page through every control, once round; the ring of each."""
    rings, seen = [], set()
    page.keyboard.press("Tab")
    for _ in range(steps):
        ring = page.evaluate(RING)
        where = page.evaluate("() => { const e = document.activeElement; return e && e !== document.body ? "
                              "[...document.querySelectorAll('*')].indexOf(e) : -1; }")
        if ring is None or where in seen:
            break
        seen.add(where)
        rings.append(ring)
        page.keyboard.press("Tab")
    return rings


def unseen(rings: list[dict]) -> list[str]:
    return [f"{ring['name']}: {ring['width']} px, {ring['contrast']:.1f}:1" for ring in rings
            if ring["width"] < 2 or ring["contrast"] < 3 or ring.get("alpha", 1) < 1]


@pytest.fixture(scope="module")
def table(live_server) -> str:
    """A Carambouille table in its first sales turn: a sale form with "Preview the value", "Done selling…" and "Undo…"."""
    token, _ = record_table(live_server, "carambouille", ["Ana", "Ben", "Chloé"], {"first_trader": 0}, [
        {"type": "market_opened"}, {"type": "market_closed"},
        {"type": "sale", "player": 0, "product": "cheese", "cards": 2}])
    return token


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_language_buttons_and_the_secondary_buttons_show_a_clear_ring(new_phone, table, scheme):
    phone = new_phone(color_scheme=scheme, locale="fr-FR")
    phone.goto(f"/t/{table}")
    take_seat(phone, 0)
    problems = {}
    for label in ("Deutsch", "Italiano", "English", "Français", "Voir la valeur", "Fini de vendre",
                  "Annuler la dernière saisie"):
        control = phone.get_by_role("button", name=label).or_(phone.get_by_role("link", name=label)).first
        control.focus()
        # Focused from the keyboard, as :focus-visible asks: the key moves the focus away and back.
        phone.keyboard.press("Shift+Tab")
        phone.keyboard.press("Tab")
        ring = phone.evaluate(RING)
        assert ring is not None, label
        if unseen([ring]):
            problems[label] = unseen([ring])
    assert not problems, problems


PAGES = {"home": "/", "new Carambouille table": "/new/carambouille", "memo card": "/memo/carambouille",
         "Jaipur's new table": "/new/jaipur", "players": "/players"}


@pytest.fixture(scope="module")
def other_tables(live_server) -> dict[str, str]:
    """A Jaipur table (its goods are radios drawn by their labels) and a Frutti di Mare table, at their start."""
    return {"Jaipur table": f"/t/{record_table(live_server, 'jaipur', ['Ana', 'Ben'], {'first_player': 0}, [])[0]}",
            "Frutti table": f"/t/{record_table(live_server, 'frutti', ['Ana', 'Ben'], {'first_player': 0}, [])[0]}"}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_control_reached_by_the_tab_key_shows_a_clear_ring(new_phone, table, other_tables, scheme):
    phone = new_phone(color_scheme=scheme)
    problems = {}
    pages = PAGES | other_tables | {"Carambouille table": f"/t/{table}", "results": f"/t/{table}/results"}
    for what, address in pages.items():
        phone.goto(address)
        rings = walk(phone)
        assert len(rings) > 3, f"{what}: the Tab key reached {len(rings)} controls"
        if found := unseen(rings):
            problems[what] = found
    assert not problems, "\n".join(f"{what}: {found}" for what, found in problems.items())


@pytest.fixture(scope="module")
def sheets(live_server) -> dict[str, str]:
    """A Hearts sheet by rounds with a round written, and a 7 Wonders sheet by categories with a column filled."""
    hearts = {"first_player": 0, "name": "Hearts", "lowest_wins": True, "target": 100}
    wonders = {"first_player": 0, "name": "7 Wonders", "mode": "categories", "rows": ["Military", "Science"]}
    return {
        "Hearts sheet": record_table(live_server, "sheet", ["Ana", "Ben", "Cy"], hearts,
                                     [{"type": "round", "round": 1, "points": ["5", "13+3", "-8"]}])[0],
        "7 Wonders sheet": record_table(live_server, "sheet", ["Ana", "Ben", "Cy"], wonders,
                                        [{"type": "cells", "seat": 0, "cells": [[0, "4"], [1, "2×3"]]}])[0],
    }


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_score_sheet_is_filled_with_the_tab_key_and_every_stop_shows_a_clear_ring(new_phone, sheets, scheme):
    # The sheet's own forms (a round's boxes, a column's cells, the end) and its new-sheet page, seated.
    phone = new_phone(color_scheme=scheme)
    problems, reached = {}, {}
    phone.goto("/new/sheet")
    reached["new sheet"] = walk(phone)
    for what, token in sheets.items():
        phone.goto(f"/t/{token}")
        take_seat(phone, 1)
        phone.reload()  # the walk starts at the top of the page, as a seated phone opens it
        reached[what] = walk(phone)
    for what, rings in reached.items():
        assert len(rings) > 6, f"{what}: the Tab key reached {len(rings)} controls"
        if found := unseen(rings):
            problems[what] = found
    for what, field in (("Hearts sheet", "input “points-0”"), ("7 Wonders sheet", "input “cells-1”")):
        assert field in [ring["name"] for ring in reached[what]], f"{what}: {reached[what]}"
    assert not problems, "\n".join(f"{what}: {found}" for what, found in problems.items())
