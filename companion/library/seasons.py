"""A group's own seasons in its library file: written with its sessions, checked with the file, brought in with them.

Each group's envelope lists the seasons the group started (``"seasons": [{"name": "Winter cup", "starts_on":
"2026-12-01"}]``, by their first day); a file without the list (written before seasons were) has none. Bringing
the file in adds each season whose first day the group has no season of yet: a group's season of that day is
kept as it is (one season a day), so a file brought in twice adds nothing the second time.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

import sqlalchemy as sa

from ..extensions import db
from ..inputs import bounds
from ..inputs.names import CONTROL, clean
from ..models import SEASON_NAME_LENGTH, Group, Season
from ..review.exchange import ImportRefused
from ..rules.words import _, ngettext


def exported(group: Group) -> list[dict[str, str]]:
    """The seasons the group started, by their first day, as the file lists them."""
    return [{"name": season.name, "starts_on": season.starts_on.isoformat()} for season in db.session.scalars(
        sa.select(Season).where(Season.group_id == group.id).order_by(Season.starts_on))]


def _refused(number: int) -> ImportRefused:
    # Translators: %(number)d counts the seasons of the file from 1.
    return ImportRefused(ngettext("Season %(number)d of the file cannot be read: it needs a name of 1 to %(num)d "
                                  "character and a first day (like 2026-12-01).",
                                  "Season %(number)d of the file cannot be read: it needs a name of 1 to %(num)d "
                                  "characters and a first day (like 2026-12-01).", SEASON_NAME_LENGTH, number=number))


def read(part: Mapping[str, Any]) -> list[tuple[str, date]]:
    """One group's seasons in the file, checked: (name, first day); ImportRefused naming the first that is not one."""
    listed = part.get("seasons", [])
    if not isinstance(listed, list):
        raise ImportRefused(_("The seasons of this file are not a list."))
    found = []
    for number, item in enumerate(listed, start=1):
        name = clean(item.get("name")) if isinstance(item, dict) and isinstance(item.get("name"), str) else ""
        try:
            day = date.fromisoformat(item["starts_on"])
        except (KeyError, TypeError, ValueError):
            raise _refused(number) from None
        if not name or len(name) > SEASON_NAME_LENGTH or CONTROL.search(name) or not bounds.day_in_range(day):
            raise _refused(number)
        found.append((name, day))
    return found


def stage(group: Group, listed: list[tuple[str, date]]) -> int:
    """Add to the transaction under way the file's seasons whose first day the group has none of (the group
    too, if new and given a season); how many."""
    taken = set() if group.id is None else set(db.session.scalars(
        sa.select(Season.starts_on).where(Season.group_id == group.id)))
    fresh = [(name, day) for name, day in dict((day, (name, day)) for name, day in reversed(listed)).values()
             if day not in taken]
    if fresh and group.id is None:
        db.session.add(group)
        db.session.flush()
    db.session.add_all(Season(group_id=group.id, name=name, starts_on=day) for name, day in fresh)
    return len(fresh)
