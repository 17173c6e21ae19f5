"""The group's score sheets remembered: the last sheet of each game it played, offered again in one tap.

Nothing is stored for it: a sheet is its table's options, so the group's newest table of a game
(by its name, however it was capitalised) is that game's sheet.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from ..extensions import db
from ..inputs import names
from ..models import REMOVED, Table

SLUG = "sheet"
# How many of the group's newest sheets are read to find its games: more than a group plays in a year.
LOOKED_AT = 400


@dataclass(frozen=True)
class Sheet:
    """A game's sheet as the group last used it: its name, options and players in their seats."""

    name: str
    options: dict
    players: tuple[str, ...]


def _newest(group_id: int):
    return db.session.scalars(
        sa.select(Table).where(Table.group_id == group_id, Table.game == SLUG, Table.status != REMOVED)
        .order_by(Table.created_at.desc(), Table.id.desc()).limit(LOOKED_AT))


def remembered(group_id: int) -> list[Sheet]:
    """The group's sheet games, newest first, each as it was last played."""
    found: dict[str, Sheet] = {}
    for table in _newest(group_id):
        name = str(table.options.get("name", ""))
        if name and (key := names.key(name)) not in found:
            found[key] = Sheet(name, dict(table.options), tuple(table.players))
    return list(found.values())


def last_of(group_id: int, name: str) -> Sheet | None:
    """The group's last sheet of the game called ``name`` (matched as player names are), or None."""
    key = names.key(name)
    return next((sheet for sheet in remembered(group_id) if names.key(sheet.name) == key), None) if key else None


def form_data(sheet: Sheet) -> dict:
    """The new-sheet form's fields filled in as ``sheet`` was: the same game, rows, options, players and teams."""
    options = sheet.options
    teams = options.get("teams")
    data = {
        "name": sheet.name,
        "mode": options.get("mode", "rounds"),
        "rows": "\n".join(options.get("rows", ())),
        "tie_break": options.get("tie_break", ""),
        "lowest_wins": bool(options.get("lowest_wins")),
        "rounds": options.get("rounds"),
        "target": options.get("target"),
        "bgg_id": options.get("bgg_id"),
        "players": list(sheet.players),
        "teams": [str(team + 1) for team in teams] if teams else [],
    }
    return data


def row_count(options: dict) -> int:
    """The rows a player's cells form has: the categories, and the tie-break row last if there is one."""
    return len(options.get("rows", ())) + (1 if options.get("tie_break") else 0)
