"""Jaipur's table page: sales with a preview, the end of a round, the camels, the next round."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from flask import Blueprint, render_template, request
from werkzeug.wrappers import Response

from ..table import recording
from ..table.view import table_view
from ..forms.jaipur import PREVIEW, CamelsForm, EndRoundForm, NextRoundForm, SaleForm
from ..live.page import render_table
from ..models import Entry, Table
from ..rules import RuleError, jaipur
from ..rules.words import N_, _
from ..web.phone import my_seat
from ..web.templating import is_htmx
from . import kept_forms
from .table_forms import record_form, refuse, shown_again
from .table_page import table_or_404

bp = Blueprint("jaipur", __name__)


def bonus_rng():
    """The random source bonus tokens are drawn with (tests put a seeded one here)."""
    return secrets.SystemRandom()


def prepare_sale(form: SaleForm, state, *, preview: bool) -> SaleForm:
    """Give the sale form its possible choices and, when asked, the preview of the choice made."""
    good = form.good.data if form.good.data in jaipur.GOODS else None
    cards = form.cards.data if form.cards.data in range(1, jaipur.HAND_LIMIT + 1) else None
    player = form.player.data if form.player.data in (0, 1) else None
    form.card_options = jaipur.card_choices(state, good)
    form.bonus_options = (jaipur.bonus_choices(state, cards)
                          if cards is not None and state.bonus_mode == "enter" else ())
    form.preview = None
    if preview and jaipur.phase(state) == jaipur.SELLING:
        try:
            shown = jaipur.sale_preview(state, player, good, cards)
        except RuleError as error:
            refuse(form, error.message, error.field)
        else:
            # Nothing to show until both the good and the number of cards are chosen.
            if shown.good is not None and shown.cards is not None:
                form.preview = shown
                form.previewed.data = form.choice()
    return form


def _shown_on(form, seq: int):
    """Let the form say it was built on entry ``seq`` (a number field renders what was sent first)."""
    form.seen.data = seq
    form.seen.raw_data = [str(seq)]
    return form


# Worded when the sale is refused: _(STALE_PREVIEW).
STALE_PREVIEW = N_("The table changed since this preview: check the tokens again, then record the sale.")


def _confirmed(form: SaleForm) -> bool:
    """Whether the sale was confirmed on a preview of this very choice (that the table is unchanged
    since is checked under the table's lock, when it is recorded)."""
    return form.step.data != PREVIEW and form.previewed.data == form.choice()


def _preview_note(form: SaleForm) -> str | None:
    if form.step.data == PREVIEW or not form.previewed.data or form.previewed.data == form.choice():
        return None
    return _("The choice changed: check the tokens it takes, then record it.")


@bp.get("/t/<token>/jaipur/sale/preview")
def sale_preview(token: str) -> tuple[str, int]:
    """The sale form with the tokens the chosen sale would take (htmx: the form alone)."""
    table = table_or_404(token)
    state = table_view(table).state
    form = prepare_sale(SaleForm(formdata=request.args), state, preview=True)
    if is_htmx():
        # Only the form is swapped: it still belongs to the table this phone shows, whose entry number it keeps.
        sent = form.seen.data if form.seen.data is not None and not form.seen.errors else None
        _shown_on(form, min(sent, table.last_seq) if sent is not None else table.last_seq)
        return render_template("jaipur/_sale_form.html", table=table, state=state, game=jaipur,
                               form=form, seat=my_seat(table)), 200
    return render_table(table, forms={"sale": _shown_on(form, table.last_seq)})


@bp.post("/t/<token>/jaipur/sale")
def sale(token: str) -> Response | tuple[str, int]:
    """Record a sale confirmed on its preview; otherwise show the preview first."""
    table = table_or_404(token)
    form = SaleForm()
    note = _preview_note(form)
    if _confirmed(form):
        state = table_view(table).state
        prepare_sale(form, state, preview=True)
        try:
            return record_form(table, "sale", form, lambda f: f.event(state.bonus_mode), rng=bonus_rng(),
                               changed=_(STALE_PREVIEW),
                               recorder_sees=lambda entry: entry.event.get("bonus") is not None)
        except recording.TableChanged as error:
            note = error.message
    prepare_sale(form, table_view(table).state, preview=True)
    form.note = note
    _shown_on(form, table.last_seq)
    return shown_again(table, "sale", form, status=200)


def sale_again(table: Table, data) -> SaleForm:
    """The sale form as sent, with its preview worked out on the table as it stands (``kept_forms``)."""
    return prepare_sale(SaleForm(formdata=data, meta={"csrf": False}), table_view(table).state, preview=True)


@bp.post("/t/<token>/jaipur/end-round")
def end_round(token: str) -> Response | tuple[str, int]:
    """The players say the market cannot be refilled: the round ends."""
    table = table_or_404(token)
    return record_form(table, "end_round", EndRoundForm(), lambda form: {"type": "end_round"})


@bp.post("/t/<token>/jaipur/camels")
def camels(token: str) -> Response | tuple[str, int]:
    """Both camel counts: the round is scored and its seal given."""
    table = table_or_404(token)
    return record_form(table, "camels", CamelsForm(), lambda form: form.event())


@bp.post("/t/<token>/jaipur/next-round")
def next_round(token: str) -> Response | tuple[str, int]:
    """Start the next round with a full token bank."""
    table = table_or_404(token)
    return record_form(table, "next_round", NextRoundForm(), lambda form: {"type": "next_round"})


# Each form built again for the table page after a refusal or a preview without JavaScript (``kept_forms``).
KEPT_FORMS = {
    "jaipur.sale": sale_again,
    "jaipur.end_round": kept_forms.plain(EndRoundForm),
    "jaipur.camels": kept_forms.plain(CamelsForm),
    "jaipur.next_round": kept_forms.plain(NextRoundForm),
}


def table_forms(table: Table, state, seat: int | None) -> dict:
    """Fresh forms for the page (never filled from the request being answered)."""
    seen = table.last_seq
    return {
        "sale": prepare_sale(SaleForm(formdata=None, seen=seen, player=seat), state, preview=False),
        "end_round": EndRoundForm(formdata=None, seen=seen),
        "camels": CamelsForm(formdata=None, seen=seen),
        "next_round": NextRoundForm(formdata=None, seen=seen),
    }



@dataclass(frozen=True)
class BonusReveal:
    """The bonus token a sale just took, and how this phone may show it."""

    seller: int
    value: int
    pile: str  # "3 cards", in the reader's language
    shown: str  # "own": a phone of the seller's seat; "tap": the phone of nobody that recorded it; "hidden"


@bp.app_template_global("jaipur_bonus_reveal")
def bonus_reveal(state, seat: int | None, last_entry: Entry | None,
                 recorded_here: int | None = None) -> BonusReveal | None:
    """The drawn bonus token of the newest sale, for the seller's eyes only.

    Decided by seat: every phone of the seller's seat shows it. A phone of nobody shows it (behind a
    tap) only if it recorded that very sale (``recorded_here``: a phone passed round the table); the
    table view keeps that phone's rendering apart (``live.page.reader_of``).
    """
    if state.bonus_mode != "draw" or last_entry is None or last_entry.type != "sale":
        return None
    event = last_entry.event
    value, cards = event.get("bonus"), event.get("cards")
    if value is None or not isinstance(cards, int) or jaipur.bonus_pile_for(cards) is None:
        return None
    seller = event.get("player")
    if seat == seller:
        shown = "own"
    elif seat is None and recorded_here == last_entry.seq:
        shown = "tap"
    else:
        shown = "hidden"
    return BonusReveal(seller, value, _(jaipur.BONUS_PILE_LABELS[jaipur.bonus_pile_for(cards)]), shown)
