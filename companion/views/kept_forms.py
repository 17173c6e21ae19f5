"""A form kept for the next table page: Post/Redirect/Get for a phone without JavaScript.

A refused form, or a preview, sent without htmx answers 303 to the table page, at the form's anchor
(``/t/<token>#sale-form``): the address bar holds the table's page, which reloads without asking to
send the form again, and the page opens where the player was. What the form showed (the values sent,
each sentence next to its field) waits in this phone's session and is shown once, by the next GET of
that table page, rendered fresh for this phone and never kept for the others (``render_table`` keeps
no rendering that holds a form).

Each form is built again from the values sent by its view's function (``companion.views.KEPT_FORMS``,
by the endpoint that took the post), which also works out its preview anew on the table as it stands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from flask import current_app, redirect, request, session, url_for
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response
from wtforms import Field, FieldList, FormField

from ..models import Table

KEPT = "kept_form"
# Where each form of the table page sits (the id of its element), so that the page opens there.
ANCHORS = {
    "sale": "sale-form", "buy": "buy-form", "deal": "deal-form", "end_turn": "end-turn", "end_game": "end-game",
    "i_lied": "cards-box", "persuasion": "cards-box", "give": "cards-box", "basket": "cards-box", "on_sale": "on-sale",
    "end_round": "end-round", "camels": "camels-form", "next_round": "next-round-form",
    "dishes": "dishes", "layout": "dishes", "play": "play-form", "suspend": "suspend", "tally": "table-tally",
    "bell_open": "bell", "bell_close": "bell", "undo": "undo-refused", "seat": "seat-question",
    "round": "round-form", "cells": "cells-form", "end": "end-sheet",
}
# What a view works out on a form besides its fields, kept with it: a note above it, the entries an undo waits for.
KEPT_ATTRIBUTES = ("note", "blocking", "then")
# Builds a view's form again from the values sent, on the table as it stands now.
Rebuild = Callable[[Table, MultiDict], FlaskForm]


def plain(form_class: type[FlaskForm], **options) -> Rebuild:
    """Build ``form_class`` again from the values sent, nothing worked out."""
    return lambda table, data: form_class(formdata=data, meta={"csrf": False}, **options)


def _fields(form: FlaskForm) -> Iterator[Field]:
    """Every field of the form, those of its lists and sub-forms too (each has its own full name)."""
    for field in form:
        if isinstance(field, FormField):
            yield from _fields(field.form)
            continue
        yield field
        if isinstance(field, FieldList):
            for entry in field.entries:
                if isinstance(entry, FormField):
                    yield from _fields(entry.form)
                else:
                    yield entry


def _plain(errors):
    """Errors as the session can hold them: sentences (lazy ones worded now), in lists."""
    if isinstance(errors, (list, tuple)):
        return [_plain(error) for error in errors]
    if isinstance(errors, dict):
        return {str(key): _plain(value) for key, value in errors.items()}
    return str(errors)


def _sent(form: FlaskForm) -> list[list[str]]:
    """The values the form was sent with, but the entry number the view gave it (a preview is shown at the newest)."""
    seen = getattr(form, "seen", None)
    shown_at = seen.data if isinstance(seen, Field) and not seen.errors else None
    sent = [[key, value] for key, value in request.form.items(multi=True)
            if key != "csrf_token" and (key != "seen" or shown_at is None)]
    return sent + ([["seen", str(shown_at)]] if shown_at is not None else [])


def keep(table: Table, name: str, form: FlaskForm, *, fresh: bool = False) -> Response:
    """Keep the form for the table's next page and send the phone there, at the form (303).

    ``fresh``: show the form as the table page draws it now (the move was recorded elsewhere), with
    only the form's own sentences.
    """
    session[KEPT] = {
        "token": table.token,
        "name": name,
        "endpoint": request.endpoint,
        "fresh": fresh,
        "data": _sent(form),
        "errors": {} if fresh else {field.name: _plain(field.errors) for field in _fields(form) if field.errors},
        "form_errors": _plain(form.form_errors),
        "shown": {name: getattr(form, name) for name in KEPT_ATTRIBUTES if getattr(form, name, None) is not None},
    }
    return redirect(url_for("tables.page", token=table.token, _anchor=ANCHORS.get(name, "live")), 303)


def waiting(token: str) -> bool:
    """Whether a form waits to be shown on this table's page (which then is rendered for this phone alone)."""
    kept = session.get(KEPT)
    return isinstance(kept, dict) and kept.get("token") == token


def take(table: Table, fresh_forms: Callable[[], dict]) -> dict[str, FlaskForm] | None:
    """The form kept for this table's page, built again with its sentences; it is shown once.

    ``fresh_forms()``: the table page's own forms, for a form shown fresh.
    """
    if not waiting(table.token):
        return None
    kept = session.pop(KEPT)
    name = kept.get("name")
    rebuild = current_app.extensions["kept_forms"].get(kept.get("endpoint"))
    if not isinstance(name, str) or rebuild is None:
        return None
    form = fresh_forms().get(name) if kept.get("fresh") else None
    if form is None:
        form = rebuild(table, MultiDict([tuple(pair) for pair in kept.get("data", []) if len(pair) == 2]))
    errors = kept.get("errors") or {}
    for field in _fields(form):
        field.errors = list(errors.get(field.name, []))
    form.form_errors = list(kept.get("form_errors") or [])
    shown = kept.get("shown") if isinstance(kept.get("shown"), dict) else {}
    for attribute in KEPT_ATTRIBUTES:
        if attribute in shown:
            setattr(form, attribute, shown[attribute])
    return {name: form}
