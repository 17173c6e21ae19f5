"""What a keeper does to a whole group: rename it, make a new invitation (taking out the phones not seen for a while),
remove it; each kept in the group's log."""

from __future__ import annotations

from datetime import timedelta

from .. import models
from ..extensions import db
from ..models import Group, Member, new_join_code, new_token
from ..table import signals
from . import bin, log, members


def rename(group: Group, name: str, *, by: Member | None | str = None) -> None:
    """Give the group another name (``by``: who, for its log)."""
    group.name = name
    log.note(group.id, "renamed", by, name=name)
    db.session.commit()


def new_invitation(group: Group, *, by: Member | None | str = None, unseen_days: int | None = None) -> int:
    """Put away the group's link and code and make new ones: who has the old ones can no longer join. With
    ``unseen_days``, take out the phones not seen for that many days (but ``by``); how many were."""
    group.invite_token, group.join_code, group.invited_at = new_token(), new_join_code(), models.now()
    log.note(group.id, "invitation", by)
    taken_out = []
    if unseen_days is not None and isinstance(by, Member):
        taken_out = members.unseen(group.id, unseen_days, but=by)
        for member in taken_out:
            member.removed_at, member.keeper = models.now(), False
        since = (models.now() - timedelta(days=unseen_days)).date().isoformat()
        log.note(group.id, "unseen_out", by, count=len(taken_out), since=since)
    db.session.commit()
    if taken_out:
        signals.announce_phones_taken_out()
    return len(taken_out)


def remove(group: Group, *, by: Member | None | str = None) -> int:
    """Put the group and its sessions in the bin (its log says who); how many sessions went with it."""
    log.note(group.id, "group_removed", by)
    return bin.remove_group(group)
