"""Who beats whom: two players' games together and who finished ahead, per game and in all; nemesis and the one
most often beaten (after three games together); the head-to-head page and the player's page."""

from __future__ import annotations

import re

from companion.review.rivals import MEETINGS, Record, favourite, head_to_head, nemesis, rivals
from groups.tables import group_named, member_of, played
from review.test_evenings import text_of
from review.test_ratings import session
from review.test_review_sessions import CARAMBOUILLE, FRUTTI, JAIPUR, record_all


def game(number: int, name: str, players, ranks, sides=(), finished=True):
    found = session(number, players, ranks, sides, finished)
    return found.__class__(**{**found.__dict__, "game_name": name})


SESSIONS = [
    game(1, "Jaipur", ["Ana", "Ben"], (1, 2)),
    game(2, "Jaipur", ["Ben", "Ana"], (1, 2)),
    game(3, "Jaipur", ["Ana", "Ben"], (1, 2)),
    game(4, "Carambouille", ["Ana", "Ben", "Cy"], (3, 1, 2)),
    game(5, "Carambouille", ["Ana", "Ben", "Cy"], (1, 1, 3)),  # Ana and Ben level
    game(6, "Skat", ["Ana", "Ben", "Cy", "Dan"], (1, 2, 1, 2), sides=((0, 2), (1, 3))),  # Cy is Ana's teammate
    game(7, "Jaipur", ["Ana", "Ben"], (2, 1), finished=False),  # not finished: counts for nobody
    game(8, "Carambouille", ["Ana", "Player 2", "Cy"], (3, 1, 2)),  # a forgotten seat is no one's rival
]


def test_two_players_record_in_all_and_per_game_the_most_played_first():
    total, per_game = head_to_head(SESSIONS, "ana", "ben")
    assert total == Record(together=6, ahead=3, behind=2) and total.level == 1
    assert per_game == [("Jaipur", Record(3, 2, 1)), ("Carambouille", Record(2, 0, 1)), ("Skat", Record(1, 1, 0))]
    assert head_to_head(SESSIONS, "ana", "cy")[0] == Record(together=4, ahead=1, behind=2)
    assert head_to_head(SESSIONS, "ana", "player 2")[0] == Record()


def test_nemesis_and_favourite_need_three_games_together():
    found = rivals(SESSIONS, "ana")
    assert [(r.name, r.record) for r in found] == [("Ben", Record(6, 3, 2)), ("Cy", Record(4, 1, 2)),
                                                    ("Dan", Record(1, 1, 0))]
    # Ben and Cy each finished ahead of Ana twice; Cy in a larger share of their games.
    assert nemesis(found).name == "Cy"
    assert favourite(found).name == "Ben"
    few = rivals(SESSIONS[:2], "ana")
    assert few[0].record.together < MEETINGS and nemesis(few) is None and favourite(few) is None


def test_the_head_to_head_page_and_the_players_rivals(client, app):
    for events in (CARAMBOUILLE, FRUTTI, JAIPUR, JAIPUR):
        record_all(app, *events)
    answer = client.get("/players/Ana/vs/ben")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "private, no-cache"
    text = text_of(answer)
    # Carambouille: Ana 1st, Ben 3rd; Frutti: Ben 2nd, Ana 3rd; Jaipur twice: Ben won.
    assert "Ana against Ben" in text and "4 finished games together" in text
    assert "Ana finished ahead 1 time, Ben 3 times, level 0 times." in text
    rows = re.findall(r'<tr><th scope="row">(.*?)<small class="muted together">(\d+) games? together</small></th> '
                      r'<td class="num">(\d+)</td><td class="num">(\d+)</td></tr>', text)
    assert rows == [("Jaipur", "2", "0", "2"), ("Carambouille", "1", "1", "0"), ("Frutti di Mare", "1", "0", "1")]
    player = text_of(client.get("/players/Ana"))
    assert 'Nemesis:</strong> <a href="/players/Ana/vs/Ben">Ben</a>, finished ahead 3 times in 4 games together' in player
    assert client.get("/players/Ana/vs/Zed").status_code == 404
    assert client.get("/players/Ana/vs/ana").status_code == 404


def test_a_head_to_head_is_the_groups_alone(app):
    app.config["GROUPS"] = "private"
    otters, badgers = group_named(app, "Otters"), group_named(app, "Badgers")
    played(app, otters, ["Zelda", "Yannick", "Xavier"])
    played(app, badgers, ["Ana", "Ben", "Cy"])
    otter, badger, stranger = app.test_client(), app.test_client(), app.test_client()
    member_of(otter, otters)
    member_of(badger, badgers)
    assert otter.get("/players/Zelda/vs/Xavier").status_code == 200
    for phone in (badger, stranger):
        answer = phone.get("/players/Zelda/vs/Xavier")
        # The address the phone itself asked for comes back in the language switcher: not learnt.
        text = answer.get_data(as_text=True).replace("/players/Zelda/vs/Xavier", "")
        assert answer.status_code == 404 and "Xavier" not in text and "Zelda" not in text


def test_a_players_page_says_what_each_of_their_games_figures_are(app, client):
    from every_page import SHEET

    record_all(app, *JAIPUR)
    record_all(app, *SHEET)
    ana = text_of(client.get("/players/Ana"))
    assert "Jaipur: rounds won, and seals won and lost (a match is won on seals)." in ana
    assert "Score sheets: the average points of finished games" in ana
    assert "Carambouille:" not in ana  # a game she never played says nothing here
    dan = text_of(client.get("/players/Dan"))  # Dan played the sheet alone
    assert "Score sheets:" in dan and "Jaipur:" not in dan
    french = text_of(client.get("/players/Dan", headers={"Accept-Language": "fr"}))
    assert "Feuilles de score" in french
