"""Score sheets played through the UI on several phones: Hearts by rounds to its end past 100 (a sum typed, a
negative score, an older round undone), 7 Wonders by categories filled out of order from two phones at once,
and Belote in two teams."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.phone import (choose_seat, expect_answer, expect_recorded, join_by_code, join_code, scores, sit_on_table,
                           submit_and_wait, tap_once, wait_for_answer)

pytestmark = pytest.mark.browser


def open_sheet(page, game: str, players: list[str], *, lowest_wins=False, target=None, rows=(), tie_break=None,
               teams=None) -> None:
    """Home → Any other game → the sheet's settings → Open the table."""
    page.goto("/")
    page.get_by_role("link", name=re.compile("^Any other game")).click()
    page.wait_for_url("**/new/sheet")
    page.get_by_label("Game", exact=True).fill(game)
    for number, name in enumerate(players, start=1):
        page.get_by_label(re.compile(rf"^Player {number}\b")).fill(name)
    page.locator("select#starter").select_option(label=players[0])
    if rows:
        page.get_by_role("radio", name=re.compile("^Categories")).check()
        page.get_by_label(re.compile("^Categories, one per line")).fill("\n".join(rows))
    if tie_break:
        page.get_by_label(re.compile(r"^Tie-break row")).fill(tie_break)
    if lowest_wins:
        page.get_by_label("Lowest total wins").check()
    if target:
        page.get_by_label("Ends when a total reaches (optional)").fill(str(target))
    if teams:
        page.locator("summary", has_text="Teams (as in Belote or Canasta)").click()
        for name, team in zip(players, teams):
            page.get_by_label(f"Team of {name}").select_option(label=f"Team {team}")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/t/[^/]+$"))


def at_the_table(new_phone, players: list[str], phones: int, **sheet) -> list:
    """The first player opens the sheet; the next ``phones - 1`` players join by its code, each on their own phone."""
    first = new_phone()
    open_sheet(first, players=players, **sheet)
    choose_seat(first, players[0])
    code = join_code(first)
    joined = [first]
    for name in players[1:phones]:
        phone = new_phone()
        join_by_code(phone, code)
        choose_seat(phone, name)
        joined.append(phone)
    return joined


def record_round(phone, points: dict[str, str]) -> None:
    """Type each player's points in the field labelled with their name, and record the round."""
    form = phone.locator("#round-form")
    for name, typed in points.items():
        form.get_by_label(re.compile(rf"^{re.escape(name)}(\s|$)")).fill(typed)
    submit_and_wait(phone, form.get_by_role("button", name="Record the round"))


def sheet_rows(phone) -> list[list[str]]:
    """The sheet's body as every phone shows it: each row's heading and its cells' texts."""
    rows = phone.locator(".sheet-table tbody tr")
    return [[cell.strip() for cell in row.locator("th, td").all_inner_texts()] for row in rows.all()]


def test_hearts_on_three_phones_to_its_end_past_100(new_phone):
    ana, ben, cleo = phones = at_the_table(new_phone, ["Ana", "Ben", "Cleo"], 3, game="Hearts", lowest_wins=True,
                                           target=100)
    for phone in phones:
        expect(phone.get_by_role("heading", name="Round 1")).to_be_visible(timeout=5000)

    record_round(ana, {"Ana": "12+7-3", "Ben": "-5", "Cleo": "0"})
    expect_recorded(phones, "Round 1: Ana 12+7-3 = 16, Ben -5, Cleo 0.", ["16", "-5", "0"])
    expect(cleo.locator(".sheet-table tbody tr").first).to_contain_text("12+7-3")

    record_round(ben, {"Ana": "30", "Ben": "0", "Cleo": "0"})  # a mis-tap: Ana took 13, Ben 13
    expect_recorded(phones, "Round 2: Ana 30, Ben 0, Cleo 0.", ["46", "-5", "0"])
    sit_on_table(cleo)
    record_round(cleo, {"Ana": "0", "Ben": "26", "Cleo": "0"})
    expect_recorded(phones, "Round 3: Ana 0, Ben 26, Cleo 0.", ["46", "21", "0"])

    # Ana undoes round 2 from the session's entries: round 3 stays, a row higher.
    ana.get_by_role("link", name="History").click()
    ana.locator("li", has_text="Round 2: Ana 30").get_by_role("link", name="Undo…").click()
    ana.get_by_role("button", name="Yes, undo it").click()
    ana.wait_for_url(re.compile(r"/t/[^/]+(#.*)?$"))
    for phone in phones:
        expect(scores(phone)).to_have_text(["16", "21", "0"], timeout=5000)
        expect(phone.get_by_role("heading", name="Round 3")).to_be_visible()
    assert [row[:2] for row in sheet_rows(ben)] == [["Round 1", "16\n12+7-3"], ["Round 2", "0"]]

    record_round(ana, {"Ana": "13", "Ben": "13", "Cleo": "0"})
    expect_recorded(phones, "Round 3: Ana 13, Ben 13, Cleo 0.", ["29", "34", "0"])
    record_round(cleo, {"Ana": "26×3", "Ben": "0", "Cleo": "0"})
    ended = "Round 4: Ana 26×3 = 78, Ben 0, Cleo 0. Ana reached 107: the game is over."
    expect_recorded(phones, ended, ["107", "34", "0"])
    for phone in phones:
        expect(phone.get_by_role("heading", name="The game is over")).to_be_visible(timeout=5000)
        expect(phone.locator("#round-form")).to_have_count(0)

    ben.goto(ben.url.split("#")[0] + "/results")
    standings = ben.locator("ol.standings li")
    expect(standings.first).to_contain_text("Cleo")  # the lowest total wins
    expect(standings.last).to_contain_text("Ana")
    assert all(phone.errors == [] for phone in phones)


def test_seven_wonders_filled_out_of_order_from_two_phones_at_once(new_phone):
    ana, ben, cleo = phones = at_the_table(new_phone, ["Ana", "Ben", "Cleo"], 3, game="7 Wonders",
                                           rows=["Military", "Science", "Guilds"], tie_break="Coins")
    for phone in phones:
        expect(phone.get_by_role("heading", name="Fill in the sheet")).to_be_visible(timeout=5000)

    # Ana fills in her guilds and coins, Ben his science and military: both tap at the same instant.
    ana_form, ben_form = ana.locator("#cells-form"), ben.locator("#cells-form")
    ana_form.get_by_label("Guilds").fill("7")
    ana_form.get_by_label("Coins").fill("3+2")
    ben_form.get_by_label("Science").fill("3×3+7")
    ben_form.get_by_label("Military").fill("-1")
    expect_answer(ana)
    expect_answer(ben)
    tap_once(ana, ana_form.get_by_role("button", name="Record these points"))
    tap_once(ben, ben_form.get_by_role("button", name="Record these points"))
    wait_for_answer(ana)
    wait_for_answer(ben)
    for phone in phones:
        expect(scores(phone)).to_have_text(["7", "15", "0"], timeout=5000)
    entries = ana.locator(".recent-entries .entries li")
    expect(entries.filter(has_text="Ana: Guilds 7, Coins 3+2 = 5.")).to_have_count(1, timeout=5000)
    expect(entries.filter(has_text="Ben: Military -1, Science 3×3+7 = 16.")).to_have_count(1)

    # The rest, in any order: Cleo's column from her phone, Ana's and Ben's missing rows.
    cleo_form = cleo.locator("#cells-form")
    for row, value in {"Military": "5", "Science": "10", "Guilds": "0", "Coins": "9"}.items():
        cleo_form.get_by_label(row).fill(value)
    submit_and_wait(cleo, cleo_form.get_by_role("button", name="Record these points"))
    ana_form = ana.locator("#cells-form")
    ana_form.get_by_label("Military").fill("4")
    ana_form.get_by_label("Science").fill("4")
    submit_and_wait(ana, ana_form.get_by_role("button", name="Record these points"))
    ben_form = ben.locator("#cells-form")
    ben_form.get_by_label("Guilds").fill("0")
    ben_form.get_by_label("Coins").fill("1")
    submit_and_wait(ben, ben_form.get_by_role("button", name="Record these points"))

    for phone in phones:
        expect(scores(phone)).to_have_text(["15", "15", "15"], timeout=5000)
        expect(phone.locator(".sheet-over")).to_contain_text("Every row is filled: the game is over.", timeout=5000)
    cleo.goto(cleo.url.split("#")[0] + "/results")
    # Equal totals: the coins decide, Cleo's 9 over Ana's 5 and Ben's 1.
    expect(cleo.locator("ol.standings li .who")).to_have_text([re.compile("Cleo"), re.compile("Ana"),
                                                               re.compile("Ben")])
    assert all(phone.errors == [] for phone in phones)


def test_belote_in_two_teams(new_phone):
    players = ["Ana", "Ben", "Cleo", "Dan"]
    ana, ben = phones = at_the_table(new_phone, players, 2, game="Belote", target=300, teams=[1, 2, 1, 2])
    record_round(ana, {"Ana": "80+20", "Ben": "62", "Cleo": "0", "Dan": "0"})
    # The score row holds each team once, its players named together: a team's total is no one player's.
    expect_recorded(phones, "Round 1: Ana 80+20 = 100, Ben 62, Cleo 0, Dan 0.", ["100", "62"])
    for phone in phones:
        expect(phone.get_by_role("list", name="Scores").locator(".name")).to_have_text(
            [re.compile(r"^Ana and Cleo"), re.compile(r"^Ben and Dan")])
        expect(phone.locator(".sheet-team-totals li")).to_have_text([re.compile(r"Ana and Cleo\s+100"),
                                                                     re.compile(r"Ben and Dan\s+62")])
    record_round(ben, {"Ana": "0", "Ben": "0", "Cleo": "162", "Dan": "20"})
    expect_recorded(phones, "Round 2: Ana 0, Ben 0, Cleo 162, Dan 20.", ["262", "82"])
    record_round(ana, {"Ana": "50", "Ben": "10", "Cleo": "0", "Dan": "0"})
    expect_recorded(phones, "Round 3: Ana 50, Ben 10, Cleo 0, Dan 0. Ana and Cleo reached 312: the game is over.",
                    ["312", "92"])
    ben.goto(ben.url.split("#")[0] + "/results")
    # Each team stands once, and ranks among the teams.
    expect(ben.locator("ol.standings li .rank")).to_have_text(["1", "2"])
    expect(ben.locator("ol.standings li .who")).to_have_text([re.compile(r"^Ana and Cleo"), re.compile(r"^Ben and Dan")])
    assert all(phone.errors == [] for phone in phones)
