"""The review's pages kept for every phone of a group alike (``views.kept_pages``) and the group's outcomes read
again only where a session changed (``review.outcomes``): each phone still gets its own token, language, keeper's
forms and notices, and a page shows a change the moment it is made."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
import sqlalchemy as sa

from companion import groups
from companion.extensions import db
from companion.groups import bin
from companion.models import Group, now
from companion.review import history, outcomes
from companion.table import recording
from groups.tables import group_named, member_of, played
from review.test_evenings import moved_back, text_of
from review.test_review_sessions import CARAMBOUILLE, FRUTTI, JAIPUR, record_all, table_of
from review.test_standings import rows_of


def csrf_token(page: str) -> str:
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)


def test_two_phones_share_one_rendering_and_each_posts_with_its_own_token(app, monkeypatch):
    app.config["WTF_CSRF_ENABLED"] = True
    record_all(app, *JAIPUR)
    from companion.views import people

    renders = []
    monkeypatch.setattr(people, "render_template", lambda *args, **kw: renders.append(args[0]) or
                        __import__("flask").render_template(*args, **kw))
    ana, ben = app.test_client(), app.test_client()
    pages = [phone.get("/players/Ana").text for phone in (ana, ben)]
    assert renders == ["review/player.html"]  # rendered once, for both
    tokens = [csrf_token(page) for page in pages]
    assert tokens[0] != tokens[1] and all("\x00" not in page for page in pages)
    for page, mine in zip(pages, tokens):
        assert set(re.findall(r'name="csrf_token"[^>]*value="([^"]+)"', page)) == {mine}
        assert f'"X-CSRFToken": "{mine}"' in page
    # Ana's token is no good on Ben's phone; his own renames the player.
    assert ben.post("/players/Ana/rename", data={"name": "Anna", "csrf_token": tokens[0]}).status_code == 400
    answer = ben.post("/players/Ana/rename", data={"name": "Anna", "csrf_token": tokens[1]})
    assert answer.status_code == 303
    # The notice is Ben's alone; Ana's phone reads the page as everyone does, renamed at once.
    assert "Ana is now Anna at 1 session." in ben.get("/players/Anna").text
    page = ana.get("/players/Anna").text
    assert "<h1>Anna</h1>" in page and "is now Anna" not in page and ana.get("/players/Ana").status_code == 404


@pytest.fixture
def otters(app):
    app.config["GROUPS"] = "private"
    group = group_named(app, "Otters")
    played(app, group, ["Zelda", "Yannick", "Xavier"])
    return group


def test_a_keeper_and_a_plain_member_each_get_their_own_page(app, otters):
    keeper, member = app.test_client(), app.test_client()
    member_of(keeper, otters, keeper=True)
    member_of(member, otters)
    for _ in range(2):  # the second time, both kept
        assert "Forget Zelda for good" in keeper.get("/players/Zelda").text
        assert "Forget Zelda" not in member.get("/players/Zelda").text
        assert "Start a season" in keeper.get("/standings").text
        assert "Start a season" not in member.get("/standings").text


def test_each_language_gets_its_own_page(app, client):
    record_all(app, *JAIPUR)
    french = app.test_client()
    french.set_cookie("lang", "fr", domain="companion.test")
    for _ in range(2):
        assert "Classement" in french.get("/standings").text
        assert "Classement" not in client.get("/standings").text and "Standings" in client.get("/standings").text


def test_a_kept_page_shows_a_new_result_a_season_and_the_groups_new_name_at_once(app, client):
    record_all(app, *JAIPUR)
    assert [row[0] for row in rows_of(client.get("/standings"))] == ["Ben", "Ana"]
    record_all(app, *CARAMBOUILLE)
    assert sorted(row[0] for row in rows_of(client.get("/standings"))) == ["Ana", "Ben", "Cy"]
    assert "Spring league" not in client.get("/standings").text
    with app.app_context():
        today = history.local(now()).date()
    answer = client.post("/standings/seasons", data={"name": "Spring league", "starts_on": today.isoformat()})
    assert answer.status_code == 303
    assert "Spring league" in client.get("/standings").text
    with app.app_context():
        db.session.get(Group, groups.home_group().id).name = "Tuesday club"
        db.session.commit()
    assert "Tuesday club" in client.get("/standings").text


def test_a_player_page_lists_the_newest_sessions_and_leads_to_the_rest(app, client):
    for _ in range(23):
        record_all(app, *JAIPUR)
    page = text_of(client.get("/players/Ana"))
    assert page.count('class="session-card"') == 20 and "Newest sessions" in page
    assert '<a href="/history?player=Ana">All 23 sessions in the history</a>' in page


def kept_ids(app, group_id: int) -> list[tuple]:
    """What the group's kept outcomes say, as the full read says it: (table, finished, abandoned, players, ranks)."""
    with app.app_context():
        return [(o.table_id, o.finished, o.abandoned, o.players, o.ranks) for o in outcomes.group_outcomes(group_id)]


def read_whole(app, group_id: int) -> list[tuple]:
    with app.app_context():
        return sorted((o.table_id, o.finished, o.abandoned, o.players, o.ranks)
                      for o in history.all_outcomes(group_id))


def change(app, token: str, how: str) -> None:
    with app.app_context():
        table = table_of(token)
        if how == "undone":
            recording.void(table, table.last_seq - 1) if table.finished else None
        elif how == "reopened":
            recording.reopen(table)
        elif how == "removed":
            bin.remove_session(table)
        elif how == "restored":
            bin.remove_session(table)
            db.session.commit()
            bin.restore_session(table)
        db.session.commit()


@pytest.mark.parametrize("how", ["reopened", "removed", "restored", "renamed", "forgotten"])
def test_the_kept_outcomes_read_again_what_changed_and_only_that(app, client, monkeypatch, how):
    tokens = [record_all(app, *session) for session in (CARAMBOUILLE, FRUTTI, JAIPUR)]
    with app.app_context():
        group_id = groups.home_group().id
    assert kept_ids(app, group_id) == read_whole(app, group_id)
    read = []
    real = history.outcomes
    monkeypatch.setattr(history, "outcomes", lambda tables: read.append(len(tables)) or real(tables))
    newer = record_all(app, *JAIPUR)
    assert kept_ids(app, group_id) == read_whole(app, group_id)
    assert read[0] == 1  # the new session alone
    if how == "renamed":
        client.post("/players/Cy/rename", data={"name": "Cyril"})
    elif how == "forgotten":
        client.post("/players/Cy/forget", data={"confirm": "Cy"})
    else:
        change(app, tokens[0], how)
    read.clear()
    assert kept_ids(app, group_id) == read_whole(app, group_id)
    assert read[0] <= 2 and newer  # the session changed (Cy sat at two)


def test_a_session_in_play_turns_abandoned_with_the_clock_alone(app):
    token = record_all(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw", "first_player": 0}, JAIPUR[3][:2])
    with app.app_context():
        group_id = groups.home_group().id
    assert kept_ids(app, group_id)[0][1:3] == (False, False)
    moved_back(app, token, 24 * 3)  # no entry since: its mark has not moved
    assert kept_ids(app, group_id)[0][1:3] == (False, True) == read_whole(app, group_id)[0][1:3]


def shown_soon(client, address: str, test) -> bool:
    """Whether the page shows what ``test`` looks for within a second (PostgreSQL announces another process's
    commit to this one's listener a moment after it)."""
    for _ in range(40):
        if test(client.get(address)):
            return True
        time.sleep(0.025)
    return False


def test_a_change_written_by_another_process_shows_at_once(app, client):
    """A page kept while nothing was committed (``commits.mark``): a write by another worker, on a connection of its
    own, moves the mark and the page is read again."""
    record_all(app, *JAIPUR)
    caram = record_all(app, *CARAMBOUILLE)
    with app.app_context():
        url = db.engine.url
        group_id = groups.home_group().id
        table_id = table_of(caram).id
    assert sorted(row[0] for row in rows_of(client.get("/standings"))) == ["Ana", "Ben", "Cy"]
    other = sa.create_engine(url)  # another gunicorn worker's connection
    with other.begin() as connection:
        connection.execute(sa.text("UPDATE groups SET name = 'Quiz night' WHERE id = :id"), {"id": group_id})
    assert "Quiz night" in client.get("/standings").text
    with other.begin() as connection:
        connection.execute(sa.text("UPDATE tables SET status = 'removed' WHERE id = :id"), {"id": table_id})
    other.dispose()
    assert shown_soon(client, "/standings", lambda page: sorted(row[0] for row in rows_of(page)) == ["Ana", "Ben"])
    record_all(app, *FRUTTI)
    assert shown_soon(client, "/standings", lambda page: sorted(row[0] for row in rows_of(page)) == ["Ana", "Ben", "Cy"])
