"""Carambouille's table actions: sales with their preview, purchases, the cards played, the deal, the end; the score pad."""

from __future__ import annotations

import re
from functools import partial

from flask import Blueprint, abort, make_response, render_template, request
from werkzeug.wrappers import Response

from ..table.view import table_view
from ..forms import new_key
from ..forms.carambouille import (
    BuyForm,
    DealForm,
    EndGameForm,
    EndTurnForm,
    GiveCardForm,
    PlayCardForm,
    PlayOnSaleForm,
    SaleForm,
)
from ..forms.page import later
from ..live.page import render_table, table_context
from ..models import Table
from ..rules import RuleError
from ..rules import carambouille as game
from ..web.templating import is_htmx
from . import memo
from . import kept_forms
from .table_forms import not_theirs, record_form, record_own, refuse, shown_again
from .table_page import table_or_404

bp = Blueprint("carambouille", __name__)
# The memo card pages hang under this blueprint: endpoints "carambouille.memo.*".
bp.register_blueprint(memo.bp)

Answer = Response | tuple[str, int]


def _draft():
    """The query string of a preview, with a fresh idempotency key when it carries none (a typed URL)."""
    args = request.args.copy()
    if not re.fullmatch(r"[0-9a-f]{32}", args.get("key", "")):
        args["key"] = new_key()
    return args


def _shown_at(table: Table, form) -> None:
    """The entry number a form carries: the table's when the whole table is drawn with it; when htmx
    swaps the form alone, the one it came with, for the phone still shows the table it had around it
    (a move recorded since by another phone is then refused as recorded, never taken twice)."""
    sent = form.seen.data if is_htmx() and not form.seen.errors else None
    form.seen.data = table.last_seq if sent is None else min(sent, table.last_seq)


def _partial(template: str, table: Table, form_name: str, form, phase: str) -> Response | tuple[str, int]:
    """One form re-rendered for an htmx preview, with everything the table view has.

    When the hand has moved on (another phone ended the turn), the form has no place any more:
    the whole live region is sent instead, retargeted.
    """
    if table_view(table).state.phase != phase:
        body, status = render_table(table)
        return make_response((body, status, {"HX-Retarget": "#live", "HX-Reswap": "outerHTML", "Vary": "HX-Request"}))
    # Flask's response (HTML, UTF-8), not werkzeug's bare one (text/plain).
    return make_response((render_template(template, **table_context(table, forms={form_name: form})),
                          {"Vary": "HX-Request"}))


# --- whose cards: a player's own phone, or the pad for everyone (``table_forms.record_own``) ---

def _player(form) -> list:
    return [form.player.data]


def _sale_cards_by(form: SaleForm) -> list:
    return [seat for _card, seat in form.chosen_effects()]


# --- sales --------------------------------------------------------------------

def check_sale(table: Table, form: SaleForm) -> None:
    """Work out the sale as entered: its arithmetic on ``form.preview``, or the refusal next to its field."""
    if refusal := not_theirs(table, _sale_cards_by(form)):
        refuse(form, refusal, "effects")
        return
    state = table_view(table).state
    event = form.event()
    try:
        game.apply(state, event)
        form.preview = game.sale_preview(state, event)
    except RuleError as error:
        refuse(form, error.message, error.field)


@bp.get("/t/<token>/carambouille/sale")
def sale_preview(token: str) -> Answer:
    """The sale form again, with the value of the sale as entered so far (htmx, on every change)."""
    table = table_or_404(token)
    form = SaleForm(formdata=_draft(), meta={"csrf": False})
    if form.validate():
        check_sale(table, form)
    else:
        # Still being filled in: keep what was chosen, say nothing yet about what is missing.
        for field in (form.seen, form.product, form.cards):
            if not any(field.raw_data or ()):
                field.errors = []
    _shown_at(table, form)
    if is_htmx():
        return _partial("carambouille/_sale_form.html", table, "sale", form, game.SALES)
    return render_table(table, forms={"sale": form})


@bp.post("/t/<token>/carambouille/sale")
def sale(token: str) -> Answer:
    """Preview a sale (the step without JavaScript), or record it."""
    table = table_or_404(token)
    form = SaleForm()
    if form.step.data != "confirm":
        if form.validate_on_submit():
            check_sale(table, form)
        form.seen.data = table.last_seq
        return shown_again(table, "sale", form, status=200)
    return record_own(table, "sale", form, _sale_cards_by, "effects")


@bp.post("/t/<token>/carambouille/on-sale")
def play_on_sale(token: str) -> Answer:
    """A sale card played on the sale on the table, from the phone of whoever plays it."""
    return record_own(table_or_404(token), "on_sale", PlayOnSaleForm(), _player, None)


def sale_again(table: Table, data) -> SaleForm:
    """The sale form as sent, with its preview worked out on the table as it stands (``kept_forms``)."""
    form = SaleForm(formdata=data, meta={"csrf": False})
    if form.step.data != "confirm" and form.validate():
        check_sale(table, form)
    return form


# --- the rest of a sales turn, the exchanges, the end (the bell is bell.py's) ---

@bp.post("/t/<token>/carambouille/buy")
def buy(token: str) -> Answer:
    """Buy 1 or 2 Carambouille cards at 50 points each, naming the types drawn."""
    return record_form(table_or_404(token), "buy", BuyForm(), BuyForm.event)


@bp.post("/t/<token>/carambouille/end-turn")
def end_turn(token: str) -> Answer:
    """The seller is done: the sales turn passes left (or the hand ends)."""
    return record_form(table_or_404(token), "end_turn", EndTurnForm(), EndTurnForm.event)


@bp.post("/t/<token>/carambouille/card")
def play_card(token: str) -> Answer:
    """“I lied!”, Persuasion or a Basket laid."""
    form = PlayCardForm()
    name = form.type.data if form.type.data in ("i_lied", "persuasion", "basket") else "i_lied"
    return record_own(table_or_404(token), name, form, _player)


@bp.post("/t/<token>/carambouille/give")
def give_card(token: str) -> Answer:
    """A Carambouille card given to another player in a trade."""
    return record_own(table_or_404(token), "give", GiveCardForm(), _player)


@bp.post("/t/<token>/carambouille/end")
def end_game(token: str) -> Answer:
    """End the game: the final standings."""
    return record_form(table_or_404(token), "end_game", EndGameForm(), EndGameForm.event)


# --- the deal -----------------------------------------------------------------

def check_deal(table: Table, form: DealForm) -> None:
    """The deal for the hand sizes entered, on ``form.outcome``, or why not next to the hand sizes."""
    form.touched = True
    try:
        form.outcome = game.deal_outcome(table_view(table).state, form.sizes())
    except RuleError as error:
        refuse(form, error.message, "hand_sizes")


def deal_event(table: Table):
    def build(form: DealForm) -> dict:
        outcome = game.deal_outcome(table_view(table).state, form.sizes())
        return {"type": "deal", "cards": list(outcome.cards), "hand_sizes": form.sizes()}

    return build


@bp.get("/t/<token>/carambouille/deal")
def deal_preview(token: str) -> Answer:
    """The deal form with the cards to give for the hand sizes entered (htmx, on every change)."""
    table = table_or_404(token)
    form = DealForm(formdata=_draft(), meta={"csrf": False}, players=len(table.seats))
    if form.validate():
        check_deal(table, form)
    _shown_at(table, form)
    if is_htmx():
        return _partial("carambouille/_deal_form.html", table, "deal", form, game.DEAL)
    return render_table(table, forms={"deal": form})


@bp.post("/t/<token>/carambouille/deal")
def deal(token: str) -> Answer:
    """Work out the deal (the step without JavaScript), or record it with the stock it leaves."""
    table = table_or_404(token)
    form = DealForm(players=len(table.seats))
    if form.step.data != "confirm":
        if form.validate_on_submit():
            check_deal(table, form)
        form.seen.data = table.last_seq
        return shown_again(table, "deal", form, status=200)
    return record_form(table, "deal", form, deal_event(table))


def deal_again(table: Table, data) -> DealForm:
    """The deal form as sent, with the deal worked out on the table as it stands (``kept_forms``)."""
    form = DealForm(formdata=data, meta={"csrf": False}, players=len(table.seats))
    if form.step.data != "confirm" and form.validate():
        check_deal(table, form)
    return form


# --- the score pad on a page of its own -----------------------------------------

def _pad(table: Table, watch: bool) -> str:
    if table.game != "carambouille":
        abort(404)
    context = table_context(table, watch=watch)
    return render_template("carambouille/pad.html", **context)


@bp.get("/t/<token>/pad")
def pad(token: str) -> str:
    """The whole score pad: one column per player, one row per hand, running totals."""
    return _pad(table_or_404(token), watch=False)


@bp.get("/w/<token>/pad")
def watch_pad(token: str) -> str:
    """The whole score pad, from the watch view."""
    return _pad(table_or_404(token, watch=True), watch=True)


# --- the forms of the table page ---------------------------------------------

# Each form built again for the table page after a refusal or a preview without JavaScript (``kept_forms``).
KEPT_FORMS = {
    "carambouille.sale": sale_again,
    "carambouille.buy": kept_forms.plain(BuyForm),
    "carambouille.end_turn": kept_forms.plain(EndTurnForm),
    "carambouille.play_card": kept_forms.plain(PlayCardForm),
    "carambouille.give_card": kept_forms.plain(GiveCardForm),
    "carambouille.play_on_sale": kept_forms.plain(PlayOnSaleForm),
    "carambouille.end_game": kept_forms.plain(EndGameForm),
    "carambouille.deal": deal_again,
}


def fresh(form_class, **data):
    """A form as first shown: never filled from the request (after a post, that would reuse its key)."""
    return form_class(formdata=None, **data)


def table_forms(table: Table, state: game.State, seat: int | None) -> dict:
    """Fresh forms for what the hand needs next; this phone's player chosen where a player is asked."""
    seen = table.last_seq
    me = seat if seat is not None else (state.turn if state.turn is not None else state.first_trader)
    forms: dict = {"end_game": fresh(EndGameForm, seen=seen),
                   "basket": fresh(PlayCardForm, seen=seen, type="basket", player=me)}
    if state.phase == game.MARKET:
        forms["i_lied"] = fresh(PlayCardForm, seen=seen, type="i_lied", player=me)
        forms["persuasion"] = fresh(PlayCardForm, seen=seen, type="persuasion", player=me)
        forms["give"] = fresh(GiveCardForm, seen=seen, player=me, to=game.seat_after(state, me))
    elif state.phase == game.SALES:
        # The sale and the purchase read the same on every seat: built only for the part they are in.
        forms["sale"] = later(SaleForm, seen=seen, player=state.turn)
        forms["buy"] = later(BuyForm, seen=seen, player=state.turn)
        forms["end_turn"] = fresh(EndTurnForm, seen=seen, player=state.turn)
        forms["on_sale"] = fresh(PlayOnSaleForm, seen=seen, player=me)
    elif state.phase == game.DEAL:
        forms["deal"] = partial(_deal_form, state, seen)
    return forms


def _deal_form(state: game.State, seen: int) -> DealForm:
    form = fresh(DealForm, seen=seen, players=len(state.players), data={"hand_sizes": list(state.hand_estimates)})
    form.outcome = game.deal_outcome(state, state.hand_estimates)
    return form

