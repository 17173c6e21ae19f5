"""A person renamed or forgotten across the group's sessions: every page, file and sentence, scores kept."""

from __future__ import annotations

import json

import pytest

from groups.tables import group_named, member_of, played
from helpers import make_table

pytestmark = pytest.mark.usefixtures("app")


def standings(client, token: str) -> str:
    """The results page's standings table, as a phone reads it."""
    page = client.get(f"/t/{token}/results").get_data(as_text=True)
    return page[page.index("<table"):page.index("</table>")]


def every_page_of(client, tokens: list[str]) -> str:
    pages = [client.get(address).get_data(as_text=True) for address in ("/history", "/history.csv", "/players")]
    for token in tokens:
        pages += [client.get(address).get_data(as_text=True) for address in (
            f"/t/{token}", f"/t/{token}/results", f"/t/{token}/history", f"/t/{token}/export.json",
            f"/t/{token}/results.csv")]
    return "\n".join(pages)


def test_a_person_forgotten_becomes_their_place_at_every_session_with_their_scores(app, client):
    home = group_named(app, "")
    tokens = [played(app, home, ["Ana", "Ben", "Cy"]), played(app, home, ["Cy", "ana", "Dee"])]
    before = [standings(client, token) for token in tokens]
    assert "Ana" in every_page_of(client, tokens)  # every state, sentence and rendering kept warm
    answer = client.post("/players/Ana/forget")
    assert answer.status_code == 303
    after = every_page_of(client, tokens)
    assert "Ana" not in after and "ana" not in after.replace("banana", "")
    # Seat 1 at the first session, seat 2 at the second: each called by its place, the scores the same.
    assert standings(client, tokens[0]) == before[0].replace("Ana", "Player 1")
    assert standings(client, tokens[1]) == before[1].replace("ana", "Player 2")
    assert client.get("/players/Ana").status_code == 404
    exported = json.loads(client.get(f"/t/{tokens[0]}/export.json").get_data(as_text=True))
    assert exported["players"] == ["Player 1", "Ben", "Cy"]
    assert not any("Ana" in entry["summary"] for entry in exported["entries"])


def test_a_person_renamed_is_one_player_under_the_new_name(app, client):
    home = group_named(app, "")
    tokens = [played(app, home, ["Ana", "Ben", "Cy"]), played(app, home, ["Cy", "Ana", "Dee"])]
    client.get("/players/Ana")
    assert client.post("/players/Ana/rename", data={"name": "Anaïs"}).status_code == 303
    page = client.get("/players/Anaïs").get_data(as_text=True)
    assert "2 sessions" in page
    assert "Anaïs" in standings(client, tokens[1]) and "Ana<" not in every_page_of(client, tokens)
    # The table says what happened, without the old name.
    assert "A player&#39;s name was changed: Anaïs." in client.get(f"/t/{tokens[0]}/history").get_data(as_text=True)


def test_a_rename_onto_another_players_name_at_one_session_is_refused_and_changes_nothing(app, client):
    home = group_named(app, "")
    tokens = [played(app, home, ["Ana", "Ben", "Cy"])]
    answer = client.post("/players/Ana/rename", data={"name": "ben"})
    assert answer.status_code == 422
    assert 'id="person-name-error"' in answer.get_data(as_text=True)
    assert "Ana" in standings(client, tokens[0])


def test_a_person_of_another_group_cannot_be_renamed_from_outside_it(app):
    app.config["GROUPS"] = "private"
    otters, badgers = group_named(app, "Otters"), group_named(app, "Badgers")
    token = played(app, otters, ["Zelda", "Yannick", "Xavier"])
    badger = app.test_client()
    member_of(badger, badgers)
    assert badger.post("/players/Zelda/forget").status_code == 404
    assert badger.post("/players/Zelda/rename", data={"name": "Z"}).status_code == 404
    otter = app.test_client()
    member_of(otter, otters)
    assert "Zelda" in standings(otter, token)


def test_a_forgotten_name_leaves_a_table_being_played_on_the_phones_that_hold_it(app, client):
    """The rename is an entry of the table's: its version moves, so a phone polling its page is sent the new one."""
    group_named(app, "")
    token = make_table(app, "frutti", ["Ana", "Ben"], {"first_player": 0})
    holding = app.test_client()
    assert "Ana" in holding.get(f"/t/{token}").get_data(as_text=True)
    assert holding.get(f"/t/{token}/live?seen=0").status_code == 204
    assert client.post("/players/Ana/forget").status_code == 303
    pushed = holding.get(f"/t/{token}/live?seen=0", headers={"HX-Request": "true"})
    assert pushed.status_code == 200
    text = pushed.get_data(as_text=True)
    assert "Ana" not in text and "Player 1" in text
