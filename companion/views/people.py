"""The group's players: everyone's record, one person's page, and a person renamed or forgotten."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..forms.groups import ForgetPersonForm, RenamePersonForm
from ..extensions import db
from ..groups import log as group_log, people
from ..models import Group
from ..review import rivals, standings, stats
from .kept_pages import kept_page
from ..review.session import review_module
from ..rules import GAMES, RuleError
from ..rules.words import _, ngettext
from ..web import membership
from ..web.membership import current_group
from ..web.phone import device_id
from .group_pages import group_page, in_no_group, keepers_only

bp = Blueprint("people", __name__)


@bp.get("/players")
def players() -> Response:
    """Everyone who has played in the phone's group, with their record per game: by name, or who wins most
    first (``?order=wins``)."""
    if (group := current_group()) is None:
        return group_page(in_no_group())
    order = stats.BY_WINS if request.args.get("order") == stats.BY_WINS else stats.BY_NAME
    return group_page(kept_page(group, lambda: render_template(
        "review/players.html", players=stats.in_order(standings.players(group.id).values(), order), order=order,
        group=group, orders=(stats.BY_NAME, stats.BY_WINS))))


def _player_of(name: str) -> tuple[Group, stats.PlayerStats]:
    """The phone's group and its player of that name; 404 for a name the group has not played under (a phone in
    no group learns nothing, not even whether the name was ever played)."""
    key = stats.name_key(name)
    if (group := current_group()) is None or not key or (found := standings.players(group.id).get(key)) is None:
        abort(404)
    return group, found


def figure_notes(player: stats.PlayerStats) -> list[str]:
    """What each of the player's games says of its own figures (its review's ``FIGURES_NOTE``), once per game."""
    notes = []
    for record in player.games:
        module = review_module(record.game) if record.game in GAMES else None
        if (note := getattr(module, "FIGURES_NOTE", None)) and note not in notes:
            notes.append(note)
    return notes


# The newest sessions a player's page lists; the rest are in the history, filtered by the player.
SESSIONS_SHOWN = 20


def _player_page(name: str, rename: RenamePersonForm | None = None, status: int = 200) -> Response:
    group, found = _player_of(name)
    if rename is None and status == 200:
        return group_page(kept_page(group, lambda: _player_rendered(group, found)))
    return group_page((_player_rendered(group, found, rename), status))


def _player_rendered(group: Group, found: stats.PlayerStats, rename: RenamePersonForm | None = None) -> str:
    outcomes = standings.every_outcome(group.id)
    forms = {"rename": rename or RenamePersonForm(formdata=None), "forget": ForgetPersonForm(formdata=None)}
    others = rivals.rivals(outcomes, found.key)
    return render_template("review/player.html", player=found, group=group, forms=forms,
                           keeper=membership.is_keeper(group), rivals=others, figure_notes=figure_notes(found),
                           nemesis=rivals.nemesis(others), favourite=rivals.favourite(others),
                           sessions=stats.sessions_of(outcomes, found.key)[:SESSIONS_SHOWN])


@bp.get("/players/<path:name>")
def player(name: str) -> Response:
    """One player's record, their rivals and their newest sessions, with renaming and forgetting them."""
    return _player_page(name)


@bp.get("/players/<path:name>/vs/<path:other>")
def versus(name: str, other: str) -> Response:
    """Two players' finished games together and who finished ahead, in all and per game; 404 unless both have
    played in the phone's group."""
    group, found = _player_of(name)
    second = standings.players(group.id).get(stats.name_key(other))
    if second is None or second.key == found.key:
        abort(404)

    def rendered() -> str:
        total, per_game = rivals.head_to_head(standings.every_outcome(group.id), found.key, second.key)
        return render_template("review/versus.html", first=found, second=second, total=total, per_game=per_game)

    return group_page(kept_page(group, rendered))


@bp.post("/players/<path:name>/rename")
def rename(name: str) -> Response:
    """Rename the person at every session of the group (a typo, a nickname made official)."""
    group, found = _player_of(name)
    form = RenamePersonForm()
    if form.validate_on_submit():
        try:
            count = people.rename(group, found.key, form.name.data, device=device_id())
        except RuleError as error:
            form.name.errors = [error.message]
        else:
            # Translators: %(old)s and %(new)s are a player's names.
            flash(ngettext("%(old)s is now %(new)s at %(num)d session.", "%(old)s is now %(new)s at %(num)d sessions.",
                           count, old=found.name, new=form.name.data))
            return redirect(url_for("people.player", name=form.name.data), 303)
    return _player_page(name, rename=form, status=422)


@bp.post("/players/<path:name>/forget")
def forget(name: str) -> Response:
    """Take the person's name out of every session of the group, their scores kept (asked on the page)."""
    group, found = _player_of(name)
    keepers_only(group)
    if not ForgetPersonForm().validate_on_submit():
        return _player_page(name, status=422)
    count = people.forget(group, found.key, device=device_id())
    # The log says a name was forgotten, never whose.
    group_log.note(group.id, "forgotten", membership.me(group), count=count)
    db.session.commit()
    flash(ngettext("That name is gone from %(num)d session: the seat is called by its place at the table.",
                   "That name is gone from %(num)d sessions: each seat is called by its place at the table.", count))
    return redirect(url_for("people.players"), 303)
