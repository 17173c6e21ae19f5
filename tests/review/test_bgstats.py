"""The results page's "Log this play in BG Stats": the play in the link is the session the page shows."""

from __future__ import annotations

import html
import json
import re
import urllib.parse
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa

from companion.extensions import db
from companion.models import Entry
from companion.review import bgstats
from companion.review.session import review_of
from companion.table import log, recording
from companion.table.state import state_of
from review.test_review_sessions import (CARAMBOUILLE, FRUTTI, FRUTTI_TIE_EVENTS, JAIPUR, JAIPUR_EVENTS, record_all,
                                         table_of)

SESSIONS = {"carambouille": CARAMBOUILLE, "jaipur": JAIPUR, "frutti": FRUTTI}
# 20:05 on 1 December in Paris; the last move 47 minutes later.
BEGAN = datetime(2026, 12, 1, 19, 5, 0, tzinfo=UTC)


STARTERS = {"carambouille": "first_trader", "jaipur": "first_player", "frutti": "first_player"}


def timed(app, token: str, began: datetime, minutes: int) -> None:
    """Date the session's entries from ``began``, evenly, the last (and the finish) ``minutes`` later."""
    with app.app_context():
        table = table_of(token)
        entries = list(db.session.scalars(sa.select(Entry).where(Entry.table_id == table.id).order_by(Entry.seq)))
        for index, entry in enumerate(entries):
            entry.created_at = began + timedelta(minutes=minutes) * index / max(1, len(entries) - 1)
        table.created_at = began - timedelta(minutes=3)  # the phones joining before the first move
        table.finished_at = began + timedelta(minutes=minutes)
        db.session.commit()


def page_of(client, token: str, language: str = "en") -> str:
    return client.get(f"/t/{token}/results", headers={"Accept-Language": language}).get_data(as_text=True)


def link_on(page: str) -> str | None:
    found = re.search(r'<a class="bgstats-link"[^>]*href="([^"]+)"', page)
    return html.unescape(found.group(1)) if found else None


def decoded(link: str) -> dict:
    base, query = link.split("?", 1)
    assert base == "https://app.bgstatsapp.com/createPlay.html"
    (name, value), = urllib.parse.parse_qsl(query)
    assert name == "data"
    return json.loads(value)


def shown_standings(page: str) -> list[tuple[int, str, int, bool]]:
    """(rank, name, score, winner) as the page's standings show them."""
    standings = re.search(r'<ol class="standings">(.*?)</ol>', page, re.S).group(1)
    rows = []
    for item in re.findall(r"<li.*?</li>", standings, re.S):
        rank = int(re.search(r'class="rank"[^>]*>(\d+)<', item).group(1))
        name = re.search(r'class="who">([^<]+?)\s*(?:<|$)', item).group(1).strip()
        score = int(re.sub(r"\D", "", re.search(r"<strong>([^<]+)</strong>", item).group(1)))
        rows.append((rank, name, score, 'class="badge"' in item))
    return rows


@pytest.mark.parametrize("slug", SESSIONS)
def test_the_play_is_the_finished_session_the_page_shows(app, client, slug):
    app.config["TIMEZONE"] = "Europe/Paris"
    slug, players, options, events = SESSIONS[slug]
    starter = options.get(STARTERS[slug], 0)
    token = record_all(app, slug, players, options, events)
    timed(app, token, BEGAN, 47)
    page = page_of(client, token)
    play = decoded(link_on(page))

    shown = shown_standings(page)
    by_name = {player["name"]: player for player in play["players"]}
    assert [player["name"] for player in play["players"]] == players  # seat order
    assert sorted((p["rank"], p["name"], p["score"], p["winner"]) for p in play["players"]) == sorted(shown)
    assert [name for name, player in by_name.items() if player["startPlayer"]] == [players[starter]]
    assert play["playDate"] == "2026-12-01 20:05:00"  # the first move, on the table's clock (Paris)
    # The page says the same moment: the first entry of "Every entry", and the day in its heading.
    first = re.search(r'<li value="1"[^>]*>.*?<time datetime="([^"]+)">([^<]+)</time>', page, re.S)
    moment = datetime.fromisoformat(first.group(1)).astimezone(ZoneInfo("Europe/Paris"))
    assert moment.strftime("%Y-%m-%d %H:%M:%S") == play["playDate"] and first.group(2).strip() == "8:05\u202fPM"
    assert "Dec 1, 2026" in page.split('class="results-title"')[1].split("</hgroup>")[0]
    assert play["durationMin"] == 47
    assert play["sourceName"] == "Companion"
    assert play["game"]["sourceGameId"] == slug and play["game"]["highestWins"] is True
    assert play["game"]["name"] == {"carambouille": "Carambouille", "jaipur": "Jaipur", "frutti": "Frutti di Mare"}[slug]
    assert all(isinstance(p["winner"], bool) and isinstance(p["score"], int) for p in play["players"])


@pytest.mark.parametrize("slug", SESSIONS)
def test_who_started_is_the_first_first_trader_or_first_player_chosen(app, slug):
    slug, players, options, events = SESSIONS[slug]
    token = record_all(app, slug, players, options, events)
    with app.app_context():
        table = table_of(token)
        game = log.game_of(table)
        review = review_of(slug, game, state_of(table))
        for starter in range(len(players)):
            # The starter chosen when the table was set up (the play's moves themselves follow from it).
            chosen = SimpleNamespace(token=table.token, game=slug, players=table.players, created_at=table.created_at,
                                     finished_at=table.finished_at, options={**options, STARTERS[slug]: starter})
            play = bgstats.play(chosen, game, review, [])
            assert [p["startPlayer"] for p in play["players"]] == [seat == starter for seat in range(len(players))]


def test_carambouille_and_frutti_score_the_money_jaipur_the_seals(app, client):
    plays = {slug: decoded(link_on(page_of(client, record_all(app, *session)))) for slug, session in SESSIONS.items()}
    scores = {slug: [(p["name"], p["score"], p["winner"]) for p in play["players"]] for slug, play in plays.items()}
    assert scores["carambouille"] == [("Ana", 920, True), ("Ben", 460, False), ("Cy", 485, False)]
    assert scores["jaipur"] == [("Ana", 1, False), ("Ben", 2, True)]
    assert scores["frutti"] == [("Ana", 150, False), ("Ben", 320, False), ("Cy", 400, True)]
    assert [p["rank"] for p in plays["frutti"]["players"]] == [3, 2, 1]
    # Only Jaipur's BoardGameGeek id was checked; the others are matched by name in BG Stats.
    assert plays["jaipur"]["game"]["bggId"] == 54043
    assert "bggId" not in plays["carambouille"]["game"] and "bggId" not in plays["frutti"]["game"]


def test_a_jaipur_match_is_one_play_with_its_rounds_in_the_comments_and_says_so(app, client):
    token = record_all(app, *JAIPUR)
    page = re.sub(r"\s+", " ", page_of(client, token))
    play = decoded(link_on(page))
    rounds = play["comments"].split("\n")
    assert len(rounds) == 3 and [line.split(":")[0] for line in rounds] == ["Round 1", "Round 2", "Round 3"]
    # Each round as the breakdown on the page says it.
    notes = re.findall(r'<th scope="row">\d<small class="note">([^<]+)</small>', page)
    assert [line.split(": ", 1)[1] for line in rounds] == [html.unescape(note) for note in notes]
    assert "The whole match is one play: the seals are the scores" in page
    assert "comments" not in decoded(link_on(page_of(client, record_all(app, *CARAMBOUILLE))))


def test_the_same_session_is_the_same_play_and_the_same_name_the_same_player(app, client):
    first = record_all(app, *CARAMBOUILLE)
    again = decoded(link_on(page_of(client, first)))
    assert decoded(link_on(page_of(client, first)))["sourcePlayId"] == again["sourcePlayId"]
    other = decoded(link_on(page_of(client, record_all(app, *CARAMBOUILLE))))
    assert other["sourcePlayId"] != again["sourcePlayId"]
    # The table's own link never travels to BG Stats.
    assert first not in again["sourcePlayId"]
    ids = {p["name"]: p["sourcePlayerId"] for p in again["players"]}
    assert ids == {p["name"]: p["sourcePlayerId"] for p in other["players"]}
    assert len(set(ids.values())) == 3
    # "ana " typed at another table is the same person as "Ana" (as the players page counts them).
    assert bgstats.player_id(" ana ") == ids["Ana"]


def test_a_correction_after_reopening_is_the_same_play_with_the_new_scores(app, client):
    token = record_all(app, *CARAMBOUILLE)
    before = decoded(link_on(page_of(client, token)))
    with app.app_context():
        recording.reopen(table_of(token))
    assert link_on(page_of(client, token)) is None  # reopened: not finished, nothing to log
    with app.app_context():
        table = table_of(token)
        last_sale = db.session.scalar(sa.select(sa.func.max(Entry.seq)).where(
            Entry.table_id == table.id, Entry.type == "sale"))
        recording.void(table, last_sale)
        recording.close(table)
    after = decoded(link_on(page_of(client, token)))
    assert after["sourcePlayId"] == before["sourcePlayId"]
    assert [p["score"] for p in after["players"]] != [p["score"] for p in before["players"]]


def test_an_unfinished_session_offers_no_link(app, client):
    slug, players, options, events = JAIPUR
    # The match stops before its last round is scored: a bonus token still lies face down.
    token = record_all(app, slug, players, options, events[:-3])
    with app.app_context():
        assert not table_of(token).finished
    page = page_of(client, token)
    assert link_on(page) is None and "BG Stats" not in page
    assert JAIPUR_EVENTS  # the full match does offer one (test above)


@pytest.mark.parametrize("language, words", [
    ("fr", "Enregistrer cette partie dans BG Stats"),
    ("de", "Diese Partie in BG Stats eintragen"),
    ("it", "Registra questa partita in BG Stats"),
])
def test_the_link_is_worded_in_the_readers_language(app, client, language, words):
    page = page_of(client, record_all(app, *CARAMBOUILLE), language)
    assert words in page
    # The play's own fields are BG Stats' and stay as they are; the names are the players'.
    assert decoded(link_on(page))["game"]["name"] == "Carambouille"


def test_a_shared_first_place_is_two_winners_of_rank_one(app, client):
    token = record_all(app, "frutti", ["Ana", "Ben", "Cy"], {}, FRUTTI_TIE_EVENTS)
    play = decoded(link_on(page_of(client, token)))
    assert [(p["name"], p["rank"], p["winner"]) for p in play["players"]] == [
        ("Ana", 1, True), ("Ben", 1, True), ("Cy", 3, False)]
