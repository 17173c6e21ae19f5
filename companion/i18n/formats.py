"""How this phone writes dates and numbers: its browser's own locale of the language it reads.

A phone's language (English, French, German or Italian: ``companion.i18n``) chooses the words; its dates
and numbers are written as its browser's locale writes them: an en-GB phone reads "7 Dec 2026, 03:10"
where an en-US phone reads "Dec 7, 2026, 3:10 AM", a de-CH phone 1'012 where a German one reads 1.012.
The formatting locale is the first of the browser's ``Accept-Language`` locales, in its order of
preference, whose language is the one the phone reads (en-GB for English chosen on an en-GB browser,
fr-CH for French in Switzerland), else that language itself (French chosen on an en-GB browser is
written as French writes it). Whatever it changes is in the key of every kept rendering (``locale_key``).

Two kinds of text are worded for more than one phone, and hold no phone's locale:

- inside ``force_language`` (a language for every phone that reads it: an entry's sentence in each
  language, the English summary kept with an entry, the offline pages), dates and numbers are the
  language's own;
- inside ``numbers_for_each_reader`` (an entry's sentence, worded once per language and kept with the
  table's state: ``companion.table.wording``), a number is a marker, which ``readers_numbers`` writes as
  the reader's locale does when the sentence is shown.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from functools import lru_cache

from babel import Locale, UnknownLocaleError, dates, numbers
from flask import g, has_request_context, request
from flask_babel import force_locale, get_locale

DEFAULT = "en"
# A language tag as browsers send them (en-GB, de-CH, sr-Latn-RS): anything else is not looked up.
TAG = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,3}")
# The browser's first few locales are enough: a list of hundreds is not read through.
MOST_TAGS = 12
# A number left for its reader to write: NUL, "#", its digits, NUL (a NUL never comes from a player).
MARK = re.compile("\x00#(-?[0-9]+)\x00")

_language_only: ContextVar[bool] = ContextVar("language_only", default=False)
_marking: ContextVar[bool] = ContextVar("numbers_marked", default=False)


@lru_cache(maxsize=512)
def _parsed(tag: str) -> Locale | None:
    try:
        return Locale.parse(tag.replace("-", "_"))
    except (ValueError, TypeError, UnknownLocaleError):
        return None


def browsers_locale(language: str) -> Locale | None:
    """The first of this request's ``Accept-Language`` locales whose language is ``language``, if any."""
    for tag, _quality in list(request.accept_languages)[:MOST_TAGS]:
        if TAG.fullmatch(tag) and (found := _parsed(tag)) is not None and found.language == language:
            return found
    return None


def current_locale() -> Locale | None:
    """Flask-Babel's locale of the request (a forced one too), as ``get_locale`` gives it, read where Flask-Babel
    keeps it once found: a rendering asks a few hundred times, and each ``get_locale`` reaches through ``g`` thrice."""
    try:
        here = g._get_current_object()
    except RuntimeError:  # outside an app context (``not g`` asks through the proxy at a hundred times the cost)
        return None
    kept = getattr(here.__dict__.get("_flask_babel"), "babel_locale", None)
    return kept if kept is not None else get_locale()


def formatting_locale() -> Locale:
    """The locale this phone's dates and numbers are written in (see the module's docstring)."""
    language = current_locale() or Locale.parse(DEFAULT)
    if _language_only.get() or not has_request_context():
        return language
    # Once per request and language: ``g`` keeps it with the language it was found for.
    here = g._get_current_object()
    kept = here.__dict__.get("_formatting")
    if kept is None or kept[0] is not language:
        kept = here._formatting = (language, browsers_locale(language.language) or language)
    return kept[1]


def locale_key() -> str:
    """The formatting locale as a kept rendering's key names it ("en_GB", "de_CH", "fr")."""
    return str(formatting_locale())


@contextmanager
def force_language(language: str) -> Iterator[None]:
    """Word in ``language`` whatever this phone reads, its dates and numbers as the language writes them."""
    token = _language_only.set(True)
    try:
        with force_locale(language):
            yield
    finally:
        _language_only.reset(token)


@contextmanager
def numbers_for_each_reader() -> Iterator[None]:
    """Write each whole number as a marker, for ``readers_numbers`` to write when the text is shown."""
    token = _marking.set(True)
    try:
        yield
    finally:
        _marking.reset(token)


def readers_numbers(text: str) -> str:
    """``text`` with each number left for its reader written as the reader's locale writes it."""
    if "\x00#" not in text:
        return text
    locale = formatting_locale()
    return MARK.sub(lambda found: numbers.format_decimal(int(found[1]), locale=locale), text)


def number(value: int | float) -> str:
    """A number as this phone writes it: 1,250 / 1 250 / 1.250 / 1'250."""
    if type(value) is int:
        if _marking.get():
            return f"\x00#{value}\x00"
        return _whole(value, formatting_locale())
    return numbers.format_decimal(value, locale=formatting_locale())


@lru_cache(maxsize=4096)
def _whole(value: int, locale: Locale) -> str:
    # A table's numbers are few and come back (scores, prices, counts): each written once per locale.
    return numbers.format_decimal(value, locale=locale)


def percent(value: float) -> str:
    """A share as this phone writes it: 25% / 25 %."""
    return numbers.format_percent(value, locale=formatting_locale())


def date(moment: datetime) -> str:
    """A day as this phone writes it: "7 Dec 2026", "Dec 7, 2026", "07.12.2026" (``moment`` as it is, no zone moved)."""
    return dates.format_date(moment, "medium", locale=formatting_locale())


def day(moment: datetime) -> str:
    """A day in words as this phone writes it: "Saturday, December 5, 2026", "samedi 5 décembre 2026"."""
    return dates.format_date(moment, "full", locale=formatting_locale())


def time(moment: datetime, seconds: bool = False) -> str:
    """A time of day as this phone writes it: "03:10" or "3:10 AM" (with its seconds: "03:10:05")."""
    return dates.format_time(moment, "medium" if seconds else "short", locale=formatting_locale())


def date_and_time(moment: datetime) -> str:
    """A day and its time as this phone writes them: "7 Dec 2026, 03:10", "Dec 7, 2026, 3:10 AM"."""
    pattern = formatting_locale().datetime_formats["medium"]
    return str(pattern).replace("'", "").format(time(moment), date(moment))
