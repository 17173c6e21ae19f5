"""The phones of a group on a private server: joining, leaving, taken out, keepers, names, last seen.

A phone is in a group while it has a live ``Member`` row there (``removed_at`` None). The phone that starts
a group keeps it; a keeper makes other keepers, and stops being one while another is left, so a group
with members always has a keeper. A phone taken out keeps its row, marked: neither its cookie nor the
invitation it had brings it back, only a newer invitation (``Group.invited_at``).
"""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa

from .. import models
from ..extensions import db
from ..models import Entry, Group, Member, Table, aware
from ..rules import RuleError
from ..rules.words import _
from ..table import signals


def display_name(member: Member) -> str:
    """What the group calls the phone: the name it was given, else its number ("Phone 3")."""
    return member.name or _("Phone %(number)d", number=member.number)


def live(group_id: int) -> sa.ColumnElement:
    """The condition of a live member row of the group."""
    return sa.and_(Member.group_id == group_id, Member.removed_at.is_(None))


def of_group(group_id: int) -> list[Member]:
    """The group's phones, keepers first, then as they joined."""
    return list(db.session.scalars(sa.select(Member).where(live(group_id))
                                   .order_by(Member.keeper.desc(), Member.joined_at, Member.id)))


def row(group_id: int, device: str | None) -> Member | None:
    """The phone's row in the group, live or taken out; None if it never joined."""
    if not device:
        return None
    return db.session.scalar(sa.select(Member).where(Member.group_id == group_id, Member.device == device))


def of_phone(device: str | None) -> list[Member]:
    """The phone's live rows in groups that are not removed, as it joined them."""
    if not device:
        return []
    return list(db.session.scalars(
        sa.select(Member).join(Group, Group.id == Member.group_id)
        .where(Member.device == device, Member.removed_at.is_(None), sa.not_(Group.removed))
        .order_by(Member.joined_at, Member.id)))


def barred(group_id: int, device: str | None) -> bool:
    """Whether the phone was taken out of the group (it sees none of its tables, even by their links)."""
    if not device:
        return False
    return db.session.scalar(sa.select(sa.func.count()).select_from(Member).where(
        Member.group_id == group_id, Member.device == device, Member.removed_at.is_not(None))) > 0


def barred_from(device: str | None) -> set[int]:
    """The groups the phone was taken out of."""
    if not device:
        return set()
    return set(db.session.scalars(sa.select(Member.group_id).where(Member.device == device,
                                                                   Member.removed_at.is_not(None))))


def keepers(group_id: int) -> int:
    """How many live keepers the group has."""
    return db.session.scalar(sa.select(sa.func.count()).select_from(Member).where(live(group_id), Member.keeper))


class TakenOut(RuleError):
    """The phone was taken out of the group after its invitation was made: only a newer one brings it back."""


def join(group: Group, device: str, name: str = "") -> Member:
    """Put the phone in the group (again, if it had left), keeping the group if it has no keeper yet; its row.

    Refused (``TakenOut``) to a phone taken out since the group's invitation was made. Two phones joining at
    the same instant each get a number of their own (a clash is tried again)."""
    for attempt in range(3):
        found = row(group.id, device)
        if found is not None and found.removed_at is None:
            return found
        if found is not None and (group.invited_at is None or aware(found.removed_at) >= aware(group.invited_at)):
            raise TakenOut(_("This phone was taken out of the group: ask a keeper for a new invitation."))
        try:
            member = found or Member(group_id=group.id, device=device, number=_next_number(group.id))
            member.removed_at, member.joined_at, member.seen_at = None, models.now(), models.now()
            member.name = name or member.name
            member.keeper = keepers(group.id) == 0
            db.session.add(member)
            db.session.commit()
            return member
        except sa.exc.IntegrityError:
            db.session.rollback()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def _next_number(group_id: int) -> int:
    return (db.session.scalar(sa.select(sa.func.max(Member.number)).where(Member.group_id == group_id)) or 0) + 1


def _last_keeper(member: Member) -> bool:
    return member.keeper and keepers(member.group_id) <= 1


def leave(member: Member) -> None:
    """The phone leaves the group (refused to its last keeper while other phones are in it)."""
    others = db.session.scalar(sa.select(sa.func.count()).select_from(Member).where(
        live(member.group_id), Member.id != member.id))
    if _last_keeper(member) and others:
        raise RuleError(_("You are this group's only keeper: make another phone a keeper before you leave."))
    db.session.delete(member)
    db.session.commit()


def take_out(member: Member) -> None:
    """Take the phone out of its group: its next request sees nothing of the group, its old invitation is spent."""
    if _last_keeper(member):
        raise RuleError(_("This is the group's only keeper: make another phone a keeper first."))
    member.removed_at, member.keeper = models.now(), False
    db.session.commit()
    signals.announce_phones_taken_out()


def unseen(group_id: int, days: int, but: Member) -> list[Member]:
    """The group's phones not seen for ``days`` days, but ``but`` (the keeper asking)."""
    since = models.now() - timedelta(days=days)
    return list(db.session.scalars(sa.select(Member).where(
        live(group_id), Member.seen_at < since, Member.id != but.id).order_by(Member.number)))


def make_keeper(member: Member) -> None:
    """The phone keeps the group too."""
    member.keeper = True
    db.session.commit()


def stop_keeping(member: Member) -> None:
    """The phone no longer keeps the group (refused to its last keeper)."""
    if _last_keeper(member):
        raise RuleError(_("You are this group's only keeper: make another phone a keeper first."))
    member.keeper = False
    db.session.commit()


def rename(member: Member, name: str) -> None:
    """Give the phone another name in the group ("" gives it back its number)."""
    member.name = name
    db.session.commit()


def seen(device: str) -> None:
    """The phone was seen today, in each of its groups."""
    db.session.execute(sa.update(Member).where(Member.device == device, Member.removed_at.is_(None))
                       .values(seen_at=models.now()))
    db.session.commit()


def oldest_phone(group_id: int) -> str | None:
    """The phone that recorded the group's first entry (a group's keeper when memberships came to the server)."""
    return db.session.scalar(sa.select(Entry.device).join(Table, Table.id == Entry.table_id).where(
        Table.group_id == group_id, Entry.device != "").order_by(Entry.created_at, Entry.id).limit(1))


def from_cookie(group: Group, device: str) -> Member | None:
    """A phone whose cookie names ``group`` from before memberships were kept here: honoured once, as its row.

    Only while the group's invitation is still the one of those days (a new one ends it), and only for a
    phone that never had a row there. The group's oldest phone keeps it, and so does the first one back."""
    if group.invited_at is not None or group.removed or row(group.id, device) is not None:
        return None
    member = join(group, device)
    if not member.keeper and oldest_phone(group.id) == device:
        make_keeper(member)
    return member
