"""One view of a table per request: a Jaipur sale reads the table's state, its seating and its entries'
words once for the table it was sent on and once for the table it leaves, whatever asks for them; and what
reads only the log (seating, newest entries, rings) is read once per version for every phone of the table."""

from __future__ import annotations

from collections import Counter

import sqlalchemy as sa

from companion.extensions import db
from companion.models import Table
from companion.table import bell, log, recording, seating, view, wording
from helpers import make_table
from views.test_jaipur_views import HTMX, confirm_data, preview, sit


def counting(monkeypatch, module, name: str, counts: Counter) -> None:
    real = getattr(module, name)

    def counted(*args, **kwargs):
        counts[name] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)


def test_a_jaipur_sale_reads_each_version_of_the_table_once(app, client, monkeypatch):
    token = make_table(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw", "first_player": 0})
    sit(client, token, 0)
    shown = preview(client, token, 0, "leather", 3, headers=HTMX)
    counts = Counter()
    counting(monkeypatch, view, "state_of", counts)
    counting(monkeypatch, seating, "of", counts)
    counting(monkeypatch, wording, "sentences", counts)
    sold = client.post(f"/t/{token}/jaipur/sale", data=confirm_data(shown.text), headers=HTMX)
    assert "Ana sold 3 leather" in sold.text
    # The table the sale was sent on (its checks and preview), then the table it leaves (the answer); its seating
    # taken over from the version before, which no seat entry followed.
    assert counts == {"state_of": 2, "sentences": 1}


def test_the_view_of_a_table_is_new_once_an_entry_is_recorded(app):
    token = make_table(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw", "first_player": 0})
    with app.test_request_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        first = view.table_view(table)
        assert view.table_view(table) is first
        before = first.state


        recording.record(table, {"type": "sale", "player": 0, "good": "leather", "cards": 3})
        after = view.table_view(table)
        assert after is not first and after.state is not before
        assert after.recent[0][0].seq == table.last_seq


def test_the_second_phone_of_a_version_reads_no_entry_again(app, monkeypatch):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0})
    ana, ben = app.test_client(), app.test_client()
    for phone, seat in ((ana, 0), (ben, 1)):
        assert phone.post(f"/t/{token}/seat", data={"seat": str(seat)}).status_code == 303
    counts = Counter()
    for module, name in ((seating, "of"), (log, "newest_entries"), (bell, "rings")):
        counting(monkeypatch, module, name, counts)
    ana.get(f"/t/{token}")
    ben.get(f"/t/{token}")
    assert counts == {"of": 1, "newest_entries": 1, "rings": 1}
    # An entry makes a new version: read again once, and every phone shows it.
    with app.app_context():
        recording.record(db.session.scalar(sa.select(Table).where(Table.token == token)), {"type": "market_opened"})
    pages = [phone.get(f"/t/{token}").text for phone in (ana, ben)]
    # The market opened is a ring (read again); no seat changed hands (the seating taken over from the version before).
    assert counts == {"of": 1, "newest_entries": 2, "rings": 2}
    assert all("Market open" in page and "the market is open" in page for page in pages)


MEMO = {"type": "house_memo", "memo": {"40": [None, None, None, None, 500]}}
BACK = {"type": "house_memo", "memo": {"40": [None, None, None, None, 520]}}
# Each step, and the reads it makes again (the others are taken over from the version before).
STEPS = [
    ("Ana's phone takes her seat", ("seat", 0, "ana"), {"of", "rings", "newest_undo"}),  # the first version read
    ("a memo change", ("entry", MEMO), set()),
    ("the market opens", ("entry", {"type": "market_opened"}), {"rings"}),
    ("Ben's phone takes his seat", ("seat", 1, "ben"), {"of"}),
    ("the market closes", ("entry", {"type": "market_closed"}), {"rings"}),
    ("the close undone", ("undo",), {"of", "rings", "newest_undo"}),
    ("a memo change after it", ("entry", BACK), set()),
    ("Ana's seat taken by another phone", ("move", 0, "ana-2"), {"of"}),
    ("the invitation put away", ("invite",), {"of"}),
]


def test_what_no_entry_since_touched_is_taken_over_and_equals_a_fresh_read(app, monkeypatch):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0})
    counts = Counter()
    for module, name in ((seating, "of"), (bell, "rings"), (log, "newest_undo")):
        counting(monkeypatch, module, name, counts)
    for step, (kind, *what), read_again in STEPS:
        with app.test_request_context():
            table = db.session.scalar(sa.select(Table).where(Table.token == token))
            if kind == "seat":
                seating.take_seat(table, what[0], device=what[1])
            elif kind == "move":
                seating.move_seat(table, what[0], device=what[1])
            elif kind == "invite":
                seating.put_invite_away(table)
            elif kind == "undo":
                recording.void(table, table.last_seq)
            else:
                recording.record(table, what[0])
            db.session.remove()
        with app.test_request_context():
            table = db.session.scalar(sa.select(Table).where(Table.token == token))
            counts.clear()
            kept = view.table_view(table)
            seats, past = kept.seating, kept.kept("past", lambda: log.newest_undo(table), frozenset())
            rings = kept.kept("rings", lambda: view.detached(bell.rings(table)), bell.RINGS)
            assert set(counts) == read_again, step
            # What was taken over is what a fresh read finds.
            assert seats == seating.of(table) and past == log.newest_undo(table), step
            assert [ring.seq for ring in rings] == [ring.seq for ring in bell.rings(table)], step
            db.session.remove()
