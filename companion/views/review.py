"""The session review: history, results with the chart, players, CSV, reopen (the session file: ``exchange``)."""

from __future__ import annotations

from flask import (Blueprint, Response, abort, make_response, redirect, render_template, request,
                   url_for)
from jinja2 import pass_context

from ..table import kinds, log, recording, wording
from ..table.view import table_view
from ..forms.review import CloseForm, HistoryFilterForm, ReopenForm
from ..models import Table
from ..review import bgstats, chart, csvfiles, history, sentences, standings, stats, story, tonight
from ..review.session import period_key, review_of, timeline
from ..rules import RuleError
from ..rules.review import names
from ..i18n import formats
from ..i18n.formats import number
from ..rules.words import _
from ..groups import bin
from ..web.membership import current_group, is_keeper, may_remove
from .evenings import of_results
from .standings import of_results as rating_changes
from .group_pages import group_page, in_no_group
from ..web.phone import device_id, phone, remember
from .table_forms import refuse
from .table_page import table_or_404

bp = Blueprint("review", __name__, cli_group=None)


@bp.app_template_filter("local_time")
def local_time(moment, part: str = "datetime") -> str:
    """A stored time as the players' clock shows it, as the reader's locale writes it (``i18n.formats``).

    ``part``: "datetime" ("1 déc. 2026, 20:05", "Dec 1, 2026, 8:05 PM"), "date" ("01.12.2026", "1 Dec
    2026"), "day" ("Tuesday, December 1, 2026"), "time" ("8:05 PM", "20:05") or "seconds" ("20:05:12").
    """
    if not moment:
        return ""
    shown = history.local(moment)
    if part == "date":
        return formats.date(shown)
    if part == "day":
        return formats.day(shown)
    if part in ("time", "seconds"):
        return formats.time(shown, seconds=part == "seconds")
    return formats.date_and_time(shown)


def stamp(moment, pattern: str) -> str:
    """A stored time in the players' time zone for a file: a name, a spreadsheet cell (never worded)."""
    return history.local(moment).strftime(pattern) if moment else ""


@bp.app_template_filter("session_status")
@pass_context
def session_status(_context, slug: str) -> str:
    """ "finished", "playing", "abandoned" in the reader's language.

    Taking the context keeps Jinja from folding ``"finished"|session_status`` into the compiled
    template: folded, the first phone's language would be every later phone's.
    """
    return sentences.status(slug)


@bp.app_context_processor
def review_words() -> dict:
    """The review's words around a game's periods and figures, for the templates."""
    return {"review_words": sentences}


@bp.app_template_global()
def session_forms(table: Table) -> dict:
    """Fresh reopen / finish-again forms for a table's pages."""
    return {"reopen": ReopenForm(seen=table.last_seq), "close": CloseForm(seen=table.last_seq)}


def _filters(group_id: int) -> tuple[HistoryFilterForm, history.Filters]:
    form = HistoryFilterForm(request.args, games=standings.game_choices(group_id))
    if request.args and not form.validate():
        # Filters that cannot be read are left out; the form says why next to each field.
        valid = {name: not getattr(form, name).errors for name in FILTERS}
    else:
        valid = dict.fromkeys(FILTERS, True)
    return form, history.Filters(
        game=form.game.data or None if valid["game"] else None,
        player=form.player.data or None if valid["player"] else None,
        since=form.since.data if valid["since"] else None,
        until=form.until.data if valid["until"] and valid["since"] else None,
        status=form.status.data or None if valid["status"] else None,
    )


FILTERS = ("game", "player", "since", "until", "status")


def _filter_args(form: HistoryFilterForm) -> dict:
    """The filters that were read, as query arguments, for the page links and the CSV link."""
    return {name: request.args[name] for name in FILTERS
            if request.args.get(name) and not getattr(form, name).errors}


@bp.get("/history")
def history_page() -> Response:
    """The group's sessions, newest first, 20 to a page, with filters."""
    if (group := current_group()) is None:
        return group_page(in_no_group())
    form, filters = _filters(group.id)
    page = history.page_of(history.matching_ids(group.id, filters), request.args.get("page", 1, type=int) or 1)
    rows = list(zip(page.tables, history.outcomes(page.tables)))
    status = 422 if form.errors else 200
    return group_page((render_template("review/history.html", form=form, page=page, rows=rows, group=group,
                                        evening_of=tonight.headings(group.id, page.tables),
                                        args=_filter_args(form), bin=bin.sessions(group.id),
                                        keeper=is_keeper(group)), status))


def _winner_names(outcome: stats.Outcome) -> str:
    return ", ".join(outcome.players[seat] for seat in outcome.winners)


@bp.get("/history.csv")
def history_csv() -> Response:
    """The group's history list (with the same filters) as CSV."""
    if (group := current_group()) is None:
        abort(404)
    _, filters = _filters(group.id)
    rows = []
    tables = history.tables_by_ids(history.matching_ids(group.id, filters))
    for table, outcome in zip(tables, history.outcomes(tables)):
        rows.append([
            stamp(table.created_at, "%Y-%m-%d %H:%M"),
            outcome.game_name,
            ", ".join(outcome.players),
            _winner_names(outcome) if outcome.finished else "",
            sentences.status(history.ABANDONED if outcome.abandoned else table.status),
            url_for("review.watch_results", token=table.watch_token, _external=True),
        ])
    return group_page(_csv(csvfiles.history_csv(rows), "history.csv"))


def _csv(text: str, filename: str) -> Response:
    # The byte-order mark tells a spreadsheet the file is UTF-8: "Chloé", not "ChloÃ©".
    response = make_response(csvfiles.BOM + text)
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _slug_name(table: Table) -> str:
    return history.file_name(table)


def _results(table: Table, *, watch: bool, forms: dict | None = None, status: int = 200) -> Response:
    game = log.game_of(table)
    state = table_view(table).state
    review = review_of(table.game, game, state)
    logged = log.history(table)
    logged.reverse()
    rows = [(entry, undone, kinds.is_game_entry(entry)) for entry, undone in logged]
    players = table.players
    progression = review.progression
    period = period_key(table.game, review)

    # Each entry worded from its event, as the table's history words it (companion/table/wording.py).
    sentences = wording.sentences(table, [entry for entry, _undone in logged])

    def word(entry, _before, _worded):
        return sentences[entry.seq]

    context = {
        "table": table,
        "game": game,
        "review": review,
        "period": period,
        "watch": watch,
        # A phone that said it only watches this table reopens nothing (``live.page.table_context``).
        "watching": not watch and phone().watching(table.token),
        "players": players,
        # Each place with whom it stands for: a team once, its players named together.
        "places": [(place, seats, names(players, seats)) for place, seats in review.places],
        "chart": chart.build(players, progression, period, review.chart_name),
        "chart_description": chart.description(players, progression, review.chart_name, period),
        "timeline": timeline(table.game, game, players, table.options or {}, rows, word),
        "game_over": game.finished(state),
        # The play for BG Stats, once the session is finished (the match as one play for Jaipur).
        "bgstats_link": bgstats.link_for(table, game, state, review, [entry for entry, undone in logged if not undone]),
        "bgstats_match": bgstats.is_match(game),
        "card": _card(table, game, review),
        "review_forms": {**({} if watch else session_forms(table)), **(forms or {})},
        # Removing it is offered to a keeper of its group and the members at it, never to a link's holder.
        "may_remove": not watch and may_remove(table),
        "token": table.watch_token if watch else table.token,
        "evening": of_results(table),
        "rating_changes": rating_changes(table),
        # The game told in a few sentences, once it is over: each links to its step of the replay.
        "story": story.told(table, game, review, state),
        "replay_endpoint": "replay.watch_replay" if watch else "replay.replay",
    }
    # Never kept by a cache on the way: what it says of the group's evening is for the group's phones alone.
    return group_page((render_template("review/results.html", **context), status))


def _card(table: Table, game, review) -> dict:
    """What the picture of the result says (``static/card.js`` draws it with the page's chart), in the
    reader's language: the game, when, the standings with the winner marked, a file name."""
    players = table.players
    return {
        "game": log.game_title(table),
        "when": f"{local_time(table.created_at)} · {', '.join(players)}",
        "heading": _("Final standings") if table.finished else _("Standings so far"),
        "standings": [{
            "rank": place.rank,
            "name": names(players, seats),
            "score": number(place.score),
            "unit": sentences.unit(review.score_name, place.score),
            "winner": table.finished and place.seat in review.winners,
        } for place, seats in review.places],
        "winner": _("winner"),
        "app": _("Table companion"),
        "file": f"{history.file_name(table)}.png",
    }


@bp.get("/t/<token>/results")
def results(token: str) -> Response:
    """The session's standings, breakdown, chart, highlights and every entry in words."""
    table = table_or_404(token)
    remember(table.token)
    return _results(table, watch=False)


@bp.get("/w/<token>/results")
def watch_results(token: str) -> Response:
    """The same results, read-only, for the watch link (and the history's links)."""
    return _results(table_or_404(token, watch=True), watch=True)


def _results_csv(table: Table) -> Response:
    game = log.game_of(table)
    review = review_of(table.game, game, table_view(table).state)
    return _csv(csvfiles.results_csv(table.players, review, period_key(table.game, review)),
                f"{_slug_name(table)}-results.csv")


@bp.get("/t/<token>/results.csv")
def results_csv(token: str) -> Response:
    """Standings and the per-hand/round breakdown as CSV."""
    return _results_csv(table_or_404(token))


@bp.get("/w/<token>/results.csv")
def watch_results_csv(token: str) -> Response:
    """Standings and breakdown as CSV, from the watch link."""
    return _results_csv(table_or_404(token, watch=True))


def _session_action(token: str, form, act) -> Response | tuple[str, int]:
    table = table_or_404(token)
    if form.validate_on_submit():
        try:
            act(table, device=device_id(), key=form.key.data)
        except RuleError as error:
            refuse(form, error.message, None)
        else:
            return redirect(url_for("tables.page", token=table.token), 303)
    else:
        form.form_errors.append(_("That did not go through: reload the page and try again."))
    name = "reopen" if isinstance(form, ReopenForm) else "close"
    return _results(table, watch=False, forms={name: form}, status=422)


@bp.post("/t/<token>/reopen")
def reopen(token: str) -> Response | tuple[str, int]:
    """Reopen a finished session on purpose, so that entries can be undone and corrected."""
    return _session_action(token, ReopenForm(), recording.reopen)


@bp.post("/t/<token>/close")
def close(token: str) -> Response | tuple[str, int]:
    """Mark a reopened session whose game is over finished again."""
    return _session_action(token, CloseForm(), recording.close)
