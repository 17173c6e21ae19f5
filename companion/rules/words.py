"""The app's words in the reader's language: every sentence the rules and the views show goes through here.

The rules stay standard library only, so they cannot ask Flask-Babel for the phone's language. They
call ``_`` and ``ngettext`` of this module instead; the app tells it once (``use``) where the current
request's catalog is (``companion.i18n``), and everything is worded when it is shown, in the language
of the phone that asked. Without an app (the rules' own tests), every message is its English source.

The message ids are the English sentences; their placeholders are named (``%(name)s``), so that a
language may put them in another order. ``N_`` only marks a word for extraction, for tables of names
kept at module level: they are worded where they are shown (``_(CARD_NAMES[card])``).

Every sentence ``_`` and ``ngettext`` return is a ``Said``: the text in the reader's language, which
also remembers its message and values (``said``). An entry keeps that, not its text, so the history
words it again in each reader's language (``reword``), long after the phone that recorded it.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Callable

_NULL = _gettext.NullTranslations()
_catalog: Callable[[], _gettext.NullTranslations] = lambda: _NULL  # noqa: E731


def use(catalog: Callable[[], _gettext.NullTranslations]) -> None:
    """Word every message with ``catalog()``: the catalog of the language of the request being served."""
    global _catalog
    _catalog = catalog


class Said(str):
    """A sentence as worded for this reader, that can be worded again for another (``said``)."""

    __slots__ = ("said",)

    def __new__(cls, text: str, said: dict) -> Said:
        made = super().__new__(cls, text)
        made.said = said
        return made


def _kept(value: object) -> object:
    # A value is kept as data: numbers and names as they are, a worded value as its message.
    if isinstance(value, Said):
        return value.said
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return str(value)


def _said(message: str, params: dict, plural: tuple[str, int] | None = None) -> dict:
    said: dict = {"m": message}
    if plural is not None:
        said["pl"], said["n"] = plural
    if params:
        said["p"] = {name: _kept(value) for name, value in params.items()}
    return said


def _(message: str, **params: object) -> Said:
    """``message`` in the reader's language, with ``%(name)s`` placeholders filled from ``params``."""
    text = _catalog().gettext(message)
    return Said(text % params if params else text, _said(message, params))


gettext = _


def ngettext(singular: str, plural: str, num: int, **params: object) -> str:
    """The form for ``num`` in the reader's language ("1 seal", "2 seals"); ``%(num)d`` is the count."""
    params.setdefault("num", num)
    return Said(_catalog().ngettext(singular, plural, num) % params, _said(singular, params, (plural, num)))


def said(text: str) -> dict | None:
    """What ``text`` said, as data to keep (JSON), if it was worded here; None for plain text."""
    return text.said if isinstance(text, Said) else None


def reword(said: dict, catalog: _gettext.NullTranslations | None = None) -> str:
    """A kept sentence worded in the reader's language (or with ``catalog``: ``NULL`` is English)."""
    catalog = _catalog() if catalog is None else catalog
    params = {name: reword(value, catalog) if isinstance(value, dict) else value
              for name, value in said.get("p", {}).items()}
    if "pl" in said:
        text = catalog.ngettext(said["m"], said["pl"], said["n"])
        source = said["m"] if said["n"] == 1 else said["pl"]
    else:
        text, source = catalog.gettext(said["m"]), said["m"]
    if not params:
        return text
    try:
        return text % params
    except (KeyError, ValueError, TypeError):
        # A catalog older than the entry: the English sentence rather than nothing.
        return source % params


def english(text: str) -> str:
    """``text`` in English, the source language, whatever the reader's language."""
    return reword(text.said, _NULL) if isinstance(text, Said) else text


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without wording it yet: it is worded where it is shown."""
    return message


def pick(count: int, one: str, many: str) -> str:
    """Old form, going: ``ngettext(one, many, count)``."""
    return _catalog().ngettext(one, many, count)


def plural(count: int, one: str, many: str) -> str:
    """Old form, going: ``ngettext("%(num)d seal", "%(num)d seals", count)``."""
    return f"{count} {pick(count, one, many)}"
