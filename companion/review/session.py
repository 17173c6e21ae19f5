"""One session's review, derived from its game and entries: the game's review and the timeline in words."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from types import ModuleType
from typing import Any, Protocol

from ..rules.review import Review, first_placed, ranked, score_stats

# Each game's pure review module (companion/rules/<game>/review.py).
REVIEW_MODULES = {
    "carambouille": "companion.rules.carambouille.review",
    "jaipur": "companion.rules.jaipur.review",
    "frutti": "companion.rules.frutti.review",
}


class LoggedEntry(Protocol):
    seq: int
    type: str
    event: dict[str, Any]
    summary: str
    created_at: datetime


def review_module(slug: str) -> ModuleType | None:
    """The game's review module, or None for a game without one."""
    name = REVIEW_MODULES.get(slug)
    return importlib.import_module(name) if name else None


def review_of(slug: str, game: ModuleType, state) -> Review:
    """The session's review; a game without a review module gets standings by its scores only."""
    module = review_module(slug)
    if module is not None:
        return module.review(state)
    scores = tuple(game.scores(state))
    standings = ranked(scores)
    return Review("Entry", "Points", "Points", standings, first_placed(standings), (), (),
                  tuple({"score": score} for score in scores), score_stats("points"))


@dataclass(frozen=True)
class TimelineRow:
    """One entry in words, with the hand or round it belongs to."""

    seq: int
    time: datetime
    label: str  # "Hand 3"; "" for a game without periods
    text: str
    undone: bool
    about_table: bool  # an undo, a reopen, a timer: not a move of the game


def _without_label(text: str, label: str) -> str:
    """ "Hand 2: Ana dealt…" under the label "Hand 2" reads "Ana dealt…"."""
    prefix = f"{label}: "
    if label and text.startswith(prefix) and len(text) > len(prefix):
        rest = text[len(prefix):]
        return rest[0].upper() + rest[1:]
    return text


def timeline(slug: str, game: ModuleType, players: Sequence[str], options: dict,
             rows: Sequence[tuple[LoggedEntry, bool, bool]]) -> list[TimelineRow]:
    """Every entry, oldest first; ``rows`` are (entry, undone, is a game entry) in log order.

    The live game entries are replayed to know the hand or round of each: an
    entry belongs to the period of the state after it (a deal opens the new
    hand); undone and table entries to the period the game was in.
    """
    module = review_module(slug)
    state = game.new_game(list(players), options)
    lines = []
    for entry, undone, is_game in rows:
        if is_game and not undone:
            state = game.apply(state, entry.event)
        label = f"{module.PERIOD_NAME} {module.period_number(state)}" if module else ""
        lines.append(TimelineRow(entry.seq, entry.created_at, label, _without_label(entry.summary, label),
                                 undone, not is_game))
    return lines
