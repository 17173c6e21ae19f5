"""The group's phones, on its page: one named, one taken out, one made a keeper, this phone no longer keeping it.

Every action names the phone by its row's id in the group the phone looks at: a row of another group, or
a phone taken out already, is not found (404). Only a keeper takes out and makes keepers; a phone names
itself, and a keeper names any."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, url_for
from werkzeug.wrappers import Response

from .. import groups
from ..extensions import db
from ..forms.groups import KeeperForm, PhoneNameForm
from ..groups import log, members
from ..models import Member
from ..rules import RuleError
from ..rules.words import _
from ..web import membership
from .group_pages import current, keepers_only
from .groups import _page

bp = Blueprint("members", __name__)


def _phone_of(member_id: int) -> tuple:
    group = current()
    if not groups.private():
        abort(404)
    found = db.session.get(Member, member_id)
    if found is None or found.group_id != group.id or found.removed_at is not None:
        abort(404)
    return group, found


@bp.post("/group/phones/<int:member_id>/name")
def name(member_id: int) -> Response:
    """Name a phone in the group: this phone's own, or any for a keeper ("" gives it back its number)."""
    group, found = _phone_of(member_id)
    if found.id != getattr(membership.me(group), "id", None):
        keepers_only(group)
    form = PhoneNameForm()
    if not form.validate_on_submit():
        return _page(group, {"phone": form}, 422)
    members.rename(found, form.name.data or "")
    flash(_("The phone is now called %(name)s in the group.", name=members.display_name(found)))
    return redirect(url_for("groups.page", _anchor="phones-heading"), 303)


def _keeper_action(member_id: int, act, kind: str, said) -> Response:
    group, found = _phone_of(member_id)
    keepers_only(group)
    if not KeeperForm().validate_on_submit():
        abort(400)
    if found.id == membership.me(group).id:
        abort(404)  # this phone leaves, or stops keeping, by its own buttons
    try:
        act(found)
    except RuleError as refusal:
        form = KeeperForm()
        form.form_errors.append(refusal.message)
        return _page(group, {"keeper": form}, 422)
    log.note(group.id, kind, membership.me(group), name=found.name, number=found.number)
    db.session.commit()
    flash(said(members.display_name(found)))
    return redirect(url_for("groups.page", _anchor="phones-heading"), 303)


@bp.post("/group/phones/<int:member_id>/out")
def take_out(member_id: int) -> Response:
    """Take a phone out of the group (a keeper): on its next request it sees nothing of the group, its tables or its
    history, and its open table pages stop."""
    return _keeper_action(member_id, members.take_out, "phone_out", lambda phone: _(
        "%(phone)s was taken out of the group: it sees nothing of it any more.", phone=phone))


@bp.post("/group/phones/<int:member_id>/keeper")
def make_keeper(member_id: int) -> Response:
    """Make another phone a keeper of the group too (a keeper)."""
    return _keeper_action(member_id, members.make_keeper, "keeper_made",
                          lambda phone: _("%(phone)s keeps the group now too.", phone=phone))


@bp.post("/group/keeper/stop")
def stop_keeping() -> Response:
    """This phone no longer keeps the group (refused while it is the last keeper)."""
    group = current()
    mine = membership.me(group)
    if mine is None or not mine.keeper or not KeeperForm().validate_on_submit():
        abort(404)
    try:
        members.stop_keeping(mine)
    except RuleError as refusal:
        form = KeeperForm()
        form.form_errors.append(refusal.message)
        return _page(group, {"keeper": form}, 422)
    log.note(group.id, "keeper_stopped", mine)
    db.session.commit()
    flash(_("This phone no longer keeps the group."))
    return redirect(url_for("groups.page"), 303)
