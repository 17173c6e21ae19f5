"""A finished table replayed entry by entry (``/t/<token>/replay?at=N``, the same under the watch link), as people
step through it: a Jaipur match from both players' phones and the watch link (a bonus token stays face down on
every phone but its owner's until its round is scored), a long Carambouille game stepped with the arrow keys on a
390 px phone, and a score sheet's replay on a phone without JavaScript, each step a page of its own."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.phone import choose_seat
from browser.tables import record_table
from review.test_review_sessions import JAIPUR_EVENTS

pytestmark = pytest.mark.browser
# Names of this file's own: the live server is shared, and other tests' games are part of its evening too.
JAIPUR_NAMES = ["Rosalind", "Sigurd"]
CARAMBOUILLE_NAMES = ["Tamsin", "Ulrich", "Vesna", "Wendell", "Xiomara", "Yannick", "Zelda"]
SHEET_NAMES = ["Aurelio", "Brunhild", "Cosimo", "Dagny"]
HEARTS = {"name": "Hearts", "lowest_wins": True, "target": 100}
HEARTS_ROUNDS = [
    {"type": "round", "round": number, "points": points}
    for number, points in enumerate([["3", "10", "13", "0"], ["13", "5", "8", "0"], ["26", "26", "0", "26"],
                                     ["4+5", "4", "0", "13"]], start=1)
]
# The running totals after each of those rounds (4+5 typed counts 9).
HEARTS_TOTALS = [["3", "10", "13", "0"], ["16", "15", "21", "0"], ["42", "41", "21", "26"], ["51", "45", "21", "39"]]
# Ana's 5-spice sale, with the bonus token 10 drawn for her; the camels counted, which scores round 1.
BONUS_SALE, ROUND_SCORED = 5, 10


def where(page):
    return page.locator("#replay .replay-where")


def sentence(page):
    """The step's entry, as the replay says it above the board."""
    return page.locator("#replay .replay-entry strong")


def score_row(page) -> dict[str, str]:
    """Each name of the score row and its points, as the phone shows them."""
    rows = page.locator("#replay ol.score-row li")
    return {row.locator(".name").inner_text().replace("(you)", "").strip(): row.locator(".points").inner_text().strip()
            for row in rows.all()}


def bonus_of(page, name: str):
    """What the player's round tally says of their bonus tokens, on this phone's board."""
    tally = page.locator("#replay .round-tallies article.tally", has=page.locator("h3.tally-name", has_text=name))
    return tally.locator("div", has=page.locator("dt", has_text="Bonus tokens")).locator("dd")


def fits(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page is wider than the screen"


def clean(*phones) -> None:
    for phone in phones:
        assert phone.errors == [] and phone.violations == [], (phone.errors, phone.violations)


# --- 1. Jaipur: a bonus token face down on every phone but its owner's, until its round is scored ---

def test_a_jaipur_bonus_stays_face_down_on_the_other_phone_and_the_watch_link(new_phone, live_server):
    token, watch_token = record_table(live_server, "jaipur", JAIPUR_NAMES, {"bonus": "draw", "first_player": 0},
                                      JAIPUR_EVENTS)
    ana_name, ben_name = JAIPUR_NAMES
    ana, ben, watcher = new_phone(), new_phone(), new_phone()
    # Each player tells the finished table's page whose phone it is ("Whose phone is this?").
    for phone, name in ((ana, ana_name), (ben, ben_name)):
        phone.goto(f"/t/{token}")
        choose_seat(phone, name)

    # Ben steps from the start with the Next link, then the arrow key, to the step after Ana's bonus sale.
    ben.goto(f"/t/{token}/replay")
    expect(where(ben)).to_have_text(f"The start, before {len(JAIPUR_EVENTS)} entries")
    ben.locator("#replay-next").click()
    expect(where(ben)).to_have_text(f"Entry 1 of {len(JAIPUR_EVENTS)}")
    expect(ben).to_have_url(re.compile(r"/replay\?at=1$"))
    for step in range(2, BONUS_SALE + 1):
        ben.keyboard.press("ArrowRight")
        expect(where(ben)).to_have_text(f"Entry {step} of {len(JAIPUR_EVENTS)}")
    # The sale's sentence tells the pile (8 to 10), not the token drawn from it.
    expect(sentence(ben)).to_have_text(f"{ana_name} sold 5 spice for 15 (5 + 3 + 3 + 2 + 2) and a bonus token (8–10).")
    ben.wait_for_timeout(2000)  # the phone left on the table a moment, as a real one is
    # Ana's two bonus tokens (2 for her cloth, 10 for her spice): face down, their sum nowhere.
    expect(bonus_of(ben, ana_name)).to_have_text("2 face down")
    # Ben's own two bonus tokens (5 and 3) he sees, with a word that only he does.
    expect(bonus_of(ben, ben_name)).to_contain_text("8")
    expect(bonus_of(ben, ben_name)).to_contain_text("(only you see this)")

    # Ana's phone at the same step: her own bonus, 10 (and her cloth bonus 2 before it: 12), Ben's face down.
    ana.goto(f"/t/{token}/replay?at={BONUS_SALE}")
    ana.wait_for_timeout(2000)
    expect(bonus_of(ana, ana_name)).to_contain_text("2 + 10 = 12")
    expect(bonus_of(ana, ana_name)).to_contain_text("(only you see this)")
    expect(bonus_of(ana, ben_name)).to_have_text("2 face down")

    # The watch link: no seat's bonus at all.
    watcher.goto(f"/w/{watch_token}/replay?at={BONUS_SALE}")
    expect(where(watcher)).to_have_text(f"Entry {BONUS_SALE} of {len(JAIPUR_EVENTS)}")
    expect(bonus_of(watcher, ana_name)).to_have_text("2 face down")
    expect(bonus_of(watcher, ben_name)).to_have_text("2 face down")

    # The round scored (the camels counted): every phone sees every bonus value.
    for step in range(BONUS_SALE + 1, ROUND_SCORED + 1):
        ben.keyboard.press("ArrowRight")
        expect(where(ben)).to_have_text(f"Entry {step} of {len(JAIPUR_EVENTS)}")
    expect(ben).to_have_url(re.compile(rf"/replay\?at={ROUND_SCORED}$"))
    ana.goto(f"/t/{token}/replay?at={ROUND_SCORED}")
    watcher.goto(f"/w/{watch_token}/replay?at={ROUND_SCORED}")
    for phone in (ben, ana, watcher):
        result = phone.locator("#replay .round-result")
        expect(result).to_be_visible()
        ana_bonus = result.locator("article.tally", has=phone.locator("h3", has_text=ana_name)).locator(
            "div", has=phone.locator("dt", has_text="Bonus tokens")).locator("dd")
        expect(ana_bonus).to_contain_text("2 + 10 = 12")
        expect(result).not_to_contain_text("face down")
        expect(result).not_to_contain_text("only you see this")
    clean(ana, ben, watcher)


# --- 2. The long Carambouille game, stepped with the arrow keys on a 390 px phone ---

def long_carambouille(live_server, players: list[str], hands: int = 20) -> tuple[str, int]:
    """bench/games.py's long game (7 players, ``hands`` hands, recorded entry by entry as a table records them),
    straight in the live server's database: its player token and its number of entries."""
    import sqlalchemy as sa

    from bench.games import new_table, play_carambouille
    from companion import create_app
    from companion.extensions import db
    from companion.models import Table
    from companion.table import recording

    app = create_app({"SQLALCHEMY_DATABASE_URI": live_server.database_url, "SECRET_KEY": "browser-tests"})
    with app.app_context():
        table = new_table("carambouille", players, {"first_trader": 0})
        # This process keeps each table's state by id, and every test's database starts its ids again.
        recording.cache.forget(table.id)
        play_carambouille(table, hands=hands)
        table = db.session.scalar(sa.select(Table).where(Table.id == table.id))
        found = table.token, table.last_seq
        db.session.remove()
        db.engine.dispose()
    return found


def focus_on(page, name: str) -> None:
    """The keyboard's focus is on the nav link ``name``, and shows (a focus ring a person can see)."""
    page.wait_for_function("name => document.activeElement && document.activeElement.id === `replay-${name}`", arg=name)
    shown = page.evaluate("""() => {
        const link = document.activeElement, style = getComputedStyle(link);
        return {visible: link.matches(':focus-visible'), outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
                shadow: style.boxShadow !== 'none'};
    }""")
    assert shown["visible"] and (shown["outline"] or shown["shadow"]), f"the focus on {name} does not show: {shown}"


def test_the_long_carambouille_game_stepped_with_the_arrow_keys(new_phone, live_server):
    token, last = long_carambouille(live_server, CARAMBOUILLE_NAMES)
    assert last > 200  # about 251 entries: seven players, twenty hands
    phone = new_phone()  # 390 × 844
    phone.goto(f"/t/{token}/replay")
    expect(where(phone)).to_have_text(f"The start, before {last} entries")
    expect(phone.locator("#replay .replay-entry")).to_have_text("The table as the game began.")
    assert set(score_row(phone).values()) == {"0"}
    fits(phone, 390)

    # → steps entry by entry, each step's sentence above the board; the address follows.
    said = []
    for step in range(1, 7):
        phone.keyboard.press("ArrowRight")
        expect(where(phone)).to_have_text(f"Entry {step} of {last}")
        expect(phone).to_have_url(re.compile(rf"/replay\?at={step}$"))
        focus_on(phone, "next")
        said.append(sentence(phone).inner_text())
        # The hand the step stands in, said once above the board (not "Hand 1 — Hand 1: …").
        line = phone.locator("#replay .replay-entry p").first.inner_text()
        assert line.count("Hand 1") == 1, line
        if step == 4:
            before = score_row(phone)
    assert said[0].endswith("Tamsin rang the bell: the market is open."), said[0]
    assert len(set(said)) == len(said), said
    # Entry 5, Vesna's sale: her points in the score row go from 0 to 20, nobody else's move.
    phone.keyboard.press("ArrowLeft")
    expect(where(phone)).to_have_text(f"Entry 5 of {last}")
    focus_on(phone, "prev")
    expect(sentence(phone)).to_have_text("Vesna sold 1 tomato for 20.")
    after = score_row(phone)
    assert (before["Vesna"], after["Vesna"]) == ("0", "20")
    assert {name: points for name, points in after.items() if name != "Vesna"} == \
        {name: points for name, points in before.items() if name != "Vesna"}
    phone.wait_for_timeout(2000)  # the phone left on the table a moment, as a real one is
    expect(where(phone)).to_have_text(f"Entry 5 of {last}")
    fits(phone, 390)

    # End: the last entry; Home: the start again. The focus stays on the link the key followed.
    phone.keyboard.press("End")
    expect(where(phone)).to_have_text(f"Entry {last} of {last}")
    expect(phone).to_have_url(re.compile(rf"/replay\?at={last}$"))
    focus_on(phone, "last")
    expect(phone.locator("#replay-last")).to_have_attribute("aria-disabled", "true")
    expect(phone.locator("#replay .recent-entries li.is-here")).to_have_count(1)
    assert score_row(phone)["Vesna"] != "0"
    fits(phone, 390)
    phone.keyboard.press("Home")
    expect(where(phone)).to_have_text(f"The start, before {last} entries")
    expect(phone).to_have_url(re.compile(r"/replay\?at=0$"))
    focus_on(phone, "first")
    assert set(score_row(phone).values()) == {"0"}

    # A reload keeps the step the address says.
    for step in range(1, 4):
        phone.keyboard.press("ArrowRight")
        expect(where(phone)).to_have_text(f"Entry {step} of {last}")
    phone.reload()
    expect(where(phone)).to_have_text(f"Entry 3 of {last}")
    expect(sentence(phone)).to_have_text(said[2])
    fits(phone, 390)

    # Keys pressed faster than the steps come in are counted, not lost: five presses, five steps on.
    for _ in range(5):
        phone.keyboard.press("ArrowRight")
    expect(where(phone)).to_have_text(f"Entry 8 of {last}")
    expect(phone).to_have_url(re.compile(r"/replay\?at=8$"))
    clean(phone)


# --- 3. A score sheet's replay on a phone without JavaScript: each step a page of its own ---

def test_a_sheet_replayed_without_javascript(new_phone, live_server):
    token, _watch = record_table(live_server, "sheet", SHEET_NAMES, HEARTS, HEARTS_ROUNDS)
    last = len(HEARTS_ROUNDS)
    phone = new_phone(java_script_enabled=False)
    answer = phone.goto(f"/t/{token}/replay")
    assert answer.status == 200
    expect(where(phone)).to_have_text(f"The start, before {last} entries")
    assert score_row(phone) == dict.fromkeys(SHEET_NAMES, "0")
    # No key hint on a phone whose keys would do nothing.
    expect(phone.locator(".replay-keys")).to_be_hidden()

    # Next, a full page load each time: the score row shows the running totals after each round.
    for step, totals in enumerate(HEARTS_TOTALS, start=1):
        with phone.expect_navigation(wait_until="domcontentloaded"):
            phone.locator("#replay-next").click()
        expect(phone).to_have_url(re.compile(rf"/replay\?at={step}$"))
        expect(where(phone)).to_have_text(f"Entry {step} of {last}")
        # The round once, as the step's heading, then the entry's own words.
        expect(phone.locator("#replay .replay-entry p").first).to_contain_text(f"Round {step} — {SHEET_NAMES[0]} ")
        assert score_row(phone) == dict(zip(SHEET_NAMES, totals)), step
        expect(phone.locator("#replay .recent-entries li")).to_have_count(step)
        if step == 2:
            phone.wait_for_timeout(2000)  # the phone left on the table a moment, as a real one is
            assert score_row(phone) == dict(zip(SHEET_NAMES, totals))
    expect(phone.locator("#replay-next")).to_have_attribute("aria-disabled", "true")
    # The step before, the same way back.
    with phone.expect_navigation(wait_until="domcontentloaded"):
        phone.locator("#replay-prev").click()
    expect(where(phone)).to_have_text(f"Entry {last - 1} of {last}")
    assert score_row(phone) == dict(zip(SHEET_NAMES, HEARTS_TOTALS[last - 2]))

    # An entry past the end, typed into the address: told next to the field, the page still there to use.
    answer = phone.goto(f"/t/{token}/replay?at=999")
    assert answer.status == 422
    field = phone.get_by_label("Entry", exact=True)
    expect(field).to_have_attribute("aria-invalid", "true")
    error = phone.locator("#replay-at-error")
    expect(error).to_have_text(f"Pick an entry from 0 (the start) to {last}.")
    expect(field).to_have_attribute("aria-describedby", "replay-at-error")
    # Next to it: right under the field and its button, not elsewhere on the page.
    field_box, error_box = field.bounding_box(), error.bounding_box()
    assert 0 <= error_box["y"] - (field_box["y"] + field_box["height"]) <= 40, (field_box, error_box)
    expect(where(phone)).to_have_text(f"The start, before {last} entries")
    fits(phone, 390)
    # The field, filled in right, shows that step; and the links still step.
    field.fill("2")
    with phone.expect_navigation(wait_until="domcontentloaded"):
        phone.get_by_role("button", name="Show").click()
    expect(where(phone)).to_have_text(f"Entry 2 of {last}")
    expect(phone.locator("#replay-at-error")).to_have_count(0)
    assert score_row(phone) == dict(zip(SHEET_NAMES, HEARTS_TOTALS[1]))
    with phone.expect_navigation(wait_until="domcontentloaded"):
        phone.locator("#replay-next").click()
    expect(where(phone)).to_have_text(f"Entry 3 of {last}")
    clean(phone)
