"""Setting up a new table, the people of earlier tables are a tap away, most played first, in every language."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.server import scratch_database, start_server, stop_server

pytestmark = pytest.mark.browser
# Played at 3, 2, 1 and 1 earlier tables: Zoé, Yann, then Wen and Xavi by name.
EARLIER = [["Zoé", "Yann", "Xavi"], ["Yann", "Zoé"], ["Zoé", "Wen"]]
HINTS = {
    "en": "Played here before",
    "fr": "Déjà venus jouer ici",
    "de": "Schon hier gespielt",
    "it": "Hanno già giocato qui",
}


@pytest.fixture
def server(tmp_path):
    """A server of this test's own: its history holds only the earlier tables above."""
    folder = tmp_path
    database_url, drop = scratch_database(folder)
    from companion import create_app, groups
    from companion.extensions import db
    from companion.models import Seat, Table

    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "browser-tests"})
    with app.app_context():
        for names in EARLIER:
            db.session.add(Table(game="frutti", options={}, group_id=groups.home_group().id,
                                 seats=[Seat(position=i, name=n) for i, n in enumerate(names)]))
        db.session.commit()
        db.engine.dispose()
    process, url = start_server(database_url, folder / "gunicorn.log")
    yield url
    stop_server(process)
    drop()


@pytest.mark.parametrize("language", HINTS)
def test_the_names_of_earlier_tables_are_tapped_into_the_next_free_seat(browser, server, language):
    context = browser.new_context(base_url=server, viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True, locale=language)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/new/carambouille")
    known = page.locator("[data-known-players]")
    expect(known).to_be_visible()
    expect(known).to_contain_text(HINTS[language])
    expect(known.locator("button[data-known-name]")).to_have_text(["Zoé", "Yann", "Wen", "Xavi"])

    def chip(name: str):
        return known.locator(f'button[data-known-name="{name}"]')

    seats = page.locator('input[name^="players-"]')
    chip("Yann").tap()
    chip("Zoé").tap()
    expect(seats.nth(0)).to_have_value("Yann")
    expect(seats.nth(1)).to_have_value("Zoé")
    expect(chip("Zoé")).to_have_attribute("aria-pressed", "true")
    # A mis-tap is taken back by the same tap; the freed seat is the next one filled.
    chip("Yann").tap()
    expect(seats.nth(0)).to_have_value("")
    expect(chip("Yann")).to_have_attribute("aria-pressed", "false")
    chip("Wen").tap()
    expect(seats.nth(0)).to_have_value("Wen")
    # A name typed in another case or without its accent is that person: the chip says so.
    seats.nth(2).fill("zoe")
    seats.nth(1).fill("")
    expect(chip("Zoé")).to_have_attribute("aria-pressed", "true")
    chip("Zoé").tap()
    expect(seats.nth(2)).to_have_value("")
    chip("Zoé").tap()
    expect(seats.nth(1)).to_have_value("Zoé")

    seats.nth(2).fill("Vera")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    scores = page.locator("#live ol.score-row .name")
    expect(scores).to_have_text([re.compile(r"^Wen"), re.compile(r"^Zoé"), re.compile(r"^Vera")])
    assert errors == []
    context.close()


def test_without_javascript_the_names_are_suggested_as_the_player_types(browser, server):
    context = browser.new_context(base_url=server, java_script_enabled=False)
    page = context.new_page()
    page.goto("/new/jaipur")
    expect(page.locator("[data-known-players]")).to_be_hidden()  # taps need the script
    options = page.locator("datalist#known-players option")
    assert [options.nth(i).get_attribute("value") for i in range(options.count())] == ["Zoé", "Yann", "Wen", "Xavi"]
    expect(page.locator('input[name="players-0"]')).to_have_attribute("list", "known-players")
    context.close()
