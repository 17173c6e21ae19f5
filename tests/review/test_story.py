"""A finished game told on its results page (``companion.review.story``): tables of real games, every sentence true
of its game and in the phone's language; and, as a property of random sheets, the lead changes hands exactly as
often as the leader's name changes in the replay's score rows."""

from __future__ import annotations

import re
from html import unescape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.table import recording
from review.test_review_sessions import (CARAMBOUILLE, FRUTTI, FRUTTI_TIE_EVENTS, JAIPUR, record_all, table_of)
from rules.sheet.test_games import FOUR, HEARTS, HEARTS_ROUNDS


def story_of(response) -> list[str]:
    """The story's sentences as the page shows them, without their links."""
    section = re.search(r'<ul class="story-lines">(.*?)</ul>', response.get_data(as_text=True), re.S)
    if section is None:
        return []
    items = re.findall(r"<li>(.*?)</li>", section.group(1), re.S)
    return [" ".join(unescape(re.sub(r"<a .*?</a>", "", item)).split()) for item in items]


STORIES = {
    "carambouille": [
        "The lead changed hands 9 times.",
        "Ana took the lead in hand 11 and kept it.",
        "It was decided in hand 11: Ana gained 390 points on Cy.",
        "The closest moment came after hand 1: Ana led Cy by 30 points.",
        "Biggest sale — Ana sold 4 saffron for 750 in hand 11.",
        "Ana was 45 points behind after hand 2 and still won.",
    ],
    # Won on seals: Ben's round 1, Ana's round 2, Ben's round 3. Level after round 2, so Ben's lead never changed
    # hands; the bonus tokens, face down while a round was played, are all known once the match is over.
    "jaipur": [
        "Ben took the lead in round 3 and kept it.",
        "It was decided in round 3: Ben gained 1 seal on Ana.",
        "The closest moment came after round 2: Ana and Ben were level on 1 seal.",
        "Biggest sale — Ana sold 5 spice for 15 and a bonus token of 10: 25, in round 1.",
    ],
    "frutti": [
        "Cy took the lead in round 3 and kept it.",
        "It was decided in round 1: Cy gained 170 money on Ben.",
        "The closest moment came after round 2: Ben and Cy were level on 230 money.",
        "Best round — 230: Cy in round 1 (3 mussels × 50 + 4 oysters × 20 = 230).",
    ],
}


@pytest.mark.parametrize("session", [CARAMBOUILLE, JAIPUR, FRUTTI], ids=lambda s: s[0])
def test_a_finished_game_opens_its_results_with_its_story(app, client, session):
    token = record_all(app, *session)
    assert story_of(client.get(f"/t/{token}/results")) == STORIES[session[0]]


def test_the_story_links_each_moment_to_its_step_of_the_replay(app, client):
    token = record_all(app, *JAIPUR)
    page = client.get(f"/t/{token}/results").get_data(as_text=True)
    assert f'href="/t/{token}/replay?at=20">See entry 20</a>' in page
    assert f'href="/t/{token}/replay?at=0">Replay the game entry by entry</a>' in page
    with app.app_context():
        watch = table_of(token).watch_token
    assert f'href="/w/{watch}/replay?at=15"' in client.get(f"/w/{watch}/results").get_data(as_text=True)



@pytest.fixture
def hearts(app):
    # As a phone enters it: every player's points typed, 0 included.
    entered = [event | {"points": [points or "0" for points in event["points"]]} for event in HEARTS_ROUNDS]
    return record_all(app, "sheet", FOUR, HEARTS, entered)


def test_a_lowest_wins_sheet_is_led_by_the_lowest_total(client, hearts):
    told = story_of(client.get(f"/t/{hearts}/results"))
    # Dan leads on 0 after rounds 1 and 2 (Cleo 13, then 21); Cleo's 0 in round 3 puts her ahead on 21 to Dan's 26,
    # and she stays the lowest to the end (39 to Dan's 52, Ana's 69, Ben's 100).
    assert told[:2] == ["The lead changed hands 1 time.", "Cleo took the lead in round 3 and kept it."]
    assert "Cleo was 21 points behind after round 2 and still won." in told
    assert all("Ben took" not in line for line in told)


def test_a_shared_first_place_is_told_as_level_and_nobody_kept_the_lead(app, client):
    token = record_all(app, "frutti", ["Ana", "Ben", "Cy"], {}, FRUTTI_TIE_EVENTS)
    told = story_of(client.get(f"/t/{token}/results"))
    assert "Ana and Ben finished level at the top." in told
    assert not any("kept it" in line or "decided" in line or "still won" in line for line in told)


def test_a_game_in_play_or_reopened_has_no_story_yet(app, client):
    game, players, options, events = JAIPUR
    token = record_all(app, game, players, options, events[:-1])
    assert story_of(client.get(f"/t/{token}/results")) == []
    assert "Replay the game entry by entry" in client.get(f"/t/{token}/results").get_data(as_text=True)
    finished = record_all(app, *JAIPUR)
    with app.app_context():
        recording.reopen(table_of(finished), device="test")
    assert story_of(client.get(f"/t/{finished}/results")) == []


def test_an_undone_entry_is_no_part_of_the_story(app, client):
    game, players, options, events = JAIPUR
    token = record_all(app, game, players, options, events[:4])
    with app.app_context():
        table = table_of(token)
        # A mis-tap: Ben "sells" 5 cloth, undone at once; the match then goes as it went.
        wrong = recording.record(table, {"type": "sale", "player": 1, "good": "cloth", "cards": 5, "bonus": 8})
        recording.void(table_of(token), wrong.seq)
        for event in events[4:]:
            recording.record(table_of(token), event)
    assert story_of(client.get(f"/t/{token}/results")) == STORIES["jaipur"]


@pytest.mark.parametrize("language, sentence", [
    ("fr", "Ben a pris la tête à la manche 3 et ne l’a plus lâchée."),
    ("de", "Ben ging in Runde 3 in Führung und gab sie nicht mehr ab."),
    ("it", "Ben ha preso il comando al round 3 e non l’ha più lasciato."),
    ("de", "Am knappsten war es nach Runde 2: Ana und Ben lagen gleichauf bei 1 Siegel."),
])
def test_the_story_speaks_the_phones_language(app, client, language, sentence):
    token = record_all(app, *JAIPUR)
    client.set_cookie("lang", language, domain="companion.test")
    assert sentence in story_of(client.get(f"/t/{token}/results"))


# --- the property: lead changes counted from the replay's own score rows --------------------------------

def score_rows(client, token: str, last: int) -> list[list[tuple[str, int]]]:
    """Each step's score row as the replay shows it: (name, score) of each seat."""
    rows = []
    for at in range(1, last + 1):
        page = client.get(f"/t/{token}/replay?at={at}", headers={"HX-Request": "true"}).get_data(as_text=True)
        row = re.search(r'<ol class="score-row".*?</ol>', page, re.S).group(0)
        pairs = re.findall(r'<span class="name">([^<]*).*?<span class="points">([^<]*)', row, re.S)
        rows.append([(unescape(name).strip(), int(points.strip().replace(",", "").replace("−", "-")))
                     for name, points in pairs])
    return rows


def leader_changes(rows: list[list[tuple[str, int]]], lowest: bool) -> int:
    names = []
    for row in rows:
        best = (min if lowest else max)(score for _name, score in row)
        leaders = [name for name, score in row if score == best]
        if len(leaders) == 1:
            names.append(leaders[0])
    return sum(before != after for before, after in zip(names, names[1:]))


def told_changes(client, token: str) -> int:
    for line in story_of(client.get(f"/t/{token}/results")):
        if found := re.fullmatch(r"The lead changed hands (\d+) times?\.", line):
            return int(found.group(1))
    return 0


rounds = st.lists(st.lists(st.integers(-20, 40), min_size=3, max_size=3), min_size=2, max_size=7)


@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rounds, st.booleans())
def test_the_lead_changes_hands_as_often_as_the_leaders_name_changes_in_the_replay(app, client, points, lowest):
    options = {"name": "Rummy", "rounds": len(points), "lowest_wins": lowest}
    events = [{"type": "round", "round": n, "points": [str(p) for p in row]} for n, row in enumerate(points, start=1)]
    token = record_all(app, "sheet", ["Ana", "Ben", "Cy"], options, events)
    with app.app_context():
        assert table_of(token).finished
    rows = score_rows(client, token, len(events))
    assert told_changes(client, token) == leader_changes(rows, lowest)
