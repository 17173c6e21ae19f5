"""The parts of a table region every reader shares, rendered once per table version and language.

The scoreboard, a game's board and the newest entries read the same on every phone of a table but for
the reader's own seat, marked ("me", "(you)"). Each seat's region is rendered on its own
(``companion.live.regions``), but these parts are rendered once for all of them: with no seat, no
phone's forms and nothing a phone recorded itself, so nothing only one seat may see can be in them.
What belongs to one seat is written with ``for_seat(seat, text)``: the text between two seat markers,
kept only in that seat's region when the part is put into it (``others_text``: kept in every region
but that seat's). A game that declares ``ONE_PASS`` (``companion.rules``) has its whole region rendered
so: once for every seat, each seat's bits between its markers (``seat_text``, ``others_text``), and each
seat's region read out of it (``segments``, ``read_by``). A whole page is its frame (the same for every
seat) around the seat's region. Markers are NUL characters, like the per-answer markers, and never come
from a player.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from flask import Flask, current_app, g
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from . import regions
from .regions import RegionCache

# What a shared part is rendered for: nobody's phone. A seat's own bits come through for_seat.
NOBODY = {"seat": None, "recorded_here": None, "forms": {}, "sent_forms": {}, "asking": False, "inviting": False,
          "sharing": True, "watching": False, "keeps_pad": False}
# Where a page's frame takes the reader's live region.
LIVE_REGION = Markup("\x00live\x00")


def seat_text(seat: int, text: str) -> Markup:
    """``text`` between the seat markers of ``seat``: kept only in that seat's region (``for_reader``)."""
    return Markup("\x00seat:%d\x00%s\x00/seat\x00") % (seat, text)


def others_text(seat: int, text: str) -> Markup:
    """``text`` kept in every region but ``seat``'s (a phone of nobody's included)."""
    return Markup("\x00others:%d\x00%s\x00/others\x00") % (seat, text)


@pass_context
def for_seat(context: Context, seat: int, text: str) -> Markup:
    """``text`` in the region of ``seat`` only; in a shared part, between seat markers."""
    if context.get("sharing"):
        return seat_text(seat, text)
    return escape(text) if context.get("seat") == seat else Markup("")


def segments(html: str) -> list[tuple[tuple[str, int] | None, str]]:
    """``html`` cut at its seat markers: (whose, text) pieces in order, ``whose`` None for every reader,
    ("seat", n) or ("others", n). The per-answer markers stay in the text, to be filled in.

    One cut, however many seats then read it (``for_reader``, ``read_by``): a string split, where a
    regular expression a seat took a sixth of a region's rendering for six seats."""
    pieces = html.split("\x00")
    found: list[tuple[tuple[str, int] | None, str]] = []
    whose: tuple[str, int] | None = None
    text = [pieces[0]]
    # Every marker is NUL, name, NUL: the odd pieces are the names, each followed by the text after it.
    for name, after in zip(pieces[1::2], pieces[2::2]):
        kind, _, number = name.partition(":")
        if kind in ("seat", "others", "/seat", "/others"):
            found.append((whose, "".join(text)))
            whose, text = ((kind, int(number)) if number else None), [after]
        else:
            text.append(f"\x00{name}\x00{after}")
    found.append((whose, "".join(text)))
    return found


def read_by(found: list[tuple[tuple[str, int] | None, str]], seat: int | None) -> str:
    """The pieces ``seat`` reads (``segments``): every reader's, its own seat's, and the others' but its own."""
    return "".join(text for whose, text in found if whose is None
                   or (whose[1] == seat) == (whose[0] == "seat"))


def for_reader(html: str, seat: int | None) -> str:
    """A shared part as ``seat`` reads it: its own marked text kept, every other seat's left out."""
    if "\x00seat:" not in html and "\x00others:" not in html:
        return html
    return read_by(segments(html), seat)


@pass_context
def shared(context: Context, template: str, form: str | None = None, reading: Hashable = None) -> Markup:
    """The part ``template`` of this region: rendered once per table version, language and view, for this seat.

    Shared only while a region is rendered to be kept (``regions.render_shared`` marks the values of one
    answer); a region with a refused form in it renders its parts as its own. ``form``: the name of the one
    form the part reads beyond nobody's context, the same for every seat at this version (Carambouille's
    sale, purchase and deal, built from the table's state alone; its key and CSRF token are markers). It is
    read from the phone's forms only when the part is rendered: a kept part needs none built.

    ``reading``: a part that reads the seat, but only as one of a few readings (the bell panel: the First
    Trader's, anyone else's "in a pinch", a phone of nobody's), is rendered once per reading for the seats
    that read it alike, with the reader's own context; ``reading`` must say everything it reads of the seat.
    """
    share: tuple[Hashable, Hashable] | None = context.get("share")
    found = context.environment.get_template(template)

    def given() -> dict:
        return {"forms": {form: context["forms"][form]}} if form else {}

    if share is None or not g.get("region_marking"):
        return Markup(found.render({**context.get_all(), **given()}))
    key, version = share
    parts: RegionCache = current_app.extensions["shared_parts"]
    kept_as = (key, template) if reading is None else (key, template, reading)
    html = parts.get(kept_as, version)
    if html is None:
        html = found.render({**context.get_all(), **(NOBODY if reading is None else {}), **given()})
        parts.put(kept_as, version, html)
    # In a region rendered for every seat at once, the markers stay for each seat's region to be read out.
    return Markup(html if context.get("every_seat") else for_reader(html, context.get("seat")))


def page(share: tuple[Hashable, Hashable], render_frame: Callable[[], str], region: str) -> str:
    """A whole page: its frame (bar, session actions, invitation, language), the same for every seat and
    kept per table version, around this reader's region; neither filled in yet."""
    key, version = share
    frame = regions.kept_or_rendered(current_app.extensions["shared_parts"], (key, "page"), version, render_frame)
    return frame.replace(LIVE_REGION, region, 1)


def kept_page(share: tuple[Hashable, Hashable], region: str) -> str | None:
    """The page around ``region`` if its frame is kept at this version, else None."""
    key, version = share
    frame = current_app.extensions["shared_parts"].get((key, "page"), version)
    return frame.replace(LIVE_REGION, region, 1) if frame is not None else None


def init_app(app: Flask) -> None:
    """Keep the shared parts of this process's tables; give the templates ``shared`` and ``for_seat``."""
    app.extensions["shared_parts"] = RegionCache(int(app.config["SHARED_PART_CACHE_SIZE"]))
    app.jinja_env.globals.update(shared=shared, for_seat=for_seat, seat_text=seat_text, others_text=others_text)
