"""Who is at the table: which seats have a phone, and the invitation put away once everyone is in.

A seat's first phone is noted in the log (``seat_taken``), so every phone sees who is still missing;
the invitation (the QR code and join code) leads every page until each seat has a phone or someone
puts it away (``invite_closed``). Which seat a phone holds is the phone's own (``companion.web.phone``).
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


@dataclass(frozen=True)
class Seating:
    """Which seats have a phone, and whether the invitation was put away."""

    with_phone: frozenset[int]
    invite_closed: bool
    # The phone (device id) that took each seat first.
    first_phones: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))

    def everyone_in(self, players: int) -> bool:
        """Whether every seat has a phone."""
        return len(self.with_phone) >= players

    def held_by_another(self, seat: int, device: str) -> bool:
        """Whether the seat already has a phone other than ``device``: taking it too is asked first."""
        return seat in self.with_phone and self.first_phones.get(seat) != device


def of(table: Table) -> Seating:
    """The seats that have a phone and the invitation's state, from the entries about them."""
    rows = db.session.execute(sa.select(Entry.type, Entry.event, Entry.device).where(
        Entry.table_id == table.id, Entry.type.in_((kinds.SEAT_TAKEN, kinds.INVITE_CLOSED))).order_by(Entry.seq))
    phones, closed = {}, False
    for kind, event, device in rows:
        if kind == kinds.INVITE_CLOSED:
            closed = True
        elif isinstance(event.get("seat"), int):
            phones.setdefault(event["seat"], device)
    return Seating(frozenset(phones), closed, MappingProxyType(phones))


def take_seat(table: Table, seat: int, *, device: str = "") -> bool:
    """Note the first phone of a seat (the invitation stays up until every seat has one).

    Whether the seat is this phone's own: True if it took the seat or already was its first phone,
    False if another phone holds it, found under the table's lock (two new phones tapping the same
    free seat at once: the second is asked, as if it had tapped later).
    """
    if seat in (taken := of(table)).with_phone:
        return taken.first_phones.get(seat) == device
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
        return of(table).first_phones.get(seat, device) == device
    return True


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
