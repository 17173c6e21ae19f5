"""The app's words in the reader's language: every sentence the rules and the views show goes through here.

The rules stay standard library only, so they cannot ask Flask-Babel for the phone's language. They
call ``_`` and ``ngettext`` of this module instead; the app tells it once (``use``) where the current
request's catalog is (``companion.i18n``), and everything is worded when it is shown, in the language
of the phone that asked. Without an app (the rules' own tests), every message is its English source.

The message ids are the English sentences; their placeholders are named (``%(name)s``), so that a
language may put them in another order. ``N_`` only marks a word for extraction, for tables of names
kept at module level: they are worded where they are shown (``_(CARD_NAMES[card])``); ``N_plural``
does the same for a singular and plural pair (``ngettext(*GOODS_SOLD[good], cards)``).

Filling a sentence (``fill``, for the templates' messages too) does what the reader's language needs
and English logic cannot: a number is written as the language writes it (the ``number`` hook of ``use``,
which the app points at Babel: "1,080", "1 080", "1.080"); a word the catalog says is shortened before a vowel is
shortened when the name or word put after it starts with one (French "de Alice" → "d'Alice", the rule
in the catalog's "elision" entry); and an abbreviation that ends a sentence ends it with its own full
stop ("nach 1 Min.", never "1 Min..").
"""

from __future__ import annotations

import gettext as _gettext
import re
from collections.abc import Callable, Mapping

_NULL = _gettext.NullTranslations()
_catalog: Callable[[], _gettext.NullTranslations] = lambda: _NULL  # noqa: E731
_number: Callable[[int], str] = str
# A message's placeholders: ``%(name)s``, ``%(num)d`` (flags such as ``%(seconds)02d`` are left alone).
_PLACEHOLDER = re.compile(r"%\((\w+)\)([sd])")
_TAG = re.compile(r"<[^>]*>")
# Below a thousand every language the app speaks writes a number as its digits alone: no lookup needed.
_PLAIN = range(-999, 1000)


def use(catalog: Callable[[], _gettext.NullTranslations], number: Callable[[int], str] | None = None) -> None:
    """Word every message with ``catalog()`` (the catalog of the request being served), write numbers with ``number``."""
    global _catalog, _number
    _catalog = catalog
    _number = number or str


def _(message: str, **params: object) -> str:
    """``message`` in the reader's language, with ``%(name)s`` placeholders filled from ``params``."""
    catalog = _catalog()
    text = catalog.gettext(message)
    return fill(text, params, catalog) if params else text


def ngettext(singular: str, plural: str, num: int, **params: object) -> str:
    """The form for ``num`` in the reader's language ("1 seal", "2 seals"); ``%(num)d`` is the count."""
    params.setdefault("num", num)
    catalog = _catalog()
    return fill(catalog.ngettext(singular, plural, num), params, catalog)


def fill(text: str, params: Mapping[str, object], catalog: _gettext.NullTranslations | None = None) -> str:
    """``text % params``, with the reader's numbers, elisions and single full stops (see the module's docstring).

    ``text`` may be markup (the templates' messages): what it holds is the translator's, and the
    values are escaped by the ``%`` as before.
    """
    if "%" not in text:
        return text  # most messages: nothing to fill, and markup's ``%`` would escape an empty mapping for nothing
    if "%(" not in text:
        return text % params
    shaped = str(text)  # plain text while it is shaped: markup would escape what is put into it
    values = dict(params)
    elision = _elision(catalog or _catalog())
    for match in reversed(list(_PLACEHOLDER.finditer(text))):
        key, kind = match.groups()
        value = values.get(key)
        start, end = match.span()
        if kind == "d" and type(value) is int and value not in _PLAIN:
            values[key] = _number(value)
            shaped = shaped[:start] + f"%({key})s" + shaped[end:]
            continue
        if kind != "s" or not isinstance(value, str) or not value:
            continue
        if value.endswith(".") and shaped[end:end + 1] == ".":
            shaped = shaped[:end] + shaped[end + 1:]  # "1 Min." ends the sentence already
        if elision and _starts_with(value, elision[1]):
            shaped = _elide(shaped, start, elision[0])
    return (type(text)(shaped) if shaped != text else text) % values


# The word just before a placeholder (after a space, a tag or an opening mark, or at the start), and the
# tags that open between them ("de <strong>%(name)s").
_WORD_BEFORE = re.compile(r"(?:^|(?<=[\s>(«“]))(\w+) ((?:<[^<>]*>)*)$")


def _starts_with(value: str, letters: str) -> bool:
    plain = _TAG.sub("", value) if "<" in value else value
    return plain[:1].lower() in letters if plain else False


def _elide(shaped: str, start: int, words: Mapping[str, str]) -> str:
    """``shaped`` with the word before the placeholder at ``start`` shortened, if the language shortens it."""
    head = shaped[:start]
    found = _WORD_BEFORE.search(head)
    if not found:
        return shaped
    word = found.group(1)
    short = words.get(word)
    if short is None and word[:1].isupper() and word.lower() in words:
        short = words[word.lower()].capitalize()  # "De Alice" at the start of a sentence: "D'Alice"
    if short is None:
        return shaped
    return head[:found.start(1)] + short + found.group(2) + shaped[start:]


def _elision(catalog: _gettext.NullTranslations) -> tuple[dict[str, str], str] | None:
    """The language's elision rule from its catalog, read once per catalog: ({"de": "d'"…}, "aeiou…h") or None."""
    kept = getattr(catalog, "_companion_elision", False)
    if kept is not False:
        return kept
    # Translators: how your language shortens a word before a name or a word that starts with a vowel
    # ("de Alice" → "d'Alice"). Pairs "word=short" separated by spaces, then " | " and the letters that call
    # for it, for example: "de=d' que=qu' le=l' la=l' | aàâæeéèêëiîïoôœuùûüyh". Leave it as "-" where your
    # language shortens nothing before a name.
    rule = catalog.pgettext("elision", "-")
    kept = None
    if "|" in rule:  # "-", the source, has none
        pairs, letters = rule.split("|", 1)
        words = dict(pair.split("=", 1) for pair in pairs.split() if "=" in pair)
        if words and letters.strip():
            kept = (words, letters.strip().lower())
    try:
        catalog._companion_elision = kept
    except AttributeError:  # a catalog that takes no attribute: read again next time
        pass
    return kept


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


def points_words(points: int) -> str:
    """A score as a sentence counts it: "1 point", "120 points" (French says "0 point")."""
    return ngettext("%(num)d point", "%(num)d points", points)
