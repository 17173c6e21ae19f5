"""What the house announces when it has changed what phones show, for whoever listens.

The house records and never calls the live machinery: it announces, and ``companion.live`` listens (its
``init_app`` connects). Each signal is sent with the app as its sender, after the change is committed.
"""

from __future__ import annotations

from blinker import Namespace
from flask import current_app

_house = Namespace()

#: This process has just committed a change to a table's row (an entry, the bell, a removal, a restore):
#: ``table_id``. Its phones' streams hear of it now rather than at the next look at the database.
table_changed = _house.signal("table-changed")

#: This process has just taken phones out of a group: the polls that let a phone's unchanged poll through
#: without the app look again at once at who was taken out.
phones_taken_out = _house.signal("phones-taken-out")


def announce_table_changed(table_id: int) -> None:
    """Say that the table's row was just committed changed."""
    table_changed.send(current_app._get_current_object(), table_id=table_id)


def announce_phones_taken_out() -> None:
    """Say that phones were just taken out of a group."""
    phones_taken_out.send(current_app._get_current_object())
