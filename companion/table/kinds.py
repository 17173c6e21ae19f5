"""The sentence of each entry about the table (the bell's timer, who joined, the invitation), from the entry alone.

Written when the entry is recorded (the kept summary, in English) and written anew, from the same
words, in the reader's language when the entry is shown, and when a session file is imported: a
summary is never taken from a file.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import bell, recording as entries
from ..rules import RuleError
from ..rules.words import N_, _

INVITE_PUT_AWAY = N_("The invitation was put away: everyone is in.")
# How an automatic close of the table timer ended, by the plan that closed it.
TIMER_ENDINGS = {
    "fixed": N_("Ding-a-Ding! The table timer stopped after %(duration)s: time is up."),
    "hidden": N_("Ding-a-Ding! The table timer stopped after %(duration)s: the hidden time ran out."),
}


def seat_of(event: dict, players: Sequence[str]) -> int:
    """The seat an entry names; RuleError if it names none of the table's."""
    seat = event.get("seat", event.get("player"))
    if type(seat) is not int or not 0 <= seat < len(players):
        # Translators: follows "Entry 12: " where a session file is read.
        raise RuleError(_("it names a seat the table does not have."))
    return seat


def timer_started(event: dict, players: Sequence[str]) -> str:
    plan = bell.Plan.read(event.get("plan")).words("timer")
    if "player" not in event:
        # Translators: %(plan)s is a whole sentence, e.g. "The timer closes when the bell rings again."
        return _("Someone rang the bell: the table timer is running. %(plan)s", plan=plan)
    # Translators: %(plan)s is a whole sentence, e.g. "The timer closes when the bell rings again."
    return _("%(name)s rang the bell: the table timer is running. %(plan)s",
             name=players[seat_of(event, players)], plan=plan)


def timer_stopped(event: dict) -> str:
    seconds = event.get("seconds")
    if type(seconds) is not int or not 0 <= seconds <= 10**7:
        # Translators: follows "Entry 12: " where a session file is read.
        raise RuleError(_("its duration is not a number of seconds."))
    ending = TIMER_ENDINGS.get(event.get("ending"), N_("Ding-a-Ding! The table timer stopped after %(duration)s."))
    return _(ending, duration=bell.duration_words(seconds))


def seat_taken(event: dict, players: Sequence[str]) -> str:
    return _("%(name)s's phone joined the table.", name=players[seat_of(event, players)])


def sentence(event: dict, players: Sequence[str]) -> str:
    """The sentence of an entry about the table (not a void, reopen or close); RuleError if it cannot be read."""
    kind = event.get("type")
    if kind == entries.TIMER_STARTED:
        return timer_started(event, players)
    if kind == entries.TIMER_STOPPED:
        return timer_stopped(event)
    if kind == entries.SEAT_TAKEN:
        return seat_taken(event, players)
    if kind == entries.INVITE_CLOSED:
        return _(INVITE_PUT_AWAY)
    # Translators: follows "Entry 12: " where a session file is read.
    raise RuleError(_("it is not an entry this app knows."))
