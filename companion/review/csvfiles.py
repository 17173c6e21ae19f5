"""CSV files: a session's standings and breakdown, and the history list."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from ..rules.review import Review

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


def results_csv(players: Sequence[str], review: Review) -> str:
    """The standings, a blank line, then one row per hand or round (gains, then running totals)."""
    extra = [review.extra_name] if review.extra_name else []
    rows: list[Sequence[object]] = [["Rank", "Player", review.score_name, *extra]]
    for standing in review.standings:
        more = [review.extra[standing.seat]] if review.extra is not None else []
        rows.append([standing.rank, players[standing.seat], standing.score, *more])
    rows.append([])
    rows.append([review.period_name, *players, *(f"{name} total" for name in players), "Note"])
    for period in review.periods:
        note = period.note + (" (in progress)" if period.in_progress else "")
        rows.append([period.number, *period.gains, *period.totals, note])
    return _write(rows)


def history_csv(rows: Iterable[Sequence[object]]) -> str:
    """The history list: one row per session."""
    header = ["Date", "Game", "Players", "Winners", "Status", "Results"]
    return _write([header, *rows])
