"""axe-core on every kind of page, at phone size, light and dark: no serious or critical violation."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from browser.phone import create_table, submit_and_wait
from browser.tables import record_table
from browser.test_narrow_pages import SEVEN, seven_big_sales
from review.test_review_sessions import FRUTTI, JAIPUR

pytestmark = pytest.mark.browser

BLOCKING = {"serious", "critical"}
# Lighthouse's accessibility score counts these too, whatever axe calls their impact.
ALSO_BLOCKING = {"heading-order"}
# A control named by aria-label whose visible words are not in its name: a voice command saying what is seen
# finds nothing (Lighthouse's label-content-name-mismatch). Checked here in the page, as axe runs it only as
# an experiment.
NAME_HIDES_WORDS = """() => {
  const words = text => text.toLowerCase().split(/[^\\p{L}\\p{N}]+/u).filter(Boolean);
  return [...document.querySelectorAll('a[aria-label], button[aria-label], summary[aria-label], '
    + 'input[aria-label], select[aria-label], [role=button][aria-label]')]
    .filter(e => { const named = words(e.getAttribute('aria-label'));
                   return words(e.innerText).some(word => !named.includes(word)); })
    .map(e => e.outerHTML.slice(0, 120));
}"""
GAMES = {"carambouille": ["Ana", "Ben", "Chloé"], "jaipur": ["Ana", "Ben"], "frutti": ["Ana", "Ben", "Chloé"]}
axe = Axe()


def violations(page) -> list[str]:
    page.wait_for_load_state("networkidle")
    found = axe.run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(n["target"][0] if isinstance(n["target"][0], str)
            else str(n["target"][0]) for n in v["nodes"][:4]) for v in found
            if v["impact"] in BLOCKING or v["id"] in ALSO_BLOCKING] + [
        f"label-content-name-mismatch: {html}" for html in page.evaluate(NAME_HIDES_WORDS)]


@pytest.fixture(scope="module")
def tables(browser, live_server):
    """One table of each game and of the tiny game (with an entry), opened through the UI."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    urls = {game: create_table(page, game, players) for game, players in GAMES.items()}
    urls["tiny"] = create_table(page, "tiny", ["Ana", "Ben"])
    form = page.locator("form.tiny-score")
    form.get_by_label("Points").fill("5")
    submit_and_wait(page, form.get_by_role("button", name="Add points"))
    page.locator("summary", has_text="Invite the table").click()
    urls["watch"] = live_server.url + page.get_by_role("link", name="Watch-only view").get_attribute("href")
    context.close()
    # A hand over, the next to deal: the page Lighthouse measures in make bench has its deal helper up.
    token, _ = record_table(live_server, "carambouille", ["Ana", "Ben", "Chloé"], {"first_trader": 0}, [
        {"type": "market_opened"}, {"type": "market_closed"},
        *({"type": "end_sales_turn", "player": seat} for seat in range(3))])
    urls["carambouille deal"] = f"/t/{token}"
    # A finished game: its results end with the evening's tally, the home page shows tonight, the evening has a page.
    _token, watch = record_table(live_server, *FRUTTI)
    urls["finished watch"] = watch
    # The same evening: a finished match (its rounds' seals on its board) and seven players' pad, wider than a phone.
    record_table(live_server, *JAIPUR)
    _token, urls["seven watch"] = record_table(live_server, "carambouille", SEVEN, {"first_trader": 0}, seven_big_sales())
    return urls


def page_paths(tables) -> dict[str, str]:
    token = {game: url.rsplit("/", 1)[1] for game, url in tables.items()
             if game not in ("watch", "finished watch", "seven watch")}
    paths = {
        "home": "/",
        "new carambouille table": "/new/carambouille",
        "new jaipur table": "/new/jaipur",
        "error page (404)": "/t/no-such-table",
        "watch view": tables["watch"],
        "history": f"/t/{token['tiny']}/history",
        "undo confirmation": f"/t/{token['tiny']}/undo?entry=1",
        "carambouille memo card": "/memo/carambouille",
        "carambouille table memo": f"/t/{token['carambouille']}/memo",
        "carambouille house memo form": f"/t/{token['carambouille']}/memo/edit",
        "carambouille score pad": f"/t/{token['carambouille']}/pad",
        "frutti quick tally": "/tally/frutti",
        "session history": "/history",
        "players": "/players",
        "results": f"/t/{token['jaipur']}/results",
        "offline page": "/offline/en",
        "finished results, the evening's tally": f"/w/{tables['finished watch']}/results",
        "an evening": f"/evenings/{tables['finished watch']}",
        "standings": "/standings",
        "a player, their rivals": "/players/Ana",
        "head to head": "/players/Ana/vs/Ben",
        "a game's champions and records": "/games/frutti",
        "a finished game replayed, a step": f"/w/{tables['finished watch']}/replay?at=7",
        "a table replayed, its start": f"/t/{token['jaipur']}/replay",
        "an evening replayed": f"/evenings/{tables['finished watch']}/replay",
        "seven players' table replayed, its pad scrolling sideways": f"/w/{tables['seven watch']}/replay?at=14",
    }
    paths |= {f"{game} table page": tables[game] for game in GAMES}
    paths["carambouille table, a hand to deal"] = tables["carambouille deal"]
    return paths


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violation_on_any_page(new_phone, tables, scheme):
    phone = new_phone(color_scheme=scheme)
    problems = {}
    for name, path in page_paths(tables).items():
        response = phone.goto(path)
        if response.status == 404 and name != "error page (404)":
            continue  # a page type that does not exist (yet) in this build
        if found := violations(phone):
            problems[name] = found
    assert not problems, "\n".join(f"{name}: {found}" for name, found in problems.items())


def test_no_serious_violation_with_a_refused_form_and_an_open_undo(new_phone, tables):
    phone = new_phone()
    phone.goto(tables["tiny"])
    form = phone.locator("form.tiny-score")
    form.get_by_label("Points").fill("99")
    submit_and_wait(phone, form.get_by_role("button", name="Add points"))
    phone.locator("#tiny-points-error").wait_for()
    phone.get_by_role("button", name=re.compile("Undo last entry")).click()
    phone.locator("form.undo-confirm").wait_for()
    assert violations(phone) == []
