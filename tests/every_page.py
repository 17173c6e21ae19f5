"""Every kind of answer the app gives a phone, through the test client: each page type and each htmx fragment.

``every_answer(app)`` sets up the tables it needs (each game asking whose phone this is, under way and
finished) and returns ``(what, response)`` for the home page, the new table pages, each game's table in
each state (a fresh phone, a seated one, a phone asked "move the seat to this one?", the watch view), the memo card and
its calculator, the tally, the history, the players, a player, an evening, the results, the import page, the group's
page and its history brought in (and refused), the error pages, and every fragment htmx swaps in (the
live region, the previews, the calculator, the tally, the join form, the undo's confirmation and refusal,
the answers to a recorded and a refused form).
Used by the tests that hold every answer to a standard: tests/web/test_html_answers.py (headers) and
tests/web/test_html_checker.py (the Nu Html Checker).
"""

from __future__ import annotations

import re

from helpers import form_key, make_table
from review.test_review_sessions import CARAMBOUILLE, FRUTTI, JAIPUR, record_all

HTMX = {"HX-Request": "true"}

def _round(number: int, *points: str) -> dict:
    return {"type": "round", "round": number, "points": list(points)}


# Hearts on a score sheet by rounds (a sum typed, a negative), ended past 100; 7 Wonders by categories in two teams.
SHEET = ("sheet", ["Ana", "Ben", "Cy", "Dan"], {"first_player": 0, "name": "Hearts", "lowest_wins": True, "target": 100},
         [_round(1, "12+7-3", "-5", "0", "13"), _round(2, "26", "0", "0", "0"), _round(3, "0", "26", "0", "0"),
          _round(4, "50", "0", "0", "0")])
WONDERS = ("sheet", ["Ana", "Ben", "Cy", "Dan"],
           {"first_player": 0, "name": "7 Wonders", "mode": "categories", "rows": ["Military", "Science"],
            "tie_break": "Coins", "teams": [0, 1, 0, 1]},
           [{"type": "cells", "seat": seat, "cells": [[0, "3"], [1, "2×4+1"], [2, str(seat)]]} for seat in range(4)])
GAMES = {"carambouille": CARAMBOUILLE, "jaipur": JAIPUR, "frutti": FRUTTI, "sheet": SHEET}


def _tokens(app, token: str) -> tuple[str, str]:
    from companion.extensions import db
    from companion.models import Table

    with app.app_context():
        table = db.session.query(Table).filter_by(token=token).one()
        return table.token, table.watch_token


def _tables(app) -> dict[str, tuple[str, str]]:
    """Each game at its start (nobody seated), under way, and finished: (player token, watch token)."""
    tables = {}
    for game, (slug, players, options, events) in GAMES.items():
        tables[f"{game} start"] = _tokens(app, make_table(app, slug, players, options))
        tables[f"{game} under way"] = _tokens(app, record_all(app, slug, players, options, events[:len(events) // 2]))
        tables[f"{game} finished"] = _tokens(app, record_all(app, slug, players, options, events))
    slug, players, options, events = WONDERS
    tables["sheet by categories under way"] = _tokens(app, record_all(app, slug, players, options, events[:2]))
    tables["sheet by categories finished"] = _tokens(app, record_all(app, slug, players, options, events))
    slug, players, options, events = CARAMBOUILLE
    tables["carambouille dealing"] = _tokens(app, record_all(app, slug, players, options, events[:10]))
    return tables


def _pages(client, tables) -> list[tuple[str, object]]:
    """The whole pages, each as a phone first opens it."""
    answers = [("home", client.get("/"))]
    answers += [(f"home in {lang}", client.get("/", headers={"Accept-Language": lang})) for lang in ("fr", "de", "it")]
    answers += [(f"new {game}", client.get(f"/new/{game}")) for game in GAMES]
    answers += [("new table refused", client.post("/new/jaipur", data={"players-0": "Ana"}))]
    answers += [("new sheet refused", client.post("/new/sheet", data={"players-0": "Ana", "mode": "categories",
                                                                      "teams-0": "1"})),
                ("new sheet as the group's last", client.get("/new/sheet?like=7 Wonders"))]
    answers += [("memo card", client.get("/memo/carambouille")),
                ("memo card, a calculation", client.get("/memo/carambouille?product=cheese&cards=3&effects-0=illusion")),
                ("tally", client.get("/tally/frutti")),
                ("tally, counted", client.get("/tally/frutti", query_string=_tally_query())),
                ("history", client.get("/history")),
                ("history, filtered", client.get("/history?game=jaipur&status=finished")),
                ("players", client.get("/players")), ("a player", client.get("/players/Ana")),
                ("an evening", client.get(f"/evenings/{tables['carambouille finished'][1]}")),
                ("head to head", client.get("/players/Ana/vs/Ben")),
                ("a game's champions and records", client.get("/games/carambouille")),
                ("standings", client.get("/standings")), ("standings of a game, all time",
                                                          client.get("/standings?game=jaipur&season=all")),
                ("standings refused", client.get("/standings?season=someday")),
                ("a season refused", client.post("/standings/seasons", data={"name": "", "starts_on": "someday"})),
                ("import", client.get("/import")),
                *[(f"offline page in {lang}", client.get(f"/offline/{lang}")) for lang in ("en", "fr", "de", "it")],
                ("import refused", client.post("/import", data={"file": (b"{not json", "session.json")},
                                               content_type="multipart/form-data")),
                ("the group", client.get("/group")), ("bring in a history", client.get("/group/library")),
                ("bring in a history refused", client.post("/group/library", data={"file": (b"[]", "history.json")},
                                                           content_type="multipart/form-data"))]
    for what, (token, watch) in tables.items():
        answers += [(f"{what}, fresh phone", client.get(f"/t/{token}")),
                    (f"{what}, watching", client.get(f"/w/{watch}")),
                    (f"{what}, results", client.get(f"/t/{token}/results")),
                    (f"{what}, results watched", client.get(f"/w/{watch}/results")),
                    (f"{what}, all entries", client.get(f"/t/{token}/history")),
                    (f"{what}, replayed at its middle", client.get(f"/t/{token}/replay?at={_middle(client, token)}")),
                    (f"{what}, replayed at its end, watched", client.get(f"/w/{watch}/replay?at={_last(client, token)}")),
                    (f"{what}, remove", client.get(f"/t/{token}/remove"))]
    answers += [("a replay's step refused", client.get(f"/t/{tables['jaipur finished'][0]}/replay?at=nine")),
                ("an evening replayed", client.get(f"/evenings/{tables['carambouille finished'][1]}/replay"))]
    token, watch = tables["carambouille under way"]
    answers += [("pad", client.get(f"/t/{token}/pad")), ("pad watched", client.get(f"/w/{watch}/pad")),
                ("table memo", client.get(f"/t/{token}/memo")), ("table memo watched", client.get(f"/w/{watch}/memo")),
                ("house memo", client.get(f"/t/{token}/memo/edit")),
                ("undo, its own page", client.get(f"/t/{token}/undo"))]
    return answers


def _last(client, token: str) -> int:
    """The table's number of entries, as its replay's last link says it."""
    found = re.search(r'data-replay-step="last" href="[^"]*at=(\d+)"', client.get(f"/t/{token}/replay").text)
    return int(found.group(1))


def _middle(client, token: str) -> int:
    return _last(client, token) // 2


def _tally_query() -> dict:
    dishes = ["shrimp", "octopus", "oysters", "mussels", "sea_urchins"]
    return {**{f"order-{i}": dish for i, dish in enumerate(dishes)}, "cards-0-name": "Ana", "cards-0-mussels": 2,
            "cards-1-name": "Ben", "cards-1-octopus": 3}


def _seated(app, client, tables) -> list[tuple[str, object]]:
    """Each game's table on a seated phone, and on a second phone asked "move the seat to this one?"."""
    answers = []
    other = app.test_client()
    for game in GAMES:
        for state in ("start", "under way"):
            token, _watch = tables[f"{game} {state}"]
            client.post(f"/t/{token}/seat", data={"seat": "0"})
            answers.append((f"{game} {state}, seated", client.get(f"/t/{token}")))
            answers.append((f"{game} {state}, this phone too?",
                            other.post(f"/t/{token}/seat", data={"seat": "0"}, headers=HTMX)))
    for game in GAMES:
        token, _watch = tables[f"{game} under way"]
        for answer, what in (("", "just watching"), ("pad", "the pad for everyone")):
            phone = app.test_client()
            phone.post(f"/t/{token}/seat", data={"seat": answer})
            answers.append((f"{game} under way, {what}", phone.get(f"/t/{token}")))
            answers.append((f"{game} under way, {what}, live region",
                            phone.get(f"/t/{token}/live?seen=0", headers=HTMX)))
    watcher = app.test_client()
    token, _watch = tables["jaipur under way"]
    watcher.post(f"/t/{token}/seat", data={"seat": ""})
    answers.append(("a watching phone's undo refused", watcher.post(f"/t/{token}/undo", data={"key": form_key()})))
    token, _watch = tables["carambouille start"]
    answers.append(("this phone too?, without JavaScript", other.post(f"/t/{token}/seat", data={"seat": "0"},
                                                                     follow_redirects=True)))
    return answers


def _fragments(app, client, tables) -> list[tuple[str, object]]:
    """What htmx swaps in: the live regions, the previews, the calculator, the forms' answers."""
    answers = []
    for what, (token, watch) in tables.items():
        answers += [(f"{what}, live region", client.get(f"/t/{token}/live?seen=0", headers=HTMX)),
                    (f"{what}, watched live region", client.get(f"/w/{watch}/live?seen=0", headers=HTMX))]
    caram, _watch = tables["carambouille under way"]
    dealing, _watch = tables["carambouille dealing"]
    jaipur, _watch = tables["jaipur under way"]
    frutti, _watch = tables["frutti under way"]
    hearts, _watch = tables["sheet start"]
    wonders, _watch = tables["sheet by categories under way"]
    removed = make_table(app, "jaipur", ["Ana", "Ben"])
    client.get(f"/t/{removed}")
    client.post(f"/t/{removed}/remove", data={})
    answers.append(("a removed session's live region", client.get(f"/t/{removed}/live?seen=0", headers=HTMX)))
    fresh = make_table(app, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0})
    for event in ({"type": "market_opened"}, {"type": "market_closed", "seconds": 60}):
        client.post(f"/t/{fresh}/bell/{'open' if event['type'] == 'market_opened' else 'close'}",
                    data={"bell-key": form_key(), "bell-mode": "hand"})
    answers += [
        ("the table page as htmx asks it", client.get(f"/t/{caram}", headers=HTMX)),
        ("memo calculator", client.get("/memo/carambouille?product=cheese&cards=3", headers=HTMX)),
        ("tally counted", client.get("/tally/frutti", query_string=_tally_query(), headers=HTMX)),
        ("join refused", client.post("/join", data={"code": "ZZZZZZ"}, headers=HTMX)),
        ("sale preview", client.get(f"/t/{fresh}/carambouille/sale?player=0&product=cheese&cards=2", headers=HTMX)),
        ("sale preview in French", client.get(f"/t/{fresh}/carambouille/sale?player=0&product=cheese&cards=2",
                                              headers={**HTMX, "Accept-Language": "fr"})),
        ("sale preview refused", client.get(f"/t/{fresh}/carambouille/sale?player=0&product=cheese&cards=9",
                                            headers=HTMX)),
        ("deal preview", client.get(f"/t/{dealing}/carambouille/deal?hand_sizes-0=5&hand_sizes-1=5&hand_sizes-2=5",
                                    headers=HTMX)),
        ("deal preview, the hand moved on", client.get(f"/t/{caram}/carambouille/deal?hand_sizes-0=5",
                                                       headers=HTMX)),
        ("jaipur sale preview", client.get(f"/t/{jaipur}/jaipur/sale/preview?player=0&good=cloth&cards=2",
                                           headers=HTMX)),
        ("undo, in the table", client.get(f"/t/{caram}/undo", headers=HTMX)),
        ("sale recorded", client.post(f"/t/{fresh}/carambouille/sale",
                                      data={"key": form_key(), "player": 0, "product": "cheese", "cards": 2,
                                            "step": "confirm"}, headers=HTMX)),
        ("sale refused", client.post(f"/t/{fresh}/carambouille/sale",
                                     data={"key": form_key(), "player": 0, "product": "cheese", "cards": 9,
                                           "step": "confirm"}, headers=HTMX)),
        ("frutti card played", client.post(f"/t/{frutti}/frutti/play",
                                           data={"key": form_key(), "player": 0, "seafood": "octopus"}, headers=HTMX)),
        ("sheet round refused", client.post(f"/t/{hearts}/sheet/round", headers=HTMX, data={
            "key": form_key(), "round": 1, "points-0": "1/2", "points-1": "", "points-2": "(", "points-3": ""})),
        ("sheet round recorded", client.post(f"/t/{hearts}/sheet/round", headers=HTMX, data={
            "key": form_key(), "round": 1, "points-0": "12+7-3", "points-1": "-5", "points-2": "0", "points-3": "2×15"})),
        ("sheet cells refused", client.post(f"/t/{wonders}/sheet/cells", headers=HTMX, data={
            "key": form_key(), "player": 2, "cells-0": "7+", "cells-1": "", "cells-2": "x"})),
        ("sheet ended", client.post(f"/t/{wonders}/sheet/end", headers=HTMX, data={"key": form_key()})),
        ("undo refused", client.post(f"/t/{fresh}/undo", data={"key": form_key(), "entry": 1}, headers=HTMX)),
        ("undo recorded", client.post(f"/t/{fresh}/undo", data={"key": form_key()}, headers=HTMX)),
        ("a replay's step", client.get(f"/t/{jaipur}/replay?at=3", headers=HTMX)),
    ]
    return answers


def _errors(client) -> list[tuple[str, object]]:
    """The error pages: a page that is not there, a wrong method, a malformed request, too much at once, an address
    too long, a header too large."""
    return [("404", client.get("/t/nosuchtable")), ("405", client.put("/")),
            ("400", client.get("/history?player=a%00b")),
            ("413", client.post("/join", data={"code": "x" * (300 * 1024)})),
            ("414", client.get("/?from=" + "x" * 5000)), ("431", client.get("/", headers={"Cookie": "c=" + "y" * 10_000}))]


def _groups(app) -> list[tuple[str, object]]:
    """The groups' pages: a home server's group; then, on a private server, a phone in no group, an invitation,
    and a member's pages (the group with its invitation, its removal asked twice)."""
    client = app.test_client()
    answers = [("the group, home", client.get("/group")), ("the groups, home", client.get("/groups"))]
    app.config["GROUPS"] = "private"
    try:
        stranger = app.test_client()
        answers += [("home, private, in no group", stranger.get("/")),
                    ("history, in no group", stranger.get("/history")),
                    ("groups, in no group", stranger.get("/groups")),
                    ("group refused", stranger.post("/groups/new", data={"name": ""}))]
        member = app.test_client()
        member.post("/groups/new", data={"name": "Otters"})
        page = member.get("/group")
        invitation = page.get_data(as_text=True).split("/g/")[1].split('"')[0].split("<")[0]
        answers += [("the group, private", page), ("the groups, private", member.get("/groups")),
                    ("invitation", stranger.get(f"/g/{invitation}")),
                    ("invitation QR code", member.get(f"/g/{invitation}/qr.svg")),
                    ("remove the group", member.get("/group/remove")),
                    ("remove the group, typed", member.post("/group/remove", data={"step": "1"})),
                    ("remove the group, mistyped", member.post("/group/remove", data={"step": "2", "name": "x"})),
                    ("rename refused", member.post("/group/rename", data={"name": ""}))]
        answers += _keepers(app, member, stranger, invitation)
    finally:
        app.config["GROUPS"] = "open"
    answers += [("a player's rename refused", client.post("/players/Ana/rename", data={"name": ""}))]
    return answers


def _keepers(app, keeper, stranger, invitation: str) -> list[tuple[str, object]]:
    """A private group's phones, keepers, bin and log: the keeper's page and a plain member's, the refusals."""
    answers = [("invitation, a name refused", stranger.post(f"/g/{invitation}", data={"name": "x" * 41}))]
    stranger.post(f"/g/{invitation}", data={"name": "Ana's phone"})
    keeper.post("/group/rename", data={"name": "Sea otters"})
    opened = keeper.post("/new/frutti", data={"players-0": "Zelda", "players-1": "Yannick"}).headers["Location"]
    token = opened.rsplit("/", 1)[1]
    answers += [("a session's removal, asked", keeper.get(f"/t/{token}/remove")),
                ("a session's removal refused to a link's holder", app.test_client().post(f"/t/{token}/remove")),
                ("a session removed, the history with its bin", keeper.post(f"/t/{token}/remove",
                                                                            follow_redirects=True)),
                ("the group with its phones, bin and log, a keeper's", keeper.get("/group")),
                ("the group, a plain member's", stranger.get("/group")),
                ("a keeper's action refused to a member", stranger.post("/group/rename", data={"name": "Mine"})),
                ("a new invitation refused", keeper.post("/group/invitation", data={"unseen_days": "0"})),
                ("the last keeper's leaving refused", keeper.post("/group/leave"))]
    keeper.post("/group/remove", data={"step": "2", "name": "Sea otters"})
    answers += [("the groups, one in the bin", keeper.get("/groups"))]
    return answers


def every_answer(app) -> list[tuple[str, object]]:
    """(what, response) for every kind of page and fragment; the tables are made in ``app``'s database."""
    client = app.test_client()
    tables = _tables(app)
    return (_pages(client, tables) + _seated(app, client, tables) + _fragments(app, client, tables)
            + _groups(app) + _errors(client))
