"""A phone that answered "Just watching" records nothing; one that keeps the pad for everyone records for all.

Watching is watching: such a phone shows the table as the watch view does, with no control that records
(no move of the game, no bell to ring, no undo, no "Everyone is in", no reopening), and whatever it sends
anyway (a page left open from before, a crafted request) is refused and changes nothing. A table that
needs one phone to keep the pad for every player (passed round) says so in words: "The pad for everyone".
The kept renderings are in play: each phone asks twice, in both orders, and reads only its own.
"""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from companion.extensions import db
from companion.models import Entry, Table
from companion.table import recording
from helpers import form_key, make_table

HTMX = {"HX-Request": "true"}
# Each game at a moment with a move to make, an entry to undo, and the invitation still out.
TABLES = {
    "carambouille": (["Ana", "Ben", "Chloé"], {"first_trader": 0}, [{"type": "house_memo", "memo": {"40": [None] * 4 + [500]}}]),
    "jaipur": (["Ana", "Ben"], {"bonus": "draw", "first_player": 0},
               [{"type": "sale", "player": 0, "good": "diamonds", "cards": 2}]),
    "frutti": (["Ana", "Ben", "Chloé"], {}, [{"type": "dishes", "order": ["shrimp", "oysters", "mussels", "octopus",
                                                                          "sea_urchins"]}]),
}
# A move of each game that the table above allows, as its form sends it (Jaipur's sale: its preview, which
# a watching phone is refused too: it shows no sale form to fill in).
MOVES = {
    "carambouille": ("bell/open", {"bell-mode": "hand"}),
    "jaipur": ("jaipur/sale", {"player": "1", "good": "leather", "cards": "1", "step": "preview"}),
    "frutti": ("frutti/play", {"player": "0", "seafood": "shrimp"}),
}


def sent_with(path: str, seen: int) -> dict:
    """The idempotency key and the entry the phone saw, under the names the path's form gives them."""
    prefix = "bell-" if path.startswith("bell/") else ""
    return {f"{prefix}key": form_key(), f"{prefix}seen": str(seen)}


def table_at(app, game: str) -> str:
    players, options, events = TABLES[game]
    token = make_table(app, game, players, options)
    with app.app_context():
        for event in events:
            recording.record(db.session.scalar(sa.select(Table).where(Table.token == token)), event)
    return token


def entries(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Entry))


def phone_answering(app, token: str, answer: str):
    phone = app.test_client()
    phone.get(f"/t/{token}")
    phone.post(f"/t/{token}/seat", data={"seat": answer})
    return phone


def recording_controls(html: str) -> list[str]:
    """Every form of the page but the seat picker's and the language switch's, and every undo and ring button."""
    forms = [action for action in re.findall(r'<form[^>]*action="([^"]+)"', html)
             if not action.endswith("/seat") and action != "/language"]
    return forms + re.findall(r"Undo last entry|Undo…|data-bell-ring|Everyone is in|Play for \w+", html)


def views(phone, token: str, seen: int) -> list[str]:
    return [phone.get(f"/t/{token}").text, phone.get(f"/t/{token}", headers=HTMX).text,
            phone.get(f"/t/{token}/live?seen={seen - 1}", headers=HTMX).text, phone.get(f"/t/{token}/history").text]


@pytest.mark.parametrize("watcher_first", [True, False], ids=["watcher-first", "pad-first"])
@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_watching_phone_shows_no_control_that_records_and_the_pad_phone_shows_them(app, game, watcher_first):
    token = table_at(app, game)
    seen = len(TABLES[game][2])
    watcher, pad = phone_answering(app, token, ""), phone_answering(app, token, "pad")
    order = (watcher, pad) if watcher_first else (pad, watcher)
    for _ in range(2):  # the second round is served from the kept renderings
        for phone in order:
            for html in views(phone, token, seen):
                if phone is watcher:
                    assert recording_controls(html) == [], html
                else:
                    assert recording_controls(html) != []
    page = watcher.get(f"/t/{token}").text
    assert "This phone is just watching" in page and "Who are you?" not in page
    assert "This phone keeps the pad for everyone" in pad.get(f"/t/{token}").text


@pytest.mark.parametrize("game", sorted(TABLES))
def test_whatever_a_watching_phone_sends_is_refused_and_changes_nothing(app, game):
    token = table_at(app, game)
    watcher = phone_answering(app, token, "")
    before = entries(app)
    path, data = MOVES[game]
    last = len(TABLES[game][2])
    for sent, fields in ((path, data), ("undo", {"entry": str(last)}), ("invite", {}), ("reopen", {})):
        for headers in ({}, HTMX):
            answer = watcher.post(f"/t/{token}/{sent}", data={**fields, **sent_with(sent, last)}, headers=headers)
            assert answer.status_code == 403, (sent, answer.status_code)
            assert "This phone is just watching" in answer.text
            assert "Nothing is recorded from a watching phone." in answer.text
    assert entries(app) == before
    # The same moves from the phone that keeps the pad are taken: it records for every player.
    pad = phone_answering(app, token, "pad")
    answer = pad.post(f"/t/{token}/undo", data={"entry": str(last), **sent_with("undo", last)})
    assert answer.status_code == 303 and entries(app) == before + 1


def test_a_watching_phone_says_so_in_its_language(app):
    token = table_at(app, "carambouille")
    for language, words in (("fr", "Ce téléphone regarde seulement"), ("de", "Dieses Handy schaut nur zu"),
                            ("it", "Questo telefono guarda soltanto")):
        phone = app.test_client()
        phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
        phone.get(f"/t/{token}")
        phone.post(f"/t/{token}/seat", data={"seat": ""})
        assert words in phone.get(f"/t/{token}").text
        refused = phone.post(f"/t/{token}/bell/open", data={"key": form_key(), "seen": "1"})
        assert refused.status_code == 403 and words in refused.text
