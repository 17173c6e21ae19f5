"""Rendering the shared table view, and recording an entry from a form; used by every game's views."""

from __future__ import annotations

import re

from typing import Callable

import sqlalchemy as sa
from sqlalchemy.orm import joinedload
from flask import abort, current_app, redirect, render_template, request, session, url_for
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import Field

from ..table import recording as entries, wording
from ..live import heads, regions
from ..extensions import db
from ..forms import InviteForm, UndoForm, fresh_forms
from ..i18n import language
from ..models import Entry, Table
from ..rules import RuleError
from ..web.security import device_id
from ..web.templating import is_htmx

# slug -> function(table, state, seat) returning the game's fresh action forms by name.
GAME_FORMS: dict[str, Callable[[Table, object, int | None], dict[str, FlaskForm]]] = {}
RECENT_ENTRIES = 6


# What models.new_token makes; anything else is not looked up at all.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,32}")


def token_shaped(token: str | None) -> bool:
    """Whether ``token`` could be a table token."""
    return bool(token) and TOKEN_SHAPE.fullmatch(token) is not None


def table_or_404(token: str, *, watch: bool = False) -> Table:
    """The table behind a player (or watch) token; 404 that reveals nothing otherwise."""
    if not token_shaped(token):
        abort(404)
    column = Table.watch_token if watch else Table.token
    # The seats come in the same query: half the cost of a second one for them, on every request.
    table = db.session.scalars(sa.select(Table).where(column == token).options(joinedload(Table.seats))).unique().first()
    if table is None:
        abort(404)
    return table


# What a phone that said it only watches keeps as its seat.
WATCHING = "watch"


def my_seat(table: Table) -> int | None:
    """The seat this phone said it holds at this table, if any."""
    seat = session.get("seats", {}).get(table.token)
    return seat if isinstance(seat, int) and 0 <= seat < len(table.seats) else None


def seat_choice(table: Table) -> int | str | None:
    """This phone's answer to "Who are you?": a seat, ``WATCHING``, or None (not asked yet)."""
    seat = my_seat(table)
    if seat is None and session.get("seats", {}).get(table.token) == WATCHING:
        return WATCHING
    return seat


# The entry a phone of nobody recorded that only it may see (a drawn Jaipur bonus token), per table.
RECORDED_HERE = "recorded_here"


def recorded_here(token: str) -> int | None:
    """The number of the entry this phone recorded and alone may see more of, at table ``token``."""
    seq = session.get(RECORDED_HERE, {}).get(token)
    return seq if type(seq) is int else None


def note_recorded_here(table: Table, entry: Entry) -> None:
    """Remember that this phone, which holds no seat, recorded ``entry``: it may show what only its recorder sees."""
    if my_seat(table) is not None:
        return
    noted = dict(session.get(RECORDED_HERE, {}))
    noted.pop(table.token, None)
    noted[table.token] = entry.seq
    session[RECORDED_HERE] = dict(list(noted.items())[-8:])


def _reader(watch: bool, choice: int | str | None, token: str) -> tuple:
    """Everything that decides what this phone may see of a table: its answer to "Who are you?" and,
    for a phone of nobody, the entry it recorded itself (the rare case of a phone passed round)."""
    if watch:
        return None, None
    return choice, None if isinstance(choice, int) else recorded_here(token)


def table_context(table: Table, *, watch: bool = False, forms: dict | None = None) -> dict:
    """Everything the table view's templates need, derived from the entry log."""
    game = entries.game_of(table)
    state = entries.state_of(table)
    seat = None if watch else my_seat(table)
    choice, recorded = _reader(watch, None if watch else seat_choice(table), table.token)
    seating = entries.seating(table)
    # One read serves both the newest entries shown and the one "Undo" would take back.
    newest = entries.newest_entries(table, max(RECENT_ENTRIES, entries.LAST_LIVE_WINDOW))
    last = None if watch else entries.last_live_entry(table, newest)
    with fresh_forms():
        all_forms = {} if watch else dict(GAME_FORMS.get(table.game, lambda *_: {})(table, state, seat))
        undo_form = UndoForm(entry=last.seq, seen=table.last_seq) if last else None
        invite_form = InviteForm(seen=table.last_seq)
    all_forms.update(forms or {})
    recent = entries.history(table, limit=RECENT_ENTRIES, newest=newest)
    return {
        "table": table,
        "game": game,
        "state": state,
        "scores": game.scores(state),
        "watch": watch,
        "seat": seat,
        # A phone of nobody that recorded the newest entry may see what only its recorder sees.
        "recorded_here": recorded,
        # Right after joining, a phone is asked who holds it; until every seat has a phone, the invitation leads.
        "asking": not watch and not table.finished and choice is None,
        "seating": seating,
        "inviting": not watch and not table.finished and not seating.invite_closed
                    and not seating.everyone_in(len(table.seats)),
        "forms": all_forms,
        "recent": recent,
        # Each entry worded in this phone's language.
        "words": wording.sentences(table, [entry for entry, _undone in recent]),
        "last_entry": last,
        "undo_form": undo_form,
        "invite_form": invite_form,
        # The poll adds the version the phone shows when it asks (static/app.js): the region is morphed in
        # place, so a version written into this URL would be the one it was first drawn at.
        "live_url": url_for("tables.watch_live" if watch else "tables.live",
                            token=table.watch_token if watch else table.token),
    }


def _region_key(table_id: int, watch: bool, reader: tuple) -> tuple:
    # ``reader`` covers everything that decides what the phone may see (``_reader``).
    # One rendering per language: two phones of one seat may read it in two languages.
    return table_id, watch, reader, is_htmx(), request.url_root, language()


def _region_version(last_seq: int, status: str, bell_seq: int | None, bell_plan: dict | None) -> tuple:
    # Everything of the row a rendering reads: the newest entry, and the bell's schedule, which
    # is written just after the entry that opens the market.
    return last_seq, status, bell_seq, repr(bell_plan)


def render_table(table: Table, *, watch: bool = False, forms: dict | None = None,
                 status: int = 200) -> tuple[str, int]:
    """The whole page, or just the live region for an htmx request.

    A region without a refused form in it is the same for every phone in one seat until the table
    changes: it is rendered once per table version and filled in per answer (``companion.live.regions``).
    """
    htmx = is_htmx()
    template = "tables/_live.html" if htmx else "tables/page.html"

    def render() -> str:
        return render_template(template, **table_context(table, watch=watch, forms=forms))

    if forms:
        body = render()
    else:
        key = _region_key(table.id, watch, _reader(watch, None if watch else seat_choice(table), table.token))
        version = _region_version(table.last_seq, table.status, table.bell_seq, table.bell_plan)
        body = regions.render_shared(current_app.extensions["regions"], key, version, render)
    # htmx only swaps 2xx answers: a refused form comes back as 200 with its errors.
    return body, 200 if htmx else status


def kept_table(head: heads.Head, token: str, *, watch: bool = False) -> tuple[str, int] | None:
    """The table as kept for this phone, if it has not changed since: no ORM, nothing rendered.

    The seat is taken from the session as it is: a region is only ever kept under a seat that was
    checked against the table when it was rendered, so a seat out of range finds nothing here.
    """
    reader = _reader(watch, None if watch else session.get("seats", {}).get(token), token)
    kept = current_app.extensions["regions"].get(
        _region_key(head.id, watch, reader), _region_version(head.last_seq, head.status, head.bell_seq, head.bell_plan))
    return (regions.fill(kept), 200) if kept is not None else None


def _field_for(form: FlaskForm, error: RuleError):
    field = getattr(form, error.field, None) if error.field else None
    # Fields are callable (they render themselves), so test the type, not callability.
    return field if isinstance(field, Field) else None


def refuse(form: FlaskForm, message: str, field_name: str | None = None) -> None:
    """Attach a sentence to the form field it is about (or to the form as a whole)."""
    field = _field_for(form, RuleError(message, field_name))
    if field is not None:
        field.errors = [*field.errors, message] if isinstance(field.errors, list) else [message]
    else:
        form.form_errors.append(message)


def recorded_elsewhere(table: Table, form_name: str, form: FlaskForm, message: str) -> dict[str, FlaskForm]:
    """The forms to show when the move a form sent was already recorded: that form as the new table has it.

    Fresh, never the one sent, so that a second tap on it cannot record the
    move again; the sentence at its top. A form the new table no longer has
    keeps the one sent, whose sentence the game's actions show on their own.
    """
    with fresh_forms():
        fresh = GAME_FORMS.get(table.game, lambda *_: {})(table, entries.state_of(table), my_seat(table))
    shown = fresh.get(form_name, form)
    shown.form_errors.append(message)
    return {form_name: shown}


def record_form(table: Table, form_name: str, form: FlaskForm,
                build_event: Callable[[FlaskForm], dict], *, rng=None,
                changed: str | None = None,
                recorder_sees: Callable[[Entry], bool] | None = None) -> Response | tuple[str, int]:
    """Validate the form, record the event it describes, and answer with the table (PRG or the htmx partial).

    ``changed``: see ``entries.record``; its refusal (TableChanged) is the caller's to show.
    ``recorder_sees(entry)``: whether the entry holds something its recorder may see when the phone
    holds no seat (a drawn bonus token, on a phone passed round the table).
    """
    if form.validate_on_submit():
        try:
            entry = entries.record(table, build_event(form), device=device_id(), key=form.key.data,
                                   seen=form.seen.data, rng=rng, changed=changed)
        except entries.TableChanged:
            raise
        except entries.AlreadyRecorded as error:
            return render_table(table, forms=recorded_elsewhere(table, form_name, form, error.message), status=422)
        except RuleError as error:
            refuse(form, error.message, error.field)
        else:
            if recorder_sees is not None and recorder_sees(entry):
                note_recorded_here(table, entry)
            if is_htmx():
                return render_table(table)
            return redirect(url_for("tables.page", token=table.token), 303)
    return render_table(table, forms={form_name: form}, status=422)
