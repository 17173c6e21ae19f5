"""A private server (COMPANION_GROUPS=private): a phone sees nothing of a group it is not in.

Two groups have played. A stranger's phone (no membership, cookies of its own), a member of the
other group, and a guest holding one table's link each read every page and file a group has, after
a member has read them all (every kept state and rendering warm): none of them learns a name, a
count or a date of a group it is not in.
"""

from __future__ import annotations

import re

import pytest

from groups.tables import group_named, member_of, played
from helpers import without_csrf

OTTERS = ["Zelda", "Yannick", "Xavier"]
OTTERS_LATER = ["Zelda", "Wanda", "Xavier"]
BADGERS = ["Ana", "Ben", "Cy"]
# What a page may say of group Otters to one of its members alone.
OTTER_WORDS = ("Otters", "Zelda", "Yannick", "Xavier", "Wanda")


@pytest.fixture
def server(app):
    app.config["GROUPS"] = "private"
    otters, badgers = group_named(app, "Otters"), group_named(app, "Badgers")
    tokens = [played(app, otters, OTTERS), played(app, otters, OTTERS_LATER), played(app, badgers, BADGERS)]
    return {"otters": otters, "badgers": badgers, "tokens": tokens}


def group_pages(client) -> dict[str, object]:
    """Every page and file of the phone's group, with the filters and fragments they answer."""
    addresses = ["/", "/history", "/history?player=Zel", "/history?game=frutti&status=finished", "/history.csv",
                 "/players", "/players?order=wins", "/players/Zelda", "/players/Ana", "/new/frutti", "/new/jaipur",
                 "/groups", "/group", "/import"]
    answers = {address: client.get(address) for address in addresses}
    answers["htmx join"] = client.post("/join", data={"code": "AAAAAA"}, headers={"HX-Request": "true"})
    return answers


def says_nothing_of(answers: dict, words: tuple[str, ...]) -> None:
    for address, answer in answers.items():
        assert answer.status_code < 500, address
        # The address the phone itself asked for comes back in the page's language switcher: not learnt.
        text = answer.get_data(as_text=True).replace(address.split("?")[0], "")
        for word in words:
            assert word not in text, (address, word)


def test_a_strangers_phone_sees_nothing_of_either_group(app, server):
    member = app.test_client()
    member_of(member, server["otters"], server["badgers"])
    group_pages(member)  # every state, sentence and rendering kept warm by a member
    stranger = app.test_client()
    answers = group_pages(stranger)
    says_nothing_of(answers, OTTER_WORDS + ("Badgers", "Ana", "Ben", "Cy"))
    history = answers["/history"].get_data(as_text=True)
    # Not a count, not a date: the page of a phone in no group says how to join one.
    assert "This phone is in no group yet" in history
    assert not re.search(r"\b20\d\d\b", history)
    assert answers["/history.csv"].status_code == 404
    assert answers["/players/Zelda"].status_code == 404 and answers["/players/Ana"].status_code == 404
    # No table of its own without a group: the new table's page sends it to start or join one (no names offered).
    assert answers["/new/frutti"].status_code == 303
    assert answers["/new/frutti"].headers["Location"].endswith("/groups")


def test_a_member_sees_its_group_and_nothing_of_the_other(app, server):
    badger = app.test_client()
    member_of(badger, server["badgers"])
    answers = group_pages(badger)
    says_nothing_of(answers, OTTER_WORDS)
    assert "Ana" in answers["/history"].get_data(as_text=True)
    assert "Ana" in answers["/history.csv"].get_data(as_text=True)
    assert answers["/players/Ana"].status_code == 200
    # The names a new table offers are the group's own.
    assert 'value="Ana"' in answers["/new/frutti"].get_data(as_text=True)


def test_an_otter_sees_both_of_its_sessions_and_every_name(app, server):
    otter = app.test_client()
    member_of(otter, server["otters"])
    history = otter.get("/history").get_data(as_text=True)
    assert all(name in history for name in ("Zelda", "Yannick", "Wanda", "Xavier"))
    assert "Ana" not in history
    page = otter.get("/players/Zelda").get_data(as_text=True)
    assert "2 sessions" in page


def test_a_guest_at_one_table_sees_that_table_and_nothing_of_its_group(app, server):
    guest = app.test_client()
    first = server["tokens"][0]
    table = guest.get(f"/t/{first}")
    assert table.status_code == 200 and "Yannick" in table.get_data(as_text=True)
    assert guest.get(f"/t/{first}/results").status_code == 200
    answers = group_pages(guest)
    # The group's other session (Wanda's) and its name: nowhere.
    says_nothing_of({address: answer for address, answer in answers.items() if address != "/"},
                    ("Otters", "Wanda"))
    assert "Wanda" not in answers["/"].get_data(as_text=True)
    assert answers["/players/Zelda"].status_code == 404


def test_the_group_pages_are_never_kept_by_a_cache_on_the_way(app, server):
    member = app.test_client()
    member_of(member, server["badgers"])
    for address in ("/history", "/history.csv", "/players", "/players/Ana", "/group", "/groups"):
        answer = member.get(address)
        assert answer.headers["Cache-Control"] == "private, no-cache", address
        assert "Cookie" in answer.headers["Vary"], address


def test_a_groups_score_sheets_are_its_own(app, server):
    # The Otters keep their Skullduggery evenings on a score sheet: the game's name (typed by a player) and
    # its remembered sheet are theirs. A Badger's phone, with every page of the Otters' read by an Otter first,
    # finds no trace of it: not in the sheets offered, the history's filter, the players' games, nor in how a
    # sheet it asks for by that name is refused (as one no group has played).
    otter, badger = app.test_client(), app.test_client()
    member_of(otter, server["otters"])
    member_of(badger, server["badgers"])
    opened = otter.post("/new/sheet", data={"name": "Skullduggery", "mode": "rounds", "starter": "0",
                                            "players-0": "Zelda", "players-1": "Xavier"})
    assert opened.status_code == 303
    addresses = ["/new/sheet", "/history", "/history.csv", "/players", "/players/Zelda", "/"]
    for address in addresses:
        otter.get(address)
    assert "Skullduggery" in otter.get("/new/sheet").text
    assert "Skullduggery" in otter.get("/history.csv").text
    assert otter.get("/new/sheet?like=Skullduggery").status_code == 200
    for address in addresses:
        assert "Skullduggery" not in badger.get(address).text, address
    # Asked for by name, the sheet is answered as one no group has played (the address is echoed, no more).
    for asking in ("/history?game=sheet:{}", "/history.csv?game=sheet:{}", "/new/sheet?like={}"):
        asked, unknown = badger.get(asking.format("Skullduggery")), badger.get(asking.format("Nothingatall"))
        assert asked.status_code == unknown.status_code, asking
        assert (without_csrf(asked.text).replace("Skullduggery", "X")
                == without_csrf(unknown.text).replace("Nothingatall", "X")), asking
    assert badger.get("/new/sheet?like=Skullduggery").status_code == 404
