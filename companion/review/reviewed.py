"""What the lists of sessions read of each session's review (its winner, places, teams, totals…), kept per version
of the table in each app: the history, the players, the evenings, the standings and the records read the same
sessions again and again, and each review replays a log."""

from __future__ import annotations

from flask import current_app

from ..models import Table
from ..rules import RuleError
from ..rules.review import Review
from ..table import log
from ..table.state import state_of
from . import sentences
from .keeping import kept
from .session import period_key, review_of

# How many sessions' reviews a process keeps (a few hundred bytes each): a big group's every session.
REVIEWS_KEPT = 20_000


def reviewed_of(table: Table) -> dict:
    """What an outcome takes of the session's review (its ``Outcome`` fields by name), kept per version of the table in this
    app: the history, the players and every evening read the same sessions again and again, and each review replays
    a log. An entry (an undo, a reopen, a renamed seat too), a status or a name changed is another version."""
    # The token beside the id: a table removed for good and another made with its id is another table.
    key = (table.id, table.token, table.last_seq, table.status, tuple(table.players))
    reviews = kept("reviewed", REVIEWS_KEPT)
    if (found := reviews.get(key)) is not None:
        return found
    try:
        review = review_of(table.game, log.game_of(table), state_of(table))
        trail = tuple(tuple(totals) for _label, totals in review.progression[1:])
        found = {"winners": tuple(review.winners), "record": tuple(review.record), "stats": tuple(review.stats),
                 "session_name": review.session_name, "ranks": seat_ranks(review),
                 "sides": tuple(tuple(side) for side in review.sides), "trail": trail,
                 "totals": trail[-1] if trail else (), "lowest_wins": review.lowest_wins,
                 "chart_name": review.chart_name, "period_name": period_key(table.game, review)}
    except RuleError as error:
        # A log the rules no longer accept must not take the history down with it.
        current_app.logger.error("table %s cannot be replayed: %s", table.id, error)
        found = {"winners": (), "record": (), "stats": (), "session_name": sentences.SESSIONS[0]}
    reviews.put(key, found)
    return found


def seat_ranks(review: Review) -> tuple[int, ...]:
    """Each seat's place as the results page gives it: a team's seats share their side's (1, 2 among sides)."""
    ranks: dict[int, int] = {}
    for place, seats in review.places:
        ranks.update(dict.fromkeys(seats, place.rank))
    return tuple(ranks[seat] for seat in sorted(ranks))
