"""Every page a table uses, in each of the four languages, at 320×640 and 390×844 (issue #22), and at
195×422: a 390 px phone zoomed to 200 % (issue #40, WCAG 1.4.10 reflow).

On each page: the document is no wider than the phone (nothing slides sideways), no element runs past
the screen and nothing scrolls sideways but a data table in its box, which then says so ("Swipe the
table sideways…"), no name or label is clipped (an element that holds one shows all of it:
``scrollWidth <= clientWidth``, and nothing cut with an ellipsis), and no word of a player's name is
broken across two lines. The tables are set up with long names and three- and four-digit scores,
seven players where the game allows it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from browser.tables import record_table
from review.test_review_sessions import CARAMBOUILLE, FRUTTI, JAIPUR

pytestmark = pytest.mark.browser

LANGUAGES = {"en": "en-GB", "fr": "fr-FR", "de": "de-DE", "it": "it-IT"}
SIZES = {"320": {"width": 320, "height": 640}, "390": {"width": 390, "height": 844},
         # A 390 px phone zoomed to 200 % (WCAG 1.4.10: reflow at 320 CSS px and beyond).
         "195": {"width": 195, "height": 422}}
SEVEN = ["Alice", "Bernard", "Dieter", "Giulia", "Maximilian", "Chloé", "Eli"]
FOUR = ["Alice", "Bernard", "Dieter", "Giulia"]
THREE = ["Bernard", "Dieter", "Giulia"]
# Set to a folder to keep a screenshot of every page the test opens, for looking at them.
SHOTS = os.environ.get("NARROW_SHOTS")


def seven_big_sales() -> list[dict]:
    """Hand 1 at seven players, Alice first: six sell 5 cards of a dear product (720 to 1,200 each); Eli's turn."""
    products = ["saffron", "truffles", "foie_gras", "olive_oil", "fabric", "hens"]
    events = [{"type": "market_opened"}, {"type": "market_closed", "seconds": 75}]
    for seat, product in enumerate(products):
        events += [{"type": "sale", "player": seat, "product": product, "cards": 5},
                   {"type": "end_sales_turn", "player": seat}]
    return events


# Whatever holds a name or a label; none of them may be cut.
HOLDERS = ("button, [role=button], summary, label, .score-row li, .score-row .name, .score-row .points, "
           ".scoreboard .name, .stall, .stall .dish-name, .pile-name, .standings li, .standings .who, "
           ".standings .score, .site-header a, .badge, .game-card, .who-seats button, th, td")
NAMES_AT = (".score-row .name, .scoreboard .name, .pile-name, .standings .who, .standings .name, .earnings .name, "
            ".turn-name, .who-seats button, .tally-name, label.choice, .pad thead th")

AUDIT = """([holders, namesAt, names]) => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width) {
    problems.push(`page ${document.documentElement.scrollWidth} px wide at ${width}`);
  }
  const describe = (el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} “${el.innerText.trim().slice(0, 40)}”`;
  // Inside a box that scrolls on purpose (the results' breakdown), a cell may run past the box.
  const scrolls = (el) => { for (let up = el.parentElement; up; up = up.parentElement) {
    const s = getComputedStyle(up); if (['auto', 'scroll'].includes(s.overflowX) && up !== document.documentElement
      && up !== document.body) return true; } return false; };
  for (const el of document.querySelectorAll(holders)) {
    if (!el.getClientRects().length || el.closest('.vh, .visually-hidden, [hidden]')) continue;
    const style = getComputedStyle(el);
    if (el.scrollWidth > el.clientWidth + 1 && !scrolls(el) && style.overflowX !== 'auto') {
      problems.push(`clipped: ${describe(el)} (${el.scrollWidth} > ${el.clientWidth})`);
    }
    const box = el.getBoundingClientRect();
    if (box.right > width + 1 && !scrolls(el)) problems.push(`off the screen: ${describe(el)} (right ${Math.round(box.right)})`);
  }
  // Nothing else runs past the screen either (WCAG 1.4.10: at 320 CSS px only a data table scrolls sideways).
  for (const el of document.body.querySelectorAll('*')) {
    if (!el.getClientRects().length || el.closest('.vh, .visually-hidden, [hidden], .table-scroll')) continue;
    const box = el.getBoundingClientRect();
    const parent = el.parentElement.getBoundingClientRect();
    if (box.right > width + 1 && parent.right <= width + 1 && !scrolls(el)) {
      problems.push(`sticks out: ${describe(el)} (right ${Math.round(box.right)})`);
    }
  }
  // What scrolls sideways is a data table in its box, and says so where it does.
  for (const el of document.body.querySelectorAll('*')) {
    if (!['auto', 'scroll'].includes(getComputedStyle(el).overflowX) || el.scrollWidth <= el.clientWidth + 1
        || !el.checkVisibility()) continue;  // (a box folded away in a closed <details> is not seen)
    const box = el.closest('.table-scroll');
    if (!box || !el.querySelector('table')) problems.push(`scrolls sideways: ${describe(el)}`);
    else if (!box.querySelector('.scroll-hint').checkVisibility()) problems.push(`scrolls without saying so: ${describe(el)}`);
  }
  // A name's words each on one line: a word broken inside a name has two boxes.
  for (const el of document.querySelectorAll(namesAt)) {
    if (!el.getClientRects().length) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('.vh, .visually-hidden, small, .badge')) continue;
      for (const match of node.data.matchAll(/\\S+/g)) {
        if (!names.some((name) => name.split(' ').includes(match[0]))) continue;
        const range = document.createRange();
        range.setStart(node, match.index); range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) problems.push(`name broken: “${match[0]}” in ${describe(el)}`);
      }
    }
  }
  return problems;
}"""


# A score sheet with seven players and four-digit totals: Skat-like rounds typed as sums, and a 7 Wonders
# sheet by categories, in teams, with a tie-break row.
SKAT = {"first_player": 0, "name": "Doppelkopf am Freitag", "target": 9000, "lowest_wins": False}
SKAT_ROUNDS = [{"type": "round", "round": n, "points": [f"{480 * n}+{35 * seat}" if seat % 2 else f"-{120 + seat}"
                                                         for seat in range(7)]} for n in range(1, 5)]
WONDERS = {"first_player": 0, "name": "7 Wonders Duel", "mode": "categories", "tie_break": "Pièces de monnaie",
           "rows": ["Militaire", "Bâtiments civils", "Science", "Guildes des marchands"], "teams": [0, 1, 2, 0, 1, 2, 0]}
WONDERS_CELLS = [{"type": "cells", "seat": seat, "cells": [[0, "1200"], [1, "3×(2+5)"], [2, "-15"], [3, "999"],
                                                           [4, str(seat)]]} for seat in range(7)]


@pytest.fixture(scope="module")
def tables(live_server) -> dict[str, tuple[str, str]]:
    """Each game's table at its start, under way and finished: (player token, watch token)."""
    return {
        "carambouille start": record_table(live_server, "carambouille", SEVEN, {"first_trader": 0}, []),
        "carambouille under way": record_table(live_server, "carambouille", SEVEN, {"first_trader": 0},
                                               seven_big_sales()),
        "carambouille finished": record_table(live_server, "carambouille", FOUR[:3], CARAMBOUILLE[2], CARAMBOUILLE[3]),
        "jaipur start": record_table(live_server, "jaipur", FOUR[1:3], {"first_player": 0}, []),
        "jaipur under way": record_table(live_server, "jaipur", FOUR[1:3], JAIPUR[2], JAIPUR[3][:5]),
        "jaipur finished": record_table(live_server, "jaipur", FOUR[1:3], JAIPUR[2], JAIPUR[3]),
        "frutti start": record_table(live_server, "frutti", THREE, {"first_player": 0}, []),
        "frutti under way": record_table(live_server, "frutti", THREE, FRUTTI[2], FRUTTI[3][:4]),
        "frutti finished": record_table(live_server, "frutti", THREE, FRUTTI[2], FRUTTI[3]),
        "sheet start": record_table(live_server, "sheet", SEVEN, SKAT, []),
        "sheet under way": record_table(live_server, "sheet", SEVEN, SKAT, SKAT_ROUNDS),
        "sheet by categories finished": record_table(live_server, "sheet", SEVEN, WONDERS, WONDERS_CELLS),
    }


def pages(tables) -> list[tuple[str, str, bool]]:
    """(what, address, take seat 0 first) for every page a table uses."""
    found = [("home", "/", False), ("memo card", "/memo/carambouille", False), ("Frutti tally", "/tally/frutti", False),
             ("sessions", "/history", False), ("players", "/players", False), ("a player", "/players/Bernard", False)]
    found += [(f"new {game}", f"/new/{game}", False) for game in ("carambouille", "jaipur", "frutti", "sheet")]
    for what, (token, watch) in tables.items():
        found += [(f"{what}, fresh phone", f"/t/{token}", False), (f"{what}, watching", f"/w/{watch}", False),
                  (f"{what}, results", f"/w/{watch}/results", False)]
        if not what.endswith("finished"):  # a finished table asks nobody whose phone it is
            found.append((f"{what}, seated", f"/t/{token}", True))
    token = tables["carambouille under way"][0]
    found += [("table memo", f"/t/{token}/memo", False), ("pad", f"/t/{token}/pad", False),
              ("all entries", f"/t/{token}/history", False)]
    # A step of each game's replay, where its board is fullest, and an evening replayed.
    for what, at in (("carambouille under way", 13), ("jaipur finished", 9), ("frutti under way", 3),
                     ("sheet under way", 4), ("sheet by categories finished", 5)):
        found.append((f"{what}, replayed at entry {at}", f"/t/{tables[what][0]}/replay?at={at}", False))
    found.append(("an evening replayed", f"/evenings/{tables['frutti finished'][1]}/replay", False))
    return found


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s}px")
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_is_wider_than_the_phone_and_no_name_is_cut(new_phone, tables, language, size):
    phone = new_phone(size=SIZES[size], locale=LANGUAGES[language])
    names = sorted(set(SEVEN + FOUR + THREE))
    problems = []
    # The service worker's offline page, kept in this language (issue #24).
    for what, address, seated in pages(tables) + [("offline page", f"/offline/{language}", False)]:
        phone.goto(address)
        if seated:
            phone.locator('section.who button[name="seat"][value="0"]').click()
            # The first phone set to this seat in the module takes it; the next ones are asked "move the seat to this one?".
            phone.wait_for_function("() => !document.querySelector('section.who:not(#seat-question)')")
            if phone.locator("#seat-question").count():
                problems += [f"{what}, this phone too? ({address}): {problem}"
                             for problem in phone.evaluate(AUDIT, [HOLDERS, NAMES_AT, names])]
                phone.locator("#seat-question button[type=submit]").click()
            phone.locator("section.who").wait_for(state="detached")
        assert phone.evaluate("document.documentElement.lang") == language
        if SHOTS:
            name = re.sub(r"\W+", "-", what).strip("-")
            phone.screenshot(path=Path(SHOTS) / f"{language}-{size}-{name}.png", full_page=True)
        problems += [f"{what} ({address}): {problem}" for problem in phone.evaluate(AUDIT, [HOLDERS, NAMES_AT, names])]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
    assert phone.errors == []
