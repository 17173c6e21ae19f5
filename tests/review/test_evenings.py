"""A group's evenings: sessions falling into evenings by a gap of six hours, each evening's tally, tonight on the
home page, the tally at the end of a finished session's results, and the evening's own page."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from hypothesis import given
from hypothesis import strategies as st

from companion.extensions import db
from companion.groups import bin
from companion.models import Entry, Table
from companion.review.evenings import GAP, Span, evenings, tally, winners
from companion.review.stats import Outcome
from companion.table import recording
from groups.tables import group_named, member_of, played
from review.test_review_sessions import CARAMBOUILLE, FRUTTI, JAIPUR, record_all, table_of

T0 = datetime(2026, 12, 5, 19, 0, tzinfo=UTC)


def span(table_id: int, start: float, end: float) -> Span:
    """A session played from ``start`` to ``end`` hours after 19:00 on 5 December."""
    return Span(table_id, T0 + timedelta(hours=start), T0 + timedelta(hours=end))


# (what, sessions as (id, first entry, latest entry) in hours, the evenings' sessions)
EVENINGS = [
    ("one session", [(1, 0, 1)], [[1]]),
    ("past midnight is still the evening", [(1, 0, 4), (2, 4.5, 6.5)], [[1, 2]]),
    ("six hours after the latest entry is still the evening", [(1, 0, 1), (2, 7, 8)], [[1, 2]]),
    ("six hours and a minute later is the next", [(1, 0, 1), (2, 7 + 1 / 60, 8)], [[1], [2]]),
    # The gap counts from the evening's latest entry (the long game's), not from the session begun last.
    ("a long game keeps the evening on", [(1, 0, 5), (2, 1, 2), (3, 10.5, 11)], [[1, 2, 3]]),
    ("until six hours after its end", [(1, 0, 5), (2, 1, 2), (3, 11.5, 12)], [[1, 2], [3]]),
    ("two tables at once, in the order they began", [(2, 0.5, 3), (1, 0, 2)], [[1, 2]]),
    ("an afternoon and that day's evening are two", [(1, -6, -4), (2, 2.5, 4), (3, 3, 5)], [[1], [2, 3]]),
    ("one evening a week", [(1, 0, 3), (2, 168, 171), (3, 336, 339)], [[1], [2], [3]]),
]


@pytest.mark.parametrize("what, spans, expected", EVENINGS, ids=[case[0] for case in EVENINGS])
def test_sessions_fall_into_evenings_by_a_gap_of_six_hours(what, spans, expected):
    found = evenings([span(*s) for s in spans])
    assert [[s.table_id for s in evening] for evening in found] == expected


@given(st.lists(st.tuples(st.integers(0, 24 * 14 * 4), st.integers(0, 8 * 4)), max_size=30))
def test_evenings_part_the_sessions_where_six_hours_pass_and_nowhere_else(quarters):
    spans = [Span(i, T0 + timedelta(minutes=15 * start), T0 + timedelta(minutes=15 * (start + length)))
             for i, (start, length) in enumerate(quarters)]
    found = evenings(spans)
    # Every session in exactly one evening, in the order they began.
    flat = [s for evening in found for s in evening]
    assert sorted(s.table_id for s in flat) == list(range(len(spans)))
    assert flat == sorted(flat, key=lambda s: (s.start, s.table_id))
    for before, after in zip(found, found[1:]):
        assert after[0].start - max(s.end for s in before) > GAP
    for evening in found:
        for i in range(1, len(evening)):
            assert evening[i].start - max(s.end for s in evening[:i]) <= GAP


def outcome(table_id: int, players: tuple[str, ...], ranks: tuple[int, ...], finished: bool = True) -> Outcome:
    winners_ = tuple(seat for seat, rank in enumerate(ranks) if rank == 1)
    return Outcome(table_id, "frutti", "Frutti di Mare", T0 + timedelta(minutes=table_id), finished, players,
                   winners_, (), "", ranks=ranks)


def rows(found):
    return [(row.name, row.wins, row.games, row.place_total) for row in found]


def test_the_tally_counts_wins_and_places_of_finished_games_only():
    found = tally([outcome(1, ("Ana", "Ben", "Cy"), (1, 3, 2)), outcome(2, ("ana ", "Ben", "Cy"), (3, 2, 1)),
                   outcome(3, ("Ana", "Ben"), (2, 1)), outcome(4, ("Ana", "Ben"), (1, 2), finished=False)])
    # One win each: Cy's places (2, 1) are the best on average, then Ana and Ben level (2), by name.
    assert rows(found) == [("Cy", 1, 2, 3), ("Ana", 1, 3, 6), ("Ben", 1, 3, 6)]
    assert [row.name for row in winners(found)] == ["Cy"]


def test_a_shared_first_place_is_a_win_for_each_and_a_level_evening_is_shared():
    found = tally([outcome(1, ("Ana", "Ben", "Cy"), (1, 1, 3)), outcome(2, ("Ana", "Ben", "Cy"), (2, 1, 3)),
                   outcome(3, ("Ana", "Ben", "Cy"), (1, 3, 2))])
    assert rows(found) == [("Ana", 2, 3, 4), ("Ben", 2, 3, 5), ("Cy", 0, 3, 8)]
    level = tally([outcome(1, ("Ana", "Ben"), (1, 2)), outcome(2, ("Ana", "Ben"), (2, 1))])
    assert [row.name for row in winners(level)] == ["Ana", "Ben"]


def test_a_forgotten_persons_seat_counts_for_no_one_and_an_unfinished_evening_has_no_winner():
    found = tally([outcome(1, ("Player 1", "Ben", "Player 3*"), (1, 2, 3))])
    assert rows(found) == [("Ben", 0, 1, 2)]
    assert winners(found) == []
    assert tally([outcome(1, ("Ana", "Ben"), (1, 2), finished=False)]) == []


# --- the pages ---------------------------------------------------------------------------------


def text_of(response) -> str:
    return re.sub(r"\s+", " ", response.get_data(as_text=True))


def tally_of(response) -> list[str]:
    """The tally's rows as the page shows them: "Cy 1 of 2 1.5"."""
    table = re.search(r'<table class="tally-table">(.*?)</table>', text_of(response))
    if table is None:
        return []
    cells = re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1))[1:]
    return [" ".join(re.sub(r"<[^>]+>", " ", re.sub(r'<span class="visually-hidden">.*?</span>', "", row)).split())
            for row in cells]


def moved_back(app, token: str, hours: float) -> None:
    """The session as if played ``hours`` earlier: its start and every entry."""
    with app.app_context():
        table = table_of(token)
        table.created_at -= timedelta(hours=hours)
        for entry in db.session.scalars(sa.select(Entry).where(Entry.table_id == table.id)):
            entry.created_at -= timedelta(hours=hours)
        db.session.commit()


@pytest.fixture
def evening(app):
    """Tonight: Carambouille (Ana wins), Frutti di Mare (Cy wins), Jaipur (Ben wins), in that order."""
    return [record_all(app, *session) for session in (CARAMBOUILLE, FRUTTI, JAIPUR)]


def test_the_home_page_shows_tonight_its_games_and_who_leads(client, evening):
    answer = client.get("/")
    text = text_of(answer)
    assert "Tonight" in text and "Cy leads tonight." in text
    assert tally_of(answer) == ["Cy ★ 1 of 2 1.5", "Ana 1 of 3 2", "Ben 1 of 3 2"]
    games = re.search(r'<ul class="tonight-games">(.*?)</ul>', text).group(1)
    assert [re.sub(r"<[^>]+>", "", name) for name in re.findall(r"<a [^>]*>(.*?)</a>", games)] == [
        "Carambouille", "Frutti di Mare", "Jaipur"]
    assert "Won by <strong>Ana</strong>" in games and "Won by <strong>Cy</strong>" in games


def test_a_finished_sessions_results_end_with_tonights_tally_and_follow_a_reopen(app, client, evening):
    carambouille, frutti, _jaipur = evening
    answer = client.get(f"/t/{carambouille}/results")
    assert "Cy leads tonight." in text_of(answer)
    assert answer.headers["Cache-Control"] == "private, no-cache"
    with app.app_context():
        recording.reopen(table_of(frutti))
    # Reopened, Frutti's result is no longer final: it says nothing of the evening, and counts for no one.
    assert tally_of(client.get(f"/t/{frutti}/results")) == []
    assert 'class="tally"' not in client.get(f"/t/{frutti}/results").get_data(as_text=True)
    answer = client.get(f"/w/{table_of_watch(app, carambouille)}/results")
    assert "Ana leads tonight." in text_of(answer)
    assert tally_of(answer) == ["Ana ★ 1 of 2 1.5", "Ben 1 of 2 2", "Cy 0 of 1 2"]


def table_of_watch(app, token: str) -> str:
    with app.app_context():
        return table_of(token).watch_token


def test_six_hours_without_an_entry_end_the_evening(app, client, evening):
    carambouille, frutti, _jaipur = evening
    moved_back(app, carambouille, 7)
    text = text_of(client.get(f"/t/{carambouille}/results"))
    assert "The evening of" in text and "Ana won the evening." in text
    assert "Tonight" not in text
    home = client.get("/")
    assert tally_of(home) == ["Cy ★ 1 of 1 1", "Ben 1 of 2 1.5", "Ana 0 of 2 2.5"]
    assert "Carambouille" not in re.search(r'<ul class="tonight-games">(.*?)</ul>', text_of(home)).group(1)
    # The history heads each evening's sessions, and leads to the evening's page.
    history = text_of(client.get("/history"))
    assert history.count('class="evening-head"') == 2
    assert re.findall(r"(\d) sessions?</small>", history) == ["2", "1"]


def test_the_evenings_page_lists_its_sessions_in_order_with_the_tally(app, client, evening):
    _carambouille, frutti, _jaipur = evening
    answer = client.get(f"/evenings/{table_of_watch(app, frutti)}")
    assert answer.status_code == 200
    text = text_of(answer)
    assert "The evening of" in text and "3 sessions" in text and "Cy leads tonight." in text
    cards = re.findall(r'<a class="session-card" href="/w/([\w-]+)/results">', text)
    assert cards == [table_of_watch(app, token) for token in evening]
    assert client.get("/evenings/aaaaaaaaaaaaaaaaaaaaaa").status_code == 404


@pytest.fixture
def private(app):
    app.config["GROUPS"] = "private"
    otters, badgers = group_named(app, "Otters"), group_named(app, "Badgers")
    return {"otters": otters, "badgers": badgers,
            "zelda": played(app, otters, ["Zelda", "Yannick", "Xavier"]),
            "wanda": played(app, otters, ["Zelda", "Wanda", "Xavier"]),
            "ana": played(app, badgers, ["Ana", "Ben", "Cy"])}


def test_an_evening_is_its_groups_alone(app, private):
    otter = app.test_client()
    member_of(otter, private["otters"])
    watch = table_of_watch(app, private["zelda"])
    assert "Wanda" in text_of(otter.get(f"/w/{watch}/results"))  # the other session of the evening, in the tally
    assert otter.get(f"/evenings/{watch}").status_code == 200
    badger = app.test_client()
    member_of(badger, private["badgers"])
    stranger = app.test_client()
    for phone in (badger, stranger):
        # The session's own link shows its result, and nothing of the evening around it.
        results = phone.get(f"/w/{watch}/results")
        assert results.status_code == 200 and "Wanda" not in results.get_data(as_text=True)
        assert 'class="tally"' not in results.get_data(as_text=True)
        evening = phone.get(f"/evenings/{watch}")
        assert "Wanda" not in evening.get_data(as_text=True) and "Zelda" not in evening.get_data(as_text=True)
    assert badger.get(f"/evenings/{watch}").status_code == 404
    # The badgers' own evening is theirs, with the otters' evening on the same night nowhere in it.
    home = text_of(badger.get("/"))
    assert "Ana" in home and "Zelda" not in home and "Wanda" not in home


def test_a_session_put_in_the_bin_leaves_its_evening_and_comes_back_restored(app, client, evening):
    _carambouille, frutti, _jaipur = evening
    with app.app_context():
        assert bin.remove_session(table_of(frutti))
    assert tally_of(client.get("/")) == ["Ana ★ 1 of 2 1.5", "Ben 1 of 2 2", "Cy 0 of 1 2"]
    with app.app_context():
        assert bin.restore_session(db.session.get(Table, table_id(app, frutti)))
    assert tally_of(client.get("/")) == ["Cy ★ 1 of 2 1.5", "Ana 1 of 3 2", "Ben 1 of 3 2"]


def table_id(app, token: str) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(Table.id).where(Table.token == token))


def test_every_name_forgetting_gives_a_seat_is_no_one_and_a_real_name_is_someone():
    from companion.groups.people import placeholder
    from companion.review.evenings import is_no_one

    assert all(is_no_one(placeholder(seat)) and is_no_one(placeholder(seat) + "**") for seat in range(12))
    assert not any(is_no_one(name) for name in ("Player", "Players 3", "Player 3b", "Ana", "player 3x"))
