"""Where an answer sends the phone next: an address of this site, never another's.

A page that sends the phone back where it came from (the language switch's ``next``) takes that
address from the request, so anyone can craft it. Browsers forgive a great deal in an address: they
drop tabs and line breaks anywhere in it, read a backslash as a slash, and take ``//host`` or
``/\\host`` for another site; ``/\\t/evil.example`` reaches the phone as ``//evil.example``. So an
address taken from a request is kept only when it is a path of this site as every browser reads it
(``local_path``), and every redirect to such an address goes through here.
"""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

from flask import make_response, redirect
from werkzeug.urls import iri_to_uri
from werkzeug.wrappers import Response

from .templating import is_htmx

# The longest address kept; a page's own path and query are far shorter.
LONGEST = 2000
# Unicode's control characters (tabs and line breaks among them) and format characters (bidi and
# zero-width ones): a browser drops or hides them, so the address a person sees is not the one opened.
UNSEEN = {"Cc", "Cf"}


def _plain(target: str) -> bool:
    """No character a browser drops, reads as a slash, or splits an address at."""
    return not any(character == "\\" or character.isspace() or unicodedata.category(character) in UNSEEN
                   for character in target)


def local_path(target: object) -> str | None:
    """``target`` as a path of this site (percent-encoded, ``/players/Zo%C3%A9``), or None if it is anything
    else: another site (``//host``, ``https:…``), a script (``javascript:``), a relative path, or an address
    holding a control character, a space or a backslash."""
    if not isinstance(target, str) or not 0 < len(target) <= LONGEST or not _plain(target):
        return None
    if not target.startswith("/") or target.startswith("//"):
        return None
    address = iri_to_uri(target)
    parts = urlsplit(address)
    if parts.scheme or parts.netloc or not address.startswith("/") or address.startswith("//"):
        return None
    return address


def go(address: str) -> Response:
    """Send the phone to ``address`` of this site: 303 for a page, ``HX-Redirect`` for htmx (a redirect would
    be followed inside the request, and the page swapped into the element that asked)."""
    if is_htmx():
        response = make_response("", 200)
        response.headers["HX-Redirect"] = address
        return response
    return redirect(address, 303)
