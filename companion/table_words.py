"""The sentence of each entry about the table (the bell's timer, who joined, the invitation), from the entry alone.

Written when the entry is recorded and written anew, from the same words, when a session file is
imported: a summary is never taken from a file.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import bell, entries
from .rules import RuleError

INVITE_PUT_AWAY = "The invitation was put away: everyone is in."
# How an automatic close of the table timer ended, by the plan that closed it.
TIMER_ENDINGS = {"fixed": "time is up", "hidden": "the hidden time ran out"}


def seat_of(event: dict, players: Sequence[str]) -> int:
    """The seat an entry names; RuleError if it names none of the table's."""
    seat = event.get("seat", event.get("player"))
    if type(seat) is not int or not 0 <= seat < len(players):
        raise RuleError("it names a seat the table does not have.")
    return seat


def timer_started(event: dict, players: Sequence[str]) -> str:
    who = players[seat_of(event, players)] if "player" in event else "Someone"
    return f"{who} rang the bell: the table timer is running. {bell.Plan.read(event.get('plan')).words('timer')}"


def timer_stopped(event: dict) -> str:
    seconds = event.get("seconds")
    if type(seconds) is not int or not 0 <= seconds <= 10**7:
        raise RuleError("its duration is not a number of seconds.")
    ending = TIMER_ENDINGS.get(event.get("ending"))
    return f"Ding-a-Ding! The table timer stopped after {bell.duration_words(seconds)}" + (f": {ending}." if ending else ".")


def seat_taken(event: dict, players: Sequence[str]) -> str:
    return f"{players[seat_of(event, players)]}'s phone joined the table."


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
        return INVITE_PUT_AWAY
    raise RuleError("it is not an entry this app knows.")
