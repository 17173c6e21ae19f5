"""The standings: the group's players rated in seasons, over all games or one, as a page and as JSON; each finished
result's changes of rating; kept ladders extended by new results and folded again when an older one changed."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from companion.extensions import db
from companion.models import now
from companion.review import history, ratings, seasons, standings
from companion.table import recording
from groups.tables import group_named, member_of, played
from review.test_evenings import moved_back, table_of_watch, text_of
from review.test_review_sessions import CARAMBOUILLE, FRUTTI, JAIPUR, record_all, table_of


@pytest.fixture
def evening(app):
    """Carambouille (Ana, Cy, Ben), Frutti di Mare (Cy, Ben, Ana), Jaipur (Ben, Ana), in that order."""
    return [record_all(app, *session) for session in (CARAMBOUILLE, FRUTTI, JAIPUR)]


def expected(app, tokens) -> list[tuple[str, int, int, int]]:
    """The sessions rated by the package through ``ratings.ladder``, as (name, rating, games, wins)."""
    with app.app_context():
        found = ratings.ladder([history.outcome(table_of(token)) for token in tokens])
        return [(row.name, row.rating, row.games, row.wins) for row in found.standings()]


def rows_of(response) -> list[tuple[str, int, int, int]]:
    body = re.search(r'<table class="standings-table">.*?<tbody>(.*?)</tbody>', text_of(response)).group(1)
    found = []
    for row in re.findall(r"<tr>(.*?)</tr>", body):
        name = re.search(r"<a [^>]*>(.*?)</a>", row).group(1)
        rating, wins, games = re.search(r'<td class="num">([\d,]+)(?:<small[^>]*>provisional</small>)?</td> '
                                        r'<td class="num">(\d+) of (\d+)</td>', row).groups()
        found.append((name, int(rating.replace(",", "")), int(games), int(wins)))
    return found


def test_the_standings_rate_the_seasons_finished_sessions_best_first(app, client, evening):
    answer = client.get("/standings")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "private, no-cache"
    assert rows_of(answer) == expected(app, evening)
    text = text_of(answer)
    assert "provisional" in text and "All games" in text
    with app.test_request_context():
        assert seasons.current([]).label in text


def test_the_json_says_the_same_with_openskills_own_mu_and_sigma(app, client, evening):
    data = client.get("/standings.json").get_json()
    with app.app_context():
        assert data["season"] == seasons.current([]).key and data["game"] is None
    assert [(p["name"], p["rating"], p["games"], p["wins"]) for p in data["players"]] == expected(app, evening)
    first = data["players"][0]
    assert first["provisional"] is True
    assert first["rating"] == round(1000 + 10 * (first["mu"] - 3 * first["sigma"]))
    jaipur = client.get("/standings.json?game=jaipur").get_json()
    assert jaipur["game"] == "Jaipur" and [p["name"] for p in jaipur["players"]] == ["Ben", "Ana"]
    assert client.get("/standings.json?season=all").get_json()["season"] == "all"
    refused = client.get("/standings.json?season=2026-Q5")
    assert refused.status_code == 400 and "season" in refused.get_json()["errors"]


def test_a_season_that_cannot_be_read_is_explained_next_to_its_field(client, evening):
    answer = client.get("/standings?season=someday&game=chess")
    assert answer.status_code == 422
    text = text_of(answer)
    assert 'id="season-error"' in text and 'id="game-error"' in text
    # What could not be read is left at its default: this season, every game.
    assert len(rows_of(answer)) == 3


def test_a_season_is_a_calendar_quarter_and_all_time_holds_them_all(app, client, evening):
    carambouille = evening[0]
    moved_back(app, carambouille, 24 * 100)
    with app.app_context():
        earlier = seasons.quarter_key(seasons.day_of(table_of(carambouille).created_at))
        assert earlier != seasons.current([]).key
    assert expected(app, evening[1:]) == rows_of(client.get("/standings"))
    assert expected(app, evening[:1]) == rows_of(client.get(f"/standings?season={earlier}"))
    assert expected(app, evening) == rows_of(client.get("/standings?season=all"))
    assert f'<option value="{earlier}">' in client.get("/standings").get_data(as_text=True)


def test_a_finished_results_page_shows_each_players_change(app, client, evening):
    carambouille = evening[0]
    text = text_of(client.get(f"/t/{carambouille}/results"))
    changes = re.search(r'<p class="rating-changes">(.*?)</p>', text).group(1)
    with app.app_context():
        first = ratings.ladder([history.outcome(table_of(carambouille))])
    shown = re.findall(r'(\w+) <strong>([+−±]\d+)</strong> <small>\(([\d,]+)\)</small>', changes)
    assert shown == [(name, ("+" if change > 0 else "−") + str(abs(change)), f"{rating:,}")
                     for name, (change, rating) in ((name, first.changes[table_id(app, carambouille)][name.lower()])
                                                    for name in ("Ana", "Ben", "Cy"))]
    # Reopened, it is no longer final: no change shown, and the standings leave it out.
    with app.app_context():
        recording.reopen(table_of(carambouille))
    assert 'class="rating-changes"' not in client.get(f"/t/{carambouille}/results").get_data(as_text=True)
    assert rows_of(client.get("/standings")) == expected(app, evening[1:])


def table_id(app, token: str) -> int:
    with app.app_context():
        return table_of(token).id


def test_a_new_result_extends_the_kept_ladder_and_an_older_change_folds_it_again(app, client, evening):
    client.get("/standings")
    with app.app_context():
        pool = standings.Pool(1, seasons.current([]), None)
    kept = app.extensions["ladders"][pool][0]
    assert len(kept.folded) == 3
    newer = record_all(app, *FRUTTI)
    assert rows_of(client.get("/standings")) == expected(app, evening + [newer])
    assert app.extensions["ladders"][pool][0] is kept and len(kept.folded) == 4  # only the new session folded
    with app.app_context():
        recording.reopen(table_of(evening[0]))
    assert rows_of(client.get("/standings")) == expected(app, evening[1:] + [newer])
    assert app.extensions["ladders"][pool][0] is not kept  # an older session changed: folded again from the start


@pytest.fixture
def private(app):
    app.config["GROUPS"] = "private"
    otters, badgers = group_named(app, "Otters"), group_named(app, "Badgers")
    played(app, otters, ["Zelda", "Yannick", "Xavier"])
    played(app, badgers, ["Ana", "Ben", "Cy"])
    return {"otters": otters, "badgers": badgers}


def test_standings_are_the_groups_alone(app, private):
    otter, badger, stranger = app.test_client(), app.test_client(), app.test_client()
    member_of(otter, private["otters"])
    member_of(badger, private["badgers"])
    for phone, mine, theirs in ((otter, "Zelda", "Ana"), (badger, "Ana", "Zelda")):
        for address in ("/standings", "/standings?season=all", "/standings.json", "/standings.json?season=all"):
            text = phone.get(address).get_data(as_text=True)
            assert mine in text and theirs not in text, address
    assert stranger.get("/standings.json").status_code == 404
    page = stranger.get("/standings").get_data(as_text=True)
    assert "This phone is in no group yet" in page and "Zelda" not in page and "Ana" not in page


def test_a_forgotten_person_is_rated_by_no_name(app, client, evening):
    client.post("/players/Cy/forget", data={"confirm": "Cy"})
    with app.app_context():
        assert not any("Cy" in name for name in (table_of(token).players[2] for token in evening[:2]))
    names = [name for name, *_ in rows_of(client.get("/standings"))]
    assert names == [name for name in names if not name.startswith("Player")] and "Cy" not in names


def test_the_current_season_is_the_quarter_of_today(app):
    moment = now()
    with app.app_context():
        assert seasons.current([]).key == f"{moment.year}-Q{(moment.month - 1) // 3 + 1}"
        assert seasons.quarter_key(seasons.day_of(moment - timedelta(days=200))) != seasons.current([]).key


def test_a_games_champion_is_its_best_rating_after_five_games(app, client):
    for _ in range(4):
        record_all(app, *JAIPUR)  # Ben wins
    assert "Champions" not in text_of(client.get("/standings"))
    record_all(app, *JAIPUR)
    record_all(app, *FRUTTI)  # Cy's one game: no champion of Frutti di Mare
    text = text_of(client.get("/standings"))
    ben = next(row for row in rows_of(client.get("/standings?game=jaipur")) if row[0] == "Ben")
    assert f'<li><a href="/games/jaipur">Jaipur</a>: Ben ({ben[1]:,})</li>' in text
    assert "Frutti di Mare:" not in text
