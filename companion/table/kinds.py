"""The table's own entry kinds, beside the game's: undo, the bell's timer, reopen and close, who joined.

These entries are about the table rather than the game: they are never folded through the game's
``apply``. Each has its sentence here, from the entry alone: written when the entry is recorded (the
kept summary, in English), worded anew in the reader's language when it is shown, and written again
when a session file is imported (a summary is never taken from a file).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import RuleError
from ..rules.words import N_, _, duration_words
from .bell_plan import Plan

# An undo: names the entry it takes back.
VOID = "void"
# The table timer of the bell (companion/table/bell.py), on every game's table but Carambouille's.
TIMER_STARTED = "timer_started"
TIMER_STOPPED = "timer_stopped"
# A finished session reopened on purpose to correct it, and declared finished again.
REOPEN = "reopen"
CLOSE = "close"
# Who is at the table: a seat's first phone, the seat moved to another phone (who holds the player's cards is
# everyone's to know), and the invitation put away once everyone is in.
SEAT_TAKEN = "seat_taken"
SEAT_MOVED = "seat_moved"
INVITE_CLOSED = "invite_closed"
# A player renamed, or forgotten ("Player 3"), across the group's sessions: the seat's name is changed with it.
RENAMED = "renamed"
TABLE_EVENTS = frozenset({VOID, TIMER_STARTED, TIMER_STOPPED, REOPEN, CLOSE, SEAT_TAKEN, SEAT_MOVED, INVITE_CLOSED,
                          RENAMED})
# What changes the entries before it, as every later state and sentence reads them.
CHANGES_THE_PAST = frozenset({VOID, RENAMED})

REOPENED = N_("The session was reopened to correct it.")
CLOSED = N_("The session was marked finished again.")
INVITE_PUT_AWAY = N_("The invitation was put away: everyone is in.")
# How an automatic close of the table timer ended, by the plan that closed it.
TIMER_ENDINGS = {
    "fixed": N_("Ding-a-Ding! The table timer stopped after %(duration)s: time is up."),
    "hidden": N_("Ding-a-Ding! The table timer stopped after %(duration)s: the hidden time ran out."),
}


def is_game_entry(entry) -> bool:
    """Whether the entry (a stored row) goes through the game's rules."""
    return entry.type not in TABLE_EVENTS


def seat_of(event: dict, players: Sequence[str]) -> int:
    """The seat an entry names; RuleError if it names none of the table's."""
    seat = event.get("seat", event.get("player"))
    if type(seat) is not int or not 0 <= seat < len(players):
        # Translators: follows "Entry 12: " where a session file is read.
        raise RuleError(_("it names a seat the table does not have."))
    return seat


def timer_started(event: dict, players: Sequence[str]) -> str:
    """ "Ana rang the bell: the table timer is running. …" """
    plan = Plan.read(event.get("plan")).words("timer")
    if "player" not in event:
        # Translators: %(plan)s is a whole sentence, e.g. "The timer closes when the bell rings again."
        return _("Someone rang the bell: the table timer is running. %(plan)s", plan=plan)
    # Translators: %(plan)s is a whole sentence, e.g. "The timer closes when the bell rings again."
    return _("%(name)s rang the bell: the table timer is running. %(plan)s",
             name=players[seat_of(event, players)], plan=plan)


def timer_stopped(event: dict) -> str:
    """ "Ding-a-Ding! The table timer stopped after 2 min." """
    seconds = event.get("seconds")
    if type(seconds) is not int or not 0 <= seconds <= 10**7:
        # Translators: follows "Entry 12: " where a session file is read.
        raise RuleError(_("its duration is not a number of seconds."))
    ending = TIMER_ENDINGS.get(event.get("ending"), N_("Ding-a-Ding! The table timer stopped after %(duration)s."))
    return _(ending, duration=duration_words(seconds))


def seat_taken(event: dict, players: Sequence[str]) -> str:
    """ "Ana's phone joined the table." """
    return _("%(name)s's phone joined the table.", name=players[seat_of(event, players)])


def seat_moved(event: dict, players: Sequence[str]) -> str:
    """ "Ben's seat moved to another phone." """
    return _("%(name)s's seat moved to another phone.", name=players[seat_of(event, players)])


def undid(target: int, sentence: str) -> str:
    """The sentence of an undo, given the sentence of the entry it takes back."""
    # Translators: %(entry)s is the sentence of the entry taken back, e.g. "Ben scored 7".
    return _("Undid entry %(seq)d: %(entry)s", seq=target, entry=sentence)


def sentence(event: dict, players: Sequence[str]) -> str:
    """The sentence of an entry about the table (not a void); RuleError if it cannot be read."""
    kind = event.get("type")
    if kind == TIMER_STARTED:
        return timer_started(event, players)
    if kind == TIMER_STOPPED:
        return timer_stopped(event)
    if kind == SEAT_TAKEN:
        return seat_taken(event, players)
    if kind == SEAT_MOVED:
        return seat_moved(event, players)
    if kind == INVITE_CLOSED:
        return _(INVITE_PUT_AWAY)
    if kind == RENAMED:
        return _("A player's name was changed: %(name)s.", name=players[seat_of(event, players)])
    if kind == REOPEN:
        return _(REOPENED)
    if kind == CLOSE:
        return _(CLOSED)
    # Translators: follows "Entry 12: " where a session file is read.
    raise RuleError(_("it is not an entry this app knows."))
