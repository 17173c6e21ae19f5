"""A finished session as a play for BG Stats: the link that opens the app with the play filled in.

BG Stats (3.3.2 or later) takes a play from another app as one link,
``https://app.bgstatsapp.com/createPlay.html?data=<the play as URL-encoded JSON>``, which the phone opens
in the app. Nothing is sent from this server: the results page shows the link, a player taps it.

The play says who sent it (``sourceName``) and which session it is (``sourcePlayId``, the same for every
tap on the same session, so a second tap after a correction updates the play instead of adding one);
which game (``game``: its name as the table shows it; ``sourceGameId``, one per game as the players page
knows games, so a sheet of Hearts is not a sheet of Skat; ``highestWins``, as its review says; and, where it
was checked on BoardGameGeek, ``bggId``: the table's own ``bgg_id`` option, else the game's ``BGG_ID``); when
(``playDate``, a plain local time in the table's time zone) and for how
long (``durationMin``); and each player's ``name``, ``score``, ``rank``, ``winner``, ``startPlayer``
and ``sourcePlayerId`` (one per name, so "Ana" is the same person in every play sent). A match (a game that
declares ``MATCH``, Jaipur) is one play: its seals are the scores, the match's winner wins, and its rounds are
told in ``comments``.
"""

from __future__ import annotations

import hashlib
import json
import urllib.parse
from collections.abc import Sequence
from datetime import datetime
from types import ModuleType
from typing import Any

from ..models import Table
from ..rules import declared
from ..rules.review import Review
from ..table.kinds import is_game_entry
from ..table.log import game_title
from . import history
from .stats import name_key

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
# Part of the key under which BG Stats remembers how it matched our games and players: never renamed.
SOURCE_NAME = "Companion"
PLAY_DATE = "%Y-%m-%d %H:%M:%S"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def play_id(table: Table) -> str:
    """The session's id in BG Stats: the same on every tap, and no way back to the table's link."""
    return f"session-{_digest(table.token)}"


def player_id(name: str) -> str:
    """A player's id in BG Stats: one per name as the players page matches names ("ana" is "Ana")."""
    return f"player-{_digest(name_key(name))}"


def game_id(table: Table, game: ModuleType) -> str:
    """The game's id in BG Stats, one per game as the players page keeps a record: the game's slug; for a game
    whose tables name what they play (its ``title``: a score sheet's "Skat"), the slug and a hash of that name as
    names are matched ("Skat" and "SKAT " are one game, Hearts another)."""
    if getattr(game, "title", None) is None:
        return table.game
    return f"{table.game}-{_digest(name_key(game_title(table)))}"


def offered(table: Table, game: ModuleType, state) -> bool:
    """Whether the session can be logged: finished, and so with nothing left face down."""
    return table.finished and game.finished(state)


def _times(table: Table, entries: Sequence) -> tuple[datetime, datetime]:
    """When the play began (its first move; the table's creation if none) and ended (the session finished)."""
    moves = [entry.created_at for entry in entries if is_game_entry(entry)]
    start = moves[0] if moves else table.created_at
    end = table.finished_at or (moves[-1] if moves else table.created_at)
    return history.local(start), history.local(end)


def play(table: Table, game: ModuleType, review: Review, entries: Sequence, *, comments: str = "") -> dict[str, Any]:
    """The play BG Stats is handed for this finished session (``entries``: its log, oldest first)."""
    start, end = _times(table, entries)
    starter = (table.options or {}).get(game.STARTER_OPTION, 0)
    standing = {place.seat: place for place in review.standings}
    found: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_id(table),
        "playDate": start.strftime(PLAY_DATE),
        "durationMin": max(1, round((end - start).total_seconds() / 60)),
        "game": {"name": game_title(table), "sourceGameId": game_id(table, game),
                 "highestWins": not review.lowest_wins},
        "players": [{
            "name": name,
            "score": standing[seat].score,
            "rank": standing[seat].rank,
            "winner": seat in review.winners,
            "startPlayer": seat == starter,
            "sourcePlayerId": player_id(name),
        } for seat, name in enumerate(table.players)],
    }
    if (bgg_id := bgg_id_of(table, game)) is not None:
        found["game"]["bggId"] = bgg_id
    if comments:
        found["comments"] = comments
    return found


def bgg_id_of(table: Table, game: ModuleType) -> int | None:
    """The game's id on BoardGameGeek: the table's own (its ``bgg_id`` option: a score sheet names the game it
    scores), else the game's ``BGG_ID``; None if neither was checked there. The others are matched by name in
    BG Stats once, then by their sourceGameId."""
    return (table.options or {}).get("bgg_id") or declared(game, "BGG_ID")


def is_match(game: ModuleType) -> bool:
    """Whether a session of ``game`` is a match of rounds (its ``MATCH``), told round by round in the comments."""
    return declared(game, "MATCH")


def rounds_told(review: Review) -> str:
    """A match's rounds, one line each, as the breakdown says them ("Round 1: Ana wins 37 to 36. …")."""
    return "\n".join(f"{period.label}: {period.note}" if period.note else period.label
                     for period in review.periods if not period.in_progress)


def link(found: dict[str, Any]) -> str:
    """The link that opens BG Stats with ``found`` filled in."""
    data = json.dumps(found, ensure_ascii=False, separators=(",", ":"))
    return f"{CREATE_PLAY}?data={urllib.parse.quote(data, safe='')}"


def link_for(table: Table, game: ModuleType, state, review: Review, entries: Sequence) -> str | None:
    """The session's BG Stats link, or None while it cannot be logged (not finished)."""
    if not offered(table, game, state):
        return None
    comments = rounds_told(review) if is_match(game) else ""
    return link(play(table, game, review, entries, comments=comments))
