"""Frutti di Mare's table actions (dishes, a card, suspend, next round, a tallied round) and the quick tally."""

from __future__ import annotations

from flask import Blueprint, render_template, request
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from ..forms.frutti import (
    NO_LAYOUT,
    DishesForm,
    NextRoundForm,
    PlayForm,
    QuickTallyForm,
    SuspendForm,
    TableTallyForm,
)
from ..rules import RuleError, frutti
from ..web.templating import is_htmx
from . import kept_forms
from .table_forms import record_form, refuse
from .table_page import table_or_404

bp = Blueprint("frutti", __name__)

Answer = Response | tuple[str, int]


@bp.post("/t/<token>/frutti/dishes")
def dishes(token: str) -> Answer:
    """Lay out the round's dishes: keep them, let the app shuffle, or enter them as they lie."""
    table = table_or_404(token)
    form = DishesForm()
    name = "layout" if form.how.data == "table" else "dishes"
    return record_form(table, name, form, DishesForm.event)


@bp.post("/t/<token>/frutti/play")
def play(token: str) -> Answer:
    """The player whose turn it is plays one seafood card."""
    table = table_or_404(token)
    return record_form(table, "play", PlayForm(), PlayForm.event)


@bp.post("/t/<token>/frutti/suspend")
def suspend(token: str) -> Answer:
    """The player whose turn it is suspends selling and lays down their hand."""
    table = table_or_404(token)
    return record_form(table, "suspend", SuspendForm(), SuspendForm.event)


@bp.post("/t/<token>/frutti/next-round")
def next_round(token: str) -> Answer:
    """Start round 2 or 3."""
    table = table_or_404(token)
    return record_form(table, "next_round", NextRoundForm(), NextRoundForm.event)


@bp.post("/t/<token>/frutti/tally")
def tally(token: str) -> Answer:
    """Record a whole round at once from the final dishes and everyone's cards."""
    table = table_or_404(token)
    return record_form(table, "tally", TableTallyForm(players=len(table.seats)), TableTallyForm.event)


# Each form built again for the table page after a refusal without JavaScript (``kept_forms``).
KEPT_FORMS = {
    "frutti.dishes": kept_forms.plain(DishesForm),
    "frutti.play": kept_forms.plain(PlayForm),
    "frutti.suspend": kept_forms.plain(SuspendForm),
    "frutti.next_round": kept_forms.plain(NextRoundForm),
    "frutti.tally": lambda table, data: TableTallyForm(formdata=data, meta={"csrf": False}, players=len(table.seats)),
}


@bp.get("/tally/frutti")
def quick_tally() -> tuple[str, int]:
    """Count a round's money from the final dish order and each player's cards; nothing is stored."""
    submitted = bool(request.args)
    form = QuickTallyForm(formdata=request.args if submitted else MultiDict())
    results, status = None, 200
    if submitted:
        if form.validate():
            players = form.players()
            names = [name for name, _ in players]
            try:
                money = frutti.tally_earnings([e.data for e in form.order.entries], [c for _, c in players], names)
            except RuleError as error:
                refuse(form, error.message, error.field)
            else:
                results = {"earnings": money, "standings": frutti.ranked(names, [e.total for e in money]),
                           "track": list(zip(frutti.STALLS, (e.data for e in form.order.entries)))}
        status = 200 if results or is_htmx() else 422
    template = "frutti/_tally.html" if is_htmx() else "frutti/tally.html"
    return render_template(template, form=form, results=results, game=frutti), status


def table_forms(table, state, seat) -> dict:
    """The fresh forms of the table page, by what the round needs next."""
    seen = table.last_seq
    if state.phase == frutti.DISHES:
        forms = {"dishes": DishesForm(seen=seen, how="shuffle"),
                 "layout": DishesForm(seen=seen, how="table", order=list(state.track or NO_LAYOUT))}
    elif state.phase == frutti.PLAYING:
        forms = {"play": PlayForm(seen=seen, player=state.turn),
                 "suspend": SuspendForm(seen=seen, player=state.turn)}
    elif state.phase == frutti.ROUND_OVER:
        forms = {"next_round": NextRoundForm(seen=seen)}
    else:
        forms = {}
    if state.phase in (frutti.DISHES, frutti.PLAYING) and not frutti.round_started(state):
        forms["tally"] = TableTallyForm(seen=seen, players=len(state.players))
    return forms

