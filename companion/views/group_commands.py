"""The operator's ``flask groups`` commands: the groups and their invitations, a group's phones, a keeper made when
every keeper's phone is lost, and the bins (listed, restored from, emptied)."""

from __future__ import annotations

import click
import sqlalchemy as sa
from flask import Flask, current_app
from flask.cli import AppGroup, with_appcontext

from .. import groups
from ..extensions import db
from ..groups import bin, log, members
from ..models import REMOVED, Group, Table
from ..table.log import game_title



@click.group("groups", cls=AppGroup, invoke_without_command=True)
@click.pass_context
@with_appcontext
def cli(context: click.Context) -> None:
    """The groups, each with its sessions, phones and invitation link (with no command); their phones, keepers and
    bins (an operator invites a group's first member)."""
    if context.invoked_subcommand is None:
        list_groups()


def _group(reference: str, *, removed: bool = False) -> Group:
    """The group an operator names by its number or its name (the oldest of that name)."""
    query = sa.select(Group).where(Group.removed if removed else sa.not_(Group.removed))
    query = query.where(Group.id == int(reference)) if reference.isdigit() else query.where(Group.name == reference)
    group = db.session.scalar(query.order_by(Group.id))
    if group is None:
        raise click.ClickException(f"No group {reference!r}{' in the bin' if removed else ''}: see `flask groups`"
                                   f"{' bin' if removed else ''}.")
    return group


def list_groups() -> None:
    """Each group with its number of sessions and phones and its invitation link."""
    every = groups.groups() or [groups.home_group()]
    counts = groups.session_counts([group.id for group in every])
    root = (current_app.config.get("PUBLIC_URL") or "").rstrip("/")
    if not groups.private():
        click.echo("Groups are open (no COMPANION_GROUPS=private): every phone that reaches the server is in each.")
    for group in every:
        name = group.name or "(the home group, unnamed)"
        phones = f", phones {len(members.of_group(group.id))}" if groups.private() else ""
        click.echo(f"{group.id} {name}: sessions {counts[group.id]}{phones}, code {group.join_code}, "
                   f"invitation {root}/g/{group.invite_token}")
    if not root:
        click.echo("(Set COMPANION_PUBLIC_URL to print whole links.)")


@cli.command("phones")
@click.argument("group")
def phones(group: str) -> None:
    """The phones of GROUP (its number or name): number, name, keeper, joined, last seen."""
    found = _group(group)
    for member in members.of_group(found.id):
        keeper = " (keeper)" if member.keeper else ""
        click.echo(f"{member.number} {member.name or '-'}{keeper}: joined {member.joined_at:%Y-%m-%d}, "
                   f"last seen {member.seen_at:%Y-%m-%d}")


@cli.command("keeper")
@click.argument("group")
@click.argument("phone", type=int)
def keeper(group: str, phone: int) -> None:
    """Make phone number PHONE of GROUP a keeper (when every keeper's phone is lost)."""
    found = _group(group)
    member = next((m for m in members.of_group(found.id) if m.number == phone), None)
    if member is None:
        raise click.ClickException(f"No phone {phone} in {found.name!r}: see `flask groups phones {found.id}`.")
    members.make_keeper(member)
    log.note(found.id, "keeper_made", log.OPERATOR, name=member.name, number=member.number)
    db.session.commit()
    click.echo(f"Phone {member.number} keeps {found.name!r} now.")


@cli.command("bin")
def in_bin() -> None:
    """What lies in the bins: removed groups and sessions, each with the day it is emptied for good."""
    removed_groups, tables = bin.in_bin()
    if not removed_groups and not tables:
        click.echo("The bins are empty.")
    for group in removed_groups:
        click.echo(f"group {group.id} {group.name!r}: until {bin.until(group.removed_at):%Y-%m-%d}")
    for table in tables:
        click.echo(f"session {table.id} ({game_title(table)}: {', '.join(table.players)}) of group {table.group_id}: "
                   f"until {bin.until(table.removed_at):%Y-%m-%d}")


@cli.command("restore")
@click.option("--session", "session_id", type=int, help="A session's number, as `flask groups bin` lists it.")
@click.option("--group", "group_ref", help="A removed group's number or name.")
def restore(session_id: int | None, group_ref: str | None) -> None:
    """Take a session or a group out of the bin, as it was."""
    if (session_id is None) == (group_ref is None):
        raise click.UsageError("Name one: --session N or --group N.")
    if group_ref is not None:
        group = _group(group_ref, removed=True)
        if not bin.restore_group(group):
            raise click.ClickException(f"Group {group.id} is no longer in the bin.")
        log.note(group.id, "group_restored", log.OPERATOR)
        db.session.commit()
        click.echo(f"Group {group.id} {group.name!r} restored, with its sessions.")
        return
    table = db.session.get(Table, session_id)
    if table is None or table.status != REMOVED or table.removed_with_group or not bin.restore_session(table):
        raise click.ClickException(f"Session {session_id} is not in a bin (a group's session comes back with it).")
    table = db.session.get(Table, session_id)
    log.note(table.group_id, "session_restored", log.OPERATOR, game=game_title(table), players=", ".join(table.players))
    db.session.commit()
    click.echo(f"Session {session_id} restored.")


@cli.command("empty-bin")
def empty_bin() -> None:
    """Empty for good what has lain in the bins for its time (the server does it by itself, hourly)."""
    sessions, removed_groups = bin.empty()
    click.echo(f"Emptied for good: {sessions} sessions, {removed_groups} groups.")


def init_app(app: Flask) -> None:
    """Add ``flask groups`` (listing the groups when given no command) to the app's commands."""
    app.cli.add_command(cli)
