"""Recording what a table page's form sent: validate, record through the rules, answer with the table;
a player's own cards played only from that player's phone (or the pad for everyone)."""

from __future__ import annotations

import re
from typing import Callable

from flask import redirect, url_for
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import Field, FieldList

from ..forms.page import game_forms
from ..live.page import render_table
from ..models import Entry, Table
from ..rules import RuleError
from ..table import recording
from ..rules.words import _
from ..web.phone import acts_for, device_id, my_seat, note_recorded_here
from ..web.templating import is_htmx
from . import kept_forms


def _field_for(form: FlaskForm, error: RuleError):
    field = getattr(form, error.field, None) if error.field else None
    if field is None and error.field and (entry := LIST_ENTRY.fullmatch(error.field)):
        # "points-2": the third field of the list "points", as WTForms names it in the page.
        listed = getattr(form, entry["list"], None)
        index = int(entry["index"])
        field = listed.entries[index] if isinstance(listed, FieldList) and index < len(listed.entries) else None
    # Fields are callable (they render themselves), so test the type, not callability.
    return field if isinstance(field, Field) else None

# A rule's field naming one field of a list: "points-2".
LIST_ENTRY = re.compile(r"(?P<list>[a-z_]+)-(?P<index>[0-9]{1,3})")


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
    shown = game_forms(table, my_seat(table)).get(form_name, form)
    shown.form_errors.append(message)
    return {form_name: shown}


def shown_again(table: Table, form_name: str, form: FlaskForm, *, status: int = 422,
                fresh: bool = False) -> Response | tuple[str, int]:
    """A refused form, or a preview: the live region with it for htmx; else Post/Redirect/Get, the form
    kept for the table page (``kept_forms``), which opens at it."""
    if is_htmx():
        return render_table(table, forms={form_name: form}, status=status)
    return kept_forms.keep(table, form_name, form, fresh=fresh)


def answer(table: Table) -> Response | tuple[str, int]:
    """After a form was taken: the new live region for htmx, else back to the table page (Post/Redirect/Get)."""
    if is_htmx():
        return render_table(table)
    return redirect(url_for("tables.page", token=table.token), 303)


def record_form(table: Table, form_name: str, form: FlaskForm,
                build_event: Callable[[FlaskForm], dict], *, rng=None,
                changed: str | None = None,
                recorder_sees: Callable[[Entry], bool] | None = None) -> Response | tuple[str, int]:
    """Validate the form, record the event it describes, and answer with the table (PRG or the htmx partial).

    ``changed``: see ``recording.record``; its refusal (TableChanged) is the caller's to show.
    ``recorder_sees(entry)``: whether the entry holds something its recorder may see when the phone
    holds no seat (a drawn bonus token, on a phone passed round the table).
    """
    if form.validate_on_submit():
        try:
            entry = recording.record(table, build_event(form), device=device_id(), key=form.key.data,
                                     seen=form.seen.data, rng=rng, changed=changed)
        except recording.TableChanged:
            raise
        except recording.AlreadyRecorded as error:
            shown = recorded_elsewhere(table, form_name, form, error.message)[form_name]
            return shown_again(table, form_name, shown, fresh=shown is not form)
        except RuleError as error:
            refuse(form, error.message, error.field)
        else:
            if recorder_sees is not None and recorder_sees(entry):
                note_recorded_here(table, entry)
            return answer(table)
    return shown_again(table, form_name, form)


def not_theirs(table: Table, seats) -> str | None:
    """Why this phone may not play these players' cards (None if it may): it is refused before anything is
    checked, so the refusal never depends on, nor tells, what another player holds."""
    for seat in seats:
        if isinstance(seat, int) and 0 <= seat < len(table.seats) and not acts_for(table, seat):
            return _("Only %(player)s's phone, or the pad for everyone, plays %(player)s's cards.",
                     player=table.players[seat])
    return None


def record_own(table: Table, name: str, form: FlaskForm, players: Callable, field: str | None = "player",
               ) -> Response | tuple[str, int]:
    """``record_form`` for a form that plays the cards of ``players(form)``: refused from any other phone."""
    if form.validate_on_submit() and (refusal := not_theirs(table, players(form))):
        refuse(form, refusal, field)
        return shown_again(table, name, form)
    return record_form(table, name, form, type(form).event)
