"""The group's log: what its keepers did (a rename, an invitation, a removal, a restore, a phone taken out, a
keeper made), who and when, shown on the group's page in each reader's language.

An entry keeps the names as they were when it was written (the phone's name, a session's game and players),
never a forgotten person's name: the log says that a name was forgotten, not whose.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import sqlalchemy as sa
from flask_babel import format_date

from ..extensions import db
from ..models import GroupLog, Member
from ..rules.words import _, ngettext
from .members import display_name

# How many of the newest entries the group's page shows.
SHOWN = 20
# Who did what an operator did on the server's command line (kept as the number no phone has).
OPERATOR = "operator"
OPERATOR_NUMBER = -1


def note(group_id: int, kind: str, by: Member | None | str, **details) -> None:
    """Add an entry to the group's log (committed with the caller's change). ``by``: the member's row, None for a
    phone of a home server, or ``OPERATOR``."""
    if kind not in SENTENCES:
        raise ValueError(kind)
    name, number = ("", OPERATOR_NUMBER) if by == OPERATOR else ("", None) if by is None else (by.name, by.number)
    db.session.add(GroupLog(group_id=group_id, kind=kind, by_name=name, by_number=number, details=details))


def recent(group_id: int, limit: int = SHOWN) -> list[GroupLog]:
    """The group's newest entries, newest first."""
    return list(db.session.scalars(sa.select(GroupLog).where(GroupLog.group_id == group_id)
                                   .order_by(GroupLog.at.desc(), GroupLog.id.desc()).limit(limit)))


def who(entry: GroupLog) -> str:
    """Who did it, in the reader's language."""
    if entry.by_number == OPERATOR_NUMBER:
        return _("The server's operator")
    if entry.by_number is None:
        return _("A phone")
    return display_name(Member(name=entry.by_name, number=entry.by_number))


def _day(iso: str | None) -> str:
    try:
        return format_date(date.fromisoformat(iso or ""), "medium")
    except ValueError:
        return ""


def _phone(details: dict) -> str:
    return display_name(Member(name=details.get("name", ""), number=details.get("number", 0)))


SENTENCES: dict[str, Callable[[str, dict], str]] = {
    "renamed": lambda by, d: _("%(who)s renamed the group %(name)s.", who=by, name=d.get("name", "")),
    "season_started": lambda by, d: _("%(who)s started the season %(name)s on %(day)s.", who=by,
                                      name=d.get("name", ""), day=_day(d.get("day"))),
    "season_changed": lambda by, d: _("%(who)s changed the season %(name)s: it starts on %(day)s.", who=by,
                                      name=d.get("name", ""), day=_day(d.get("day"))),
    "invitation": lambda by, d: _("%(who)s made a new invitation: the old link and code no longer let anyone in.",
                                  who=by),
    "unseen_out": lambda by, d: ngettext(
        "%(who)s took out %(num)d phone not seen since %(date)s.",
        "%(who)s took out %(num)d phones not seen since %(date)s.", d.get("count", 0), who=by,
        date=_day(d.get("since"))),
    "session_removed": lambda by, d: _("%(who)s removed the %(game)s session of %(players)s (to the bin).",
                                       who=by, game=d.get("game", ""), players=d.get("players", "")),
    "session_restored": lambda by, d: _("%(who)s restored the %(game)s session of %(players)s.",
                                        who=by, game=d.get("game", ""), players=d.get("players", "")),
    "phone_out": lambda by, d: _("%(who)s took %(phone)s out of the group.", who=by, phone=_phone(d)),
    "keeper_made": lambda by, d: _("%(who)s made %(phone)s a keeper.", who=by, phone=_phone(d)),
    "keeper_stopped": lambda by, d: _("%(who)s stopped keeping the group.", who=by),
    "group_removed": lambda by, d: _("%(who)s removed the group (to the bin).", who=by),
    "group_restored": lambda by, d: _("%(who)s restored the group.", who=by),
    "forgotten": lambda by, d: ngettext("%(who)s forgot a person's name at %(num)d session.",
                                        "%(who)s forgot a person's name at %(num)d sessions.",
                                        d.get("count", 0), who=by),
}


def sentence(entry: GroupLog) -> str:
    """The entry in the reader's language."""
    return SENTENCES[entry.kind](who(entry), entry.details or {})
