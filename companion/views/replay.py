"""A table replayed entry by entry (``/t/<token>/replay?at=N``, the same under the watch link).

Each step is a page of its own, so the links work without JavaScript; with it, the step's region is swapped in
place and the address follows (a reload keeps the place), and the arrow keys, Home and End step
(``static/replay.js``). The board of a step is the game's own board template, rendered as the table page renders
it for this phone: a seat's secrets (a Jaipur bonus token face down) only on the phone holding that seat, never
on another seat's phone or the watch view.
"""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from ..forms.review import ReplayForm
from ..i18n import language
from ..live import parts
from ..i18n.formats import locale_key
from ..models import Table
from ..review import sentences, steps
from ..review.keeping import kept
from ..review.session import review_module, without_label
from ..table import log, wording
from ..table.view import score_row
from ..web.phone import my_seat, remember
from ..web.templating import is_htmx
from .group_pages import group_page
from .table_page import table_or_404

bp = Blueprint("replay", __name__)

# What a board reads of a table page's context beyond the state: nobody's phone's (``live.parts.NOBODY``), in a view
# that records nothing and renders its parts as its own.
STILL = {**parts.NOBODY, "watching": True, "sharing": False, "every_seat": None}


@bp.get("/t/<token>/replay")
def replay(token: str) -> Response:
    """The table after entry ``at`` (0: as it began), as this phone may see it."""
    table = table_or_404(token)
    remember(table.token)
    return _replay(table, watch=False)


@bp.get("/w/<token>/replay")
def watch_replay(token: str) -> Response:
    """The same replay from the watch link: no seat's secrets."""
    return _replay(table_or_404(token, watch=True), watch=True)


def _replay(table: Table, *, watch: bool) -> Response:
    found = steps.steps_of(table)
    form = ReplayForm(request.args, last=found.last)
    valid = not request.args or form.validate()
    at = form.at.data if valid and form.at.data is not None else 0
    context = step_context(table, found, at, watch=watch)
    context["form"] = form
    region = Markup(_region(table, at, context) if valid else render_template("review/_replay_step.html", **context))
    body = region if is_htmx() else render_template("review/replay.html", **context, region=region)
    response = group_page((body, 200 if valid else 422))
    # The same address answers the whole page and, for htmx, the step's region alone.
    response.vary.add("HX-Request")
    return response


def _region(table: Table, at: int, context: dict) -> str:
    """The step's region, rendered once per table version, step and reader and kept: a phone asking a step again
    (back, a reload, another phone of the same seat) finds it. Its reader is all it reads of the phone: its seat (or
    none), the view, the address, the language and the locale; nothing of one answer (the region holds no token)."""
    key = (table.id, table.token, table.last_seq, table.status, tuple(table.players), at, context["via_watch"],
           context["seat"], request.url_root, language(), locale_key())
    return kept("replay_regions", int(current_app.config["REPLAY_STEPS_KEPT"])).get_or_make(
        key, lambda: render_template("review/_replay_step.html", **context))


def board_context(table: Table, state) -> dict:
    """What a game's board and the score row read to show ``state`` of ``table`` in a view that records nothing:
    a replay's step, an evening's game at its end (the seat, if any, is the caller's)."""
    game = log.game_of(table)
    scores = game.scores(state)
    return {**STILL, "table": table, "game": game, "state": state, "scores": scores,
            "score_row": score_row(game, table.players, state, scores),
            # A view that records nothing: a link to the pad's own page, no hint to choose a seat.
            "watch": True}


def step_context(table: Table, found: steps.Steps, at: int, *, watch: bool) -> dict:
    """What a step's templates read: the board's context at step ``at`` for this phone, the entry, the links."""
    state = found.states[at]
    entry = found.entry(at)
    shown = found.shown(at)
    words = wording.sentences(table, [row for row, _undone in shown], found.newest_undo)
    label = _period_label(table, state) if entry is not None else ""
    token = table.watch_token if watch else table.token
    base = url_for("replay.watch_replay" if watch else "replay.replay", token=token)
    return {
        **board_context(table, state),
        "via_watch": watch,
        # Only the phone holding a seat sees that seat's secrets, at every step as it did at the table.
        "seat": None if watch else my_seat(table),
        "at": at,
        "last": found.last,
        # The steps its links lead to: the one before and after (the start and the end lead to themselves).
        "before": max(at - 1, 0),
        "after": min(at + 1, found.last),
        "entry": entry,
        "label": label,
        # The entry's words under its hand or round, which they need not say again ("Hand 1: Ana rang the bell").
        "said": without_label(words[entry.seq], label) if entry is not None else "",
        "undone_later": found.undone_later(at),
        "shown": shown,
        "words": words,
        "token": token,
        "replay_url": base,
        # Built once: a step links seven others.
        "step_url": lambda number: f"{base}?at={number}",
        "results_url": url_for("review.watch_results" if watch else "review.results", token=token),
    }


def _period_label(table: Table, state) -> str:
    """ "Hand 3", "Round 2": where the step stands; "" for a game that names no periods."""
    module = review_module(table.game)
    number = module.period_number(state) if module is not None else None
    return "" if number is None else sentences.label(module.PERIOD_NAME, number)
