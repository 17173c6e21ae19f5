"""The ranges that every date and number read from outside (a form, a query, a session file) must fall in.

Python's datetime ends at year 9999: a moment near either end cannot be moved to another time zone
or shifted by a day without an OverflowError, so nothing the app keeps or filters on comes near them.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

FIRST_DAY = date(2000, 1, 1)
LAST_DAY = date(2099, 12, 31)
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
# A session file from a server whose clock runs a little ahead is still fine; one from next year is not.
FUTURE_SLACK = timedelta(days=1)
# Whole numbers in a session file: scores, cards, entry numbers. Far below the 4,300 digits Python refuses to read.
MAX_DIGITS = 15


def day_in_range(day: date) -> bool:
    """Whether a day typed in a filter is one the history can search."""
    return FIRST_DAY <= day <= LAST_DAY


def moment_in_range(moment: datetime, now: datetime) -> bool:
    """Whether a moment read from a file lies between 2000 and a day after ``now`` (both aware)."""
    return EARLIEST <= moment <= now + FUTURE_SLACK


def number_text_in_range(text: str) -> bool:
    """Whether the digits of a number as written stay within MAX_DIGITS."""
    return len(text.lstrip("+-")) <= MAX_DIGITS
