"""This phone: its id, the seat it holds at each table, the tables it opened lately, what it alone may see.

All of it lives in the phone's signed session cookie. It is read once per request, when first asked
for (``phone()``, kept in ``g`` as flaskr's auth keeps ``g.user``), and written back through the
functions below, which keep the cookie to the few most recent tables. The live poll's unchanged
answer never asks, so it never reads the cookie.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from flask import g, session

from ..models import Entry, Table
from ..table.view import table_view

# What a phone that said it only watches keeps as its seat: it shows the table and records nothing.
WATCHING = "watch"
# What a phone keeps that records for every player (one phone passed round the table): it holds no seat.
PAD = "pad"
# The tables a phone remembers: on the home page, and for its seats.
RECENT_TABLES = 8
# The entry a phone of nobody recorded that only it may see more of (a drawn Jaipur bonus token), per table.
RECORDED_HERE = "recorded_here"


@dataclass
class Phone:
    """What the session cookie says of this phone."""

    device: str | None = None
    seats: dict[str, int | str] = field(default_factory=dict)
    recent: list[str] = field(default_factory=list)
    recorded_here: dict[str, int] = field(default_factory=dict)

    def answer_at(self, token: str) -> int | str | None:
        """The phone's answer to "Who are you?" at table ``token`` as kept, unchecked against the table."""
        return self.seats.get(token)

    def seat_at(self, table: Table) -> int | None:
        """The seat this phone said it holds at this table, if it still holds it (its seat not moved to another
        phone since, while the game is played: ``table.seating``)."""
        seat = self.claimed_at(table)
        return seat if seat is not None and (table.finished or table_view(table).seating.holds(seat, self.device)) \
            else None

    def claimed_at(self, table: Table) -> int | None:
        """The seat this phone said it holds at this table, whoever holds it now."""
        seat = self.seats.get(table.token)
        return seat if isinstance(seat, int) and 0 <= seat < len(table.seats) else None

    def moved_from(self, table: Table) -> int | None:
        """The seat this phone held until another phone took it (it says so, and offers it back)."""
        seat = self.claimed_at(table)
        return seat if seat is not None and self.seat_at(table) is None else None

    def choice_at(self, table: Table) -> int | str | None:
        """This phone's answer to "Who are you?": a seat, ``WATCHING``, ``PAD``, or None (not asked yet)."""
        seat = self.seat_at(table)
        if seat is None and self.seats.get(table.token) in (WATCHING, PAD):
            return self.seats[table.token]
        return seat

    def watching(self, token: str) -> bool:
        """Whether this phone said it only watches the table of ``token``: it records nothing there."""
        return self.seats.get(token) == WATCHING

    def recorded_at(self, token: str) -> int | None:
        """The number of the entry this phone recorded and alone may see more of, at table ``token``."""
        seq = self.recorded_here.get(token)
        return seq if type(seq) is int else None


def _dict(value) -> dict:
    return dict(value) if isinstance(value, dict) else {}


def phone() -> Phone:
    """This phone, read from its session cookie once per request."""
    if "phone" not in g:
        recent = session.get("recent", [])
        g.phone = Phone(device=session.get("device"), seats=_dict(session.get("seats")),
                        recent=list(recent) if isinstance(recent, list) else [],
                        recorded_here=_dict(session.get(RECORDED_HERE)))
    return g.phone


def _newest_last(kept: dict, token: str, value) -> dict:
    """``kept`` with ``token`` moved last, holding ``value``: the cookie keeps the most recent tables."""
    kept = dict(kept)
    kept.pop(token, None)
    kept[token] = value
    return dict(list(kept.items())[-RECENT_TABLES:])


def device_id() -> str:
    """This phone's id: random, made on its first entry, kept in the signed session cookie."""
    this = phone()
    if this.device is None:
        this.device = session["device"] = secrets.token_hex(8)
        session.permanent = True
    return this.device


def my_seat(table: Table) -> int | None:
    """The seat this phone said it holds at this table, if any."""
    return phone().seat_at(table)


def acts_for(table: Table, seat: int) -> bool:
    """Whether this phone may play ``seat``'s own cards: it is that player's, or keeps the pad for everyone.
    (What a player holds is theirs alone: any other phone is refused before anything is checked.)"""
    return phone().choice_at(table) in (seat, PAD)


def seat_choice(table: Table) -> int | str | None:
    """This phone's answer to "Who are you?" at this table: a seat, ``WATCHING``, or None (not asked yet)."""
    return phone().choice_at(table)


def answer(table: Table, choice: int | str) -> None:
    """Keep this phone's answer to "Who are you?": the seat it holds, ``WATCHING`` or ``PAD``."""
    this = phone()
    this.seats = session["seats"] = _newest_last(this.seats, table.token, choice)
    session.permanent = True


def remember(token: str) -> None:
    """Put the table of ``token`` first in this phone's recently opened tables."""
    this = phone()
    if this.recent[:1] == [token]:
        return  # already first: leave the session (and its cookie) untouched
    this.recent = session["recent"] = [token, *(other for other in this.recent if other != token)][:RECENT_TABLES]
    session.permanent = True


def forget(token: str) -> None:
    """Take a table out of this phone's recently opened tables (it was removed from the history)."""
    this = phone()
    this.recent = session["recent"] = [other for other in this.recent if other != token]


def recorded_here(token: str) -> int | None:
    """The number of the entry this phone recorded and alone may see more of, at table ``token``."""
    return phone().recorded_at(token)


def note_recorded_here(table: Table, entry: Entry) -> None:
    """Remember that this phone, which holds no seat, recorded ``entry``: it may show what only its recorder sees."""
    if my_seat(table) is not None:
        return
    this = phone()
    this.recorded_here = session[RECORDED_HERE] = _newest_last(this.recorded_here, table.token, entry.seq)
