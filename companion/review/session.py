"""One session's review, derived from its game and entries: the game's review and the timeline in words."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from types import ModuleType
from typing import Any, Protocol

from ..rules import GAMES
from ..rules.review import Review, first_placed, ranked, score_stats
from ..rules.words import N_
from ..table.state import walk
from . import sentences


class LoggedEntry(Protocol):
    seq: int
    type: str
    event: dict[str, Any]
    summary: str
    created_at: datetime


def review_module(slug: str) -> ModuleType | None:
    """The game's pure review module, ``review`` beside its rules (``companion/rules/<game>/review.py``), or None
    for a game without one."""
    return _review_named(f"{GAMES[slug].__name__}.review")


@cache
def _review_named(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        # Only the review itself may be missing: a review that imports something missing is a broken review.
        if error.name != name:
            raise
        return None


def period_key(slug: str, review: Review | None = None) -> str:
    """The English word of the game's periods ("Hand", "Round"; "Entry" without a review module): the review's words key."""
    if review is not None and review.period_name in (sentences.HAND, sentences.ROUND, sentences.ENTRY,
                                                     sentences.CATEGORY):
        return review.period_name
    module = review_module(slug)
    return module.PERIOD_NAME if module is not None else sentences.ENTRY


def review_of(slug: str, game: ModuleType, state) -> Review:
    """The session's review; a game without a review module gets standings by its scores only."""
    module = review_module(slug)
    if module is not None:
        return module.review(state)
    scores = tuple(game.scores(state))
    standings = ranked(scores)
    return Review(sentences.ENTRY, N_("Points"), N_("Points"), standings, first_placed(standings), (), (),
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


def without_label(text: str, label: str) -> str:
    """ "Hand 2: Ana dealt…" under the label "Hand 2" reads "Ana dealt…" (French "Manche 2 : …" too)."""
    prefix = re.match(re.escape(label) + r"\s*:\s+", text) if label else None
    if prefix and len(text) > prefix.end():
        rest = text[prefix.end():]
        return rest[0].upper() + rest[1:]
    return text


# Words an entry given the state before it and the earlier entries' words (companion/table/wording.py).
Wording = Callable[[Any, Any, dict[int, str]], str]


def timeline(slug: str, game: ModuleType, players: Sequence[str], options: dict,
             rows: Sequence[tuple[LoggedEntry, bool, bool]], word: Wording | None = None) -> list[TimelineRow]:
    """Every entry, oldest first; ``rows`` are (entry, undone, is a game entry) of the whole log, in order.

    ``word`` words each entry in the reader's language when shown; without it, its stored summary.

    Each game entry belongs to the period of the state after it where it stands (``table.state.walk``, as its
    words say it: a deal opens the new hand; a sheet's round 3 is its round 2 once round 2 is undone); an
    undone one to the period it made when it was taken back; the table's entries to the period the game was in.
    """
    module = review_module(slug)
    placed = {entry.seq: (before, after) for entry, before, after in walk(game, list(players), options,
                                                                           [entry for entry, _undone, _game in rows])}
    state = game.new_game(list(players), options)
    lines = []
    worded: dict[int, str] = {}
    for entry, undone, is_game in rows:
        before, after = placed.get(entry.seq, (state, None)) if is_game else (state, None)
        if is_game and not undone and after is not None:
            state = after
        text = worded[entry.seq] = word(entry, before, worded) if word else entry.summary
        # A game whose entries belong to no numbered period (a sheet filled in by categories) says None.
        number = module.period_number(state if after is None else after) if module else None
        label = "" if number is None else sentences.label(module.PERIOD_NAME, number)
        lines.append(TimelineRow(entry.seq, entry.created_at, label, without_label(text, label),
                                 undone, not is_game))
    return lines
