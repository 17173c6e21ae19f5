"""The values of one answer in a rendering kept for many: each rendered as a marker, filled in per answer.

Between two entries a table looks the same to every phone in the same seat, but for a few values that
belong to one answer: the CSRF token, each form's idempotency key, the server's clock. A region kept for
many answers (``companion.live.regions``) is rendered with a marker in place of each of those and filled in
for every answer. Markers are made of NUL characters, which never come from a player:
``companion.web.security`` refuses them in any request.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from flask import Flask, current_app, g
from flask_wtf.csrf import generate_csrf

_MARK = re.compile("\x00([a-z]+)(?::(-?[0-9]+))?\x00")
# What fills a marker: a function of the marker's argument (or None) giving this answer's value.
Filler = Callable[[str | None], str]


def per_answer(name: str, argument: int | None = None) -> str | None:
    """The marker for a value of this answer while a kept rendering is rendered, else None."""
    if not g.get("region_marking"):
        return None
    return f"\x00{name}\x00" if argument is None else f"\x00{name}:{argument}\x00"


def csrf_token(_: str | None) -> str:
    """The marker ``csrf``: this answer's CSRF token."""
    return generate_csrf()


def fill(html: str, csrf: str | None = None) -> str:
    """The rendering with each marker replaced by this answer's value (``csrf``: the phone's token, when
    it is filled outside its request, for its stream)."""
    if "\x00" not in html:
        return html
    fillers = current_app.extensions["markers"]
    token: list[str] = [] if csrf is None else [csrf]

    def value(match: re.Match) -> str:
        if match[1] != "csrf":
            return fillers[match[1]](match[2])
        # One token an answer, however many forms carry it.
        if not token:
            token.append(fillers["csrf"](None))
        return token[0]

    return _MARK.sub(value, html)


@contextmanager
def marking() -> Iterator[None]:
    """Render what is rendered inside to be kept: each value of one answer as its marker."""
    saved = g.pop("csrf_token", None)
    # Flask-WTF renders the token it finds in g (every form field and csrf_token() in templates).
    g.csrf_token = "\x00csrf\x00"
    g.region_marking = True
    try:
        yield
    finally:
        g.region_marking = False
        g.pop("csrf_token", None)
        if saved is not None:
            g.csrf_token = saved


def init_app(app: Flask, fillers: dict[str, Filler]) -> None:
    """What fills each marker but the CSRF token's (whose filler is always there)."""
    app.extensions["markers"] = {"csrf": csrf_token, **fillers}
