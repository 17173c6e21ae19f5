"""The bell on every table page: ring to open the market (or start the timer), ring to close it."""

from __future__ import annotations

from flask import Blueprint, request
from werkzeug.wrappers import Response

from ..table import bell, bell_plan
from ..live.bell_panel import view_of as bell_view_of
from ..forms.bell import BellCloseForm, BellOpenForm
from ..rules import RuleError
from ..web.phone import device_id, my_seat
from . import kept_forms
from .table_forms import answer, refuse, shown_again
from .table_page import table_or_404

bp = Blueprint("bell", __name__)


@bp.post("/t/<token>/bell/open")
def ring_open(token: str) -> Response | tuple[str, int]:
    """Ding-a-Ding: open the market (or start the table timer) and choose how it closes."""
    table = table_or_404(token)
    form = BellOpenForm()
    if form.validate_on_submit():
        try:
            plan = bell_plan.plan_from(form.mode.data, form.minutes.data, form.low.data, form.high.data)
            bell.open_bell(table, plan, player=my_seat(table), device=device_id(),
                           key=form.key.data, seen=form.seen.data)
        except RuleError as error:
            refuse(form, error.message, error.field)
        else:
            return answer(table)
    return shown_again(table, "bell_open", form)


@bp.post("/t/<token>/bell/close")
def ring_close(token: str) -> Response | tuple[str, int]:
    """Ding-a-Ding: close the market (or stop the table timer)."""
    table = table_or_404(token)
    form = BellCloseForm()
    if form.validate_on_submit():
        try:
            # A due automatic close wins over a late hand.
            if not bell.fire_if_due(table):
                bell.close_bell(table, player=my_seat(table), device=device_id(), key=form.key.data,
                                seen=form.seen.data)
        except RuleError as error:
            refuse(form, error.message, error.field)
        else:
            return answer(table)
    return shown_again(table, "bell_close", form)


# The bell's forms built again for the table page after a refusal without JavaScript (``kept_forms``).
KEPT_FORMS = {"bell.ring_open": kept_forms.plain(BellOpenForm), "bell.ring_close": kept_forms.plain(BellCloseForm)}


def bell_panel(table, state, seat, watch: bool, forms) -> dict:
    """The bell panel's view and forms (a refused form keeps its errors; a fresh one only where it is drawn)."""
    view = bell_view_of(table, state)
    trader = getattr(state, "first_trader", None) if view.kind == "market" else None
    can_open = not watch and not view.finished and not view.is_open and (
        view.kind == "timer" or getattr(state, "phase", None) == "opening")
    can_close = not watch and not view.finished and view.is_open
    # formdata=None: a fresh form must not pick up the key of the form just posted.
    open_form = forms.get("bell_open") or (BellOpenForm(formdata=None, seen=table.last_seq) if can_open else None)
    close_form = forms.get("bell_close") or (BellCloseForm(formdata=None, seen=table.last_seq) if can_close else None)
    return {
        "view": view,
        "open_form": open_form,
        "close_form": close_form,
        "trader": trader,
        "trader_name": table.players[trader] if trader is not None else "",
        # Anyone may ring in a pinch; the First Trader's own phone rings for real.
        "pinch": view.kind == "market" and seat != trader,
        "can_open": can_open,
        "can_close": can_close,
    }


def bell_reading(state, seat: int | None, every_seat=None, watching: bool = False) -> str:
    """Which reading of the bell panel this seat gets (all that the panel reads of the seat): the First
    Trader's own bell, anyone else's "in a pinch", a phone of nobody's, which is also told how to say whose it is,
    or a watching phone's, which rings nothing; a region rendered for every seat at once (``every_seat``) reads
    the first two, between seat markers."""
    if every_seat:
        return "every seat"
    if watching:
        return "watching"
    if seat is None:
        return "nobody"
    return "trader" if seat == getattr(state, "first_trader", None) else "other"


def bell_leads(table, state) -> bool:
    """Whether ringing the bell is the table's next move (the market opens or closes), so it comes first."""
    return bell.is_market(table) and getattr(state, "phase", None) in bell.MARKET_PHASES


@bp.app_context_processor
def _bell_helpers() -> dict:
    return {"bell_panel": bell_panel, "bell_leads": bell_leads, "bell_reading": bell_reading,
            "market_bell": bell.is_market}


@bp.after_app_request
def _server_time(response: Response) -> Response:
    # Every answer, the 204 of the live poll included, tells the phones the
    # server's clock, so they can ring at the same moment.
    if request.endpoint != "static":
        name, value = bell.server_time_header()
        response.headers[name] = value
    return response
