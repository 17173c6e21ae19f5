"""The parts every seat of a table reads alike (scoreboard, board, newest entries, the page's frame) are rendered
once per table version and language: each seat still finds its own name marked, a watcher none, each phone reads
its own language, and nothing in them is more than a phone of nobody may see."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from flask import render_template
from markupsafe import escape

from companion.extensions import db
from companion.live.parts import LIVE_REGION, NOBODY, for_reader
from companion.models import Table
from companion.table import recording
from companion.table.log import game_title
from companion.live.page import frame_context, table_context
from helpers import make_table

HTMX = {"HX-Request": "true"}
PLAYERS = ["Ana", "Ben", "Cy"]
GAMES = {"carambouille": {"first_trader": 0}, "jaipur": {"first_player": 0}, "frutti": {"first_player": 0}}


@pytest.fixture
def part_renders(app, monkeypatch):
    """The parts rendered (not taken from the cache), by template ("page" for a page's frame)."""
    parts = app.extensions["shared_parts"]
    real, rendered = parts.put, []

    def put(key, version, html):
        rendered.append(key[1])
        real(key, version, html)

    monkeypatch.setattr(parts, "put", put)
    return rendered


@pytest.fixture
def forms_built(monkeypatch):
    """The forms built, by class name."""
    import wtforms.form

    built: list[str] = []
    real = wtforms.form.FormMeta.__call__

    def call(cls, *args, **kwargs):
        built.append(cls.__name__)
        return real(cls, *args, **kwargs)

    monkeypatch.setattr(wtforms.form.FormMeta, "__call__", call)
    return built


def seated(app, token: str, seat: int):
    client = app.test_client()
    assert client.post(f"/t/{token}/seat", data={"seat": str(seat)}).status_code == 303
    return client


def test_every_seat_reads_the_parts_rendered_once_with_its_own_name_marked(app, part_renders):
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 0})
    ana, ben = seated(app, token, 0), seated(app, token, 1)
    pages = {"Ana": ana.get(f"/t/{token}").text, "Ben": ben.get(f"/t/{token}").text}
    # The bell once for every seat: the First Trader's own (Ana's) and anyone else's, between seat markers.
    assert sorted(part_renders) == ["bell/_bell.html", "carambouille/_board.html", "page",
                                    "tables/_recent.html", "tables/_scoreboard.html"]
    for me, other in (("Ana", "Ben"), ("Ben", "Ana")):
        # The row of scores and the board each mark the reader's own name, and only it.
        assert f'{me}<span class="vh"> (you)</span>' in pages[me] and f"{me} <small>(you)</small>" in pages[me]
        assert f"{other}<span class=\"vh\"> (you)</span>" not in pages[me] and f"{other} <small>(you)</small>" not in pages[me]
    # Ben's poll after an entry: the parts are rendered once more, for him and Ana alike.
    with app.app_context():
        recording.record(db.session.scalar(sa.select(Table).where(Table.token == token)), {"type": "market_opened"})
    part_renders.clear()
    ben_region = ben.get(f"/t/{token}/live?seen=0", headers=HTMX).text
    ana_region = ana.get(f"/t/{token}/live?seen=0", headers=HTMX).text
    assert sorted(part_renders) == ["bell/_bell.html", "carambouille/_board.html",
                                    "tables/_recent.html", "tables/_scoreboard.html"]
    assert "Market open" in ben_region and "Ben <small>(you)</small>" in ben_region
    assert "Ana <small>(you)</small>" in ana_region and "Ben <small>(you)</small>" not in ana_region


def test_the_sale_the_purchase_and_the_deal_are_rendered_once_for_every_seat_the_cards_per_seat(
        app, part_renders, forms_built):
    """Carambouille's sale, purchase and deal forms read the same on every seat's phone: one rendering per
    version; each seat's own cards ("you hold …") stay its own, and each phone still sends its own key."""
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 0})
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        for event in ({"type": "market_opened"}, {"type": "market_closed"},
                      {"type": "sale", "player": 0, "product": "saffron", "cards": 1},
                      {"type": "buy", "player": 0, "cards": ["bargain"]}):
            recording.record(table, event)
    ana, ben = seated(app, token, 0), seated(app, token, 1)
    part_renders.clear()
    forms_built.clear()
    pages = {"Ana": ana.get(f"/t/{token}").text, "Ben": ben.get(f"/t/{token}").text}
    assert part_renders.count("carambouille/_buy_form.html") == 1
    # Its form is built for that one rendering: the second seat reads the part as kept.
    assert forms_built.count("BuyForm") == 1
    assert "Carambouille cards: you hold 1" in pages["Ana"] and "Carambouille cards: you hold 0" in pages["Ben"]
    for page in pages.values():
        assert 'id="buy-form"' in page and ("Ana's sales turn" in page or "Your sales turn, Ana" in page)
    keys = [re.search(r'id="buy-form".*?name="key" value="([0-9a-f]+)"', page, re.S).group(1) for page in pages.values()]
    assert len(set(keys)) == 2  # a key of each answer's own, never the shared rendering's
    # The hand over, Ben deals: his deal form, rendered once for both seats too.
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        for seat in (0, 1, 2):
            recording.record(table, {"type": "end_sales_turn", "player": seat})
    part_renders.clear()
    forms_built.clear()
    regions = [phone.get(f"/t/{token}/live?seen=0", headers=HTMX).text for phone in (ana, ben)]
    assert part_renders.count("carambouille/_deal_form.html") == 1 and forms_built.count("DealForm") == 1
    assert all("Ben deals the next hand" in region and 'id="deal-form"' in region for region in regions)


def test_the_bell_is_rendered_once_per_reading_and_each_phone_reads_its_own(app, client, part_renders):
    """The bell panel reads the seat only as the First Trader's own bell, anyone else's "in a pinch", or a phone
    of nobody's: one rendering for every seat (the first two, between seat markers), one for nobody's, and
    each phone finds the words of its own."""
    players = ["Ana", "Ben", "Cy", "Di"]
    token = make_table(app, "carambouille", players, {"first_trader": 1})
    phones = {name: seated(app, token, seat) for seat, name in enumerate(players)}
    regions = {name: phone.get(f"/t/{token}/live?seen=0", headers=HTMX).text for name, phone in phones.items()}
    regions["nobody"] = client.get(f"/t/{token}/live?seen=0", headers=HTMX).text
    assert part_renders.count("bell/_bell.html") == 2
    assert "Open the market" in regions["Ben"] and "in a pinch" not in regions["Ben"]
    for name in ("Ana", "Cy", "Di", "nobody"):
        assert "Ring in a pinch for Ben" in regions[name]
    # Only a phone of nobody is told how to say whose phone it is.
    assert [name for name, region in regions.items() if "Say so under" in region] == ["nobody"]
    # The market opened, Ben's turn as First Trader is over: the three seats and Ben still read alike by reading.
    with app.app_context():
        recording.record(db.session.scalar(sa.select(Table).where(Table.token == token)), {"type": "market_opened"})
    part_renders.clear()
    for name, phone in phones.items():
        region = phone.get(f"/t/{token}/live?seen=0", headers=HTMX).text
        assert "Market open" in region and ("pinch" in region) == (name != "Ben")
    assert part_renders.count("bell/_bell.html") == 1


def test_a_watcher_and_a_phone_of_nobody_find_no_seat_marked(app, client):
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 0})
    seated(app, token, 0).get(f"/t/{token}")
    nobody = client.get(f"/t/{token}").text
    with app.app_context():
        watch_token = db.session.scalar(sa.select(Table.watch_token).where(Table.token == token))
    watch = client.get(f"/w/{watch_token}").text
    for page in (nobody, watch):
        assert "(you)" not in page and 'class="me' not in page and "\x00" not in page


@pytest.mark.parametrize("game", GAMES)
def test_a_shared_part_holds_nothing_a_phone_of_nobody_does_not_see(app, client, game):
    token = make_table(app, game, PLAYERS[:2] if game == "jaipur" else PLAYERS, GAMES[game])
    # The first phone to render the parts is a seated one: what it alone may see must not be in them.
    ana = seated(app, token, 0)
    ana_page = ana.get(f"/t/{token}").text
    nobody_page = client.get(f"/t/{token}").text
    kept = app.extensions["shared_parts"]._regions
    # Rendered for every seat: all but the page's frame and the parts rendered per reading (the bell's).
    parts = {key[1]: html for key, (_version, html) in kept.items() if key[1] != "page" and len(key) == 2}
    assert parts and ("jaipur/_board.html" not in parts)  # Jaipur's board shows a seller's own bonus tokens
    for html in parts.values():
        assert for_reader(html, None) in nobody_page
        assert for_reader(html, 0) in ana_page
    # A part kept per reading holds what a phone of that reading sees, and nothing of another seat's
    # (Ana's phone rendered the version for every seat: Carambouille's in one rendering, every seat's
    # reading in one part, between seat markers; the other games' seat by seat, each reading's own).
    readings = {key[2]: html for key, (_version, html) in kept.items() if len(key) == 3}
    seats_reading = "every seat" if game == "carambouille" else "other"
    assert {"nobody", seats_reading} <= set(readings)
    assert shown_in(for_reader(readings["nobody"], None), nobody_page)
    assert shown_in(for_reader(readings[seats_reading], 0), ana_page)


def shown_in(part: str, page: str) -> bool:
    """Whether ``page`` shows the kept ``part``, each of its answer's own values (CSRF token, form key, the
    server's clock: markers in the part) filled in."""
    pattern = '[^"<>]*'.join(re.escape(piece) for piece in re.split("\x00[a-z]+(?::-?[0-9]+)?\x00", part))
    return re.search(pattern, page) is not None


@pytest.mark.marked_by_language
def test_each_phone_reads_the_parts_in_its_own_language(app, marked, part_renders):
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 0})
    french, english = seated(app, token, 0), seated(app, token, 1)
    french.set_cookie("lang", "fr", domain="companion.test")
    fr, en = french.get(f"/t/{token}").text, english.get(f"/t/{token}").text
    assert "[fr]Latest entries" in fr and "[fr]Points and cards of each player" in fr and "[fr](you)" in fr
    assert "[fr]" not in en and "Latest entries" in en
    # One rendering of each part per language (the bell's too: every seat's reading in one, rendered with
    # the region of every seat).
    assert sorted(part_renders) == sorted(["bell/_bell.html", "carambouille/_board.html", "page",
                                           "tables/_recent.html", "tables/_scoreboard.html"] * 2)


@pytest.mark.parametrize("watch", [False, True], ids=["player", "watch"])
@pytest.mark.parametrize("game, options, events", [
    ("carambouille", {"first_trader": 0}, [{"type": "market_opened"}]),
    ("jaipur", {"first_player": 0}, []),
    ("frutti", {"first_player": 0}, []),
    ("sheet", {"first_player": 0, "name": "Rummy"},
     [{"type": "round", "round": 1, "points": ["3", "-2", "5"]}, {"type": "end"}]),
])
def test_a_page_frame_reads_the_table_row_alone(app, game, options, events, watch):
    # A page's frame (bar, stream, invitation, language) is built from the table's row alone, not from the
    # table's state, log and forms: built from them too, it would read the same.
    players = PLAYERS[:2] if game == "jaipur" else PLAYERS
    token = make_table(app, game, players, options)
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        for event in events:
            recording.record(table, event)
    with app.test_request_context(f"/t/{token}"):
        app.preprocess_request()
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        alone = render_template("tables/page.html", **frame_context(table, watch))
        full = render_template("tables/page.html", **{**table_context(table, watch=watch), **NOBODY,
                                                      "live_region": LIVE_REGION})
    assert alone == full
    # What the frame says: the game and its players in the title, the bell until the table is finished, the
    # invitation on a player's page only, the reader's region in its place.
    assert f"<title>{escape(game_title(table))}: {', '.join(players)}</title>" in alone
    assert ("data-bell-controls" in alone) is not table.finished
    assert ("Invite the table" in alone) is not watch
    assert alone.count(LIVE_REGION) == 1
