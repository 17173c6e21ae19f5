"""The groups this phone is in, and the one it is looking at: kept in its signed session cookie.

On a home server every phone is in every group, without a step; on a private one (``GROUPS =
"private"``) a phone is in the groups whose invitation it opened, until it leaves. The cookie names
groups by id: a removed group's id never comes back (``models.Group``).
"""

from __future__ import annotations

from flask import g, session

from .. import groups as groups_
from ..models import Group

# The most groups one phone keeps: a family, a club, a friend's evenings, and more.
MOST_GROUPS = 20


def _kept_ids() -> list[int]:
    kept = session.get("groups", [])
    return [i for i in kept if type(i) is int] if isinstance(kept, list) else []


def member_groups() -> list[Group]:
    """The groups this phone is in, oldest first on a home server, as joined on a private one."""
    if "member_groups" not in g:
        if groups_.private():
            g.member_groups = groups_.by_ids(_kept_ids())
        else:
            g.member_groups = groups_.groups() or [groups_.home_group()]
    return g.member_groups


def current_group() -> Group | None:
    """The group this phone is looking at: the one it chose last, else its first; None if it is in none."""
    member = member_groups()
    chosen = session.get("group")
    return next((group for group in member if group.id == chosen), member[0] if member else None)


def is_member(group: Group) -> bool:
    """Whether this phone is in ``group``."""
    return any(mine.id == group.id for mine in member_groups())


def look_at(group: Group) -> None:
    """Make ``group`` the one this phone's history, players and new tables are about."""
    session["group"] = group.id
    session.permanent = True


def join(group: Group) -> None:
    """Put ``group`` among this phone's groups (newest kept) and look at it."""
    if groups_.private():
        kept = [i for i in _kept_ids() if i != group.id] + [group.id]
        session["groups"] = kept[-MOST_GROUPS:]
    g.pop("member_groups", None)
    look_at(group)


def leave(group: Group) -> None:
    """Take ``group`` out of this phone's groups."""
    session["groups"] = [i for i in _kept_ids() if i != group.id]
    if session.get("group") == group.id:
        session.pop("group")
    g.pop("member_groups", None)
