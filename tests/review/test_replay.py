"""A table replayed entry by entry (``views.replay``): every step of real games, as it stood, for each phone; a
seat's secrets on that seat's phone alone, with every kept step in play; the links with and without htmx; a step
that cannot be shown explained next to its field; and an evening's games replayed one after the other."""

from __future__ import annotations

import re
from html import unescape

import pytest

from companion.rules import GAMES, replay
from companion.table import recording
from groups.tables import group_named, member_of, played
from review.test_review_sessions import CARAMBOUILLE, FRUTTI, JAIPUR, record_all, table_of
from rules.sheet.test_games import FOUR, HEARTS, HEARTS_ROUNDS
from views.test_secrets import sit

HTMX = {"HX-Request": "true"}
ANA, BEN = 0, 1
HEARTS_ENTERED = [event | {"points": [points or "0" for points in event["points"]]} for event in HEARTS_ROUNDS]
SHEET = ("sheet", FOUR, HEARTS, HEARTS_ENTERED)


def text_of(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def score_row(html: str) -> list[tuple[str, int]]:
    row = re.search(r'<ol class="score-row".*?</ol>', html, re.S).group(0)
    return [(unescape(name).strip(), int(points.strip().replace(",", "").replace("−", "-"))) for name, points in
            re.findall(r'<span class="name">([^<]*).*?<span class="points">([^<]*)', row, re.S)]


def watch_of(app, token: str) -> str:
    with app.app_context():
        return table_of(token).watch_token


@pytest.mark.parametrize("session", [CARAMBOUILLE, JAIPUR, FRUTTI, SHEET], ids=lambda s: s[0])
def test_every_step_shows_the_scores_the_rules_give_after_that_many_entries(app, client, session):
    game, players, options, events = session
    token = record_all(app, *session)
    watch = watch_of(app, token)
    rules = GAMES[game]
    for at in range(len(events) + 1):
        expected = rules.scores(replay(rules, players, options, events[:at]))
        for address, headers in ((f"/t/{token}/replay?at={at}", {}), (f"/w/{watch}/replay?at={at}", HTMX)):
            answer = client.get(address, headers=headers)
            assert answer.status_code == 200, address
            assert [score for _name, score in score_row(answer.text)] == list(expected), (address, at)


def test_a_step_says_the_entry_that_made_it_and_where_it_stands(app, client):
    token = record_all(app, *JAIPUR)
    page = text_of(client.get(f"/t/{token}/replay?at=5").text)
    assert "Round 1 — Ana sold 5 spice for 5 + 5 + 5 + 3 + 3" in page or "Round 1 — Ana sold 5 spice" in page
    assert "Entry 5 of 20" in page
    start = text_of(client.get(f"/t/{token}/replay").text)
    assert "The table as the game began." in start and "The start, before 20 entries" in start


# --- a seat's secrets --------------------------------------------------------------------------------------------

def tally(html: str, name: str) -> str:
    """A player's tokens of the round being played, as the board shows them."""
    found = re.search(r'<article class="tally[^"]*">\s*<h3 class="tally-name">' + name + r"\b.*?</article>", html, re.S)
    return text_of(found.group(0))


# The two phones taking their seats are the log's first two entries: the match's entry N is the log's N + 2.
SEATED = 2


@pytest.fixture
def seated_match(app):
    """The known Jaipur match with Ana's and Ben's phones in their seats before it began, and a phone of nobody."""
    game, players, options, events = JAIPUR
    token = record_all(app, game, players, options, [])
    ana, ben, nobody = app.test_client(), app.test_client(), app.test_client()
    sit(ana, token, ANA)
    sit(ben, token, BEN)
    with app.app_context():
        for event in events:
            recording.record(table_of(token), event)
    return token, ana, ben, nobody


def test_a_bonus_face_down_at_a_step_shows_on_its_sellers_phone_alone_whoever_asks_first(app, seated_match):
    token, ana, ben, nobody = seated_match
    watch = watch_of(app, token)
    # After the match's third entry, Ben's leather came with a bonus of 5, Ana's cloth with one of 2; the round
    # is not scored yet.
    at = 3 + SEATED
    asked = [(ben, f"/t/{token}/replay?at={at}"), (nobody, f"/t/{token}/replay?at={at}"),
             (ana, f"/w/{watch}/replay?at={at}"), (ana, f"/t/{token}/replay?at={at}")]
    for _ in range(3):
        for phone, address in asked:
            for headers in ({}, HTMX):
                html = phone.get(address, headers=headers).text
                mine = address.startswith("/t/") and phone is ana
                # A replay records nothing: no hint to choose a seat that is not on its page.
                assert "Choose whose phone this is" not in html
                ana_tally, ben_tally = tally(html, "Ana"), tally(html, "Ben")
                assert ("(only you see this)" in ana_tally and "1 face down" not in ana_tally) == mine, address
                assert "1 face down" in ana_tally or mine
                ben_sees = address.startswith("/t/") and phone is ben
                assert ("5 (only you see this)" in ben_tally) == ben_sees
                assert "1 face down" in ben_tally or ben_sees
    # Once round 1 is scored (the match's entry 10), every bonus of it is on every phone, the watch link's too.
    scored_at = 10 + SEATED
    for phone, address in ((ben, f"/t/{token}/replay?at={scored_at}"), (nobody, f"/w/{watch}/replay?at={scored_at}")):
        scored = text_of(phone.get(address).text)
        assert "face down" not in scored.split("Rounds")[-1]
        assert "2 + 10 = 12" in scored  # Ana's two bonus tokens of the round


def test_on_every_step_no_phone_sees_the_other_seats_bonus_values(app, seated_match):
    token, ana, ben, nobody = seated_match
    watch = watch_of(app, token)
    with app.app_context():
        last = table_of(token).last_seq
    for at in range(last + 1):
        # Each seat's phone first: its own values are rendered and kept before the others ask the same step.
        for phone, address in ((ana, f"/t/{token}/replay?at={at}"), (ben, f"/t/{token}/replay?at={at}"),
                               (nobody, f"/t/{token}/replay?at={at}"), (nobody, f"/w/{watch}/replay?at={at}"),
                               (ana, f"/w/{watch}/replay?at={at}")):
            for headers in ({}, HTMX):
                html = phone.get(address, headers=headers).text
                own = {ana: "Ana", ben: "Ben"}.get(phone) if address.startswith("/t/") else None
                for name in ("Ana", "Ben"):
                    if name != own and '<h3 class="tally-name">' + name in html:
                        assert "(only you see this)" not in tally(html, name), (at, address, name)


def test_a_match_in_play_replays_with_the_same_secrets_kept(app):
    game, players, options, events = JAIPUR
    token = record_all(app, game, players, options, [])
    ana, ben = app.test_client(), app.test_client()
    sit(ana, token, ANA)
    sit(ben, token, BEN)
    with app.app_context():
        for event in events[:5]:
            recording.record(table_of(token), event)
    # After Ana's spice, her second bonus (10) lies face down: on Ben's phone, two tokens face down.
    at = 5 + SEATED
    assert "12 (only you see this)" not in ben.get(f"/t/{token}/replay?at={at}").text
    assert "2 face down" in tally(ben.get(f"/t/{token}/replay?at={at}").text, "Ana")
    assert "2 + 10 = 12 (only you see this)" in tally(ana.get(f"/t/{token}/replay?at={at}").text, "Ana")


# --- who may look, and what comes back ------------------------------------------------------------------------------

@pytest.fixture
def otters_game(app):
    """A private server, its Otters' finished game and three phones: an Otter, a Badger and a guest holding no
    membership; (token, watch token, the three phones)."""
    app.config["GROUPS"] = "private"
    otters, badgers = group_named(app, "Otters"), group_named(app, "Badgers")
    token = played(app, otters, ["Zelda", "Yannick", "Xavier"])
    otter, badger, guest = app.test_client(), app.test_client(), app.test_client()
    member_of(otter, otters)
    member_of(badger, badgers)
    return token, watch_of(app, token), (otter, badger, guest)


def test_each_phone_may_replay_what_it_may_read_the_results_of(otters_game):
    token, watch, (member, other, guest) = otters_game
    for phone in (member, other, guest):
        for address in (f"/t/{token}", f"/w/{watch}"):
            results = phone.get(f"{address}/results").status_code
            for headers in ({}, HTMX):
                answer = phone.get(f"{address}/replay?at=3", headers=headers)
                assert answer.status_code == results, (address, headers)
                if answer.status_code == 404:
                    assert "Zelda" not in answer.text
    assert member.get(f"/t/{token}/replay?at=3").status_code == 200


def test_htmx_gets_the_steps_region_alone_and_no_cache_keeps_either(app, client):
    token = record_all(app, *FRUTTI)
    whole, region = client.get(f"/t/{token}/replay?at=4"), client.get(f"/t/{token}/replay?at=4", headers=HTMX)
    assert "<html" in whole.text and "<html" not in region.text
    assert region.text.lstrip().startswith('<div id="replay"')
    for answer in (whole, region):
        assert answer.headers["Cache-Control"] == "private, no-cache"
        assert "HX-Request" in answer.headers["Vary"]
    # The step's links: each the next step's own address, swapped in place with htmx, followed without it.
    assert f'href="/t/{token}/replay?at=5"' in region.text and 'hx-replace-url="true"' in region.text


@pytest.mark.parametrize("at, said", [
    ("16", "Pick an entry from 0 (the start) to 15."),
    ("-1", "Pick an entry from 0 (the start) to 15."),
    ("abc", "Not a valid integer value."),
    ("9" * 400, "Enter a smaller number."),
])
def test_a_step_that_cannot_be_shown_is_explained_next_to_its_field(app, client, at, said):
    token = record_all(app, *FRUTTI)
    for headers in ({}, HTMX):
        answer = client.get(f"/t/{token}/replay?at={at}", headers=headers)
        assert answer.status_code == 422
        error = re.search(r'<small class="error" id="replay-at-error" role="alert">([^<]*)</small>', answer.text)
        assert error is not None and said in unescape(error.group(1))
        assert 'aria-describedby="replay-at-error"' in answer.text
        assert "The table as the game began." in answer.text
    with app.app_context():
        assert table_of(token).last_seq == 15


def test_an_undone_entry_counts_until_its_undo_and_is_shown_undone_from_there(app, client):
    game, players, options, events = JAIPUR
    token = record_all(app, game, players, options, events[:3])
    with app.app_context():
        recording.void(table_of(token), 3)
    before, at_undo = client.get(f"/t/{token}/replay?at=3").text, client.get(f"/t/{token}/replay?at=4").text
    assert "Undone later, at entry 4." in text_of(before)
    assert [score for _name, score in score_row(before)] == [0, 0]
    assert re.search(r'<li value="3" class="undone"><del>', at_undo)
    assert not re.search(r'<li value="3" class="undone', before)
    assert "2 face down" not in at_undo  # Ana's cloth, and its bonus, taken back


# --- the evening --------------------------------------------------------------------------------------------------

def test_an_evening_is_replayed_game_after_game_each_at_its_end_with_its_story(app, client):
    tokens = [record_all(app, *session) for session in (CARAMBOUILLE, FRUTTI, JAIPUR)]
    watch = watch_of(app, tokens[0])
    evening = client.get(f"/evenings/{watch}")
    assert f'href="/evenings/{watch}/replay"' in evening.text
    page = client.get(f"/evenings/{watch}/replay")
    assert page.status_code == 200
    text = text_of(page.text)
    assert text.index("Carambouille") < text.index("Frutti di Mare") < text.index("Jaipur")
    assert "Ana took the lead in hand 11 and kept it." in text and "Ben took the lead in round 3 and kept it." in text
    assert "Ben wins the match!" in text
    # Three boards on one page, each with the ids its template gives made its own.
    ids = re.findall(r'\bid="([^"]+)"', page.text)
    assert len(ids) == len(set(ids))
    for token in tokens:
        assert f'href="/w/{watch_of(app, token)}/replay?at=0"' in page.text


def test_an_evening_replayed_is_its_groups_alone(otters_game):
    _token, watch, (otter, badger, guest) = otters_game
    assert otter.get(f"/evenings/{watch}/replay").status_code == 200
    for phone in (badger, guest):
        answer = phone.get(f"/evenings/{watch}/replay")
        assert answer.status_code in (200, 404) and "Zelda" not in answer.text
