"""Who is at the table: which phone holds each seat, and the invitation put away once everyone is in.

A seat's first phone is noted in the log (``seat_taken``), so every phone sees who is still missing;
a seat taken by another phone moves to it, told to the whole table by an entry of its own
(``seat_moved``): only the phone holding a seat shows what that player alone may see, and everyone
knows who picked up whose cards. The invitation (the QR code and join code) leads every page until
each seat has a phone or someone puts it away (``invite_closed``). Which seat a phone says it holds is
the phone's own (``companion.web.phone``); whether it still holds it is the log's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

import sqlalchemy as sa

from ..extensions import db
from ..models import Entry, Table
from ..rules import RuleError
from ..rules.words import _
from . import kinds
from .recording import record_table_event

HOLDING = (kinds.SEAT_TAKEN, kinds.SEAT_MOVED)
# The entries that change who holds which seat (an undo too: ``TableView.kept``).
TOUCHED_BY = frozenset((*HOLDING, kinds.INVITE_CLOSED))


@dataclass(frozen=True)
class Seating:
    """Which phone holds each seat, and whether the invitation was put away."""

    with_phone: frozenset[int]
    invite_closed: bool
    # The phone (device id) that holds each seat: its first, or the one it moved to last.
    holders: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))

    def everyone_in(self, players: int) -> bool:
        """Whether every seat has a phone."""
        return len(self.with_phone) >= players

    def held_by_another(self, seat: int, device: str | None) -> bool:
        """Whether the seat is held by a phone other than ``device``: taking it moves it, and is asked first."""
        return seat in self.with_phone and self.holders.get(seat) != device

    def holds(self, seat: int, device: str | None) -> bool:
        """Whether ``device`` may show ``seat``'s own view: it holds the seat, or no phone does."""
        return self.holders.get(seat, device) == device


def of(table: Table) -> Seating:
    """Which phone holds each seat and the invitation's state, from the entries about them."""
    rows = db.session.execute(sa.select(Entry.type, Entry.event, Entry.device).where(
        Entry.table_id == table.id, Entry.type.in_((*HOLDING, kinds.INVITE_CLOSED))).order_by(Entry.seq))
    holders, closed = {}, False
    for kind, event, device in rows:
        if kind == kinds.INVITE_CLOSED:
            closed = True
        elif isinstance(event.get("seat"), int) and (kind == kinds.SEAT_MOVED or event["seat"] not in holders):
            holders[event["seat"]] = device
    return Seating(frozenset(holders), closed, MappingProxyType(holders))


def take_seat(table: Table, seat: int, *, device: str = "") -> bool:
    """Note the first phone of a seat (the invitation stays up until every seat has one).

    Whether the seat is this phone's own: True if it took the seat or already holds it, False if
    another phone holds it, found under the table's lock (two new phones tapping the same free seat
    at once: the second is asked, as if it had tapped later).
    """
    if seat in (taken := of(table)).with_phone:
        return taken.holders.get(seat) == device
    event = {"type": kinds.SEAT_TAKEN, "seat": seat}

    def summarise(_seq: int) -> str:
        # Two phones choosing the same seat at once: the second finds it taken under the lock.
        if seat in of(table).with_phone:
            raise RuleError(_("%(name)s already has a phone.", name=table.players[seat]))
        return kinds.seat_taken(event, table.players)

    try:
        record_table_event(table, event, summarise, device=device)
    except RuleError:
        # The seat has its phone (or the table was finished meanwhile): whose is it?
        return of(table).holders.get(seat, device) == device
    return True


def move_seat(table: Table, seat: int, *, device: str = "") -> None:
    """Move ``seat`` to this phone from the one holding it, told to every phone by an entry ("Ben's seat moved to
    another phone"); nothing if this phone holds it already (two taps, or the table finished meanwhile)."""
    event = {"type": kinds.SEAT_MOVED, "seat": seat}

    def summarise(_seq: int) -> str:
        if of(table).holders.get(seat) == device:
            raise RuleError(_("This phone holds that seat already."))
        return kinds.seat_moved(event, table.players)

    try:
        record_table_event(table, event, summarise, device=device)
    except RuleError:
        pass  # the seat is this phone's already, or the game is over: nothing to tell


def put_invite_away(table: Table, *, device: str = "", key: str | None = None) -> None:
    """Put the invitation away for the whole table: everyone who plays has joined."""
    def summarise(_seq: int) -> str:
        if of(table).invite_closed:
            raise RuleError(_("The invitation is already put away."))
        return _(kinds.INVITE_PUT_AWAY)

    try:
        record_table_event(table, {"type": kinds.INVITE_CLOSED}, summarise, device=device, key=key)
    except RuleError:
        pass  # another phone put it away first: the table shows it gone either way
