"""A session as a JSON file: the whole entry log, players, options and times, as the import reads it back.

The file (format ``table-companion-session``, version 1; see docs/review.md) holds the game, players,
options, times and every entry in order. What is still secret at the table when it is exported (a
bonus token face down, the Carambouille cards a player holds) is left out (``withheld``).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ..models import Entry, Table
from ..rules import GAMES
from ..rules.words import N_, _
from ..table import kinds, log, wording

FORMAT = "table-companion-session"
VERSION = 1


def iso_time(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    return (moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment).isoformat()


# Sentences a person reads (in the file, on the import page): worded when used, in the reader's language.
WITHHELD = N_("Made during play: what was still secret at the table (a bonus token face down, the Carambouille "
            "cards a player holds) is left out of the entries marked \"withheld\". This file shows the session "
            "but cannot be imported; export it again once the game is over.")


def withheld_keys(table: Table, logged: list[Entry]) -> dict[int, tuple[str, ...]]:
    """Entry number -> the keys of its event still secret from the table now (the game's ``withheld``)."""
    game = GAMES[table.game]
    if not hasattr(game, "withheld"):
        return {}
    voided = log.voided_seqs(logged)
    state = game.new_game(table.players, table.options)
    applied = []
    for entry in logged:
        if kinds.is_game_entry(entry):
            applied.append((entry, state))
            if entry.seq not in voided:
                state = game.apply(state, entry.event)
    return {entry.seq: keys for entry, before in applied if (keys := game.withheld(before, entry.event, state))}


def _item(entry: Entry, summary: str, secret: tuple[str, ...]) -> dict[str, Any]:
    item = {"seq": entry.seq, "time": iso_time(entry.created_at), "type": entry.type, "event": entry.event,
            "summary": summary}
    if secret:
        item["event"] = {key: value for key, value in entry.event.items() if key not in secret}
        item["withheld"] = list(secret)
    return item


def export(table: Table, logged: list[Entry], *, withhold: bool = True) -> dict[str, Any]:
    """The session as a JSON-able dict: everything needed to rebuild it, but what is still secret at the table
    (kept only when ``withhold`` is False: the operator's export of a whole server, ``companion.library``)."""
    secret = withheld_keys(table, logged) if withhold else {}
    # Each entry as the pages say it now: an older entry undone renumbers a sheet's later rounds.
    summaries = wording.summaries(table, logged)
    data = {
        "format": FORMAT,
        "version": VERSION,
        "game": table.game,
        "game_name": log.game_title(table),
        "players": table.players,
        "options": table.options or {},
        "status": table.status,
        "created_at": iso_time(table.created_at),
        "finished_at": iso_time(table.finished_at),
        "entries": [_item(entry, summaries[entry.seq], secret.get(entry.seq, ())) for entry in logged],
    }
    if secret:
        data["withheld"] = _(WITHHELD)
    return data


def made_during_play(data: dict[str, Any]) -> bool:
    """Whether a session file was exported during play, with what was still secret left out (``withheld``)."""
    items = data.get("entries", [])
    return "withheld" in data or (isinstance(items, list) and any(isinstance(item, dict) and "withheld" in item
                                                                  for item in items))


def dumps(table: Table, logged: list[Entry]) -> str:
    """The export as text, readable by people too."""
    return json.dumps(export(table, logged), ensure_ascii=False, indent=1)
