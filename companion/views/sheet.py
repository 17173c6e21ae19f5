"""The score sheet: a new sheet for any game (or the group's earlier one again), a round, a player's cells, the end."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from werkzeug.wrappers import Response

from ..forms.sheet import CellsForm, EndForm, NewSheetForm, RoundForm, earlier, row_count
from ..review import history, remembered
from ..rules import GAMES
from ..web.membership import current_group
from ..web.templating import is_htmx
from . import kept_forms
from .home import no_group, open_table
from .table_forms import record_form
from .table_page import table_or_404

bp = Blueprint("sheet", __name__)

SLUG = "sheet"
Answer = Response | tuple[str, int]


def _page(form: NewSheetForm, group, status: int = 200) -> tuple[str, int]:
    return render_template("sheet/new.html", form=form, slug=SLUG, game=GAMES[SLUG],
                           known=history.known_players(group.id), sheets=remembered.remembered(group.id, SLUG)), status


@bp.get("/new/sheet")
def new_sheet() -> Answer:
    """The form for a new score sheet; ``?like=<game>`` fills it in as the group's last sheet of that game."""
    if (group := current_group()) is None:
        return no_group()
    like = request.args.get("like", "")
    last = remembered.last_of(group.id, SLUG, like) if like else None
    if like and last is None:
        abort(404)
    form = NewSheetForm(formdata=None, data=earlier(last) if last else None)
    return _page(form, group)


@bp.post("/new/sheet")
def create_sheet() -> Answer:
    """Open the sheet's table, or show the form again with each refusal next to its field."""
    if (group := current_group()) is None:
        return no_group()
    form = NewSheetForm()
    if form.validate_on_submit() and (opened := open_table(SLUG, group, form, form.options())) is not None:
        return opened
    # htmx swaps 2xx answers only: the form comes back with its sentences either way.
    return _page(form, group, 200 if is_htmx() else 422)


@bp.post("/t/<token>/sheet/round")
def round_(token: str) -> Answer:
    """Record a round: each player's points as typed."""
    table = table_or_404(token)
    return record_form(table, "round", RoundForm(players=len(table.seats)), RoundForm.event)


@bp.post("/t/<token>/sheet/cells")
def cells(token: str) -> Answer:
    """Record one player's values in any of the sheet's rows."""
    table = table_or_404(token)
    return record_form(table, "cells", CellsForm(rows=row_count(table.options)), CellsForm.event)


@bp.post("/t/<token>/sheet/end")
def end(token: str) -> Answer:
    """End the game here: the totals as they stand are the result."""
    table = table_or_404(token)
    return record_form(table, "end", EndForm(), EndForm.event)


# Each form built again for the table page after a refusal without JavaScript (``kept_forms``).
KEPT_FORMS = {
    "sheet.round_": lambda table, data: RoundForm(formdata=data, meta={"csrf": False}, players=len(table.seats)),
    "sheet.cells": lambda table, data: CellsForm(formdata=data, meta={"csrf": False},
                                                 rows=row_count(table.options)),
    "sheet.end": kept_forms.plain(EndForm),
}


def table_forms(table, state, seat) -> dict:
    """The fresh forms of the table page: the next round (or a player's cells), and the end."""
    game = GAMES[SLUG]
    if game.finished(state):
        return {}
    seen = table.last_seq
    if game.by_rounds(state):
        forms = {"round": RoundForm(seen=seen, round=game.next_round(state), players=len(state.players))}
    else:
        player = seat if seat is not None else game.next_to_fill(state)
        forms = {"cells": CellsForm(seen=seen, player=player, rows=row_count(table.options))}
    forms["end"] = EndForm(seen=seen)
    return forms

