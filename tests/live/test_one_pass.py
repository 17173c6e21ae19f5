"""A Carambouille table's region is rendered once for every seat of a version (it declares ``ONE_PASS``): each
seat must read exactly what it read when its region was rendered on its own — its cards, whose sales turn is
its own, its bell, its seat picker — at every moment of a game, and nothing of another seat."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from companion.extensions import db
from companion.live.regions import RegionCache
from companion.models import Table
from companion.rules import carambouille, sheet
from companion.table import recording, seating
from companion.live import page as live_page
from helpers import make_table

HTMX = {"HX-Request": "true"}
PLAYERS = ["Ana", "Ben", "Cy", "Di"]
ANSWER_MARKS = re.compile("\x00(?!seat|others)[a-z]+(?::-?[0-9]+)?\x00")

# A game, step by step: each step's events, then every seat's region compared both ways.
STEPS = [
    ("the invitation up, the bell leads", []),
    ("two seats have a phone", ["seat 0", "seat 2"]),
    ("the market open", [{"type": "market_opened"}]),
    ("every seat in, the sales", ["seat 1", "seat 3", {"type": "market_closed", "seconds": 75}]),
    ("a sale", [{"type": "sale", "player": 0, "product": "saffron", "cards": 1}]),
    ("a purchase: no more sales this turn", [{"type": "buy", "player": 0, "cards": ["basket"]}]),
    ("the next seller buys too", [{"type": "end_sales_turn", "player": 0},
                                  {"type": "sale", "player": 1, "product": "saffron", "cards": 1},
                                  {"type": "buy", "player": 1, "cards": ["i_lied"]}]),
    ("the deal", [{"type": "end_sales_turn", "player": seat} for seat in (1, 2, 3)]),
    ("the next market, cards in hand", [{"type": "deal", "cards": [1, 0, 0, 0]}, {"type": "market_opened"}]),
    ("cards played", [{"type": "i_lied", "player": 1}, {"type": "basket", "player": 0}]),
    ("the game over", [{"type": "end_game"}]),
]


def _record(table: Table, step) -> None:
    if isinstance(step, str):
        seating.take_seat(table, int(step.split()[1]), device=f"phone-{step}")
    else:
        recording.record(table, step)


def _every_seat_both_ways(app, token: str, monkeypatch, game=carambouille) -> tuple[dict, dict]:
    """Each seat's marked region rendered once for every seat, and seat by seat, with nothing kept between."""
    found = []
    for one_pass in (True, False):
        monkeypatch.setitem(app.extensions, "regions", RegionCache(64))
        monkeypatch.setitem(app.extensions, "shared_parts", RegionCache(64))
        monkeypatch.setattr(game, "ONE_PASS", one_pass)
        with app.test_request_context("/", headers=HTMX):
            table = db.session.scalar(sa.select(Table).where(Table.token == token))
            # Each seat read by the phone holding it (or by any, where none does), as its pushes are.
            holders = seating.of(table).holders
            readers = [(seat, holders.get(seat)) for seat in range(len(table.seats))]
            found.append(live_page.render_readers(table, False, readers))
        db.session.remove()
    return found[0], found[1]


def _each_moment_both_ways(app, token: str, monkeypatch, steps, game=carambouille):
    """Each moment of ``steps`` recorded in turn, then every seat's region rendered both ways and compared: each seat
    reads what its own rendering showed, with nothing left of another seat's markers (only the values each answer
    fills in: its key, token, clock). The last moment's regions, rendered at once."""
    at_once = {}
    for moment, events in steps:
        with app.app_context():
            table = db.session.scalar(sa.select(Table).where(Table.token == token))
            for step in events:
                _record(table, step)
            db.session.remove()
            at_once, seat_by_seat = _every_seat_both_ways(app, token, monkeypatch, game)
        assert len(at_once) == len(PLAYERS), moment
        for reader, region in seat_by_seat.items():
            assert at_once[reader] == region, f"{moment}: seat {reader} reads otherwise"
            assert "\x00" not in ANSWER_MARKS.sub("", at_once[reader]), moment
    return at_once


def test_each_seat_reads_what_its_own_rendering_showed_at_every_moment_of_a_game(app, monkeypatch):
    # Ana (seat 0) is the First Trader: her bell is her own, the others' is "in a pinch".
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 0})
    _each_moment_both_ways(app, token, monkeypatch, STEPS)


def test_a_seat_reads_its_own_cards_and_turn_and_none_of_anothers(app, monkeypatch):
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 0})
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        for step in [{"type": "market_opened"}, {"type": "market_closed", "seconds": 75},
                     {"type": "sale", "player": 0, "product": "saffron", "cards": 1},
                     {"type": "buy", "player": 0, "cards": ["basket"]}]:
            _record(table, step)
        db.session.remove()
        at_once, _ = _every_seat_both_ways(app, token, monkeypatch)
    by_seat = {int(key.strip("[]").split(",")[0]): region for key, region in at_once.items()}
    # Ana (seat 0) sells first, and has bought a Basket card: hers alone to see.
    assert "Carambouille cards: you hold 1" in by_seat[0]
    assert all("Carambouille cards: you hold 0" in by_seat[seat] for seat in (1, 2, 3))
    assert "Your sales turn, Ana" in by_seat[0] and "Ana's sales turn" not in by_seat[0]
    assert all("Ana's sales turn" in by_seat[seat] and "Your sales turn" not in by_seat[seat] for seat in (1, 2, 3))
    # Each seat's picker names its own player, and its select boxes mark that player as "(you)".
    for seat, name in enumerate(PLAYERS):
        assert f"This phone is {name}&#39;s" in by_seat[seat] or f"This phone is {name}'s" in by_seat[seat]
        assert f"{name} (you)" in by_seat[seat]
        others = [other for other in PLAYERS if other != name]
        assert not any(f"{other} (you)" in by_seat[seat] for other in others)


# A score sheet by rounds and one by categories, step by step: its seats' "(you)" and, by categories, whose row
# each seat's phone offers to fill.
SHEETS = {
    "rounds": ({"first_player": 0, "name": "Rummy"}, [
        ("no phone yet", []),
        ("three seats have a phone", ["seat 0", "seat 1", "seat 3"]),
        ("a round", [{"type": "round", "round": 1, "points": ["12", "7", "0", "3+4"]}]),
        ("every seat in, a second round", ["seat 2", {"type": "round", "round": 2, "points": ["-5", "0", "10", "2"]}]),
    ]),
    "categories": ({"first_player": 0, "name": "7 Wonders", "mode": "categories", "rows": ["Military", "Science"],
                    "tie_break": "Coins"}, [
        ("two seats have a phone", ["seat 0", "seat 2"]),
        ("a row filled", [{"type": "cells", "seat": 0, "cells": [[0, "4"], [1, "3"]]}]),
        ("every seat in", ["seat 1", "seat 3", {"type": "cells", "seat": 3, "cells": [[2, "5"]]}]),
    ]),
}


@pytest.mark.parametrize("kind", SHEETS)
def test_each_seat_of_a_score_sheet_reads_what_its_own_rendering_showed(app, monkeypatch, kind):
    options, steps = SHEETS[kind]
    token = make_table(app, "sheet", PLAYERS, options)
    at_once = _each_moment_both_ways(app, token, monkeypatch, [(f"{kind}, {moment}", events) for moment, events in steps],
                                     sheet)
    by_seat = {int(key.strip("[]").split(",")[0]): region for key, region in at_once.items()}
    for seat, name in enumerate(PLAYERS):
        assert f"{name} <span class=\"muted\">(you)</span>" in by_seat[seat] or f"{name} (you)" in by_seat[seat]
        assert not any(f"{other} (you)" in by_seat[seat] or f"{other} <span class=\"muted\">(you)</span>" in by_seat[seat]
                       for other in PLAYERS if other != name)


def test_a_marked_region_is_read_by_each_seat_with_its_answers_markers_kept():
    from companion.live.parts import for_reader, others_text, seat_text

    html = f"<p>{seat_text(0, 'Ana (you)')}{others_text(0, 'Ana')}</p>\x00key\x00{seat_text(1, 'mine')}<i>\x00clock:5\x00</i>"
    assert for_reader(html, 0) == "<p>Ana (you)</p>\x00key\x00<i>\x00clock:5\x00</i>"
    assert for_reader(html, 1) == "<p>Ana</p>\x00key\x00mine<i>\x00clock:5\x00</i>"
    # A phone of nobody's is one of the others to every seat.
    assert for_reader(html, None) == "<p>Ana</p>\x00key\x00<i>\x00clock:5\x00</i>"
