"""The table page as every game shows it, and its live region: rendered for an answer (the page, the poll) and for
a push (``companion.live.pushes``) by the same functions.

A region without a refused form in it is the same for every phone in one seat until the table changes: it is
rendered once per table version, for every seat at once (``render_readers``: what a push and a page's first
request both call), kept (``companion.live.regions``, ``companion.live.store``) and filled in per answer
(``companion.web.markers``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache

import sqlalchemy as sa
from flask import current_app, g, render_template, request, url_for

from ..extensions import db
from ..forms import InviteForm
from ..forms.page import PageForms, game_forms
from ..i18n import language
from ..i18n.formats import locale_key
from ..models import Table
from ..rules import declared
from ..table.log import game_of
from ..table.view import table_view
from ..web import markers
from ..web.phone import PAD, WATCHING, Phone, my_seat, phone, seat_choice
from ..web.templating import is_htmx
from . import heads, parts, regions, store


def reader_of(watch: bool, choice: int | str | None, token: str) -> tuple:
    """Everything that decides what this phone may see of a table: its answer to "Who are you?" as it keeps it
    and, for a seat, the phone's id (only the phone holding a seat sees its secrets: the rendering checks it,
    ``Phone.seat_at``); for a phone of nobody, the entry it recorded itself (the rare case of a phone passed round)."""
    if watch:
        return None, None
    return choice, phone().device if isinstance(choice, int) else phone().recorded_at(token)


def table_context(table: Table, *, watch: bool = False, forms: dict | None = None) -> dict:
    """Everything the table view's templates need: this request's view of the table, and this phone's forms."""
    view = table_view(table)
    seat = None if watch else my_seat(table)
    choice = None if watch else seat_choice(table)
    recorded = None if watch or isinstance(choice, int) else phone().recorded_at(table.token)
    last = None if watch else view.last_entry
    all_forms = PageForms({}) if watch else game_forms(table, seat)
    all_forms.update(forms or {})
    inviting = not watch and not table.finished and not view.seating.invite_closed \
        and not view.seating.everyone_in(len(table.seats))
    return {
        "table": table,
        "game": view.game,
        "state": view.state,
        "scores": view.scores,
        "score_row": view.score_row,
        "watch": watch,
        # A phone that said it only watches shows the table as the watch view does: no control that records.
        "watching": choice == WATCHING,
        # A phone that keeps the pad for everyone records for every player, as one passed round the table.
        "keeps_pad": choice == PAD,
        "seat": seat,
        # The seat this phone held until another phone took it: it says so, and offers to take it back.
        "moved_from": None if watch else phone().moved_from(table),
        # A phone of nobody that recorded the newest entry may see what only its recorder sees.
        "recorded_here": recorded,
        # Right after joining, a phone is asked who holds it; until every seat has a phone, the invitation leads.
        "asking": not watch and not table.finished and choice is None,
        "seating": view.seating,
        # A game whose board reads the same for every seat but the reader's own marks (``for_seat``) declares it
        # (``SHARED_BOARD``): its board is rendered once per table version for all of them (``companion.live.parts``).
        "shared_board": declared(view.game, "SHARED_BOARD"),
        # The seats a region is rendered for at once (``every_seat``); None: this reader's alone.
        "every_seat": None,
        "inviting": inviting,
        "forms": all_forms,
        # The forms this answer was given, refused or previewed: the only ones that can hold a sentence.
        "sent_forms": forms or {},
        "recent": view.recent,
        # Each entry worded in this phone's language.
        "words": view.words,
        "last_entry": last,
        "invite_form": InviteForm(formdata=None, seen=table.last_seq) if inviting else None,
        # The poll adds the version the phone shows when it asks (static/app.js): the region is morphed in
        # place, so a version written into this URL would be the one it was first drawn at.
        # How often the stream beats: the page counts it lost after three missed beats (static/app.js).
        "stream_beat": current_app.config["STREAM_BEAT_SECONDS"],
        "live_url": url_for("tables.watch_live" if watch else "tables.live",
                            token=table.watch_token if watch else table.token),
    }


def frame_context(table: Table, watch: bool) -> dict:
    """What a page's frame reads (its bar, the table's stream, the invitation, the language), for nobody's phone:
    the table's row and nothing of its state, its log or its forms, which only its live region reads."""
    return {"table": table, "watch": watch, "stream_beat": current_app.config["STREAM_BEAT_SECONDS"], **parts.NOBODY,
            "live_region": parts.LIVE_REGION}


def _region_key(table_id: int, watch: bool, reader: tuple) -> tuple:
    # ``reader_of`` covers everything that decides what the phone may see (``reader_of``).
    # One rendering per language and locale: two phones of one seat may read it in two languages, or
    # one language in two locales (1,080 and 1'080).
    # The page and the poll's answer share it (``render_table``).
    return table_id, reader, *region_variant(watch)


def _parts_key(table_id: int, watch: bool) -> tuple:
    # The parts every seat shares are rendered for nobody's phone: no reader in the key, but the
    # view (the watch page opens the pad and links the watch pages), the language and the locale are.
    return table_id, watch, request.url_root, language(), locale_key()


def region_version(last_seq: int, status: str, bell_seq: int | None, bell_plan: dict | None) -> tuple:
    # Everything of the row a rendering reads: the newest entry, and the bell's schedule, which
    # is written just after the entry that opens the market.
    return last_seq, status, bell_seq, repr(bell_plan)


def render_table(table: Table, *, watch: bool = False, forms: dict | None = None,
                 status: int = 200) -> tuple[str, int]:
    """The whole page, or just the live region for an htmx request (kept and shared unless it holds a refused form).

    A page is its frame, kept for every seat, around the reader's region, kept for its seat: the page
    and the poll's answer share the region.
    """
    htmx = is_htmx()
    version = region_version(table.last_seq, table.status, table.bell_seq, table.bell_plan)
    share = (_parts_key(table.id, watch), version)
    context = cache(lambda: table_context(table, watch=watch, forms=forms))
    if forms:
        body = render_template("tables/_live.html" if htmx else "tables/page.html", **context())
        # htmx only swaps 2xx answers: a refused form comes back as 200 with its errors.
        return body, 200 if htmx else status
    body = marked_region(table, watch=watch, context=context)
    if not htmx:
        body = parts.page(share, lambda: render_template("tables/page.html", **frame_context(table, watch)), body)
    return markers.fill(body), 200 if htmx else status


def marked_region(table: Table, *, watch: bool = False, context: Callable[[], dict] | None = None,
                  from_host: bool = True) -> str:
    """This reader's live region at the table's version, kept and shared, its markers not filled in yet.

    ``from_host``: read it from the host's store (``companion.live.store``), rendered there for every seat if
    it is not there yet (``host_region``); else render this reader's alone."""
    version = region_version(table.last_seq, table.status, table.bell_seq, table.bell_plan)
    share = (_parts_key(table.id, watch), version)
    context = context or cache(lambda: table_context(table, watch=watch))
    reader = reader_of(watch, None if watch else phone().answer_at(table.token), table.token)
    key = _region_key(table.id, watch, reader)
    kept = current_app.extensions["regions"]
    if (html := kept.get(key, version)) is None and from_host:
        # Rendered once for the host, for every seat: by this request, or by whoever needed this version
        # first (pushed to the table's streams by now, most likely: companion.live.pushes).
        html = host_region(table, watch, reader)
        if html is not None:
            kept.put(key, version, html)
    return html if html is not None else regions.kept_or_rendered(
        kept, key, version, lambda: render_template("tables/_live.html", **context(), share=share))


def readers_to_render(table: Table, watch: bool, wanted: set[str], kept: Mapping[str, str]) -> list[tuple]:
    """The readers a version is rendered for at once, but those ``kept`` already: every seat (each seat's
    phones will read it), and the ``wanted`` ones (by ``reader_key``)."""
    holders = table_view(table).seating.holders
    every_seat = [] if watch else [(seat, holders.get(seat)) for seat in range(len(table.seats))]
    readers = every_seat + [tuple(json.loads(key)) for key in sorted(wanted - {reader_key(r) for r in every_seat})]
    return [reader for reader in readers if reader_key(reader) not in kept]


def render_readers(table: Table, watch: bool, readers: list[tuple]) -> dict[str, str]:
    """The marked regions of ``readers`` (by ``reader_key``) at the table's version, in this request's variant."""
    rendered = {}
    own = g.pop("phone", None)
    try:
        holders = table_view(table).seating.holders
        # The seats read by the phone holding them (or by any, where none does).
        seats = [choice for choice, device in readers if isinstance(choice, int) and holders.get(choice) == device]
        # A game that declares ``ONE_PASS`` has its whole region rendered once for every seat of a version when
        # all seats are wanted (a pushed entry): what reads the seat carries each seat's bits between seat
        # markers, and each seat's region is read out of that one rendering (``companion.live.parts``).
        if not watch and declared(game_of(table), "ONE_PASS") and len(seats) > 1:
            g.phone = Phone(seats={}, recorded_here={})
            for seat, html in every_seat(table, seats).items():
                rendered[reader_key((seat, holders.get(seat)))] = html
            readers = [reader for reader in readers if reader_key(reader) not in rendered]
        for choice, second in readers:
            # The reader as its own phone would be: its seat and id, or the entry it recorded itself.
            seated = isinstance(choice, int)
            g.phone = Phone(device=second if seated else None, seats={} if choice is None else {table.token: choice},
                            recorded_here={} if seated or second is None else {table.token: second})
            rendered[reader_key((choice, second))] = marked_region(table, watch=watch, from_host=False)
    finally:
        g.pop("phone", None)
        if own is not None:
            g.phone = own
    return rendered


def every_seat(table: Table, seats: list[int]) -> dict[int, str]:
    """The marked regions of ``seats`` at the table's version, rendered at once (the game's ``ONE_PASS``) and kept
    in this process as each seat's own rendering would be (in a request of a phone of nobody's)."""
    version = region_version(table.last_seq, table.status, table.bell_seq, table.bell_plan)
    share = (_parts_key(table.id, False), version)
    with markers.marking():
        # Built while marking, as every kept rendering's: each form's key a marker, filled per answer.
        # A seat's phone is never asked who holds it; what it alone sees is between its seat markers.
        context = {**table_context(table), "asking": False, "sharing": True, "every_seat": seats}
        html = render_template("tables/_live.html", **context, share=share)
    kept = current_app.extensions["regions"]
    found = parts.segments(html)
    holders = table_view(table).seating.holders
    regions_of = {}
    for seat in seats:
        regions_of[seat] = parts.read_by(found, seat)
        kept.put(_region_key(table.id, False, (seat, holders.get(seat))), version, regions_of[seat])
    return regions_of


def host_region(table: Table, watch: bool, reader: tuple) -> str | None:
    """``reader_of``'s marked region at the table's version, kept for the host (``companion.live.store``).

    Read from the host's store, else rendered there for every seat at once, under the table's lock: the
    first to need a version (the phone that recorded the entry, a stream's worker, a phone's poll)
    renders it for all, and the others wait and read it rather than render it again. None if the table
    changed since this request read it (never kept over a newer version): the caller renders its own.
    """
    host = store.of(current_app)
    variant = region_variant(watch)
    version = region_version(table.last_seq, table.status, table.bell_seq, table.bell_plan)
    key = reader_key(reader)
    if (html := host.peek(table.id, variant, version, key)) is not None:
        return html
    with host.table(table.id) as kept:
        regions_kept = kept.get(variant, version)
        if key not in regions_kept:
            if version_now(table.id) != version:
                return None
            missing = readers_to_render(table, watch, {key}, regions_kept)
            regions_kept = {**regions_kept, **render_readers(table, watch, missing)}
            kept.put(variant, version, regions_kept)
        return regions_kept[key]


def version_now(table_id: int) -> tuple | None:
    """The table's version as the database holds it now (``region_version``), read without the ORM;
    None if there is no such table."""
    now = db.session.execute(sa.select(Table.last_seq, Table.status, Table.bell_seq, Table.bell_plan)
                             .where(Table.id == table_id)).first()
    return None if now is None else region_version(*now)


def reader_key(reader: tuple) -> str:
    """A reader (``reader_of``) as the host's store of regions names it."""
    return json.dumps(list(reader))


def region_variant(watch: bool) -> tuple:
    """What, beside the reader, a region's rendering depends on in this request: its view, address, language,
    and the locale its dates and numbers are written in (an en-GB phone never gets an en-US rendering)."""
    return watch, request.url_root, language(), locale_key()


def kept_table(head: heads.Head, token: str, *, watch: bool = False) -> tuple[str, int] | None:
    """The table as kept for this phone, if it has not changed since: no ORM, nothing rendered.

    The seat is taken from the session as it is: a region is only ever kept under a seat that was
    checked against the table when it was rendered, so a seat out of range finds nothing here.
    """
    reader = reader_of(watch, None if watch else phone().answer_at(token), token)
    version = region_version(head.last_seq, head.status, head.bell_seq, head.bell_plan)
    kept = current_app.extensions["regions"].get(_region_key(head.id, watch, reader), version)
    if kept is not None and not is_htmx():
        kept = parts.kept_page((_parts_key(head.id, watch), version), kept)
    return (markers.fill(kept), 200) if kept is not None else None
