"""A game declares, the house asks: what a game is (``companion.rules``, "Optional declarations") comes from the
game's rules, never from a list of games. The tiny test game gets each mechanism by declaring it alone, and no
module outside a game's own places names a game."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import sqlalchemy as sa

import tinygame
from companion.extensions import db
from companion.models import Table
from companion.review import bgstats
from companion.review.session import review_module, review_of
from companion.rules import DECLARATIONS, GAMES, declared
from companion.table import bell
from companion.table.log import game_title
from companion.live import page as live_page
from helpers import make_table

ROOT = Path(__file__).resolve().parents[2]
# Beside a game's own places (its rules package, views, forms and templates): the registry, one line a game.
# Carambouille's memo card is a part of its blueprint (``carambouille.bp`` registers ``memo.bp``), and the installed
# app offers the memo card as its shortcut and among the pages kept offline: a choice of pages, not a list of games.
OWN = {"companion/rules/__init__.py", "companion/views/memo.py", "companion/views/installed.py", "templates/home.html",
       "templates/offline.html"}


def _table(app, token: str) -> Table:
    return db.session.scalar(sa.select(Table).where(Table.token == token))


def test_a_game_that_declares_nothing_gets_every_default(app, tiny):
    assert {name: declared(tiny, name) for name in DECLARATIONS} == DECLARATIONS | {"VIEWS": "tinyviews"}
    with pytest.raises(KeyError):
        declared(tiny, "SHARED_BOARDS")
    token = make_table(app, "tiny", ["Ana", "Ben"])
    with app.test_request_context(f"/t/{token}"):
        table = _table(app, token)
        assert live_page.table_context(table)["shared_board"] is False
        assert not bell.is_market(table) and bell.kind_of(table) == "timer"
        assert game_title(table) == "Tiny tally"
        assert bgstats.bgg_id_of(table, tiny) is None and not bgstats.is_match(tiny)
        assert bgstats.game_id(table, tiny) == "tiny"
    # No review beside its rules: standings by its scores.
    assert review_module("tiny") is None
    assert review_of("tiny", tiny, tiny.new_game(["Ana", "Ben"])).standings


def test_the_tiny_games_views_are_registered_by_its_declaration(app):
    assert "tiny" in app.blueprints and "tiny" in app.extensions["game_forms"]
    assert "tiny.score" in app.extensions["kept_forms"]


def test_a_game_gets_the_shared_board_the_market_bell_and_bg_stats_by_declaring_them(app, tiny, monkeypatch):
    for name, value in {"SHARED_BOARD": True, "MARKET_BELL": True, "MATCH": True, "BGG_ID": 12345}.items():
        monkeypatch.setattr(tinygame, name, value, raising=False)
    token = make_table(app, "tiny", ["Ana", "Ben"])
    sheet = make_table(app, "tiny", ["Ana", "Ben"], {"bgg_id": 6789})
    with app.test_request_context(f"/t/{token}"):
        table = _table(app, token)
        assert live_page.table_context(table)["shared_board"] is True
        assert bell.is_market(table) and bell.kind_of(table) == "market"
        assert bgstats.is_match(tiny) and bgstats.bgg_id_of(table, tiny) == 12345
        # A table's own id comes first (a score sheet names the game it scores).
        assert bgstats.bgg_id_of(_table(app, sheet), tiny) == 6789


def test_a_game_whose_tables_name_what_they_play_is_one_bg_stats_game_per_name(app, tiny, monkeypatch):
    monkeypatch.setattr(tinygame, "title", lambda options: options.get("called", "Tiny tally"), raising=False)
    tables = {called: make_table(app, "tiny", ["Ana", "Ben"], {"called": called})
              for called in ("Darts", "DARTS ", "Pool")}
    with app.test_request_context("/"):
        ids = {called: bgstats.game_id(_table(app, token), tiny) for called, token in tables.items()}
    assert ids["Darts"] == ids["DARTS "] != ids["Pool"]
    assert all(re.fullmatch(r"tiny-[0-9a-f]{16}", found) for found in ids.values())


def test_a_game_whose_players_count_together_gets_a_score_row_by_side(app, tiny, monkeypatch):
    token = make_table(app, "tiny", ["Ana", "Ben", "Cy", "Dee"])
    with app.test_request_context(f"/t/{token}"):
        # Declaring nothing: each seat alone, by its name.
        assert live_page.table_context(_table(app, token))["score_row"] == [
            ((0,), "Ana", 0), ((1,), "Ben", 0), ((2,), "Cy", 0), ((3,), "Dee", 0)]
    monkeypatch.setattr(tinygame, "sides", lambda state: ((0, 2), (1, 3)), raising=False)
    with app.test_request_context(f"/t/{token}"):
        assert live_page.table_context(_table(app, token))["score_row"] == [((0, 2), "Ana and Cy", 0),
                                                                          ((1, 3), "Ben and Dee", 0)]


def test_a_game_rendered_in_one_pass_by_declaring_it(app, tiny, monkeypatch):
    passes = []
    monkeypatch.setattr(live_page, "every_seat", lambda table, seats: passes.append(seats) or {})
    token = make_table(app, "tiny", ["Ana", "Ben"])
    readers = [(0, None), (1, None)]
    for one_pass in (False, True):
        monkeypatch.setattr(tinygame, "ONE_PASS", one_pass, raising=False)
        with app.test_request_context(f"/t/{token}", headers={"HX-Request": "true"}):
            live_page.render_readers(_table(app, token), False, readers if one_pass else readers[:1])
    assert passes == [[0, 1]]


def test_a_games_declared_settings_are_asked_and_become_its_options(app, client, monkeypatch):
    monkeypatch.setattr(tinygame, "SETTINGS", ("bonus",), raising=False)
    assert 'name="bonus" value="draw" checked' in client.get("/new/tiny").text
    response = client.post("/new/tiny", data={"players-0": "Ana", "players-1": "Ben", "starter": "0",
                                              "bonus": "enter"})
    assert response.status_code == 303
    with app.app_context():
        assert _table(app, response.headers["Location"].rsplit("/", 1)[1]).options == {
            "first_player": 0, "bonus": "enter"}


def test_a_table_is_shown_by_its_games_title(app, client, monkeypatch):
    monkeypatch.setattr(tinygame, "title", lambda options: options.get("name", "Tiny tally"), raising=False)
    token = make_table(app, "tiny", ["Ana", "Ben"], {"name": "Skat"})
    page = client.get(f"/t/{token}").text
    assert "<title>Skat: Ana, Ben" in page and '<h1 class="table-title">Skat' in page
    assert "Skat results" in client.get(f"/t/{token}/results").text
    assert "Skat: Ana, Ben" in client.get("/").text


def _python_naming_a_game(path: Path, slugs: set[str]) -> list[str]:
    """The string constants of ``path`` that are a game's slug, or a path or endpoint under it ("jaipur/…",
    "jaipur.sale"), docstrings left out (examples in words name no mechanism); and its imports of a game's module."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    strings = [node.value for node in ast.walk(tree)
               if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
               and any(node.value == slug or node.value.startswith((f"{slug}/", f"{slug}.")) for slug in slugs)]
    # An import of a game's module by its name ("from . import jaipur") is a list of games too.
    imports = [alias.name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
               for alias in node.names
               if set(f"{getattr(node, 'module', None) or ''}.{alias.name}".split(".")) & slugs]
    return strings + imports


def test_no_module_outside_a_games_own_places_names_a_game():
    slugs = set(GAMES.keys())
    own = {f"companion/rules/{slug}/" for slug in slugs} | {f"companion/views/{slug}.py" for slug in slugs} \
        | {f"companion/forms/{slug}.py" for slug in slugs} | {f"templates/{slug}/" for slug in slugs}
    quoted = re.compile(r"""["'](?:%s)(?:["'/.])""" % "|".join(map(re.escape, slugs)))
    found = {}
    for path in sorted([*ROOT.glob("companion/**/*.py"), *ROOT.glob("templates/**/*.html")]):
        name = path.relative_to(ROOT).as_posix()
        if "migrations" in path.parts or name in OWN or any(name.startswith(place) for place in own):
            continue
        named = _python_naming_a_game(path, slugs) if path.suffix == ".py" else quoted.findall(path.read_text())
        if named:
            found[name] = named
    assert found == {}
