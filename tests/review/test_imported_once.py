"""The same file brought in at the same instant from several phones (and the command line) is stored once; the
others are told it is already here (companion/review/storing.py). On SQLite and PostgreSQL alike."""

from __future__ import annotations

import io
import json
import re
import threading

import pytest
import sqlalchemy as sa
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from companion import groups
from companion.extensions import db
from companion.groups.people import rename
from companion.inputs.names import key
from companion.library import imports
from companion.library.export import digest
from companion.models import Entry, Group, Table
from companion.groups.bin import remove_session as remove
from groups.tables import member_of
from review.test_review_sessions import CARAMBOUILLE, FRUTTI, JAIPUR, record_all, table_of

PHONES = 4


def multipart(path: str, content: bytes, name: str) -> dict:
    file = FileStorage(io.BytesIO(content), filename=name, content_type="application/json")
    boundary, body = encode_multipart({"file": file})
    return {"path": path, "data": body, "content_type": f"multipart/form-data; boundary={boundary}"}


@pytest.fixture
def club(app):
    """A server for many groups with a second group, Club, that the phones look at; the home group's three sessions
    to bring into it."""
    tokens = [record_all(app, *session) for session in (CARAMBOUILLE, JAIPUR, FRUTTI)]
    app.config["GROUPS"] = "private"
    with app.app_context():
        club = groups.start("Club").id
    return club, tokens


def phone_of(app, group_id: int):
    client = app.test_client()
    member_of(client, group_id)
    with client.session_transaction() as session:
        session["group"] = group_id
    return client


def groups_home(app) -> int:
    """The home group's id."""
    with app.app_context():
        return groups.home_group().id


def sessions_in(app, group_id: int) -> tuple[int, int]:
    """The group's sessions and their entries."""
    with app.app_context():
        tables = db.session.scalar(sa.select(sa.func.count()).select_from(Table).where(Table.group_id == group_id))
        entries = db.session.scalar(sa.select(sa.func.count()).select_from(Entry).join(Table)
                                    .where(Table.group_id == group_id))
    return tables, entries


def at_once(*tasks) -> list:
    """Run each task in a thread of its own, all released at the same instant; their answers in order."""
    start, answers = threading.Barrier(len(tasks)), [None] * len(tasks)

    def run(number, task):
        start.wait()
        try:
            answers[number] = task()
        except BaseException as error:  # noqa: BLE001 (the test reads it)
            answers[number] = error

    threads = [threading.Thread(target=run, args=(n, task)) for n, task in enumerate(tasks)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return answers


def test_a_history_brought_in_from_four_phones_at_once_is_stored_once(app, club):
    group_id, _tokens = club
    library = phone_of(app, groups_home(app)).get("/group/library.json").get_data()
    phones = [phone_of(app, group_id) for _ in range(PHONES)]
    sent = multipart("/group/library", library, "history.json")
    answers = at_once(*(lambda phone=phone: phone.post(**sent, follow_redirects=True) for phone in phones))
    said = [re.search(r'<p class="notice" role="status">([^<]*)</p>', answer.text)[1] for answer in answers]
    assert sorted(said) == ["0 sessions brought in. 3 were already here."] * (PHONES - 1) + [
        "3 sessions brought in."], said
    assert sessions_in(app, group_id) == sessions_in(app, groups_home(app))


def test_a_session_file_brought_in_from_four_phones_at_once_is_stored_once(app, club):
    group_id, tokens = club
    session_file = phone_of(app, groups_home(app)).get(f"/t/{tokens[1]}/export.json").get_data()
    phones = [phone_of(app, group_id) for _ in range(PHONES)]
    sent = multipart("/import", session_file, "jaipur.json")
    answers = at_once(*(lambda phone=phone: phone.post(**sent) for phone in phones))
    assert sorted(answer.status_code for answer in answers) == [303] + [422] * (PHONES - 1)
    [stored] = [answer.headers["Location"].split("/")[2] for answer in answers if answer.status_code == 303]
    with app.app_context():
        watch, entries = table_of(stored).watch_token, table_of(tokens[1]).last_seq
    for answer in answers:
        if answer.status_code == 422:
            assert "This session is already in the history: importing it again would count its game twice." in \
                answer.text
            # The one that was stored, a tap away (its read-only results).
            assert f'href="/w/{watch}/results"' in answer.text
    assert sessions_in(app, group_id) == (1, entries)


def test_the_command_line_and_phones_at_once_store_a_history_once(app, club, tmp_path):
    group_id, _tokens = club
    library = phone_of(app, groups_home(app)).get("/group/library.json").get_data()
    file = tmp_path / "history.json"
    file.write_bytes(library)
    phones = [phone_of(app, group_id) for _ in range(PHONES - 1)]
    sent = multipart("/group/library", library, "history.json")

    def command() -> str:
        with app.app_context():  # what `flask import-library FILE --group Club` does
            envelope = imports.load(file.read_bytes(), imports.FILE_MAX_BYTES)
            return imports.said(imports.bring_in(imports.into_groups(envelope, "Club")))

    answers = at_once(command, *(lambda phone=phone: phone.post(**sent, follow_redirects=True) for phone in phones))
    said = [answers[0]] + [re.search(r'role="status">([^<]*)</p>', answer.text)[1] for answer in answers[1:]]
    assert sorted(said) == ["0 sessions brought in. 3 were already here."] * (PHONES - 1) + [
        "3 sessions brought in."], said
    assert sessions_in(app, group_id) == sessions_in(app, groups_home(app))


def test_a_session_removed_from_the_history_can_be_brought_in_again(app, club):
    group_id, tokens = club
    session_file = phone_of(app, groups_home(app)).get(f"/t/{tokens[0]}/export.json").get_data()
    phone = phone_of(app, group_id)
    sent = multipart("/import", session_file, "carambouille.json")
    first = phone.post(**sent)
    assert first.status_code == 303
    assert phone.post(**sent).status_code == 422
    with app.app_context():
        remove(db.session.scalar(sa.select(Table).where(Table.token == first.headers["Location"].split("/")[2])))
    again = phone.post(**sent)
    assert again.status_code == 303 and sessions_in(app, group_id)[0] == 2  # the tombstone and the new one


def test_a_session_whose_players_were_renamed_here_is_still_recognised(app, club):
    """Its identity is kept as it was brought in: renamed here, the file's copy is still the same session."""
    group_id, tokens = club
    session_file = phone_of(app, groups_home(app)).get(f"/t/{tokens[1]}/export.json").get_data()
    phone = phone_of(app, group_id)
    sent = multipart("/import", session_file, "jaipur.json")
    assert phone.post(**sent).status_code == 303
    with app.app_context():
        assert rename(db.session.get(Group, group_id), key("Ana"), "Anna") == 1
    again = phone.post(**sent)
    assert again.status_code == 422 and "This session is already in the history" in again.text
    assert sessions_in(app, group_id)[0] == 1


def test_two_copies_of_one_session_in_one_file_are_one(app, club):
    group_id, tokens = club
    envelope = json.loads(phone_of(app, groups_home(app)).get("/group/library.json").get_data())
    envelope["sessions"].append(envelope["sessions"][0])
    envelope["digest"] = digest(envelope["sessions"])
    answer = phone_of(app, group_id).post(**multipart("/group/library", json.dumps(envelope).encode(), "h.json"),
                                          follow_redirects=True)
    assert "3 sessions brought in. 1 was already here." in answer.text
    assert sessions_in(app, group_id)[0] == 3
