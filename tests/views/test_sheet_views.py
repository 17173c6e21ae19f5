"""The score sheet through its pages: a new sheet, rounds and categories recorded and refused, teams, the end,
the group's sheets remembered, and the session after it (results, history by the game's name, players, export)."""

from __future__ import annotations

import html
import json
import re
import urllib.parse

import pytest
import sqlalchemy as sa

from companion.extensions import db
from companion.models import Entry, Table
from helpers import form_key, make_table

HTMX = {"HX-Request": "true"}
FOUR = ["Ana", "Ben", "Cleo", "Dan"]
HEARTS = {"name": "Hearts", "lowest_wins": True, "target": 100}
WONDERS = {"name": "7 Wonders", "mode": "categories", "rows": ["Military", "Science"], "tie_break": "Coins"}


def text_of(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def counts(app) -> tuple[int, int]:
    with app.app_context():
        return (db.session.scalar(sa.select(sa.func.count()).select_from(Table)),
                db.session.scalar(sa.select(sa.func.count()).select_from(Entry)))


def score_row(text: str) -> list[int]:
    row = re.search(r'<ol class="score-row".*?</ol>', text, re.S).group(0)
    return [int(re.sub(r"[^\d-]", "", n)) for n in re.findall(r'<span class="points">([^<]+)', row)]


def new_sheet(client, **fields):
    data = {"name": "Skat", "mode": "rounds", "starter": "0", **fields}
    return client.post("/new/sheet", data=data)


def players(*names) -> dict:
    return {f"players-{i}": name for i, name in enumerate(names)}


def round_(client, token, number, *points, seen=None, htmx=False):
    data = {"key": form_key(), "round": str(number), "seen": str(number - 1 if seen is None else seen),
            **{f"points-{i}": p for i, p in enumerate(points)}}
    return client.post(f"/t/{token}/sheet/round", data=data, headers=HTMX if htmx else {})


def cells(client, token, player, *values, seen, htmx=False):
    data = {"key": form_key(), "player": str(player), "seen": str(seen),
            **{f"cells-{i}": v for i, v in enumerate(values)}}
    return client.post(f"/t/{token}/sheet/cells", data=data, headers=HTMX if htmx else {})


def token_of(response) -> str:
    assert response.status_code == 303, response.status_code
    return response.headers["Location"].rsplit("/", 1)[-1]


# --- a new sheet ---------------------------------------------------------------------------------------------

def test_the_home_page_offers_any_other_game_beside_the_three(client):
    text = text_of(client.get("/"))
    assert 'href="/new/sheet"' in text and "Any other game" in text and "2–12 players" in text


def test_the_new_sheet_asks_in_the_words_of_the_issue(client):
    text = text_of(client.get("/new/sheet"))
    for words in ('<label for="name">Game</label>', "Player 1", "Player 12 (optional)", "> Rounds", "> Categories",
                  "Lowest total wins", "Open the table", "Deals first", "Teams (as in Belote or Canasta)"):
        assert words in text, words


def test_a_hearts_sheet_opens_with_its_settings(app, client):
    token = token_of(new_sheet(client, name="Hearts", lowest_wins="y", target="100", **players(*FOUR)))
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        assert table.game == "sheet" and table.players == FOUR
        assert table.options == {"first_player": 0, "name": "Hearts", "mode": "rounds", "lowest_wins": True,
                                 "target": 100}
    text = text_of(client.get(f"/t/{token}"))
    assert '<h1 class="table-title">Hearts' in text and "<title>Hearts" in text
    assert "Round 1" in text and "Ana deals." in text and "Record the round" in text
    for name in FOUR:
        assert re.search(rf'<label for="points-\d+">{name}</label>', text), name


@pytest.mark.parametrize("fields, field, message", [
    ({"name": ""}, "name", "Name the game: it heads the sheet and sorts the history."),
    ({"name": "x" * 41}, "name", "Field cannot be longer than 40 characters."),
    ({"mode": "categories", "rows": ""}, "rows", "Name the sheet's rows: 1 to 30 rows."),
    ({"mode": "categories", "rows": "\n".join(f"Row {n}" for n in range(31))}, "rows", "1 to 30 rows."),
    ({"mode": "categories", "rows": "Military\nmilitary"}, "rows", "Two rows are named “military”."),
    ({"mode": "categories", "rows": "x" * 41}, "rows", "40"),
    ({"rounds": "201"}, "rounds", "A game on a sheet lasts 1 to 200 rounds."),
    ({"target": "1000001"}, "target", "The target is 1 to 1,000,000 points."),
    ({"bgg_id": "0"}, "bgg_id", "A BoardGameGeek id is a whole number from 1 to 10,000,000."),
    ({"teams-0": "1", "teams-1": "2"}, "teams", "Give each player's team."),
    ({"players-1": "", "players-2": ""}, "players", "Enter at least 2 players."),
])
def test_a_refused_sheet_says_why_beside_its_field_and_opens_nothing(app, client, fields, field, message):
    before = counts(app)
    response = new_sheet(client, **{**players("Ana", "Ben", "Cleo"), **fields})
    assert response.status_code == 422
    text = text_of(response)
    assert re.search(rf'id="{field}-error"[^>]*>[^<]*{re.escape(message)}', text), text[text.find("error"):][:400]
    assert counts(app) == before


TWELVE = [f"P{n}" for n in range(1, 13)]


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("names", [
    TWELVE + ["P13"],  # a 13th player: the sheet keeps 12 at most
    TWELVE[:11] + ["", "P13"],  # 12 names, the last in a field the page never shows
])
def test_a_thirteenth_player_is_refused_beside_the_players_and_opens_nothing(app, client, htmx, names):
    before = counts(app)
    response = client.post("/new/sheet", data={"name": "Skat", "mode": "rounds", "starter": "random",
                                               **players(*names)}, headers=HTMX if htmx else {})
    assert response.status_code == (200 if htmx else 422)
    assert re.search(r'id="players-error"[^>]*>At most 12 players can play.<', text_of(response))
    assert counts(app) == before


def test_twelve_players_open_a_sheet_of_twelve(app, client):
    token = token_of(new_sheet(client, **players(*TWELVE), **{"players-12": " "}))
    with app.app_context():
        assert db.session.scalar(sa.select(Table).where(Table.token == token)).players == TWELVE


# --- rounds ----------------------------------------------------------------------------------------------------

@pytest.fixture
def hearts(app):
    return make_table(app, "sheet", FOUR, {"first_player": 0, **HEARTS})


@pytest.mark.parametrize("htmx", [False, True])
def test_a_round_typed_as_sums_and_negatives_is_kept_as_typed_and_counted(app, client, hearts, htmx):
    response = round_(client, hearts, 1, "12+7-3", "-5", "0", "2×(3+4)", htmx=htmx)
    assert response.status_code == (200 if htmx else 303)
    text = text_of(client.get(f"/t/{hearts}"))
    assert score_row(text) == [16, -5, 0, 14]
    assert "<small>12+7-3</small>" in text and "<small>2×(3+4)</small>" in text
    assert "Round 1: Ana 12+7-3 = 16, Ben -5, Cleo 0, Dan 2×(3+4) = 14." in text
    assert "Round 2" in text and "Ben deals." in text


@pytest.mark.parametrize("htmx", [False, True])
def test_a_refused_entry_says_why_beside_its_player_and_records_nothing(app, client, hearts, htmx):
    before = counts(app)
    response = round_(client, hearts, 1, "1", "1/2", "", "", htmx=htmx)
    text = text_of(client.get(response.headers["Location"]) if not htmx else response)
    assert re.search(r'id="points-1-error"[^>]*>Only digits, brackets and the signs \+ − × \(also typed - \* x X\): not “/”.', text)
    assert 'value="1/2"' in text  # what was typed stays for the player to correct
    assert counts(app) == before


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("typed, said", [
    ("--5", "Two signs in a row, “--”: keep the one you mean."),
    ("+-5", "Two signs in a row, “+-”: keep the one you mean."),
    ("3÷4", "Only digits, brackets and the signs + − × (also typed - * x X): not “÷”."),
])
def test_a_slip_is_refused_beside_its_player_and_records_nothing(app, client, hearts, htmx, typed, said):
    before = counts(app)
    response = round_(client, hearts, 1, "1", typed, "0", "0", htmx=htmx)
    text = text_of(client.get(response.headers["Location"]) if not htmx else response)
    assert re.search(rf'id="points-1-error"[^>]*>{re.escape(said)}<', text)
    assert f'value="{typed}"' in text
    assert counts(app) == before


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("points, error, said", [
    (("", "", "", ""), "points-error", "Type each player's points, 0 included."),
    (("26", "", "0", " "), "points-1-error", "Type the points of Ben and Dan too, 0 included."),
])
def test_a_round_with_a_box_left_empty_is_refused_and_uses_up_no_round(app, client, hearts, htmx, points, error, said):
    before = counts(app)
    response = round_(client, hearts, 1, *points, htmx=htmx)
    text = text_of(client.get(response.headers["Location"]) if not htmx else response)
    assert re.search(rf'id="{error}"[^>]*>{re.escape(said)}<', text)
    assert f'aria-describedby="round-hint {error}" aria-invalid="true"' in text
    assert counts(app) == before
    assert '<h2 id="sheet-actions-heading">Round 1</h2>' in text


def test_zeros_typed_are_a_round(app, client, hearts):
    assert round_(client, hearts, 1, "0", "0", "0", "0").status_code == 303
    text = text_of(client.get(f"/t/{hearts}"))
    assert "Round 1: Ana 0, Ben 0, Cleo 0, Dan 0." in text and '<h2 id="sheet-actions-heading">Round 2</h2>' in text
    assert "Each player's points, 0 included: a number or a sum as you count it (12+7-3, -5, 2×15)." in text


def test_x_between_two_numbers_is_a_times(app, client, hearts):
    assert round_(client, hearts, 1, "3x4", "2X5", "0", "0").status_code == 303
    text = text_of(client.get(f"/t/{hearts}"))
    assert score_row(text) == [12, 10, 0, 0]
    assert "Round 1: Ana 3x4 = 12, Ben 2X5 = 10, Cleo 0, Dan 0." in text


def test_a_round_recorded_with_two_signs_in_a_row_before_they_were_refused_still_shows(app, client, hearts):
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == hearts))
        db.session.add(Entry(table_id=table.id, seq=1, type="round", summary="Round 1: Ana --5 = 5, …",
                             event={"type": "round", "round": 1, "points": ["--5", "+-5", "", "0"]}))
        table.last_seq = 1
        db.session.commit()
    text = text_of(client.get(f"/t/{hearts}"))
    assert score_row(text) == [5, -5, 0, 0]
    assert "Round 1: Ana --5 = 5, Ben +-5 = -5, Cleo 0, Dan 0." in text
    assert client.get(f"/t/{hearts}/results").status_code == 200


def test_the_same_round_from_two_phones_is_recorded_once(app, client, hearts):
    assert round_(client, hearts, 1, "1", "2", "3", "4").status_code == 303
    other = app.test_client()  # another phone at the table, which had not seen it yet
    again = round_(other, hearts, 1, "4", "3", "2", "1", seen=0, htmx=True)
    assert "Already recorded from another phone" in text_of(again)
    assert counts(app)[1] == 1
    assert score_row(text_of(client.get(f"/t/{hearts}"))) == [1, 2, 3, 4]


def test_hearts_ends_past_100_and_the_lowest_total_wins(app, client, hearts):
    for number, points in enumerate([("26", "0", "0", "0"), ("0", "26", "0", "0"), ("0", "0", "26", "0"),
                                     ("80", "0", "0", "1")], start=1):
        assert round_(client, hearts, number, *points).status_code == 303
    text = text_of(client.get(f"/t/{hearts}"))
    assert "Ana reached 106: the game is over." in text and "Record the round" not in text
    results = text_of(client.get(f"/t/{hearts}/results"))
    standings = re.search(r'<ol class="standings">(.*?)</ol>', results, re.S).group(1)
    assert [n for n in re.findall(r'class="who">([^<]+?)\s*<', standings)] == ["Dan", "Ben", "Cleo", "Ana"]


def test_an_older_round_undone_leaves_the_later_ones_counted(app, client, hearts):
    for number, points in enumerate([("1", "0", "0", "0"), ("10", "0", "0", "0"), ("20", "0", "0", "0")],
                                    start=1):
        round_(client, hearts, number, *points)
    response = client.post(f"/t/{hearts}/undo", data={"key": form_key(), "entry": "2"})
    assert response.status_code == 303
    text = text_of(client.get(f"/t/{hearts}"))
    assert score_row(text) == [21, 0, 0, 0]
    # The rounds after it move up a row: the sheet reads 1 then 20, and the next round is round 3.
    sheet = re.search(r'<tbody>(.*?)</tbody>', text, re.S).group(1)
    assert re.findall(r'<th scope="row">(Round \d+)</th><td>(\d+)</td>', sheet) == [("Round 1", "1"), ("Round 2", "20")]
    assert '<h2 id="sheet-actions-heading">Round 3</h2>' in text
    # The log tells what happened, in order: round 2 undone.
    assert "Undid entry 2: Round 2: Ana 10, Ben 0, Cleo 0, Dan 0." in text


def test_one_round_has_one_number_on_every_page_once_an_older_round_is_undone(app, client, hearts):
    for number in range(1, 6):
        round_(client, hearts, number, str(number), "1", "0", "0")
    client.get(f"/t/{hearts}")  # its entries worded and kept, as on a phone at the table
    assert client.post(f"/t/{hearts}/undo", data={"key": form_key(), "entry": "3"}).status_code == 303
    # Ana scored 1, 2, (3 undone), 4, 5: the rounds that count are 1, 2, 3 (her 4) and 4 (her 5).
    rounds = {1: "Ana 1", 2: "Ana 2", 3: "Ana 4", 4: "Ana 5"}
    page = text_of(client.get(f"/t/{hearts}"))
    body = re.search(r"<tbody>(.*?)</tbody>", page, re.S).group(1)
    assert re.findall(r'<th scope="row">Round (\d)</th><td>(\d)<', body) == [
        (str(n), said.split()[1]) for n, said in rounds.items()]
    newest = re.findall(r"Round (\d): (Ana \d)", page[page.index("recent-entries"):])
    assert newest[:3] == [("3", "Ana 3"), ("4", "Ana 5"), ("3", "Ana 4")]  # the undo, then rounds 4 and 3
    history = text_of(client.get(f"/t/{hearts}/history"))
    assert re.findall(r"Round (\d): (Ana \d)", history) == [("3", "Ana 3"), ("4", "Ana 5"), ("3", "Ana 4"),
                                                             ("3", "Ana 3"), ("2", "Ana 2"), ("1", "Ana 1")]
    results = text_of(client.get(f"/t/{hearts}/results"))
    entries = results[results.index('id="timeline-heading"'):]
    labelled = re.findall(r'<span class="period">Round (\d)</span> — (?:<del>)?(Ana \d)', entries)
    assert labelled == [("1", "Ana 1"), ("2", "Ana 2"), ("3", "Ana 3"), ("3", "Ana 4"), ("4", "Ana 5")]
    assert "Round 3: Ana 4" not in entries and "Round 4: Ana 4" not in entries
    breakdown = re.search(r'<table class="striped">.*?</table>', results, re.S).group(0)
    assert re.findall(r'<th scope="row">(\d)', breakdown) == ["1", "2", "3", "4"]
    assert re.findall(r'<span class="gain">(\d)</span>', breakdown)[::4] == ["1", "2", "4", "5"]
    assert "Ana in round 3 " not in results  # the best round of Hearts is the lowest: Cleo and Dan's zeros
    csv_rows = client.get(f"/t/{hearts}/results.csv").get_data(as_text=True).splitlines()
    assert [row.split(",")[:2] for row in csv_rows[-4:]] == [["1", "1"], ["2", "2"], ["3", "4"], ["4", "5"]]
    exported = json.loads(client.get(f"/t/{hearts}/export.json").get_data())
    assert [entry["summary"][:14] for entry in exported["entries"]] == [
        "Round 1: Ana 1", "Round 2: Ana 2", "Round 3: Ana 3", "Round 3: Ana 4", "Round 4: Ana 5", "Undid entry 3:"]
    french = text_of(client.get(f"/t/{hearts}", headers={"Accept-Language": "fr"}))
    assert "Manche 3\u00a0: Ana 4" in french


def test_an_end_form_ends_a_sheet_without_an_end(app, client):
    token = make_table(app, "sheet", ["Ana", "Ben"], {"first_player": 0, "name": "Rummy"})
    round_(client, token, 1, "5", "7")
    response = client.post(f"/t/{token}/sheet/end", data={"key": form_key(), "seen": "1"})
    assert response.status_code == 303
    text = text_of(client.get(f"/t/{token}"))
    assert "The game was ended after round 1." in text
    with app.app_context():
        assert db.session.scalar(sa.select(Table.status).where(Table.token == token)) == "finished"


def test_each_figure_of_a_team_game_says_whether_it_is_the_teams_or_the_players(app, client):
    token = make_table(app, "sheet", FOUR, {"first_player": 0, "name": "Belote", "teams": [0, 1, 0, 1],
                                            "target": 1000})
    round_(client, token, 1, "80", "20", "82", "0")
    client.post(f"/t/{token}/seat", data={"seat": "0"})  # this phone is Ana's
    text = text_of(client.get(f"/t/{token}"))
    # The score row: each team once, its players named together beside the team's total.
    row = re.search(r'<ol class="score-row".*?</ol>', text, re.S).group(0)
    assert re.findall(r'<span class="name">([^<]+)', row) == ["Ana and Cleo", "Ben and Dan"]
    assert score_row(text) == [162, 20]
    assert re.search(r'<li class="me">\s*<span class="name">Ana and Cleo<span class="vh"> \(your team\)</span>', row)
    # The sheet: each player's own total under their name, the teams' below.
    foot = re.search(r"<tfoot>(.*?)</tfoot>", text, re.S).group(1)
    assert re.findall(r"<t[hd][^>]*>([^<]+)</t[hd]>", foot) == ["Each player's total", "80", "20", "82", "0"]
    assert re.findall(r'<span class="name">([^<]+)</span> <strong>([^<]+)', text.split("sheet-team-totals")[1]) == [
        ("Ana and Cleo", "162"), ("Ben and Dan", "20")]
    client.post(f"/t/{token}/sheet/end", data={"key": form_key(), "seen": "2"})
    results = text_of(client.get(f"/t/{token}/results"))
    standings = re.search(r'<ol class="standings">(.*?)</ol>', results, re.S).group(1)
    assert re.findall(r'class="who">([^<]+?)\s*<.*?<strong>(\d+)</strong>', standings, re.S) == [
        ("Ana and Cleo", "162"), ("Ben and Dan", "20")]
    card = json.loads(html.unescape(re.search(r"data-card='([^']+)'", results).group(1)))
    assert [(place["name"], place["score"]) for place in card["standings"]] == [("Ana and Cleo", "162"),
                                                                                ("Ben and Dan", "20")]
    csv_rows = client.get(f"/t/{token}/results.csv").get_data(as_text=True).lstrip("\ufeff").splitlines()
    assert csv_rows[:3] == ["Rank,Team,Points", "1,Ana and Cleo,162", "2,Ben and Dan,20"]
    assert csv_rows[4] == "Round,Ana,Ben,Cleo,Dan,Ana total,Ben total,Cleo total,Dan total,Note"
    # A player's page: their own points, as the sheet's total row says them, never their team's.
    for name, own in (("Ana", "80"), ("Cleo", "82"), ("Dan", "0")):
        page = text_of(client.get(f"/players/{name}"))
        assert re.search(rf'data-label="Average points">{own}<', page), name


# --- categories --------------------------------------------------------------------------------------------------

def test_a_categories_sheet_filled_out_of_order_from_two_phones(app, client):
    token = make_table(app, "sheet", ["Ana", "Ben"], {"first_player": 0, **WONDERS})
    assert cells(client, token, 1, "", "3+4", seen=0).status_code == 303
    # Another phone, which had not seen Ben's science yet, fills in Ana's column: both count.
    assert cells(client, token, 0, "5", "2", "6", seen=0).status_code == 303
    text = text_of(client.get(f"/t/{token}"))
    assert score_row(text) == [7, 7] and "Military" in text and "<small>3+4</small>" in text
    assert cells(client, token, 1, "0", "", "4", seen=2).status_code == 303
    text = text_of(client.get(f"/t/{token}"))
    assert "Every row is filled: the game is over." in text
    results = text_of(client.get(f"/t/{token}/results"))
    standings = re.search(r'<ol class="standings">(.*?)</ol>', results, re.S).group(1)
    # Equal totals: Ana's 6 coins beat Ben's 4.
    assert re.findall(r'class="who">([^<]+?)\s*<', standings) == ["Ana", "Ben"]


def test_a_cell_refused_says_why_beside_its_row(app, client):
    token = make_table(app, "sheet", ["Ana", "Ben"], {"first_player": 0, **WONDERS})
    response = cells(client, token, 0, "3", "1+", seen=0, htmx=True)
    assert re.search(r'id="cells-1-error"', text_of(response))
    assert counts(app)[1] == 0


# --- remembered, and after the game ---------------------------------------------------------------------------------

def test_the_groups_last_skat_sheet_is_offered_again_in_one_tap(app, client):
    token_of(new_sheet(client, name="Skat", rounds="12", **players("Ana", "Ben", "Cleo")))
    token_of(new_sheet(client, name="7 Wonders", mode="categories", rows="Military\nScience", tie_break="Coins",
                       **players("Ana", "Ben")))
    page = text_of(client.get("/new/sheet"))
    assert 'href="/new/sheet?like=Skat"' in page and 'href="/new/sheet?like=7+Wonders"' in page
    again = text_of(client.get("/new/sheet?like=7 wonders"))
    assert 'value="7 Wonders"' in again and "Military\nScience</textarea>" in again and 'value="Coins"' in again
    assert 'value="Ana"' in again and 'value="categories" checked' in again
    assert client.get("/new/sheet?like=Tarot").status_code == 404


def test_the_history_and_players_pages_know_each_game_by_its_name(app, client):
    skat = token_of(new_sheet(client, name="Skat", rounds="1", **players("Ana", "Ben")))
    hearts = token_of(new_sheet(client, name="Hearts", rounds="1", lowest_wins="y", **players("Ana", "Ben")))
    round_(client, skat, 1, "30", "10")
    round_(client, hearts, 1, "30", "10")
    history = text_of(client.get("/history"))
    assert '<option value="sheet:Hearts">Hearts</option>' in history and '<option value="sheet:Skat">Skat</option>' in history
    only = text_of(client.get("/history?game=sheet:Skat"))
    assert only.count("<strong>Skat</strong>") == 1 and "<strong>Hearts</strong>" not in only
    ana = text_of(client.get("/players/Ana"))
    assert "Skat" in ana and "Hearts" in ana


def test_a_game_typed_in_another_case_keeps_one_record_under_its_latest_spelling(app, client):
    first = token_of(new_sheet(client, name="Skat", rounds="1", **players("Ana", "Ben")))
    then = token_of(new_sheet(client, name=" SKAT ", rounds="1", **players("Ana", "Ben")))
    round_(client, first, 1, "30", "10")
    round_(client, then, 1, "5", "20")
    ana = text_of(client.get("/players/Ana"))
    captions = re.findall(r"<caption>([^<]*)<", ana)
    assert captions == ["SKAT"]
    played, won = re.search(r'<table class="game-stats">.*?<tbody>\s*<tr>\s*<td[^>]*>(\d+)<.*?<td[^>]*>(\d+)<',
                            ana, re.S).groups()
    assert (played, won) == ("2", "1")


def test_a_players_page_says_each_figure_of_a_sheet_game_once(app, client):
    for ana, ben in (("30", "10"), ("5", "20")):
        token = token_of(new_sheet(client, name="Skat", rounds="1", **players("Ana", "Ben")))
        round_(client, token, 1, ana, ben)
    page = text_of(client.get("/players/Ana"))
    table = re.search(r'<table class="game-stats">(.*?)</table>', page, re.S).group(1)
    headings = re.findall(r'<th scope="col" class="num">([^<]+)<', table)
    assert headings == ["Games played", "Games won", "Win rate, finished games", "Average points"]
    assert dict(re.findall(r'data-label="([^"]+)">([^<]+)', table)) == {
        "Games played": "2", "Games won": "1", "Win rate, finished games": "50%", "Average points": "17.5"}


def test_the_session_file_and_bg_stats_name_the_game(app, client):
    token = token_of(new_sheet(client, name="Skat", rounds="1", bgg_id="6867", **players("Ana", "Ben")))
    round_(client, token, 1, "30", "10")
    exported = json.loads(client.get(f"/t/{token}/export.json").get_data())
    assert exported["game"] == "sheet" and exported["options"]["name"] == "Skat"
    page = client.get(f"/t/{token}/results").get_data(as_text=True)
    link = html.unescape(re.search(r'<a class="bgstats-link"[^>]*href="([^"]+)"', page).group(1))
    play = json.loads(dict(urllib.parse.parse_qsl(link.split("?", 1)[1]))["data"])
    assert play["game"]["name"] == "Skat" and play["game"]["bggId"] == 6867
    assert [(p["name"], p["score"], p["winner"]) for p in play["players"]] == [("Ana", 30, True), ("Ben", 10, False)]


def bg_stats_play(client, token: str) -> dict:
    page = client.get(f"/t/{token}/results").get_data(as_text=True)
    link = html.unescape(re.search(r'<a class="bgstats-link"[^>]*href="([^"]+)"', page).group(1))
    return json.loads(dict(urllib.parse.parse_qsl(link.split("?", 1)[1]))["data"])


def test_bg_stats_tells_each_sheet_game_apart_and_whether_the_lowest_total_wins(app, client):
    plays = {}
    for name, lowest in (("Hearts", True), ("Skat", False), (" SKAT ", False), ("Skat", True)):
        fields = {"lowest_wins": "y"} if lowest else {}
        token = token_of(new_sheet(client, name=name, rounds="1", **fields, **players("Ana", "Ben")))
        round_(client, token, 1, "30", "10")
        plays[name, lowest] = bg_stats_play(client, token)
    hearts, skat = plays["Hearts", True]["game"], plays["Skat", False]["game"]
    assert (hearts["name"], hearts["highestWins"]) == ("Hearts", False)
    assert (skat["name"], skat["highestWins"]) == ("Skat", True)
    # One id per game as the players page keeps its records: Skat is Skat whatever its case, Hearts another.
    assert re.fullmatch(r"sheet-[0-9a-f]{16}", hearts["sourceGameId"])
    assert hearts["sourceGameId"] != skat["sourceGameId"] == plays[" SKAT ", False]["game"]["sourceGameId"]
    assert plays["Skat", True]["game"]["sourceGameId"] == skat["sourceGameId"]
    # Hearts: Ben's 10 wins, as the standings say.
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in plays["Hearts", True]["players"]] == [
        ("Ana", 30, 2, False), ("Ben", 10, 1, True)]


def test_the_watch_view_shows_the_sheet_and_no_form(app, client, hearts):
    round_(client, hearts, 1, "12+7-3", "1", "2", "3")
    with app.app_context():
        watch = db.session.scalar(sa.select(Table.watch_token).where(Table.token == hearts))
    text = text_of(client.get(f"/w/{watch}"))
    assert "<small>12+7-3</small>" in text and "Record the round" not in text and "<form" not in text.split("sheet-board")[0][-2000:]


def test_a_sheet_exported_and_imported_is_the_same_session(app, client):
    from review.test_review_exchange import set_aside, upload

    token = token_of(new_sheet(client, name="7 Wonders", mode="categories", rows="Military\nScience",
                               tie_break="Coins", **players("Ana", "Ben")))
    cells(client, token, 0, "5", "3+4", "2", seen=0)
    cells(client, token, 1, "6", "6", "9", seen=1)
    data = client.get(f"/t/{token}/export.json").get_data()
    csv_before = client.get(f"/t/{token}/results.csv").get_data(as_text=True)
    set_aside(app, token)
    response = upload(client, data)
    assert response.status_code == 303
    imported = re.search(r"/t/([^/]+)/results", response.headers["Location"]).group(1)
    assert client.get(f"/t/{imported}/results.csv").get_data(as_text=True) == csv_before
    assert "Military" in csv_before and "Science" in csv_before
    page = text_of(client.get(f"/t/{imported}/results"))
    assert "7 Wonders" in page and "Ben: Military 6, Science 6, Coins 9." in page


def test_the_results_of_a_sheet_by_categories_name_each_row(app, client):
    token = make_table(app, "sheet", ["Ana", "Ben"], {"first_player": 0, **WONDERS})
    cells(client, token, 0, "5", "3+4", "2", seen=0)
    page = text_of(client.get(f"/t/{token}/results"))
    breakdown = re.search(r'<table class="striped">.*?</table>', page, re.S).group(0)
    assert re.findall(r'<th scope="row">([^<]+)', breakdown) == ["Military", "Science"]


def test_the_end_sent_from_two_phones_at_once_is_recorded_once(app, client):
    # Both phones showed round 1 and both tapped "End the game here": one end, the other told it is done.
    token = make_table(app, "sheet", ["Ana", "Ben"], {"first_player": 0, "name": "Rummy"})
    round_(client, token, 1, "5", "7")
    other = app.test_client()
    first = client.post(f"/t/{token}/sheet/end", data={"key": form_key(), "seen": "1"}, headers=HTMX)
    second = other.post(f"/t/{token}/sheet/end", data={"key": form_key(), "seen": "1"}, headers=HTMX)
    assert first.status_code == second.status_code == 200
    assert "Already recorded from another phone" in text_of(second)
    assert counts(app)[1] == 2  # the round and one end
    assert "The game was ended after round 1." in text_of(other.get(f"/t/{token}"))
