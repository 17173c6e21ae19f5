"""The groups: this phone's groups (switch, start, join, a removed one restored), the group's own page (its phones,
invite, rename, leave, remove, its bin and log), and an invitation's page."""

from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from .. import groups, models
from ..forms import JoinForm
from ..forms.groups import (GroupNameForm, JoinGroupForm, KeeperForm, LeaveGroupForm, NewInvitationForm,
                            PhoneNameForm, RemoveGroupForm, SwitchGroupForm)
from ..groups import bin, keeping, log, members
from ..models import Group
from ..rules import RuleError
from ..rules.words import _, ngettext
from ..web.hosting import phone_url
from ..web import membership
from ..web.phone import phone
from .group_pages import current, group_name, group_page, in_no_group, keepers_only
from .review import local_time
from .tables import qr_response

bp = Blueprint("groups", __name__, cli_group=None)


@bp.app_context_processor
def group_words() -> dict:
    return {"group_name": group_name, "phone_name": members.display_name, "log_sentence": log.sentence,
            "log_who": log.who, "bin_until": bin.until}


def _mine(start: GroupNameForm | None = None, join: JoinForm | None = None, status: int = 200) -> Response:
    mine = membership.member_groups()
    binned = bin.groups_kept_by(phone().device) if groups.private() else []
    return group_page((render_template(
        "groups/mine.html", mine=mine, current=membership.current_group(), private=groups.private(),
        counts=groups.session_counts([group.id for group in mine + binned]), switch=SwitchGroupForm(),
        binned=binned, restore=KeeperForm(), start=start or GroupNameForm(formdata=None),
        join_form=join or JoinForm(formdata=None)), status))


@bp.get("/groups")
def mine() -> Response:
    """This phone's groups, the one it looks at marked, each a tap away; start or join one (a private server)."""
    return _mine()


@bp.post("/groups/new")
def start() -> Response:
    """Start a group: this phone is its first member and keeps it."""
    if not groups.private():
        abort(404)
    form = GroupNameForm()
    if not form.validate_on_submit():
        return _mine(start=form, status=422)
    group = groups.start(form.name.data)
    membership.join(group)
    return redirect(url_for("groups.page"), 303)


@bp.post("/groups/<int:group_id>/switch")
def switch(group_id: int) -> Response:
    """Look at another of this phone's groups: its history, its players, its new tables."""
    group = next((mine for mine in membership.member_groups() if mine.id == group_id), None)
    if group is None or not SwitchGroupForm().validate_on_submit():
        abort(404)
    membership.look_at(group)
    return redirect(url_for("review.history_page"), 303)


def page_context(group: Group, forms: dict | None = None) -> dict:
    """What the group's page shows this phone: its phones, the invitation, the bin, the log, the forms it may use."""
    mine = membership.me(group)
    keeper = membership.is_keeper(group)
    given = {"rename": GroupNameForm(formdata=None, name=group.name), "leave": LeaveGroupForm(),
             "invitation": NewInvitationForm(formdata=None), "phone": PhoneNameForm(formdata=None,
             name=mine.name if mine else ""), "keeper": KeeperForm(), **(forms or {})}
    return {"group": group, "private": groups.private(), "forms": given, "keeper": keeper, "me": mine,
            "phones": members.of_group(group.id) if groups.private() else [],
            "count": groups.session_counts([group.id])[group.id], "log": log.recent(group.id),
            "bin": bin.sessions(group.id), "invite_url": phone_url("groups.invite", token=group.invite_token)}


def _page(group: Group, forms: dict | None = None, status: int = 200) -> Response:
    return group_page((render_template("groups/group.html", **page_context(group, forms)), status))


@bp.get("/group")
def page() -> Response:
    """The group's own page: its phones and keepers, how to invite someone, its bin and log, its whole history."""
    if (group := membership.current_group()) is None:
        return group_page(in_no_group())
    return _page(group)


@bp.post("/group/rename")
def rename() -> Response:
    """Give the group another name (a keeper)."""
    group = current()
    keepers_only(group)
    form = GroupNameForm()
    if not form.validate_on_submit():
        return _page(group, {"rename": form}, 422)
    keeping.rename(group, form.name.data, by=membership.me(group))
    flash(_("The group is now called %(name)s.", name=group.name))
    return redirect(url_for("groups.page"), 303)


@bp.post("/group/invitation")
def new_invitation() -> Response:
    """Put the group's link and code away and make new ones (a keeper), and take out the phones not seen for N days."""
    group = current()
    if not groups.private():
        abort(404)
    keepers_only(group)
    form = NewInvitationForm()
    if not form.validate_on_submit():
        return _page(group, {"invitation": form}, 422)
    taken_out = keeping.new_invitation(group, by=membership.me(group), unseen_days=form.unseen_days.data)
    flash(_("The group has a new link and code: the old ones no longer let anyone in."))
    if form.unseen_days.data is not None:
        since = models.now() - timedelta(days=form.unseen_days.data)
        flash(ngettext("%(num)d phone not seen since %(date)s was taken out.",
                       "%(num)d phones not seen since %(date)s were taken out.", taken_out,
                       date=local_time(since, "date")))
    return redirect(url_for("groups.page"), 303)


@bp.post("/group/leave")
def leave() -> Response:
    """Take the group off this phone: its history, players and invitation are no longer shown here."""
    group = current()
    if not groups.private() or not LeaveGroupForm().validate_on_submit():
        abort(404)
    try:
        membership.leave(group)
    except RuleError as refusal:
        form = LeaveGroupForm()
        form.form_errors.append(refusal.message)
        return _page(group, {"leave": form}, 422)
    flash(_("This phone has left %(name)s.", name=group_name(group)))
    response = redirect(url_for("groups.mine"), 303)
    # The pages this phone kept of the group (to show without a connection) go with it.
    response.headers["Clear-Site-Data"] = '"cache"'
    return response


@bp.route("/group/remove", methods=["GET", "POST"])
def removal() -> Response:
    """Put the group with every session in the bin (a keeper): asked twice, the second time with its name typed."""
    group = current()
    if not groups.private():
        abort(404)
    keepers_only(group)
    form = RemoveGroupForm()
    step, status = 1, 200
    if form.validate_on_submit():
        if form.step.data != "2":
            step = 2
        elif form.name.data == group.name:
            name = group.name
            keeping.remove(group, by=membership.me(group))
            membership.forget_rows()
            flash(_("The group %(name)s is in the bin with every session it played: you can restore it here "
                    "until %(date)s.", name=name, date=local_time(bin.until(group.removed_at), "date")))
            return redirect(url_for("groups.mine"), 303)
        else:
            step, status = 2, 422
            form.name.errors = [_("That is not the group's name: nothing was removed.")]
    return group_page((render_template("groups/remove.html", group=group, form=form, step=step, days=bin.days(),
                                       count=groups.session_counts([group.id])[group.id]), status))


@bp.get("/g/<token>")
def invite(token: str) -> Response:
    """An invitation: the group's name, and joining it with one tap (a phone already in it goes to it)."""
    group = groups.by_invite(token)
    if group is None:
        abort(404)
    if membership.is_member(group):
        membership.look_at(group)
        return redirect(url_for("groups.page"), 303)
    return group_page(render_template("groups/invite.html", group=group, form=JoinGroupForm(formdata=None)))


@bp.post("/g/<token>")
def accept(token: str) -> Response:
    """Join the group of the invitation, under the name the phone gives."""
    group = groups.by_invite(token)
    if group is None:
        abort(404)
    form = JoinGroupForm()
    if form.validate_on_submit():
        try:
            welcome(group, form.name.data or "")
            return redirect(url_for("groups.page"), 303)
        except members.TakenOut as refusal:
            form.form_errors.append(refusal.message)
    return group_page((render_template("groups/invite.html", group=group, form=form), 422))


def welcome(group: Group, name: str = "") -> None:
    """Put ``group`` on this phone, and say so on the group's page it is sent to (by link or by code)."""
    membership.join(group, name)
    flash(_("Welcome to %(name)s: its history and players are on this phone now.", name=group_name(group)))


@bp.get("/g/<token>/qr.svg")
def qr(token: str) -> Response:
    """The QR code of the group's invitation link."""
    group = groups.by_invite(token)
    if group is None or not membership.is_member(group):
        abort(404)
    return qr_response(phone_url("groups.invite", token=group.invite_token), _("Scan to join this group"))
