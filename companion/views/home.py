"""The home page: new tables, joining by code, the tables recently opened here."""

from __future__ import annotations

import secrets
from datetime import UTC, timedelta

import sqlalchemy as sa
from flask import Blueprint, abort, current_app, redirect, render_template, url_for
from werkzeug.wrappers import Response

from ..review import history, tonight
from ..web import limits
from ..extensions import db
from ..forms import JoinForm, NewTableForm
from ..models import REMOVED, Entry, Seat, Table, now
from ..rules import GAMES, RuleError, declared
from ..rules.words import N_, _
from .. import groups
from ..groups import members
from .groups import welcome
from ..web.membership import barred_groups, current_group
from ..web.phone import phone, remember
from ..web.redirects import go
from ..web.templating import is_htmx

bp = Blueprint("home", __name__)


def recent_tables() -> list[Table]:
    """The tables opened on this phone, most recent first."""
    tokens = phone().recent
    if not tokens:
        return []
    barred = barred_groups()
    found = {t.token: t for t in db.session.scalars(sa.select(Table).where(Table.token.in_(tokens), Table.status != REMOVED))
             if t.group_id not in barred}
    return [found[token] for token in tokens if token in found]


def _game_or_404(slug: str):
    if slug not in GAMES:
        abort(404)
    return GAMES[slug]


@bp.get("/")
def index() -> str:
    """Start a table, join one by code, or go back to a recent one."""
    return render_template("home.html", **_home(JoinForm()))


def _home(join_form: JoinForm) -> dict:
    """What the home page shows: the join form, the tables opened on this phone, the group's evening if one is on."""
    group = current_group()
    return {"join_form": join_form, "recent": recent_tables(), "group": group, "private": groups.private(),
            "evening": tonight.on_now(group.id) if group else None}


def no_group() -> Response:
    """A phone in no group opens no table of its own: it starts or joins a group first (a private server)."""
    return redirect(url_for("groups.mine"), 303)


@bp.get("/new/<slug>")
def new_table(slug: str) -> str | Response:
    """The form for a new table of one game, in the phone's group."""
    game = _game_or_404(slug)
    if (group := current_group()) is None:
        return no_group()
    form = NewTableForm(min_players=game.MIN_PLAYERS, max_players=game.MAX_PLAYERS)
    return render_template("new_table.html", form=form, slug=slug, game=game, settings=declared(game, "SETTINGS"),
                           known=history.known_players(group.id))


@bp.post("/new/<slug>")
def create_table(slug: str) -> Response | tuple[str, int]:
    """Create the table and open it."""
    game = _game_or_404(slug)
    if (group := current_group()) is None:
        return no_group()
    form = NewTableForm(min_players=game.MIN_PLAYERS, max_players=game.MAX_PLAYERS)
    if form.validate_on_submit():
        opened = open_table(slug, group, form, {name: form[name].data for name in declared(game, "SETTINGS")})
        if opened is not None:
            return opened
    # htmx swaps 2xx answers only: the form comes back with its sentences either way.
    return render_template("new_table.html", form=form, slug=slug, game=game, settings=declared(game, "SETTINGS"),
                           known=history.known_players(group.id)), 200 if is_htmx() else 422


def open_table(slug: str, group, form: NewTableForm, settings: dict) -> Response | None:
    """Open a table of ``slug`` for ``group`` with the players, starter and ``settings`` of a valid new-table
    form, and go to it; None when the rules refuse the settings (their sentence put next to its field)."""
    if not limits.within("new-table", current_app.config["NEW_TABLES_PER_MINUTE"], 60):
        abort(429)
    game = GAMES[slug]
    names = form.names()
    starter = form.starter_seat()
    options = {game.STARTER_OPTION: secrets.randbelow(len(names)) if starter is None else starter, **settings}
    try:
        game.new_game(names, options)
    except RuleError as error:
        field = getattr(form, error.field or "", None)
        (field if field is not None and hasattr(field, "errors") else form.players).errors = [error.message]
        return None
    table = Table(game=slug, options=options, group_id=group.id,
                  seats=[Seat(position=i, name=n) for i, n in enumerate(names)])
    db.session.add(table)
    db.session.commit()
    remember(table.token)
    return redirect(url_for("tables.page", token=table.token), 303)


JOIN_WINDOW = 600
JOIN_DAY = 24 * 3600
TOO_MANY_NOW = N_("Too many join codes were tried from your network in the last few minutes: for a few minutes "
                  "no code from it is checked, not even the right one. Scan the table's QR code or open its link "
                  "on a phone that has it, or try again in a few minutes.")
TOO_MANY_TODAY = N_("Too many join codes were tried from your network today: for up to a day no code from it is "
                    "checked, not even the right one. Scan the table's QR code or open its link on a phone that "
                    "has it.")
NO_SUCH_TABLE = N_("No open table has that code. Check it on the table page of another phone "
                   "(a code stops working when its game is finished, or after a long pause).")


def _refusal() -> str | None:
    """Count this try, atomically; None if its code may be checked, else why not.

    Per client only (an IPv4 address or an IPv6 /64), in a short window and a day: a guesser elsewhere
    never uses up anyone else's tries. A try refused by the short window is not counted for the day.
    """
    config = current_app.config
    if not limits.within("join", config["JOIN_ATTEMPTS_PER_10_MINUTES"], JOIN_WINDOW):
        return _(TOO_MANY_NOW)
    if not limits.within("join-day", config["JOIN_ATTEMPTS_PER_DAY"], JOIN_DAY):
        return _(TOO_MANY_TODAY)
    return None


def joinable(code: str) -> Table | None:
    """The table a join code opens: still being played, with an entry (or its start) within JOIN_CODE_IDLE_HOURS."""
    table = db.session.scalar(sa.select(Table).where(Table.join_code == code))
    if table is None or table.status != "playing":
        return None
    last = db.session.scalar(sa.select(sa.func.max(Entry.created_at)).where(Entry.table_id == table.id))
    last = last or table.created_at
    last = last.replace(tzinfo=UTC) if last.tzinfo is None else last
    if last < now() - timedelta(hours=current_app.config["JOIN_CODE_IDLE_HOURS"]):
        return None
    return table


@bp.post("/join")
def join() -> Response | tuple[str, int]:
    """Open the table whose join code was typed, or join the group whose code it is; guessing is slowed
    down per client, both kinds of code together."""
    form = JoinForm()
    status = 422
    if form.validate_on_submit():
        if (refusal := _refusal()) is not None:
            form.code.errors.append(refusal)
            status = 429
        elif (table := joinable(form.code.data)) is not None:
            remember(table.token)
            return go(url_for("tables.page", token=table.token))
        elif (group := groups.by_code(form.code.data)) is not None:
            # A group's code, typed as a table's is: the phone joins the group.
            try:
                welcome(group)
                return go(url_for("groups.page"))
            except members.TakenOut as refusal:
                form.code.errors.append(refusal.message)
        else:
            form.code.errors.append(_(NO_SUCH_TABLE))
    db.session.commit()
    # htmx swaps 2xx answers only: the form comes back with its sentence either way.
    if is_htmx():
        return render_template("_join_form.html", join_form=form), 200
    return render_template("home.html", **_home(form)), status
