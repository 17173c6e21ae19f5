"""The entry log: recording, idempotency, stale forms, undo and voiding, the state cache, concurrency."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa

from companion.table import log, recording
from companion.table import state as table_state
from companion.table.state import Snapshot, cache as state_cache, state_of
from companion.extensions import db
from companion.models import Entry, Table
from companion.rules import RuleError
from helpers import form_key, make_table


def table(token: str) -> Table:
    return db.session.scalar(sa.select(Table).where(Table.token == token))



def test_entries_are_numbered_and_state_is_their_fold(app):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    with app.app_context():
        first = recording.record(table(token), {"type": "score", "player": 0, "points": 10})
        second = recording.record(table(token), {"type": "score", "player": 1, "points": 7})
        assert (first.seq, second.seq) == (1, 2)
        assert second.summary == "Ben scored 7"
        assert log.game_of(table(token)).scores(state_of(table(token))) == [10, 7]


def test_a_refused_event_changes_nothing(app):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    with app.app_context():
        recording.record(table(token), {"type": "score", "player": 0, "points": 10})
        with pytest.raises(RuleError, match="Points go from 1 to 50"):
            recording.record(table(token), {"type": "score", "player": 0, "points": 99})
        assert table(token).last_seq == 1
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Entry)) == 1
        assert state_of(table(token)).points == (10, 0)


def test_the_same_form_sent_twice_is_recorded_once(app):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    key = form_key()
    with app.app_context():
        one = recording.record(table(token), {"type": "score", "player": 0, "points": 10}, key=key)
        two = recording.record(table(token), {"type": "score", "player": 0, "points": 10}, key=key)
        assert one.seq == two.seq == 1
        assert table(token).last_seq == 1
        assert state_of(table(token)).points == (10, 0)


def test_a_form_built_on_an_older_state_is_checked_again_and_explained(app):
    token = make_table(app, "tiny", ["Ana", "Ben"], {"target": 20})
    with app.app_context():
        recording.record(table(token), {"type": "score", "player": 0, "points": 15})
        seen = table(token).last_seq
        recording.record(table(token), {"type": "score", "player": 0, "points": 5})  # someone ends the game
        table(token).status = "playing"  # let the rules, not the finished flag, refuse
        with pytest.raises(RuleError, match="The table changed while you were entering this: The game is over"):
            recording.record(table(token), {"type": "score", "player": 1, "points": 5}, seen=seen)


def test_undo_voids_an_entry_and_keeps_it_in_the_history(app):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    with app.app_context():
        recording.record(table(token), {"type": "score", "player": 0, "points": 10})
        recording.record(table(token), {"type": "score", "player": 1, "points": 4})
        undo = recording.void(table(token), 2)
        assert undo.seq == 3 and undo.summary == "Undid entry 2: Ben scored 4"
        assert state_of(table(token)).points == (10, 0)
        rows = [(e.seq, undone) for e, undone in log.history(table(token))]
        assert rows == [(3, False), (2, True), (1, False)]
        assert log.last_live_entry(table(token)).seq == 1


def test_voiding_an_older_entry_recomputes_what_follows(app):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    with app.app_context():
        for points in (10, 20, 5):
            recording.record(table(token), {"type": "score", "player": 0, "points": points})
        recording.void(table(token), 2)
        assert state_of(table(token)).points == (15, 0)


def test_voiding_is_refused_when_a_later_entry_would_become_invalid(app):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    with app.app_context():
        recording.record(table(token), {"type": "score", "player": 0, "points": 30})
        recording.record(table(token), {"type": "score", "player": 0, "points": 5, "needs": 30})
        with pytest.raises(RuleError, match=r"entry 2 \(Ana scored 5\) impossible: Ana needs 30 points first"):
            recording.void(table(token), 1)
        assert table(token).last_seq == 2
        assert state_of(table(token)).points == (35, 0)


@pytest.mark.parametrize("target, message", [(7, "no such entry"), (0, "no such entry")])
def test_undoing_a_missing_entry_is_refused(app, target, message):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    with app.app_context():
        recording.record(table(token), {"type": "score", "player": 0, "points": 30})
        with pytest.raises(RuleError, match=message):
            recording.void(table(token), target)


def test_an_undone_entry_cannot_be_undone_twice(app):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    with app.app_context():
        recording.record(table(token), {"type": "score", "player": 0, "points": 30})
        recording.void(table(token), 1)
        with pytest.raises(RuleError, match="already undone"):
            recording.void(table(token), 1)
        with pytest.raises(RuleError, match="no such entry"):
            recording.void(table(token), 2)  # an undo is not itself undoable


def test_finishing_and_undoing_the_finish_updates_the_table_status(app):
    token = make_table(app, "tiny", ["Ana", "Ben"], {"target": 20})
    with app.app_context():
        recording.record(table(token), {"type": "score", "player": 0, "points": 20})
        assert table(token).finished and table(token).finished_at is not None
        with pytest.raises(RuleError, match="finished"):
            recording.record(table(token), {"type": "score", "player": 1, "points": 1})
        with pytest.raises(RuleError, match="reopen it to undo"):
            recording.void(table(token), 1)
        recording.reopen(table(token))
        recording.void(table(token), 1)
        assert not table(token).finished and table(token).finished_at is None


def test_state_after_many_entries_comes_from_the_cache_not_a_replay(app, monkeypatch):
    token = make_table(app, "tiny", ["Ana", "Ben"], {"target": 10**6})
    with app.app_context():
        for _ in range(30):
            recording.record(table(token), {"type": "score", "player": 0, "points": 1})
        folds = []
        monkeypatch.setattr(table_state, "fold", lambda *a, **k: folds.append(1))
        assert state_of(table(token)).points == (30, 0)
        recording.record(table(token), {"type": "score", "player": 1, "points": 2})
        assert state_of(table(token)).points == (30, 2)
        assert folds == []


def test_another_worker_catches_up_by_applying_only_new_entries(app, monkeypatch):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    with app.app_context():
        recording.record(table(token), {"type": "score", "player": 0, "points": 3})
        stale = Snapshot(1, state_of(table(token)))
        recording.record(table(token), {"type": "score", "player": 1, "points": 4})
        state_cache.clear()
        state_cache.put(table(token).id, stale)  # as another process would have it
        monkeypatch.setattr(table_state, "fold", lambda *a, **k: pytest.fail("full replay"))
        assert state_of(table(token)).points == (3, 4)


def test_concurrent_submissions_are_each_recorded_exactly_once(app):
    token = make_table(app, "tiny", ["Ana", "Ben", "Cy", "Dee"], {"target": 10**6})
    threads, errors, per_thread = 8, [], 10

    def phone(player):
        with app.app_context():
            try:
                for _ in range(per_thread):
                    recording.record(table(token), {"type": "score", "player": player % 4, "points": 1},
                                   key=form_key())
            except Exception as error:  # noqa: BLE001 - the assertion reports it
                errors.append(error)
            finally:
                db.session.remove()

    workers = [threading.Thread(target=phone, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert errors == []
    with app.app_context():
        seqs = db.session.scalars(sa.select(Entry.seq).order_by(Entry.seq)).all()
        assert seqs == list(range(1, threads * per_thread + 1))
        state_cache.clear()
        assert sum(state_of(table(token)).points) == threads * per_thread


def test_concurrent_resends_of_one_form_are_recorded_once(app):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    key, seqs = form_key(), []

    def resend():
        with app.app_context():
            seqs.append(recording.record(table(token), {"type": "score", "player": 0, "points": 5}, key=key).seq)
            db.session.remove()

    workers = [threading.Thread(target=resend) for _ in range(6)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert seqs == [1] * 6
    with app.app_context():
        assert state_of(table(token)).points == (5, 0)


def test_an_entry_is_worked_out_before_the_write_lock_and_taken_as_it_is(app, monkeypatch):
    """SQLite has one write lock for every table: the rules and the sentences are never worked out holding it."""
    token = make_table(app, "tiny", ["Ana", "Ben"])
    steps = []
    worded, lock = recording.wording.in_every_language, recording._lock
    monkeypatch.setattr(recording.wording, "in_every_language", lambda *a: steps.append("worded") or worded(*a))
    monkeypatch.setattr(recording, "_lock", lambda *a: steps.append("locked") or lock(*a))
    with app.app_context():
        entry = recording.record(table(token), {"type": "score", "player": 1, "points": 7})
        assert steps == ["worded", "locked"]
        assert (entry.seq, entry.summary) == (1, "Ben scored 7") and state_of(table(token)).points == (0, 7)


def test_an_entry_another_phone_recorded_first_is_worked_out_again_under_the_lock(app, monkeypatch):
    token = make_table(app, "tiny", ["Ana", "Ben"], {"target": 20})
    turn = recording.write_turn

    def other_phone_first():
        # Ana's 15 is recorded between Ben's entry being worked out and his turn at the write lock.
        def ana():
            with app.app_context():
                recording.record(table(token), {"type": "score", "player": 0, "points": 15})
                db.session.remove()
        monkeypatch.setattr(recording, "write_turn", turn)
        other = threading.Thread(target=ana)
        other.start()
        other.join()
        return turn()

    monkeypatch.setattr(recording, "write_turn", other_phone_first)
    with app.app_context():
        # Worked out ahead, Ben's 7 would be the 1st entry, on a table where nobody had scored.
        entry = recording.record(table(token), {"type": "score", "player": 1, "points": 7})
        assert (entry.seq, entry.summary) == (2, "Ben scored 7")
        state_cache.clear()
        assert state_of(table(token)).points == (15, 7)
        # And one that the entry before it makes wrong is refused with that entry's reason, nothing written.
        monkeypatch.setattr(recording, "write_turn", other_phone_first)
        with pytest.raises(RuleError):
            recording.record(table(token), {"type": "score", "player": 1, "points": 10}, seen=2)
        assert table(token).last_seq == 3
        assert state_of(table(token)).points == (30, 7)
