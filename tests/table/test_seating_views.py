"""Who holds each phone: asked right after joining; the invitation leads until every seat has a phone."""

from __future__ import annotations

import threading

import sqlalchemy as sa

from companion.table import kinds, recording
from companion.extensions import db
from companion.models import Entry, Table
from helpers import form_key, make_table

HTMX = {"HX-Request": "true"}


def seat_entries(app) -> list[tuple[str, dict, str]]:
    with app.app_context():
        rows = db.session.execute(sa.select(Entry.type, Entry.event, Entry.summary).where(
            Entry.type.in_((kinds.SEAT_TAKEN, kinds.SEAT_MOVED, kinds.INVITE_CLOSED))).order_by(Entry.seq))
        return [tuple(row) for row in rows]


def sit(client, token, seat: str):
    return client.post(f"/t/{token}/seat", data={"seat": seat}, headers=HTMX)


def finish(app, token) -> None:
    """The tiny game ends when a player reaches the table's target (5 here)."""
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        recording.record(table, {"type": "score", "player": 0, "points": 5})


def test_a_phone_that_opens_a_table_is_asked_who_it_is_once(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    page = client.get(f"/t/{token}")
    assert "Who are you?" in page.text
    # Asked first: before the scores and the actions.
    assert page.text.index("Who are you?") < page.text.index('aria-label="Scores"')
    answer = sit(client, token, "1")
    assert "Who are you?" not in answer.text and "This phone is Ben's" in answer.text
    assert "Who are you?" not in client.get(f"/t/{token}").text


def test_just_watching_is_an_answer_too(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    answer = sit(client, token, "")
    assert "Who are you?" not in answer.text and "This phone is just watching" in answer.text
    assert "Who are you?" not in client.get(f"/t/{token}").text
    assert seat_entries(app) == []  # a watching phone holds no seat


def test_a_kept_rendering_tells_an_unasked_phone_from_a_watching_one(app):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    watching, new = app.test_client(), app.test_client()
    sit(watching, token, "")
    for _ in range(2):  # the second round is served from the kept renderings
        assert "Who are you?" not in watching.get(f"/t/{token}").text
        assert "Who are you?" in new.get(f"/t/{token}").text


def test_the_invitation_leads_until_every_seat_has_a_phone(app):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    ana, ben, ben_again = app.test_client(), app.test_client(), app.test_client()
    page = ana.get(f"/t/{token}").text
    assert "Join this table" in page and "0 of 2 players have a phone." in page
    assert page.index("Join this table") < page.index('aria-label="Scores"')
    assert "1 of 2 players has a phone." in sit(ana, token, "0").text
    sit(ben, token, "1")
    sit(ben_again, token, "1")  # a second phone for Ben: nothing new to note
    assert "Join this table" not in ana.get(f"/t/{token}").text
    # The join code stays at hand below, for a latecomer.
    assert "Invite the table: code" in ana.get(f"/t/{token}").text
    assert seat_entries(app) == [
        (kinds.SEAT_TAKEN, {"type": kinds.SEAT_TAKEN, "seat": 0}, "Ana's phone joined the table."),
        (kinds.SEAT_TAKEN, {"type": kinds.SEAT_TAKEN, "seat": 1}, "Ben's phone joined the table."),
    ]


def test_everyone_is_in_puts_the_invitation_away_for_every_phone(app):
    token = make_table(app, "tiny", ["Ana", "Ben", "Cy"])
    ana, other = app.test_client(), app.test_client()
    sit(ana, token, "0")
    assert "Join this table" in other.get(f"/t/{token}").text
    answer = ana.post(f"/t/{token}/invite", data={"key": form_key(), "seen": "1"}, headers=HTMX)
    assert answer.status_code == 200 and "Join this table" not in answer.text
    assert "Join this table" not in other.get(f"/t/{token}").text
    assert "The invitation was put away: everyone is in." in other.get(f"/t/{token}").text


def test_seat_entries_are_not_undone_and_do_not_count_as_moves(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    sit(client, token, "0")
    page = client.get(f"/t/{token}").text
    assert "Undo last entry" not in page  # nothing of the game to take back


def test_a_finished_table_neither_asks_nor_invites(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"], {"target": 5})
    finish(app, token)
    page = client.get(f"/t/{token}").text
    assert "Who are you?" not in page and "Join this table" not in page
    assert "data-bell-controls" not in page  # no bell to hear after the game
    sit(client, token, "0")
    assert seat_entries(app) == []


def at_the_same_instant(*actions) -> list:
    """Run each action on a thread of its own, released together; their answers, in the order given."""
    start = threading.Barrier(len(actions))
    answers = [None] * len(actions)

    def run(index, action):
        start.wait()
        answers[index] = action()

    workers = [threading.Thread(target=run, args=pair) for pair in enumerate(actions)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return answers


def test_two_phones_taking_the_same_seat_at_the_same_instant_note_it_once(app):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    phones = [app.test_client() for _ in range(2)]
    answers = at_the_same_instant(*(lambda phone=phone: sit(phone, token, "1") for phone in phones))
    assert [answer.status_code for answer in answers] == [200, 200]
    # One phone is Ben's; the other, whichever read the seat free first, is asked before it is his too.
    taken = [answer for answer in answers if "This phone is Ben's" in answer.text]
    asked = [answer for answer in answers if "Ben already has a phone — move the seat to this one?" in answer.text]
    assert len(taken) == 1 and len(asked) == 1, [answer.text[:200] for answer in answers]
    assert [event for _, event, _ in seat_entries(app)] == [{"type": kinds.SEAT_TAKEN, "seat": 1}]
    second = phones[answers.index(asked[0])]
    assert "This phone is Ben's" not in second.get(f"/t/{token}").text


def test_a_seat_taken_between_the_question_and_the_lock_is_asked_about(app, monkeypatch):
    """The interleaving of two new phones tapping a free seat together: both read it free, one takes it
    first; the other finds it taken under the table's lock and is asked, not set to Ben."""
    token = make_table(app, "tiny", ["Ana", "Ben"])
    first, second = app.test_client(), app.test_client()
    from companion.table import seating

    real = seating.Seating.held_by_another
    monkeypatch.setattr(seating.Seating, "held_by_another", lambda self, seat, device: False)
    sit(first, token, "1")
    asked = sit(second, token, "1")
    monkeypatch.setattr(seating.Seating, "held_by_another", real)
    assert "Ben already has a phone — move the seat to this one?" in asked.text
    assert "This phone is Ben's" not in second.get(f"/t/{token}").text
    assert "This phone is Ben's" in first.get(f"/t/{token}").text
    assert [kind for kind, _, _ in seat_entries(app)] == [kinds.SEAT_TAKEN]


def test_two_phones_putting_the_invitation_away_at_the_same_instant_note_it_once(app):
    token = make_table(app, "tiny", ["Ana", "Ben", "Cy"])
    phones = [app.test_client() for _ in range(2)]
    answers = at_the_same_instant(*(
        lambda phone=phone: phone.post(f"/t/{token}/invite", data={"key": form_key(), "seen": "0"}, headers=HTMX)
        for phone in phones))
    assert all(answer.status_code == 200 and "Join this table" not in answer.text for answer in answers)
    assert [kind for kind, _, _ in seat_entries(app)] == [kinds.INVITE_CLOSED]


def test_a_seat_that_has_a_phone_is_asked_about_before_another_phone_takes_it(app):
    token = make_table(app, "tiny", ["Ana", "Bernard"])
    first, second = app.test_client(), app.test_client()
    sit(first, token, "1")
    asked = sit(second, token, "1")
    assert asked.status_code == 200
    assert "Bernard already has a phone — move the seat to this one?" in asked.text
    assert "Yes, move Bernard's seat here" in asked.text
    # Not answered yet: the phone is nobody's, sees nothing of Bernard's, and nothing was told.
    page = second.get(f"/t/{token}").text
    assert "This phone is Bernard's" not in page and "Who are you?" in page
    assert [kind for kind, _, _ in seat_entries(app)] == [kinds.SEAT_TAKEN]
    # Yes: the seat is this phone's now, and the table is told (tests/views/test_seat_moved.py).
    taken = second.post(f"/t/{token}/seat", data={"seat": "1", "also": "1"}, headers=HTMX)
    assert "This phone is Bernard's" in taken.text
    assert [kind for kind, _, _ in seat_entries(app)] == [kinds.SEAT_TAKEN, kinds.SEAT_MOVED]
    assert "This phone is Bernard's" not in first.get(f"/t/{token}").text


def test_the_first_phone_of_a_seat_and_a_free_seat_are_never_asked(app):
    token = make_table(app, "tiny", ["Ana", "Bernard"])
    first, second = app.test_client(), app.test_client()
    sit(first, token, "1")
    assert "already has a phone" not in sit(first, token, "1").text  # its own seat again
    assert "already has a phone" not in sit(second, token, "0").text
    assert "This phone is Ana's" in second.get(f"/t/{token}").text


def test_without_javascript_the_question_is_the_table_page_at_its_place(app):
    token = make_table(app, "tiny", ["Ana", "Bernard"])
    first, second = app.test_client(), app.test_client()
    sit(first, token, "1")
    sent = second.post(f"/t/{token}/seat", data={"seat": "1"})
    assert sent.status_code == 303 and sent.headers["Location"].endswith(f"/t/{token}#seat-question")
    page = second.get(f"/t/{token}").text
    assert "Bernard already has a phone — move the seat to this one?" in page
    assert "already has a phone" not in second.get(f"/t/{token}").text  # asked once
