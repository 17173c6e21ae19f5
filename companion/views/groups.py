"""The groups: this phone's groups (switch, start, join), the group's own page (invite, rename, leave,
remove), and an invitation's page."""

from __future__ import annotations

import click
from flask import Blueprint, abort, current_app, flash, redirect, render_template, url_for
from flask.cli import with_appcontext
from werkzeug.wrappers import Response

from .. import groups
from ..forms import JoinForm
from ..forms.groups import (GroupNameForm, JoinGroupForm, LeaveGroupForm, RemoveGroupForm,
                            SwitchGroupForm)
from ..groups.removal import remove
from ..models import Group
from ..rules.words import _
from ..server.hosting import phone_url
from ..web import membership
from .group_pages import group_page, in_no_group
from .tables import qr_response

bp = Blueprint("groups", __name__, cli_group=None)


def group_name(group: Group) -> str:
    """A group's name as a page shows it: the one it was given, else the home group's in the reader's language."""
    return group.name or _("Our group")


@bp.app_context_processor
def group_words() -> dict:
    return {"group_name": group_name}


def _mine(start: GroupNameForm | None = None, join: JoinForm | None = None, status: int = 200) -> Response:
    mine = membership.member_groups()
    return group_page((render_template(
        "groups/mine.html", mine=mine, current=membership.current_group(), private=groups.private(),
        counts=groups.session_counts([group.id for group in mine]), switch=SwitchGroupForm(),
        start=start or GroupNameForm(formdata=None), join_form=join or JoinForm(formdata=None)), status))


@bp.get("/groups")
def mine() -> Response:
    """This phone's groups, the one it looks at marked, each a tap away; start or join one (a private server)."""
    return _mine()


@bp.post("/groups/new")
def start() -> Response:
    """Start a group: this phone is its first member and looks at it."""
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


def _page(group: Group, forms: dict | None = None, status: int = 200) -> Response:
    given = {"rename": GroupNameForm(formdata=None, name=group.name), "leave": LeaveGroupForm(),
             **(forms or {})}
    return group_page((render_template(
        "groups/group.html", group=group, private=groups.private(), forms=given,
        count=groups.session_counts([group.id])[group.id],
        invite_url=phone_url("groups.invite", token=group.invite_token)), status))


@bp.get("/group")
def page() -> Response:
    """The group's own page: its name, how to invite someone, its whole history to take away or bring in."""
    if (group := membership.current_group()) is None:
        return group_page(in_no_group())
    return _page(group)


def _current() -> Group:
    if (group := membership.current_group()) is None:
        abort(404)
    return group


@bp.post("/group/rename")
def rename() -> Response:
    """Give the group another name."""
    group = _current()
    form = GroupNameForm()
    if not form.validate_on_submit():
        return _page(group, {"rename": form}, 422)
    groups.rename(group, form.name.data)
    flash(_("The group is now called %(name)s.", name=group.name))
    return redirect(url_for("groups.page"), 303)


@bp.post("/group/invitation")
def new_invitation() -> Response:
    """Put the group's link and code away and make new ones (an old one was shared too widely)."""
    group = _current()
    if not groups.private() or not LeaveGroupForm().validate_on_submit():
        abort(404)
    groups.new_invitation(group)
    flash(_("The group has a new link and code: the old ones no longer let anyone in."))
    return redirect(url_for("groups.page"), 303)


@bp.post("/group/leave")
def leave() -> Response:
    """Take the group off this phone: its history, players and invitation are no longer shown here."""
    group = _current()
    if not groups.private() or not LeaveGroupForm().validate_on_submit():
        abort(404)
    membership.leave(group)
    flash(_("This phone has left %(name)s.", name=group_name(group)))
    response = redirect(url_for("groups.mine"), 303)
    # The pages this phone kept of the group (to show without a connection) go with it.
    response.headers["Clear-Site-Data"] = '"cache"'
    return response


@bp.route("/group/remove", methods=["GET", "POST"])
def removal() -> Response:
    """Remove the group with every session: asked twice, the second time with its name typed."""
    group = _current()
    if not groups.private():
        abort(404)
    form = RemoveGroupForm()
    step, status = 1, 200
    if form.validate_on_submit():
        if form.step.data != "2":
            step = 2
        elif form.name.data == group.name:
            name = group.name
            remove(group)
            membership.leave(group)
            flash(_("The group %(name)s was removed, with every session it played.", name=name))
            response = redirect(url_for("groups.mine"), 303)
            response.headers["Clear-Site-Data"] = '"cache"'
            return response
        else:
            step, status = 2, 422
            form.name.errors = [_("That is not the group's name: nothing was removed.")]
    return group_page((render_template("groups/remove.html", group=group, form=form, step=step,
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
    return group_page(render_template("groups/invite.html", group=group, form=JoinGroupForm()))


@bp.post("/g/<token>")
def accept(token: str) -> Response:
    """Join the group of the invitation."""
    group = groups.by_invite(token)
    if group is None or not JoinGroupForm().validate_on_submit():
        abort(404)
    welcome(group)
    return redirect(url_for("groups.page"), 303)


def welcome(group: Group) -> None:
    """Put ``group`` on this phone, and say so on the group's page it is sent to (by link or by code)."""
    membership.join(group)
    flash(_("Welcome to %(name)s: its history and players are on this phone now.", name=group_name(group)))


@bp.get("/g/<token>/qr.svg")
def qr(token: str) -> Response:
    """The QR code of the group's invitation link."""
    group = groups.by_invite(token)
    if group is None or not membership.is_member(group):
        abort(404)
    return qr_response(phone_url("groups.invite", token=group.invite_token), _("Scan to join this group"))


@bp.cli.command("groups")
@with_appcontext
def list_groups() -> None:
    """List each group with its number of sessions and its invitation link (an operator invites the first member)."""
    every = groups.groups() or [groups.home_group()]
    counts = groups.session_counts([group.id for group in every])
    root = (current_app.config.get("PUBLIC_URL") or "").rstrip("/")
    if not groups.private():
        click.echo("Groups are open (no COMPANION_GROUPS=private): every phone that reaches the server is in each.")
    for group in every:
        name = group.name or "(the home group, unnamed)"
        click.echo(f"{name}: sessions {counts[group.id]}, code {group.join_code}, "
                   f"invitation {root}/g/{group.invite_token}")
    if not root:
        click.echo("(Set COMPANION_PUBLIC_URL to print whole links.)")
