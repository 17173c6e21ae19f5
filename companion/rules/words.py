"""The app's words in the reader's language: every sentence the rules and the views show goes through here.

The rules stay standard library only, so they cannot ask Flask-Babel for the phone's language. They
call ``_`` and ``ngettext`` of this module instead; the app tells it once (``use``) where the current
request's catalog is (``companion.i18n``), and everything is worded when it is shown, in the language
of the phone that asked. Without an app (the rules' own tests), every message is its English source.

The message ids are the English sentences; their placeholders are named (``%(name)s``), so that a
language may put them in another order. ``N_`` only marks a word for extraction, for tables of names
kept at module level: they are worded where they are shown (``_(CARD_NAMES[card])``); ``N_plural``
does the same for a singular and plural pair (``ngettext(*GOODS_SOLD[good], cards)``).
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


def _(message: str, **params: object) -> str:
    """``message`` in the reader's language, with ``%(name)s`` placeholders filled from ``params``."""
    text = _catalog().gettext(message)
    return text % params if params else text


def ngettext(singular: str, plural: str, num: int, **params: object) -> str:
    """The form for ``num`` in the reader's language ("1 seal", "2 seals"); ``%(num)d`` is the count."""
    params.setdefault("num", num)
    return _catalog().ngettext(singular, plural, num) % params


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without wording it yet: it is worded where it is shown."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular and plural pair for the catalogs without wording it: ``ngettext(*pair, num)`` words it."""
    return singular, plural


def duration_words(seconds: float) -> str:
    """A duration as players say it: "45 s", "2 min", "2 min 05 s"."""
    minutes, rest = divmod(max(0, int(seconds)), 60)
    if not minutes:
        # Translators: a duration in seconds, e.g. "45 s".
        return _("%(seconds)d s", seconds=rest)
    if rest:
        # Translators: a duration in minutes and seconds, e.g. "2 min 05 s".
        return _("%(minutes)d min %(seconds)02d s", minutes=minutes, seconds=rest)
    # Translators: a duration in whole minutes, e.g. "2 min".
    return _("%(minutes)d min", minutes=minutes)
