"""Carambouille's memo card: the printed one, a table's house memo, the quick calculator, changing the house memo."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from flask import Blueprint, abort, render_template, request, url_for
from werkzeug.wrappers import Response

from .. import i18n
from ..table import recording
from ..table.view import table_view
from ..forms.carambouille import CalculatorForm, HouseMemoForm
from ..models import Table
from ..rules import RuleError
from ..rules.words import _, ngettext
from ..rules import carambouille as game
from ..web import redirects
from ..web.phone import device_id
from ..web.templating import is_htmx
from .table_forms import refuse
from .table_page import table_or_404

bp = Blueprint("memo", __name__)


def _carambouille(table: Table) -> Table:
    if table.game != "carambouille":
        abort(404)
    return table


class Calculation(NamedTuple):
    """The calculator as asked: its form, the arithmetic in words (each line with whether it rests on the
    unconfirmed 5-card column), the value, why there is none for a sale asked whole, the status."""

    form: CalculatorForm
    lines: list[tuple[str, bool]]
    value: int | None
    refusal: str | None
    status: int


def calculate(memo: dict[int, tuple[int, ...]], changed: frozenset = frozenset()) -> Calculation:
    """The calculator as asked in the query string."""
    form = CalculatorForm(request.args)
    if not request.args:
        return Calculation(form, [], None, None, 200)
    if not form.validate():
        # A product and a number of cards asked, and still no value: the result says why.
        asked = not (form.product.errors or form.cards.errors)
        return Calculation(form, [], None, " ".join([*form.form_errors, *form.effects_errors()]) if asked else None, 422)
    product = game.PRODUCT_BY_SLUG[form.product.data]
    try:
        steps = game.steps_on_row(memo[product.face_value], form.cards.data, form.chosen_effects())
    except RuleError as error:
        refuse(form, error.message, error.field)
        return Calculation(form, [], None, error.message, 422)
    words = [steps[0].text(product.word(form.cards.data))] + [step.text() for step in steps[1:]]
    lines = [(line, not step.cancelled and game.on_ruling(product.face_value, step.column, changed))
             for line, step in zip(words, steps)]
    return Calculation(form, lines, steps[-1].value, None, 200)


@lru_cache(maxsize=64)
def _values(rows: tuple[tuple[int, tuple[int, ...]], ...], changed: frozenset) -> tuple[dict, tuple[int, ...]]:
    """The calculator's values on this memo, and each distinct value among them: worked out once per memo."""
    values = game.calculator_values(dict(rows), changed)
    seen: set[int] = set()
    stack = [node for sales in values.values() for node in sales]
    while stack:
        node = stack.pop()
        seen.add(node[0])
        stack.extend(node[2].values() if len(node) > 2 else ())
    return values, tuple(sorted(seen))


# A number no sale reaches, put where a sentence's value goes to find where the phone writes it.
_VALUE = 987_654_321


def _with_value(text: str) -> str:
    return text.replace(i18n.number(_VALUE), "{value}")


def offline_calculator(memo: dict[int, tuple[int, ...]], changed: frozenset) -> dict:
    """What the calculator's script (``static/calculator.js``) needs to answer without the server: every
    value it can show (from the rules, ``calculator_values``) and its sentences in the reader's language."""
    values, distinct = _values(tuple(sorted(memo.items())), changed)
    first = {product.slug: [game.SaleStep(None, cards, 0, False, _VALUE).text(product.word(cards)) for cards in range(1, 6)]
             for product in game.PRODUCTS}
    return {
        "faces": {product.slug: product.face_value for product in game.PRODUCTS},
        "values": {str(face): sales for face, sales in values.items()},
        # The reader's way of writing each value (1,250 / 1 250 / 1.250).
        "numbers": {str(value): i18n.number(value) for value in distinct},
        # The result's sentence for each value, in the form its count takes ("= 0 point" in French).
        "totals": {str(value): ngettext("= %(points)s point", "= %(points)s points", value, points="{points}")
                   for value in distinct},
        "first": {slug: [_with_value(line) for line in lines] for slug, lines in first.items()},
        "cards": {card: {"name": game.card_name(card),
                         "then": _with_value(game.SaleStep(card, 1, 0, False, _VALUE).text()),
                         "cancelled": game.SaleStep(card, 1, 0, True, 0).text()} for card in game.SALE_CARDS},
        "words": {
            "first_card": _("First card"), "then": _("Then"), "none": _("No sale card"), "nothing_more": _("Nothing more"),
            "hint": _("Choose a product and the number of cards: the value shows here."),
            "ruling": _("5 cards: not confirmed by the rule text (see the note under the memo)."),
            "ruling_mark": _("(not confirmed by the rule text)"),
        },
    }


def _memo_page(memo, changed, *, table: Table | None = None, watch: bool = False,
               here: str) -> tuple[str, int, dict]:
    """The memo page, or only its calculator for an htmx change (a wrong entry answers 200 so htmx swaps it)."""
    asked = calculate(memo, changed)
    context = {"memo": memo, "changed": changed, "game": game, "form": asked.form, "lines": asked.lines,
               "value": asked.value, "refusal": asked.refusal, "table": table, "watch": watch, "here": here}
    if is_htmx():
        return render_template("carambouille/_calculator.html", **context), 200, {"Vary": "HX-Request"}
    context["offline"] = offline_calculator(memo, changed)
    return render_template("carambouille/memo.html", **context), asked.status, {"Vary": "HX-Request"}


@bp.get("/memo/carambouille")
def card() -> tuple[str, int, dict]:
    """The printed memo card (face value × 1 to 5 cards) and the quick sale calculator; nothing is stored."""
    return _memo_page(dict(game.DEFAULT_MEMO), frozenset(), here=url_for("carambouille.memo.card"))


@bp.get("/t/<token>/memo")
def table_card(token: str) -> tuple[str, int, dict]:
    """The memo this table plays with, its house changes marked, and the calculator on it."""
    table = _carambouille(table_or_404(token))
    memo, changed = game.house_memo(table_view(table).state)
    return _memo_page(memo, changed, table=table, here=url_for("carambouille.memo.table_card", token=token))


@bp.get("/w/<token>/memo")
def watch_card(token: str) -> tuple[str, int, dict]:
    """The table's memo, from the watch view."""
    table = _carambouille(table_or_404(token, watch=True))
    memo, changed = game.house_memo(table_view(table).state)
    return _memo_page(memo, changed, table=table, watch=True, here=url_for("carambouille.memo.watch_card", token=token))


def _edit_page(table: Table, form: HouseMemoForm, status: int = 200) -> tuple[str, int]:
    """The memo's edit page; for htmx its form alone, refused as 200 (htmx swaps only 2xx answers)."""
    state = table_view(table).state
    if is_htmx():
        return render_template("carambouille/_memo_edit_form.html", table=table, form=form, game=game,
                               changed=game.house_memo(state)[1]), 200
    return render_template("carambouille/memo_edit.html", table=table, form=form, game=game,
                           changed=game.house_memo(state)[1]), status


@bp.get("/t/<token>/memo/edit")
def edit(token: str) -> tuple[str, int]:
    """Every cell of the table's memo, to correct (the house memo)."""
    table = _carambouille(table_or_404(token))
    memo = game.house_memo(table_view(table).state)[0]
    return _edit_page(table, HouseMemoForm.filled(memo, formdata=None, seen=table.last_seq))


@bp.post("/t/<token>/memo/edit")
def save(token: str) -> Response | tuple[str, int]:
    """Record the house memo as an entry of the table (it shows in the history and can be undone)."""
    table = _carambouille(table_or_404(token))
    form = HouseMemoForm()
    if form.validate_on_submit():
        try:
            recording.record(table, form.event(), device=device_id(), key=form.key.data, seen=form.seen.data)
        except recording.AlreadyRecorded as error:
            # The memo as it now is, never the one sent: sending it again would overwrite the other phone's.
            memo = game.house_memo(table_view(table).state)[0]
            form = HouseMemoForm.filled(memo, formdata=None, seen=table.last_seq)
            refuse(form, error.message, "memo")
        except RuleError as error:
            refuse(form, error.message, "memo")
        else:
            # The token it came by: the table's row, expired by the commit, is not read again for it.
            return redirects.go(url_for("carambouille.memo.table_card", token=token))
    return _edit_page(table, form, 422)
