"""A group's own seasons travel in its library file: listed with its sessions, checked with the file, added where the
group brought into has no season of that day."""

from __future__ import annotations

import html
import json
import re
from datetime import date

import pytest
import sqlalchemy as sa

from companion import groups
from companion.extensions import db
from companion.library import export, imports
from companion.models import Season
from companion.review.exchange import ImportRefused
from library.test_library_commands import run
from library.test_library_files import counts, library_of
from review.test_imported_once import at_once, club, multipart, phone_of  # noqa: F401 (club: a fixture)


def season_of(app, group_id: int, name: str, day: str) -> None:
    with app.app_context():
        db.session.add(Season(group_id=group_id, name=name, starts_on=date.fromisoformat(day)))
        db.session.commit()


def seasons_in(app, name: str) -> list[tuple[str, str]]:
    with app.app_context():
        group = groups.by_name(name) if name else groups.home_group()
        return [(season.name, season.starts_on.isoformat()) for season in db.session.scalars(
            sa.select(Season).where(Season.group_id == group.id).order_by(Season.starts_on))]


def home_id(app) -> int:
    with app.app_context():
        return groups.home_group().id


def test_the_seasons_go_with_the_sessions_and_twice_add_nothing(app, played, tmp_path):
    season_of(app, home_id(app), "Spring league", "2026-03-01")
    season_of(app, home_id(app), "Winter cup", "2025-12-01")
    envelope = library_of(app)
    assert envelope["seasons"] == [{"name": "Winter cup", "starts_on": "2025-12-01"},
                                   {"name": "Spring league", "starts_on": "2026-03-01"}]
    file = tmp_path / "ours.json"
    file.write_text(json.dumps(envelope))
    result = run(app, "import-library", str(file), "--group", "Tuesday club")
    assert result.output.startswith("4 sessions brought in. 2 seasons of the group's own added.\n"), result.output
    assert seasons_in(app, "Tuesday club") == [("Winter cup", "2025-12-01"), ("Spring league", "2026-03-01")]
    result = run(app, "import-library", str(file), "--group", "Tuesday club")
    assert result.output.startswith("0 sessions brought in. 4 were already here.\n"), result.output
    assert len(seasons_in(app, "Tuesday club")) == 2


def test_a_season_of_a_day_the_group_has_is_kept_as_it_is(app, played):
    season_of(app, home_id(app), "Winter cup", "2025-12-01")
    envelope = library_of(app)
    with app.app_context():
        loaded = imports.load(json.dumps(envelope).encode())
        placed = imports.into_groups(loaded, "Tuesday club")
        imports.bring_in(placed, imports.seasons_of(placed, loaded))
    envelope["seasons"][0]["name"] = "Renamed cup"
    with app.app_context():
        loaded = imports.load(json.dumps(envelope).encode())
        placed = imports.into_groups(loaded, "Tuesday club")
        assert imports.bring_in(placed, imports.seasons_of(placed, loaded)).seasons == 0
    assert seasons_in(app, "Tuesday club") == [("Winter cup", "2025-12-01")]


def test_a_file_without_seasons_is_brought_in_as_before(app, played):
    envelope = library_of(app)
    del envelope["seasons"]
    with app.app_context():
        loaded = imports.load(json.dumps(envelope).encode())
        placed = imports.into_groups(loaded, "Tuesday club")
        tally = imports.bring_in(placed, imports.seasons_of(placed, loaded))
    assert (len(tally.brought), tally.seasons) == (4, 0)


@pytest.mark.parametrize("seasons, message", [
    ({"name": "Cup"}, "The seasons of this file are not a list."),
    ([{"name": "Cup"}], "Season 1 of the file cannot be read: it needs a name of 1 to 40 characters and a first day"),
    ([{"name": "Cup", "starts_on": "2026-02-30"}], "Season 1 of the file cannot be read"),
    ([{"name": "Cup", "starts_on": "2026-02-01"}, {"name": "x" * 41, "starts_on": "2026-03-01"}],
     "Season 2 of the file cannot be read"),
    ([{"name": "Cu\x07p", "starts_on": "2026-02-01"}], "Season 1 of the file cannot be read"),
    ([{"name": "  ", "starts_on": "2026-02-01"}], "Season 1 of the file cannot be read"),
    ([{"name": "Cup", "starts_on": "1066-10-14"}], "Season 1 of the file cannot be read"),
    (["Cup"], "Season 1 of the file cannot be read"),
])
def test_seasons_that_cannot_be_read_refuse_the_whole_file(app, played, seasons, message):
    envelope = library_of(app) | {"seasons": seasons}
    before = counts(app)
    with app.app_context(), pytest.raises(ImportRefused) as refused:
        imports.load(json.dumps(envelope).encode())
    assert message in str(refused.value)
    assert counts(app) == before


def test_a_whole_servers_file_takes_each_groups_seasons_to_its_group(app, played, tmp_path):
    season_of(app, home_id(app), "Winter cup", "2025-12-01")
    with app.app_context():
        server = export.server_library()
    file = tmp_path / "server.json"
    file.write_text(json.dumps(server))
    result = run(app, "import-library", str(file), "--group", "Elsewhere")
    assert "1 season of the group's own added." in result.output
    assert seasons_in(app, "Elsewhere") == [("Winter cup", "2025-12-01")]


def test_a_file_with_seasons_brought_in_from_four_phones_at_once_adds_each_season_once(app, club):
    """The same history sent from four phones of the group at the same instant: its sessions stored once, and its
    seasons too (a season of a day another import stored first is found there when the import looks again)."""
    group_id, _tokens = club
    season_of(app, home_id(app), "Winter cup", "2025-12-01")
    season_of(app, home_id(app), "Spring league", "2026-03-01")
    library = phone_of(app, home_id(app)).get("/group/library.json").get_data()
    assert json.loads(library)["seasons"] == [{"name": "Winter cup", "starts_on": "2025-12-01"},
                                              {"name": "Spring league", "starts_on": "2026-03-01"}]
    phones = [phone_of(app, group_id) for _ in range(4)]
    sent = multipart("/group/library", library, "history.json")
    answers = at_once(*(lambda phone=phone: phone.post(**sent, follow_redirects=True) for phone in phones))
    assert all(answer.status_code == 200 for answer in answers)
    said = sorted(html.unescape(re.search(r'<p class="notice" role="status">([^<]*)</p>', answer.text)[1])
                  for answer in answers)
    assert said[-1] == "3 sessions brought in. 2 seasons of the group's own added.", said
    assert said[:-1] == ["0 sessions brought in. 3 were already here."] * 3, said
    with app.app_context():
        assert sorted((season.name, season.starts_on.isoformat()) for season in db.session.scalars(
            sa.select(Season).where(Season.group_id == group_id))) == [("Spring league", "2026-03-01"),
                                                                      ("Winter cup", "2025-12-01")]
