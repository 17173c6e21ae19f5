"""The shared table view: player and watch pages, the live poll, undo, history, the QR code."""

from __future__ import annotations

import io

import segno
from flask import Blueprint, make_response, redirect, render_template, request, url_for
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from ..forms import InviteForm, SeatForm, UndoForm
from ..forms.page import game_forms
from ..live import heads, pushes, streams
from ..live.page import kept_table, render_table
from ..rules import RuleError
from ..rules.words import _
from ..web.hosting import phone_url
from ..table import bell, kinds, log, recording, seating, wording
from ..table.view import table_view
from ..web import membership, phone
from ..web.templating import is_htmx
from . import kept_forms
from .errors import render_error
from .table_forms import answer, refuse, shown_again
from .table_page import table_or_404, token_shaped

bp = Blueprint("tables", __name__)
# What a phone that only watches may still send at its table: its answer to "Who are you?", and the
# removal of the session from the history (not a move of the game).
WATCHING_MAY_SEND = frozenset({"tables.choose_seat", "removal.remove_session"})


@bp.before_app_request
def watching_records_nothing() -> tuple[str, int] | None:
    """Refuse whatever a phone that said it only watches sends at that table: it shows no control that
    records, and a page left open from before (or a crafted request) records nothing either."""
    if request.method != "POST" or request.endpoint in WATCHING_MAY_SEND:
        return None
    token = (request.view_args or {}).get("token")
    if isinstance(token, str) and phone.phone().watching(token):
        return render_error(403)
    return None


def _current_head(token: str, watch: bool) -> heads.Head | None:
    """The table's head when it can answer alone: found, and no bell due to fire."""
    if not token_shaped(token):
        return None
    head = heads.head(token, watch)
    # A phone taken out of the table's group goes the long way, to be refused (``table_or_404``).
    return None if head is None or bell.is_due(head.bell_due_at) or membership.barred(head.group_id) else head


def _kept(token: str, watch: bool) -> tuple[str, int] | None:
    """The rendering kept for this phone, if the table has not changed since (no ORM, nothing rendered)."""
    head = _current_head(token, watch)
    return kept_table(head, token, watch=watch) if head is not None else None


def _nothing_new() -> Response:
    response = make_response("", 204)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/t/<token>")
def page(token: str) -> tuple[str, int]:
    """The table as every player sees it, with the actions for recording entries."""
    # A form this phone sent without JavaScript, refused or previewed, is shown once, on a page of its own.
    if not kept_forms.waiting(token) and (kept := _kept(token, watch=False)) is not None:
        phone.remember(token)
        return kept
    table = table_or_404(token)
    phone.remember(table.token)
    bell.fire_if_due(table)
    return render_table(table, forms=kept_forms.take(table, lambda: game_forms(table, phone.my_seat(table))))


@bp.get("/w/<token>")
def watch(token: str) -> tuple[str, int]:
    """The read-only table view for a tablet or TV in the middle of the table."""
    if (kept := _kept(token, watch=True)) is not None:
        return kept
    table = table_or_404(token, watch=True)
    bell.fire_if_due(table)
    return render_table(table, watch=True)


def _live(token: str, watch: bool) -> Response | tuple[str, int]:
    seen = request.args.get("seen", type=int)
    head = _current_head(token, watch)
    if head is not None:
        if head.last_seq == seen:
            # The common case, every second on every phone: one indexed read, nothing built, nothing rendered.
            return _nothing_new()
        if (kept := kept_table(head, token, watch=watch)) is not None:
            return kept
    try:
        table = table_or_404(token, watch=watch)
    except NotFound:
        if not is_htmx():
            raise
        # A table page still open on a session removed since (its tokens are new): it says so and stops
        # asking. Any poll of a link that leads nowhere gets these words, so they tell a stranger nothing.
        return render_template("tables/_removed.html"), 404
    # A bell due to close fires here, first poll first.
    bell.fire_if_due(table)
    if seen == table.last_seq:
        # A bell was due but had nothing to ring: still nothing new for this phone.
        return _nothing_new()
    return render_table(table, watch=watch)


@bp.get("/t/<token>/live")
def live(token: str) -> Response | tuple[str, int]:
    """The live region if the table changed since entry ``seen``, else 204."""
    return _live(token, watch=False)


@bp.get("/w/<token>/live")
def watch_live(token: str) -> Response | tuple[str, int]:
    """The watch view's live region if the table changed since entry ``seen``, else 204."""
    return _live(token, watch=True)


def _no_stream() -> Response:
    # Served by the app only where no stream can be held (streams are held by the worker's loop,
    # companion/server/streaming.py): the page's sse-close event. The browser stops, the page polls.
    response = make_response(streams.NO_STREAM, 200)
    response.headers["Content-Type"] = "text/event-stream; charset=utf-8"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/t/<token>/stream")
def stream(token: str) -> Response:
    """The table's stream; asked by the worker that holds it, who the phone is (``pushes.subscribe``);
    else (no worker holding streams) its end at once: the page polls."""
    if pushes.SUBSCRIBE in request.environ:
        return pushes.subscribe(token, watch=False)
    table_or_404(token)
    return _no_stream()


@bp.get("/w/<token>/stream")
def watch_stream(token: str) -> Response:
    """The watch view's stream (see ``stream``)."""
    if pushes.SUBSCRIBE in request.environ:
        return pushes.subscribe(token, watch=True)
    table_or_404(token, watch=True)
    return _no_stream()


# The undo form built again for the table page after a refusal without JavaScript (``kept_forms``).
KEPT_FORMS = {"tables.undo": kept_forms.plain(UndoForm), "tables.choose_seat": kept_forms.plain(SeatForm)}


def qr_svg(url: str, title: str | None = None) -> bytes:
    """The QR code of ``url`` as a standalone SVG document (XML declaration, namespace): what an <img> draws."""
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=6, dark="#000", light="#fff",
                                    title=title or _("Scan to join this table"))
    return buffer.getvalue()


def qr_response(url: str, title: str | None = None) -> Response:
    """The QR code of ``url`` as an SVG image answer, for this phone alone."""
    response = make_response(qr_svg(url, title))
    response.headers["Content-Type"] = "image/svg+xml"
    # The address it encodes follows the settings and the machine's network: never keep an old one.
    response.headers["Cache-Control"] = "private, no-cache"
    # Its title is in the phone's language.
    response.vary.update(("Accept-Language", "Cookie"))
    return response


@bp.get("/t/<token>/qr.svg")
def qr(token: str) -> Response:
    """The QR code of the table's join URL, as an SVG image."""
    return qr_response(phone_url("tables.page", token=table_or_404(token).token))


@bp.get("/t/<token>/history")
def history(token: str) -> str:
    """Every entry of the table, newest first, undone ones struck through."""
    table = table_or_404(token)
    rows = log.history(table)
    return render_template("tables/history.html", table=table, rows=rows, game=table_view(table).game,
                           words=wording.sentences(table, [entry for entry, _undone in rows]),
                           undoable=kinds.is_game_entry, watching=phone.phone().watching(table.token))


# How many entries an undo may wait for (each undone first, newest first): more is not a mistake at a table.
UNDO_CHAIN = 20


def _waiting_undos(values: list) -> list[int]:
    """The entries still to undo after this one, in order (sent along as ``then``), as entry numbers."""
    return [value for value in values if isinstance(value, int) and 0 < value <= 10**9][:UNDO_CHAIN]


@bp.get("/t/<token>/undo")
def confirm_undo(token: str) -> tuple[str, int] | Response:
    """Say what "Undo" would take back, and ask once."""
    table = table_or_404(token)
    # A finished session undoes nothing: its page offers to reopen it.
    if table.finished:
        return redirect(url_for("tables.page", token=table.token), 303)
    target = request.args.get("entry", type=int)
    rows = {entry.seq: (entry, undone) for entry, undone in log.history(table)}
    last = table_view(table).last_entry
    if target is None and last is not None:
        target = last.seq
    if target not in rows or rows[target][1] or not kinds.is_game_entry(rows[target][0]):
        return redirect(url_for("tables.page", token=table.token), 303)
    form = UndoForm(entry=target, seen=table.last_seq)
    # Inside the table, htmx morphs the live region; on a page of its own, the form is a plain post.
    in_table = is_htmx()
    template = "tables/_undo_confirm.html" if in_table else "tables/undo.html"
    entry = rows[target][0]
    return render_template(template, table=table, entry=entry, sentence=wording.sentence(table, entry),
                           form=form, in_table=in_table,
                           then=_waiting_undos(request.args.getlist("then", type=int))), 200


@bp.post("/t/<token>/undo")
def undo(token: str) -> Response | tuple[str, int]:
    """Take back an entry (by default the last one); then, without htmx, on to the next one waiting, if any."""
    table = table_or_404(token)
    form = UndoForm()
    then = _waiting_undos(request.form.getlist("then", type=int))
    if form.validate_on_submit():
        try:
            recording.void(table, form.entry.data, device=phone.device_id(), key=form.key.data, seen=form.seen.data)
        except RuleError as error:
            refuse(form, error.message, None)
            # The later entry standing in the way: undone first, this one after it.
            if (blocking := getattr(error, "blocking", None)) is not None:
                form.blocking, form.then = blocking, [form.entry.data, *then][:UNDO_CHAIN]
        else:
            if then and not is_htmx():
                return redirect(url_for("tables.confirm_undo", token=table.token, entry=then[0], then=then[1:],
                                        _anchor="undo"), 303)
            return answer(table)
    return shown_again(table, "undo", form)


@bp.post("/t/<token>/seat")
def choose_seat(token: str) -> Response | tuple[str, int]:
    """Remember which player holds this phone, or that it only watches, or keeps the pad for everyone."""
    table = table_or_404(token)
    form = SeatForm()
    form.seat.choices = [("", _("Nobody (just watching)")), (phone.PAD, _("Everyone: this phone keeps the pad"))] + [
        (str(i), n) for i, n in enumerate(table.players)]
    if form.validate_on_submit():
        seat = int(form.seat.data) if form.seat.data.isdigit() else None
        # "" is "Just watching"; the pad for everyone keeps its own word.
        choice = seat if seat is not None else form.seat.data or phone.WATCHING
        # Asked first: a phone set to a player shows that player's secrets (cards, a drawn bonus).
        ask = seat is not None and form.also.data != "1" and phone.my_seat(table) != seat
        if ask and table_view(table).seating.held_by_another(seat, phone.device_id()):
            return shown_again(table, "seat", form, status=200)
        if seat is not None and not table.finished:
            # Another phone may have taken the seat since it was free above: asked all the same.
            if not seating.take_seat(table, seat, device=phone.device_id()):
                if ask:
                    return shown_again(table, "seat", form, status=200)
                # Asked and answered: the seat moves to this phone, and the whole table is told.
                seating.move_seat(table, seat, device=phone.device_id())
        phone.answer(table, choice)
    return answer(table)


@bp.post("/t/<token>/invite")
def close_invite(token: str) -> Response | tuple[str, int]:
    """Put the invitation away for the whole table: everyone who plays has joined."""
    table = table_or_404(token)
    form = InviteForm()
    if form.validate_on_submit() and not table.finished:
        seating.put_invite_away(table, device=phone.device_id(), key=form.key.data)
    return answer(table)
