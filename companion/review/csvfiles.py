"""CSV files: a session's standings and breakdown, and the history list, headed in the reader's language.

The figures stay plain numbers (no thousands separator), so a spreadsheet reads them as numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from ..rules.review import Review, names
from ..rules.words import _
from . import sentences

# Spreadsheets read a CSV file as UTF-8 only when it starts with the byte-order mark.
BOM = "\ufeff"
# A cell starting like a formula would run in a spreadsheet: names are data, never formulas.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """The value as a safe spreadsheet cell."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def _write(rows: Iterable[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([cell(value) for value in row])
    return out.getvalue()


def results_csv(players: Sequence[str], review: Review, period: str | None = None) -> str:
    """The standings (a team once), a blank line, then one row per hand or round (each player's gains, then their
    running totals).

    ``period``: the English word of the game's periods ("Hand"), if the review's own is not one.
    """
    extra = [sentences.quantity(review.extra_name)] if review.extra_name else []
    # A team stands once, its players named together ("Ana and Cleo"): its score is no one player's.
    who = _("Team") if review.sides else _("Player")
    rows: list[Sequence[object]] = [[_("Rank"), who, sentences.quantity(review.score_name), *extra]]
    for standing, seats in review.places:
        more = [review.extra[standing.seat]] if review.extra is not None else []
        rows.append([standing.rank, names(players, seats), standing.score, *more])
    rows.append([])
    # Translators: a CSV column: a player's running total ("Ana total").
    totals = (_("%(name)s total", name=name) for name in players)
    rows.append([sentences.period(period or review.period_name), *players, *totals, _("Note")])
    named = (period or review.period_name) in sentences.NAMED
    for row in review.periods:
        # Translators: after a hand's or round's note in the CSV: it is still being played.
        note = _("%(note)s (in progress)", note=row.note).lstrip() if row.in_progress else row.note
        rows.append([row.label if named else row.number, *row.gains, *row.totals, note])
    return _write(rows)


def history_csv(rows: Iterable[Sequence[object]]) -> str:
    """The history list: one row per session."""
    header = [_("Date"), _("Game"), _("Players"), _("Winners"), _("Status"), _("Results")]
    return _write([header, *rows])
