"""Each entry's words as the log stands: an older entry undone changes what the later ones say (a score sheet's
round 3 is its round 2 once round 2 is undone), on every phone and in every process, while an undone entry keeps
the words it was taken back with."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

import sqlalchemy as sa
from flask_babel import force_locale
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.extensions import db
from companion.models import Table
from companion.review.session import timeline
from companion.rules import sheet
from companion.table import log, recording, wording
from companion.table.state import cache, walk
from helpers import make_table

PLAYERS = ["Ana", "Ben"]
OPTIONS = {"name": "Rummy"}


@dataclass
class Row:
    """An entry of the log, as the walk and the timeline read it."""

    seq: int
    type: str
    event: dict
    summary: str = ""
    created_at: datetime = field(default_factory=lambda: datetime(2026, 12, 1, 20, 5, tzinfo=UTC))


@st.composite
def sheet_logs(draw) -> list[Row]:
    """Rounds typed one after another, and now and then an undo of any round still counted."""
    rows: list[Row] = []
    counted: list[int] = []
    for _step in range(draw(st.integers(1, 14))):
        seq = len(rows) + 1
        if counted and draw(st.integers(0, 3)) == 0:
            target = draw(st.sampled_from(counted))
            counted.remove(target)
            rows.append(Row(seq, "void", {"type": "void", "entry": target}))
        else:
            points = [str(draw(st.integers(0, 30))), str(draw(st.integers(-5, 5)))]
            rows.append(Row(seq, "round", {"type": "round", "round": 1, "points": points}))
            counted.append(seq)
    return rows


def counted_when_taken_back(rows: list[Row], seq: int) -> int:
    """How many rounds before entry ``seq`` counted when it was undone: those not undone before its undo."""
    undo = next(row.seq for row in rows if row.type == "void" and row.event["entry"] == seq)
    undone = {row.event["entry"] for row in rows if row.type == "void" and row.seq < undo}
    return sum(1 for row in rows if row.type == "round" and row.seq < seq and row.seq not in undone)


@settings(max_examples=200, deadline=None)
@given(sheet_logs())
def test_a_round_is_worded_with_its_row_on_the_sheet_and_an_undone_one_as_it_was_taken_back(rows):
    undone = {row.event["entry"] for row in rows if row.type == "void"}
    counted = [row for row in rows if row.type == "round" and row.seq not in undone]
    placed = list(walk(sheet, PLAYERS, OPTIONS, rows))
    final = sheet.new_game(PLAYERS, OPTIONS)
    for row in counted:
        final = sheet.apply(final, row.event)
    for row, before, after in placed:
        said = sheet.describe(before, row.event)
        if row.seq in undone:
            assert said.startswith(f"Round {counted_when_taken_back(rows, row.seq) + 1}: "), said
            continue
        number = counted.index(row) + 1
        assert said.startswith(f"Round {number}: "), said
        # The sheet's row of that number holds this round's points.
        assert final.rounds[number - 1] == tuple(sheet.parse(text) for text in row.event["points"])
    assert [after for row, _before, after in placed if row.seq not in undone][-1:] == ([final] if counted else [])


@settings(max_examples=100, deadline=None)
@given(sheet_logs())
def test_the_results_label_each_entry_with_the_round_its_words_name(rows):
    words = {row.seq: sheet.describe(before, row.event) for row, before, _after in walk(sheet, PLAYERS, OPTIONS, rows)}
    undone = {row.event["entry"] for row in rows if row.type == "void"}
    lines = timeline("sheet", sheet, PLAYERS, OPTIONS, [(row, row.seq in undone, row.type == "round") for row in rows],
                     lambda entry, _before, _worded: words.get(entry.seq, "Undid an entry."))
    for line in lines:
        if line.seq in words:
            # "Round 3 — Ana 4, Ben 1.": the label is the round the sentence names, never "Round 2 — Round 3: …".
            assert words[line.seq] == f"{line.label}: {line.text}", (line.label, line.text)


def round_(number: int, *points: str) -> dict:
    return {"type": "round", "round": number, "points": list(points)}


def test_the_words_kept_before_an_undo_give_way_after_it_in_every_process(app):
    token = make_table(app, "sheet", PLAYERS, {"first_player": 0, **OPTIONS})
    with app.test_request_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        for number, ana in enumerate(("1", "2", "3"), start=1):
            recording.record(table, round_(number, ana, "0"))
        assert wording.sentences(table, log.entries_of(table))[3] == "Round 3: Ana 3, Ben 0."
        before = log.newest_undo(table)
        # Another process has the French words of the three rounds kept, from before the undo.
        with force_locale("fr"):
            stale = wording.sentences(table, log.entries_of(table))
        recording.void(table, 2)
        cache.put_words(table.id, tuple(table.players), "fr", stale, before)
        assert log.newest_undo(table) == 4
        entries = log.entries_of(table)
        assert wording.sentences(table, entries)[3] == "Round 2: Ana 3, Ben 0."
        assert wording.sentences(table, entries)[4] == "Undid entry 2: Round 2: Ana 2, Ben 0."
        with force_locale("fr"):
            assert wording.sentences(table, entries)[3] == "Manche 2\u00a0: Ana 3, Ben 0."
        # A round recorded after the undo is worded on the sheet as it stands, and kept with the others.
        recording.record(table, round_(3, "4", "0"))
        assert wording.sentences(table, log.entries_of(table))[5] == "Round 3: Ana 4, Ben 0."
        assert wording.kept_sentence(table, log.entries_of(table)[2]) == "Round 2: Ana 3, Ben 0."


def test_a_session_file_says_each_round_by_the_number_it_has_now(app):
    token = make_table(app, "sheet", PLAYERS, {"first_player": 0, **OPTIONS})
    with app.test_request_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        for number, ana in enumerate(("1", "2", "3"), start=1):
            recording.record(table, round_(number, ana, "0"))
        assert [row.summary for row in log.entries_of(table)] == [f"Round {n}: Ana {n}, Ben 0." for n in (1, 2, 3)]
        recording.void(table, 1)
        logged = log.entries_of(table)
        assert wording.summaries(table, logged) == {1: "Round 1: Ana 1, Ben 0.", 2: "Round 1: Ana 2, Ben 0.",
                                                    3: "Round 2: Ana 3, Ben 0.", 4: "Undid entry 1: Round 1: Ana 1, Ben 0."}
        # The newest entry undone changes nothing before it: the kept summaries are the file's.
        recording.void(table, 3)
        logged = log.entries_of(table)
        assert wording.summaries(table, logged)[5] == "Undid entry 3: Round 2: Ana 3, Ben 0."
