"""The review pages: results with the chart and the timeline, history filters and pages, players, CSV, reopen."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from companion.table import log, recording
from companion.table.state import state_of
from companion.extensions import db
from companion.models import Entry, Table
from companion.review import chart
from companion.rules import RuleError
from companion.rules.jaipur import review as jaipur_review
from helpers import form_key, make_table
from review.test_review_sessions import (ANA, BEN, CARAMBOUILLE, FRUTTI, FRUTTI_TIE_EVENTS, JAIPUR, OPEN, c_sale, close,
                                  end, record_all, table_of)


def page_text(response) -> str:
    return re.sub(r"\s+", " ", response.get_data(as_text=True))


def dated(app, token: str, when: datetime) -> None:
    with app.app_context():
        table_of(token).created_at = when
        db.session.commit()


def csv_rows(response) -> list[list[str]]:
    """A CSV file as a spreadsheet reads it: UTF-8 announced by its byte-order mark."""
    data = response.get_data()
    assert data.startswith("\ufeff".encode())  # without it, a spreadsheet shows "ChloÃ©"
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


# --- results ---------------------------------------------------------------------------------


def test_results_show_standings_breakdown_highlights_and_every_entry(app, client):
    token = record_all(app, *CARAMBOUILLE)
    text = page_text(client.get(f"/t/{token}/results"))
    assert "Final standings" in text
    standings = re.search(r'<ol class="standings">(.*?)</ol>', text).group(1)
    # The rank as a screen reader says it (visually hidden), then the figure shown.
    assert re.findall(r'"visually-hidden">Rank (\d)</span><span class="rank" aria-hidden="true">\d</span> '
                      r'<span class="who">(\w+)', standings) == [
        ("1", "Ana"), ("2", "Cy"), ("3", "Ben")]
    assert "Ana <small class=\"badge\">winner</small>" in standings
    assert "Biggest sale</dt><dd>Ana sold 4 saffron for 750 in hand 11.</dd>" in text
    assert "Longest market</dt><dd>Hand 1: 2 min of trading.</dd>" in text
    assert '<th scope="row">11<small class="note">Ben was First Trader</small></th>' in text
    assert ('<span class="period">Hand 1</span> — Ana sold 3 cheeses for 180.' in text)
    assert '<span class="period">Hand 2</span> — Cy sold 2 hens for 150, Bargain by Ana → 75.' in text
    # The deal's own "Hand 2:" is not said twice.
    assert '<span class="period">Hand 2</span> — Ben dealt 9 cards' in text
    assert 'action="/t/' in text and "Reopen this session" in text


def test_undone_entries_are_marked_in_the_timeline(app, client):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"])
    with app.app_context():
        for event in [OPEN, close(30), c_sale(ANA, "cheese", 3)]:
            recording.record(table_of(token), event)
        recording.void(table_of(token), 3)
        recording.record(table_of(token), c_sale(ANA, "cheese", 2))
    text = page_text(client.get(f"/t/{token}/results"))
    assert '<li value="3" class="undone ">' in text
    assert "<del>Ana sold 3 cheeses for 180.</del> <small>(undone)</small>" in text
    assert 'class=" about-table"> <span class="period">Hand 1</span> — Undid entry 3: Ana sold 3 cheeses for 180.' in text
    assert "Standings so far" in text and "still playing" in text
    assert "Reopen this session" not in text  # only a finished session is reopened


def test_an_undone_deal_is_labelled_by_the_hand_its_sentence_names(app, client):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"])
    with app.app_context():
        for event in [OPEN, close(30), end(ANA), end(BEN), end(2), {"type": "deal", "cards": [2, 2, 2],
                                                                    "hand_sizes": [6, 6, 6]}]:
            recording.record(table_of(token), event)
        recording.void(table_of(token), 6)
    text = page_text(client.get(f"/t/{token}/results"))
    # Never "Hand 1 — Hand 2: Ben dealt…": the deal opened hand 2, as the sentence says.
    assert re.search(r'<span class="period">Hand 2</span> — <del>Ben dealt 6 cards', text), \
        re.findall(r'<span class="period">[^<]*</span> — <del>[^<]*', text)


def test_the_watch_link_shows_the_results_read_only(app, client):
    token = record_all(app, *JAIPUR)
    with app.app_context():
        watch = table_of(token).watch_token
    response = client.get(f"/w/{watch}/results")
    text = page_text(response)
    assert response.status_code == 200
    assert "Seals of excellence</dt><dd>Ana 1 (round 2); Ben 2 (rounds 1 and 3).</dd>" in text
    assert "Reopen this session" not in text and token not in text
    assert f"/w/{watch}/results.csv" in text and f"/w/{watch}/export.json" in text
    assert client.get(f"/w/{token}/results").status_code == 404  # the player token is not a watch token
    assert client.get(f"/t/{watch}/results").status_code == 404


def test_the_chart_has_one_line_per_player_ending_at_the_final_scores(app, client):
    token = record_all(app, *CARAMBOUILLE)
    text = client.get(f"/t/{token}/results").get_data(as_text=True)
    svg = re.search(r'<svg class="chart".*?</svg>', text, re.S).group(0)
    assert 'role="img" aria-labelledby="chart-title chart-desc"' in svg
    assert "style=" not in text and "<style" not in text
    lines = re.findall(r'<polyline class="line" points="([^"]+)".*?data-player="(\w+)" data-values="([^"]+)"', svg,
                       re.S)
    assert [player for _, player, _ in lines] == ["Ana", "Ben", "Cy"]
    top, _ = chart.nice_top(920)
    for (points, player, values), final in zip(lines, (920, 460, 485)):
        coordinates = [tuple(map(float, point.split(","))) for point in points.split()]
        assert len(coordinates) == 12  # the start and 11 hands
        assert coordinates[0] == (chart.LEFT, chart.TOP + chart.PLOT_H)  # everyone starts at 0
        assert coordinates[-1] == (chart.LEFT + chart.PLOT_W, chart.y_position(final, top))
        assert values.split()[-1] == str(final)
    dashes = re.findall(r'stroke-dasharray="([^"]+)" data-seat', svg)
    assert len(set(dashes)) == 3  # told apart without colour
    assert "At the end: Ana 920, Cy 485, Ben 460." in text  # the chart in words
    assert "<figcaption" in text and '<table class="striped">' in text


def test_results_csv_has_standings_then_the_breakdown(app, client):
    token = record_all(app, *FRUTTI)
    response = client.get(f"/t/{token}/results.csv")
    assert response.headers["Content-Type"].startswith("text/csv")
    assert "attachment" in response.headers["Content-Disposition"]
    rows = csv_rows(response)
    assert rows[:5] == [["Rank", "Player", "Money"], ["1", "Cy", "400"], ["2", "Ben", "320"], ["3", "Ana", "150"], []]
    assert rows[5] == ["Round", "Ana", "Ben", "Cy", "Ana total", "Ben total", "Cy total", "Note"]
    assert rows[6:] == [
        ["1", "0", "60", "230", "0", "60", "230", "Ana started"],
        ["2", "150", "170", "0", "150", "230", "230", "Ben started, entered at once"],
        ["3", "0", "90", "170", "150", "320", "400", "Cy started"],
    ]


def test_jaipur_csv_ranks_by_seals_with_the_points_beside(app, client):
    token = record_all(app, *JAIPUR)
    rows = csv_rows(client.get(f"/t/{token}/results.csv"))
    assert rows[:3] == [["Rank", "Player", "Seals", "Points"], ["1", "Ben", "2", "91"], ["2", "Ana", "1", "95"]]


def test_csv_cells_never_start_a_formula(app, client):
    token = make_table(app, "frutti", ["=HYPERLINK(1)", "Bea"])
    rows = csv_rows(client.get(f"/t/{token}/results.csv"))
    assert rows[1][1] == "'=HYPERLINK(1)"


def test_an_unknown_table_has_no_results(client):
    for path in ("/t/nope/results", "/t/nope/results.csv", "/t/nope/export.json", "/w/nope/results"):
        assert client.get(path).status_code == 404


# --- history ---------------------------------------------------------------------------------


@pytest.fixture
def month(app):
    """25 sessions, one a day from 1 March 2025, alternating games; Ana at every Frutti table as " ANA "."""
    tokens = []
    start = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
    for day in range(25):
        if day % 2:
            token = make_table(app, "frutti", [" ANA ", "Bea"] if day % 4 == 1 else ["Cy", "Bea"])
        else:
            token = make_table(app, "jaipur", ["Dan", "Eve"])
        dated(app, token, start + timedelta(days=day))
        tokens.append(token)
    return tokens


def listed(response) -> list[str]:
    return re.findall(r'<time datetime="(\d{4}-\d\d-\d\d)', response.get_data(as_text=True))


def test_history_is_newest_first_twenty_to_a_page(client, month):
    first = client.get("/history")
    assert first.status_code == 200
    assert listed(first)[:2] == ["2025-03-25", "2025-03-24"] and len(listed(first)) == 20
    text = page_text(first)
    assert "Sessions 1–20 of 25" in text and "Page 1 of 2" in text and "Older →" in text
    second = client.get("/history?page=2")
    assert listed(second) == ["2025-03-05", "2025-03-04", "2025-03-03", "2025-03-02", "2025-03-01"]
    assert "Sessions 21–25 of 25" in page_text(second)
    assert listed(client.get("/history?page=99")) == listed(second)  # past the end: the last page
    assert listed(client.get("/history?page=abc")) == listed(first)


def test_history_filters_by_game_player_and_dates(client, month):
    assert len(listed(client.get("/history?game=jaipur"))) == 13
    by_name = listed(client.get("/history?player=ana"))
    assert by_name == listed(client.get("/history?player=%20%20Ana%20")) == listed(client.get("/history?player=ANA"))
    assert len(by_name) == 6
    dates = listed(client.get("/history?since=2025-03-10&until=2025-03-12"))
    assert dates == ["2025-03-12", "2025-03-11", "2025-03-10"]
    both = listed(client.get("/history?game=frutti&player=bea&since=2025-03-20"))
    assert both == ["2025-03-24", "2025-03-22", "2025-03-20"]
    assert "No session matches." in page_text(client.get("/history?player=nobody"))


def test_the_player_filter_finds_a_player_by_the_start_of_a_name(app, client, month):
    ana = listed(client.get("/history?player=ana"))
    # "An" is how a player starts typing Ana; "é" finds Éloïse, "ma" the second word of "Jean Marc".
    assert listed(client.get("/history?player=An")) == listed(client.get("/history?player=a")) == ana
    assert listed(client.get("/history?player=na")) == []  # the middle of a name is not its start
    extra = make_table(app, "jaipur", ["Éloïse", "Jean Marc"])
    dated(app, extra, datetime(2025, 4, 1, 20, 0, tzinfo=UTC))
    assert listed(client.get("/history?player=e")) == ["2025-04-01"] + listed(client.get("/history?player=eve"))
    assert listed(client.get("/history?player=ma")) == ["2025-04-01"]


def test_filters_are_kept_in_the_page_links(client, month):
    text = client.get("/history?game=jaipur").get_data(as_text=True)
    assert "Page 1 of 1" not in text  # 13 sessions fit on one page: no pager
    text = client.get("/history?since=2025-03-01").get_data(as_text=True)
    assert 'href="/history?page=2&amp;since=2025-03-01"' in text
    assert 'href="/history.csv?since=2025-03-01"' in text


@pytest.mark.parametrize("query, field, message", [
    ("since=2025-13-45", "since", "Enter a date as year-month-day, like 2025-03-14."),
    ("until=tomorrow", "until", "Enter a date as year-month-day, like 2025-03-14."),
    ("since=2025-03-10&until=2025-03-01", "until", "The end date comes before the start date."),
    ("game=chess", "game", "Not a valid choice."),
])
def test_a_bad_filter_is_explained_next_to_its_field(client, month, query, field, message):
    response = client.get(f"/history?{query}")
    text = page_text(response)
    assert response.status_code == 422
    assert f'id="{field}" name="{field}"' in text and 'aria-invalid="true"' in text
    assert f'<small class="error" id="{field}-error">{message}</small>' in text
    assert listed(response)  # the bad filter is left out, the list still shows


def test_history_rows_say_game_players_winners_and_status(app, client):
    finished = record_all(app, "frutti", ["Ana", "Ben", "Cy"], {}, FRUTTI_TIE_EVENTS)
    playing = record_all(app, *CARAMBOUILLE[:3], CARAMBOUILLE[3][:5])
    dated(app, playing, datetime(2025, 1, 1, tzinfo=UTC))
    text = page_text(client.get("/history"))
    cards = re.findall(r'<a class="session-card" href="([^"]+)">(.*?)</a>', text)
    assert len(cards) == 2
    (link, newest), (_, oldest) = cards
    with app.app_context():
        assert link == f"/w/{table_of(finished).watch_token}/results"  # read-only links only
    assert "Frutti di Mare" in newest and "Ana, Ben, Cy" in newest and "finished" in newest
    assert "Won by <strong>Ana</strong> and <strong>Ben</strong>" in newest
    assert "Carambouille" in oldest and "playing" in oldest and "no winner yet" in oldest
    assert finished not in text and playing not in text  # player tokens never listed


def test_history_csv_follows_the_filters(app, client):
    record_all(app, *JAIPUR)
    record_all(app, *FRUTTI)
    response = client.get("/history.csv?game=jaipur")
    rows = csv_rows(response)
    assert rows[0] == ["Date", "Game", "Players", "Winners", "Status", "Results"]
    assert len(rows) == 2 and rows[1][1:5] == ["Jaipur", "Ana, Ben", "Ben", "finished"]
    assert rows[1][5].startswith("http://companion.test/w/") and rows[1][5].endswith("/results")
    assert len(csv_rows(client.get("/history.csv"))) == 3


# --- players ---------------------------------------------------------------------------------


def record_of(text: str, player: str, game: str) -> dict[str, str]:
    """A player's record at one game on the Players page, figure by figure."""
    card = re.search(rf'href="/players/{player}">{player}</a></h2>(.*?)</li>', text, re.S).group(1)
    table = re.search(rf"<caption>{game}<(.*?)</table>", card, re.S).group(1)
    return dict(re.findall(r'data-label="([^"]+)">([^<]+)', table))


def test_players_are_matched_by_name_whatever_the_case_and_spaces(app, client):
    record_all(app, *CARAMBOUILLE)  # Ana 920 wins
    record_all(app, "carambouille", [" ana ", "Ben", "Cy"], {"first_trader": 1}, [OPEN, close(), c_sale(BEN, "cheese", 1),
                                                                  {"type": "end_game"}])  # Ben 40 wins
    record_all(app, "carambouille", ["ANA", "Ben", "Cy"], {}, [OPEN])  # still playing
    record_all(app, "frutti", ["Ana", "Ben", "Cy"], {}, FRUTTI_TIE_EVENTS)  # Ana and Ben share it
    text = page_text(client.get("/players"))
    assert text.count('href="/players/') == 3  # Ana, Ben, Cy: "ana " and "ANA" are Ana
    ana = re.search(r'href="/players/Ana">Ana</a></h2>(.*?)</li>', text, re.S).group(1)
    assert "4 sessions · 2 wins" in ana
    # 3 played, 2 finished: 920 and 0.
    assert record_of(text, "Ana", "Carambouille") == {
        "Games played": "3", "Games won": "1", "Win rate, finished games": "50%", "Best points": "920", "Average points": "460"}
    assert "2 finished" in ana
    assert record_of(text, "Ana", "Frutti di Mare") == {
        "Games played": "1", "Games won": "1", "Win rate, finished games": "100%", "Best money": "330", "Average money": "330"}


def test_jaipur_statistics_count_matches_rounds_and_seals_not_summed_points(app, client):
    # Ana has more points over the match (95 to 91), but Ben won it on seals: points summed over rounds
    # would make the loser look best.
    record_all(app, *JAIPUR)
    text = page_text(client.get("/players"))
    assert record_of(text, "Ben", "Jaipur") == {
        "Matches played": "1", "Matches won": "1", "Win rate, finished games": "100%", "Rounds won": "2 of 3", "Seals won–lost": "2–1"}
    assert record_of(text, "Ana", "Jaipur") == {
        "Matches played": "1", "Matches won": "0", "Win rate, finished games": "0%", "Rounds won": "1 of 3", "Seals won–lost": "1–2"}
    assert "95" not in record_of(text, "Ana", "Jaipur").values()


def test_who_wins_most_lists_the_most_wins_first(app, client):
    record_all(app, *JAIPUR)  # Ben wins
    record_all(app, "frutti", ["Ana", "Ben", "Cy"], {}, FRUTTI_TIE_EVENTS)  # Ana and Ben share it
    record_all(app, "carambouille", ["Cy", "Ben", "Ana"], {}, [OPEN, close(), c_sale(0, "cheese", 1),
                                                               {"type": "end_game"}])  # Cy wins
    home = client.get("/").text
    assert 'href="/players?order=wins">Who wins most</a>' in home
    ranked = page_text(client.get("/players?order=wins"))
    assert "<h1>Who wins most</h1>" in ranked
    # Ben 2 wins; Ana and Cy 1 each, Cy with the better rate (1 of 2 finished, Ana 1 of 3).
    assert re.findall(r'href="/players/(\w+)">', ranked) == ["Ben", "Cy", "Ana"]
    assert re.findall(r'href="/players/(\w+)">', page_text(client.get("/players"))) == ["Ana", "Ben", "Cy"]


def test_a_player_page_lists_their_sessions(app, client):
    record_all(app, *JAIPUR)
    record_all(app, "jaipur", [" ben", "Cy"], {}, [])
    response = client.get("/players/BEN")
    text = page_text(response)
    assert response.status_code == 200 and re.search(r"<h1>ben</h1>", text, re.I)
    assert text.count('class="session-card"') == 2
    assert "Won by <strong>Ben</strong>" in text and "playing" in text
    assert client.get("/players/Nobody").status_code == 404


# --- finished sessions are read-only; reopening ----------------------------------------------


def finish_small_game(app) -> str:
    return record_all(app, "carambouille", ["Ana", "Ben", "Cy"], {},
                      [OPEN, close(), c_sale(ANA, "cheese", 2), end(ANA), {"type": "end_game"}])


def entry_count(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Entry))


def test_a_finished_session_refuses_recording_and_undo(app, client):
    token = finish_small_game(app)
    with app.app_context():
        with pytest.raises(RuleError, match="finished; reopen it to record"):
            recording.record(table_of(token), c_sale(BEN, "cheese", 1))
        with pytest.raises(RuleError, match="finished; reopen it to undo"):
            recording.void(table_of(token), 5)
    response = client.post(f"/t/{token}/undo", data={"entry": 5, "key": form_key()}, headers={"HX-Request": "true"})
    assert "This game is finished; reopen it to undo an entry." in page_text(response)
    assert entry_count(app) == 5


def test_reopening_makes_undo_work_and_the_finish_comes_back_by_itself(app, client):
    token = finish_small_game(app)
    page = page_text(client.get(f"/t/{token}"))
    assert "Reopen this session" in page and "/results" in page
    response = client.post(f"/t/{token}/reopen", data={"key": form_key()})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{token}")
    with app.app_context():
        table = table_of(token)
        assert table.status == "playing" and table.finished_at is None
        assert log.history(table)[0][0].summary == "The session was reopened to correct it."
    text = page_text(client.get(f"/t/{token}/results"))
    assert "reopened" in text and "Mark finished again" in text
    # Undoing the sale (not the end) keeps the table open for more corrections.
    client.post(f"/t/{token}/undo", data={"entry": 3, "key": form_key()})
    with app.app_context():
        assert table_of(token).status == "playing"
        assert log.game_of(table_of(token)).scores(state_of(table_of(token))) == [0, 0, 0]
    # Undoing the end makes it a game in progress; ending it again finishes it.
    client.post(f"/t/{token}/undo", data={"entry": 5, "key": form_key()})
    with app.app_context():
        recording.record(table_of(token), c_sale(BEN, "sausage", 1))
        recording.record(table_of(token), {"type": "end_game"})
        assert table_of(token).finished
        assert [e.type for e, _ in reversed(log.history(table_of(token)))][5:] == [
            "reopen", "void", "void", "sale", "end_game"]


def test_mark_finished_again_after_reopening(app, client):
    token = finish_small_game(app)
    client.post(f"/t/{token}/reopen", data={"key": form_key()})
    assert client.post(f"/t/{token}/close", data={"key": form_key()}).status_code == 303
    with app.app_context():
        assert table_of(token).finished and table_of(token).finished_at is not None
        with pytest.raises(RuleError, match="reopen it to undo"):
            recording.void(table_of(token), 3)


def test_reopen_and_finish_are_refused_when_they_make_no_sense(app, client):
    token = record_all(app, "carambouille", ["Ana", "Ben", "Cy"], {}, [OPEN])
    response = client.post(f"/t/{token}/reopen", data={"key": form_key()})
    assert response.status_code == 422
    assert "This session is not finished: there is nothing to reopen." in page_text(response)
    response = client.post(f"/t/{token}/close", data={"key": form_key()})
    assert "The game is not over yet: finish it at the table first." in page_text(response)
    assert entry_count(app) == 1
    assert client.post(f"/t/{token}/reopen", data={}).status_code == 422  # no key: nothing happens
    assert entry_count(app) == 1


def test_the_same_reopen_sent_twice_is_recorded_once(app, client):
    token = finish_small_game(app)
    key = form_key()
    client.post(f"/t/{token}/reopen", data={"key": key})
    client.post(f"/t/{token}/reopen", data={"key": key})
    assert entry_count(app) == 6


def test_the_watch_view_cannot_reopen(app, client):
    token = finish_small_game(app)
    with app.app_context():
        watch = table_of(token).watch_token
    assert "Reopen" not in page_text(client.get(f"/w/{watch}"))
    assert client.post(f"/t/{watch}/reopen", data={"key": form_key()}).status_code == 404


# --- the session review, read by a table after the game ----------------------------------------


def test_csv_files_start_with_a_byte_order_mark_so_chloe_stays_chloe(app, client):
    token = record_all(app, "frutti", ["Chloé", "Ben", "Cy"], {}, FRUTTI_TIE_EVENTS)
    for path in (f"/t/{token}/results.csv", "/history.csv"):
        data = client.get(path).get_data()
        assert data[:3] == b"\xef\xbb\xbf"
        assert "Chloé" in data.decode("utf-8-sig") and "Chloé" not in data.decode("cp1252", errors="replace")


@pytest.mark.parametrize("typed", ["chloe", "Chloé", "CHLOE", " chloé "])
def test_the_history_finds_chloe_whatever_the_accents(app, client, typed):
    record_all(app, "frutti", ["Chloé", "Ben", "Cy"], {}, FRUTTI_TIE_EVENTS)
    record_all(app, "frutti", ["Ana", "Ben", "Cy"], {}, FRUTTI_TIE_EVENTS)
    assert len(listed(client.get("/history", query_string={"player": typed}))) == 1
    assert client.get("/players/chloe").status_code == 200


def test_a_table_never_played_is_called_abandoned_after_a_day_and_can_be_left_out(app, client):
    old = datetime.now(UTC) - timedelta(days=3)
    abandoned = make_table(app, "jaipur", ["Ana", "Ben"])  # opened three days ago, nothing recorded since
    dated(app, abandoned, old)
    fresh = make_table(app, "jaipur", ["Ana", "Ben"])  # opened just now: still playing
    going = record_all(app, "jaipur", ["Ana", "Ben"], {}, [{"type": "sale", "player": 0, "good": "cloth", "cards": 1}])
    dated(app, going, old)  # opened long ago, but an entry was recorded just now: still playing
    finished = record_all(app, "frutti", ["Ana", "Ben", "Cy"], {}, FRUTTI_TIE_EVENTS)
    dated(app, finished, old)
    cards = dict(re.findall(r'href="/w/([^/]+)/results">.*?<span class="status (\w+)">', page_text(client.get("/history")),
                            re.S))
    with app.app_context():
        watch = {token: table_of(token).watch_token for token in (abandoned, fresh, going, finished)}
    assert cards == {watch[abandoned]: "abandoned", watch[fresh]: "playing", watch[going]: "playing",
                     watch[finished]: "finished"}
    assert "nothing recorded for 24 hours" in page_text(client.get("/history"))

    def shown(status):
        text = page_text(client.get("/history", query_string={"status": status}))
        return {token for token, watch_token in watch.items() if watch_token in text}

    assert shown("active") == {fresh, going, finished}
    assert shown("abandoned") == {abandoned}
    assert shown("playing") == {fresh, going}
    assert shown("finished") == {finished}
    rows = csv_rows(client.get("/history.csv"))
    assert sorted(row[4] for row in rows[1:]) == ["abandoned", "finished", "playing", "playing"]
    assert len(csv_rows(client.get("/history.csv?status=active"))) == 4


def test_a_reopened_match_that_an_undo_makes_unfinished_no_longer_says_it_is_over(app, client):
    """Reopen a finished Jaipur match and undo the camels that decided it: the answer to the undo (the live
    region that every phone is pushed) no longer offers "Mark finished again", and the results page counts
    the same points in its standings as in its chart (the round being played: its goods tokens)."""
    token = record_all(app, *JAIPUR)
    client.get(f"/t/{token}")
    client.post(f"/t/{token}/reopen", data={"key": form_key()})
    region = page_text(client.get(f"/t/{token}/live", headers={"HX-Request": "true"}))
    assert "Reopened: the game is over" in region and "Mark finished again" in region
    deciding = len(JAIPUR[3])  # round 3's camels: the round scored, Ben's second seal
    answer = page_text(client.post(f"/t/{token}/undo", data={"entry": deciding, "key": form_key()},
                                   headers={"HX-Request": "true"}))
    assert "Camels in each herd" in answer  # round 3 waits for its camels again
    assert "Reopened: the game is over" not in answer and "Mark finished again" not in answer
    for page in (page_text(client.get(f"/t/{token}")), page_text(client.get(f"/t/{token}/results"))):
        assert "Reopened: the game is over" not in page and "Mark finished again" not in page
    with app.app_context():
        review = jaipur_review.review(state_of(table_of(token)))
    # Rounds 1 and 2 scored (Ben 66 + 8, Ana 64 + 17), round 3 being played: gold 2 for Ben, diamonds 2 for Ana.
    assert review.extra == review.periods[-1].totals
    results = page_text(client.get(f"/t/{token}/results"))
    assert review.extra == (95, 86)
    assert "<small>95 points</small>" in results and "<small>86 points</small>" in results
    assert "At the end: Ana 95, Ben 86." in results
