"""The groups this phone is in, whether it keeps them, and the one it is looking at.

On a home server every phone is in every group, without a step, and may do anything a keeper may. On a
private one (``GROUPS = "private"``) a phone is in the groups it has a member row in (``companion.groups.
members``): the server's word, read by the phone's id, so that a phone taken out is out on its very next
request. Which group it looks at is its own choice, kept in its signed cookie. A cookie from before the
rows were kept names its groups by id: honoured once (``members.from_cookie``), then dropped.
"""

from __future__ import annotations

from datetime import date

from flask import Flask, g, request, session

from .. import groups as groups_
from ..groups import members
from ..models import Group, Member, Table
from .phone import PAD, device_id, phone, seat_choice

# The cookie's list of groups from before memberships were kept on the server.
LEGACY = "groups"


def _from_cookie() -> None:
    kept = session.pop(LEGACY, None)
    ids = [i for i in kept if type(i) is int] if isinstance(kept, list) else []
    for group in groups_.by_ids(ids):
        members.from_cookie(group, device_id())


def _rows() -> dict[int, Member]:
    if "member_rows" not in g:
        if LEGACY in session:
            _from_cookie()
        g.member_rows = {row.group_id: row for row in members.of_phone(phone().device)}
    return g.member_rows


def member_groups() -> list[Group]:
    """The groups this phone is in, oldest first on a home server, as joined on a private one."""
    if "member_groups" not in g:
        if groups_.private():
            g.member_groups = groups_.by_ids(list(_rows()))
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
    return in_group(group.id)


def in_group(group_id: int) -> bool:
    """Whether this phone is in the group of id ``group_id``."""
    return any(mine.id == group_id for mine in member_groups())


def me(group: Group) -> Member | None:
    """This phone's row in ``group`` (a private server's), if it is in it."""
    return _rows().get(group.id) if groups_.private() else None


def is_keeper(group: Group) -> bool:
    """Whether this phone may do what only a keeper does in ``group`` (any phone of a home server may)."""
    if not groups_.private():
        return True
    return (mine := me(group)) is not None and mine.keeper


def private() -> bool:
    """Whether this server keeps its groups to their members (a phone may be taken out of one)."""
    return groups_.private()


def barred(group_id: int) -> bool:
    """Whether this phone was taken out of the group: none of its tables is shown to it, not even by a link."""
    return groups_.private() and members.barred(group_id, phone().device)


def may_remove(table: Table) -> bool:
    """Whether this phone may put the session in its group's bin: a keeper of its group, or a member seated at it
    (any phone of a home server). A phone that only holds the table's link never may."""
    if not groups_.private():
        return True
    group = next((mine for mine in member_groups() if mine.id == table.group_id), None)
    if group is None:
        return False
    return is_keeper(group) or isinstance(choice := seat_choice(table), int) or choice == PAD


def barred_groups() -> set[int]:
    """The groups this phone was taken out of (a private server's): their tables are not listed to it."""
    return members.barred_from(phone().device) if groups_.private() else set()


def look_at(group: Group) -> None:
    """Make ``group`` the one this phone's history, players and new tables are about."""
    session["group"] = group.id
    session.permanent = True


def _forget_rows() -> None:
    g.pop("member_groups", None)
    g.pop("member_rows", None)


def join(group: Group, name: str = "") -> Member | None:
    """Put ``group`` among this phone's groups and look at it (its row on a private server; ``members.TakenOut``
    if it was taken out since the invitation was made)."""
    row = members.join(group, device_id(), name) if groups_.private() else None
    _forget_rows()
    look_at(group)
    return row


def leave(group: Group) -> None:
    """Take ``group`` off this phone (RuleError to the last keeper of a group other phones are in)."""
    if (mine := me(group)) is not None:
        members.leave(mine)
    if session.get("group") == group.id:
        session.pop("group")
    _forget_rows()


def forget_rows() -> None:
    """This request changed the phone's rows: read them again when next asked."""
    _forget_rows()


def init_app(app: Flask) -> None:
    """Note, once a day per phone, that it was seen (a keeper may take out the phones not seen for a while)."""

    @app.before_request
    def seen() -> None:
        # A static file never reads the cookie: it would be sent one back, and kept by no cache.
        if not groups_.private() or request.endpoint == "static" or not (device := session.get("device")):
            return
        today = date.today().isoformat()
        if session.get("seen") != today:
            members.seen(device)
            session["seen"] = today
