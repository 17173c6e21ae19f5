"""Seasons: calendar quarters until a group starts its own (a name and a first day, each to the next one's first
day); a keeper starts one, nobody else, and its standings rate the sessions of its days."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from companion import groups
from companion.extensions import db
from companion.models import GroupLog, Season as OwnSeason, now
from companion.review import seasons
from groups.tables import group_named, member_of, played
from review.test_evenings import moved_back, text_of
from review.test_imported_once import at_once
from review.test_review_sessions import CARAMBOUILLE, FRUTTI, JAIPUR, record_all
from review.test_standings import expected, rows_of


def own(*starts: tuple[int, str, date]) -> list[OwnSeason]:
    return [OwnSeason(id=number, group_id=1, name=name, starts_on=day) for number, name, day in starts]


WINTER, SPRING = (1, "Winter league", date(2026, 11, 15)), (2, "Spring cup", date(2027, 3, 1))


@pytest.mark.parametrize("day, key, start, end", [
    (date(2026, 10, 3), "2026-Q4", date(2026, 10, 1), date(2026, 11, 15)),  # the quarter, cut short by the winter
    (date(2026, 8, 30), "2026-Q3", date(2026, 7, 1), date(2026, 10, 1)),
    (date(2026, 11, 15), "s1", date(2026, 11, 15), date(2027, 3, 1)),  # its first day is its own
    (date(2027, 2, 28), "s1", date(2026, 11, 15), date(2027, 3, 1)),
    (date(2027, 6, 1), "s2", date(2027, 3, 1), None),  # the newest runs on
], ids=["a quarter cut short", "a quarter before", "a first day", "a last day", "the newest"])
def test_a_day_falls_in_one_season(app, day, key, start, end):
    with app.app_context():
        season = seasons.of_day(day, own(WINTER, SPRING))
    assert (season.key, season.start, season.end) == (key, start, end)


def test_the_choices_are_the_groups_own_then_the_quarters_played_before_then_all_time(app):
    with app.test_request_context():
        found = seasons.choices({"2026-Q3", "2026-Q4", "2027-Q2"}, own(WINTER, SPRING))
        assert [season.label for season in found][:4] == ["Spring cup", "Winter league", "Oct – Dec 2026",
                                                          "Jul – Sep 2026"]
        # A quarter after the group's first own season is no season: its sessions are the own seasons'.
        assert "2027-Q2" not in [season.key for season in found] and found[-1] == seasons.ALL_TIME
        assert seasons.choices(set(), [])[0] == seasons.current([])


def test_a_keeper_starts_a_season_and_its_standings_rate_its_days(app, client):
    old = [record_all(app, *session) for session in (CARAMBOUILLE, FRUTTI)]
    for token in old:
        moved_back(app, token, 24 * 3)
    new = record_all(app, *JAIPUR)
    first_day = (now() - timedelta(days=1)).date()
    answer = client.post("/standings/seasons", data={"name": " Winter  league ", "starts_on": first_day.isoformat()})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/standings?season=s1")
    page = client.get("/standings")
    text = text_of(page)
    # The season now on is the group's own: only the session of its days is rated in it.
    assert "The season Winter league starts on" in text and "<p>Winter league · All games</p>" in text
    assert rows_of(page) == expected(app, [new])
    assert rows_of(client.get("/standings?season=all")) == expected(app, old + [new])
    with app.app_context():
        assert db.session.query(GroupLog).filter_by(kind="season_started").one().details["name"] == "Winter league"
    assert "started the season Winter league" in text_of(client.get("/group"))


@pytest.mark.parametrize("data, field, message", [
    ({"name": "", "starts_on": "2026-12-01"}, "name", "Give the season a name."),
    ({"name": "Cup", "starts_on": ""}, "starts_on", "Pick the season's first day."),
    ({"name": "Cup", "starts_on": "1850-01-01"}, "starts_on", "Pick a date between"),
    ({"name": "Cup", "starts_on": "tomorrow"}, "starts_on", "Enter a date as year-month-day"),
    ({"name": "x" * 41, "starts_on": "2026-12-01"}, "name", "40"),
])
def test_a_season_that_cannot_be_started_is_explained_next_to_its_field(app, client, data, field, message):
    answer = client.post("/standings/seasons", data=data)
    assert answer.status_code == 422
    text = text_of(answer)
    assert f'id="{field}-error">' in text and message in text.split(f'id="{field}-error">')[1][:200]
    with app.app_context():
        assert db.session.query(OwnSeason).count() == 0


def test_one_season_a_day(app, client):
    client.post("/standings/seasons", data={"name": "Cup", "starts_on": "2026-12-01"})
    answer = client.post("/standings/seasons", data={"name": "Other cup", "starts_on": "2026-12-01"})
    assert answer.status_code == 422 and "A season of the group already starts that day." in text_of(answer)
    with app.app_context():
        assert [season.name for season in db.session.query(OwnSeason)] == ["Cup"]


def test_only_a_keeper_of_the_group_starts_a_season(app):
    app.config["GROUPS"] = "private"
    otters = group_named(app, "Otters")
    played(app, otters, ["Zelda", "Yannick", "Xavier"])
    keeper, member, stranger = app.test_client(), app.test_client(), app.test_client()
    member_of(keeper, otters, keeper=True)
    member_of(member, otters)
    data = {"name": "Cup", "starts_on": "2026-12-01"}
    for phone, htmx in ((member, False), (member, True)):
        refused = phone.post("/standings/seasons", data=data, headers={"HX-Request": "true"} if htmx else {})
        assert refused.status_code == 403 and "Only a keeper can do that" in refused.get_data(as_text=True)
    assert stranger.post("/standings/seasons", data=data).status_code == 404
    with app.app_context():
        assert db.session.query(OwnSeason).count() == 0
    assert 'action="/standings/seasons"' not in member.get("/standings").get_data(as_text=True)
    assert keeper.post("/standings/seasons", data=data).status_code == 303
    with app.app_context():
        assert db.session.query(OwnSeason).one().group_id == otters


def test_a_season_sent_from_two_phones_at_the_same_instant_is_started_once(app):
    season_ids(app)  # the household's group, as `flask db upgrade` makes it before any phone comes
    phones = [app.test_client() for _ in range(2)]
    answers = at_once(*(lambda phone=phone, name=name: phone.post("/standings/seasons", data={
        "name": name, "starts_on": "2026-12-01"}) for phone, name in zip(phones, ("Cup", "Other cup"))))
    assert sorted(answer.status_code for answer in answers) == [303, 422]
    refused = next(answer for answer in answers if answer.status_code == 422)
    assert "A season of the group already starts that day." in text_of(refused)
    with app.app_context():
        assert db.session.query(OwnSeason).count() == 1


def test_a_keeper_of_another_group_starts_a_season_of_their_own_group_alone(app):
    app.config["GROUPS"] = "private"
    otters, badgers = group_named(app, "Otters"), group_named(app, "Badgers")
    played(app, otters, ["Zelda", "Yannick", "Xavier"])
    badger = app.test_client()
    member_of(badger, badgers, keeper=True)
    assert badger.post("/standings/seasons", data={"name": "Badger cup", "starts_on": "2026-12-01"}).status_code == 303
    with app.app_context():
        assert [season.group_id for season in db.session.query(OwnSeason)] == [badgers]
    otter = app.test_client()
    member_of(otter, otters)
    assert "Badger cup" not in otter.get("/standings").get_data(as_text=True)


def change(phone, season_id: int, name: str, day: str, htmx: bool = False):
    return phone.post(f"/standings/seasons/{season_id}", data={"change-name": name, "change-starts_on": day},
                      headers={"HX-Request": "true"} if htmx else {})


def own_seasons(app) -> list[tuple[str, str]]:
    with app.app_context():
        return [(season.name, season.starts_on.isoformat()) for season in seasons.own(groups.home_group().id)]


def season_ids(app) -> list[int]:
    with app.app_context():
        return [season.id for season in seasons.own(groups.home_group().id)]


def test_a_keeper_puts_the_newest_seasons_name_and_first_day_right(app, client):
    client.post("/standings/seasons", data={"name": "Autumn", "starts_on": "2026-09-01"})
    client.post("/standings/seasons", data={"name": "Wintr cup", "starts_on": "2026-12-02"})
    autumn, winter = season_ids(app)
    page = text_of(client.get(f"/standings?season=s{winter}"))
    assert "Change this season…" in page and 'value="Wintr cup"' in page
    assert "Change this season…" not in text_of(client.get(f"/standings?season=s{autumn}"))
    answer = change(client, winter, "Winter cup", "2026-12-01")
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/standings?season=s{winter}")
    assert own_seasons(app) == [("Autumn", "2026-09-01"), ("Winter cup", "2026-12-01")]
    assert "The season Winter cup starts on" in text_of(client.get(answer.headers["Location"]))
    with app.app_context():
        assert db.session.query(GroupLog).filter_by(kind="season_changed").count() == 1
    # Not before the season before it: the seasons before stay as they were.
    refused = change(client, winter, "Winter cup", "2026-09-01")
    assert refused.status_code == 422
    assert "Pick a day after" in text_of(refused) and 'id="change-starts_on-error"' in text_of(refused)
    assert own_seasons(app) == [("Autumn", "2026-09-01"), ("Winter cup", "2026-12-01")]
    for data in (("", "2026-12-03"), ("Cup", ""), ("Cup", "someday")):
        assert change(client, winter, *data).status_code == 422
    # Only the newest: a season before it is not changed here.
    assert change(client, autumn, "Fall", "2026-09-02").status_code == 404
    assert own_seasons(app)[0] == ("Autumn", "2026-09-01")


def test_only_a_keeper_of_the_group_changes_its_season(app):
    app.config["GROUPS"] = "private"
    otters, badgers = group_named(app, "Otters"), group_named(app, "Badgers")
    keeper, member, badger, stranger = (app.test_client() for _ in range(4))
    member_of(keeper, otters, keeper=True)
    member_of(member, otters)
    member_of(badger, badgers, keeper=True)
    keeper.post("/standings/seasons", data={"name": "Cup", "starts_on": "2026-12-01"})
    with app.app_context():
        season_id = db.session.query(OwnSeason).one().id
    for htmx in (False, True):
        refused = change(member, season_id, "Mine", "2026-12-02", htmx)
        assert refused.status_code == 403 and "Only a keeper can do that" in refused.get_data(as_text=True)
    assert change(badger, season_id, "Ours", "2026-12-02").status_code == 404
    assert change(stranger, season_id, "Ours", "2026-12-02").status_code == 404
    with app.app_context():
        assert [(s.name, s.starts_on.isoformat()) for s in db.session.query(OwnSeason)] == [("Cup", "2026-12-01")]
    assert change(keeper, season_id, "Otter cup", "2026-12-02").status_code == 303


def test_two_phones_changing_the_season_at_the_same_instant_each_change_it_in_turn(app):
    app.test_client().post("/standings/seasons", data={"name": "Cup", "starts_on": "2026-12-01"})
    [season_id] = season_ids(app)
    phones = [app.test_client() for _ in range(2)]
    answers = at_once(*(lambda phone=phone, name=name: change(phone, season_id, name, "2026-12-02")
                        for phone, name in zip(phones, ("Ana's cup", "Ben's cup"))))
    assert [answer.status_code for answer in answers] == [303, 303]
    assert own_seasons(app)[0] in (("Ana's cup", "2026-12-02"), ("Ben's cup", "2026-12-02"))
    with app.app_context():
        assert db.session.query(GroupLog).filter_by(kind="season_changed").count() == 2
