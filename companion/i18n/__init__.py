"""Each phone its own language: Flask-Babel, the language a phone reads, and the switch that sets it.

A phone reads the language it chose with the switch at the foot of every page (kept in its ``lang``
cookie), else the first of its browser's languages (``Accept-Language``) the app speaks, else
English. Entries are stored as data and worded when shown, so one table reads French on one phone
and German on another at the same moment; the kept renderings of a table are kept per language and
formatting locale. Its dates and numbers are written as its browser's own locale of that language
writes them (en-GB, de-CH…: ``companion.i18n.formats``).
"""

from __future__ import annotations

import os
from functools import cache

from babel import Locale
from babel.support import Translations
from flask import Flask, g, has_request_context, request
from flask_babel import Babel, LazyString, get_locale, get_translations
from jinja2 import pass_context
from markupsafe import Markup
from wtforms.i18n import messages_path

from ..rules import words
from .formats import current_locale, number

# In each language's own words: a phone that cannot read the current one still finds its own.
LANGUAGES = {"en": "English", "fr": "Français", "de": "Deutsch", "it": "Italiano"}
DEFAULT = "en"
COOKIE = "lang"
# A year: the choice is the phone's, like its browser's language.
COOKIE_AGE = 365 * 24 * 3600

babel = Babel()
# The filters Flask-Babel adds to Jinja, which format in the language alone (en-US's dates for an en-GB phone).
BABEL_FILTERS = ("datetimeformat", "dateformat", "timeformat", "timedeltaformat", "numberformat",
                 "decimalformat", "currencyformat", "percentformat", "scientificformat")


def chosen() -> str | None:
    """The language this phone chose with the switch, if it is one the app speaks."""
    value = request.cookies.get(COOKIE)
    return value if value in LANGUAGES else None


def browsers_language() -> str | None:
    """The first of the browser's languages, in its order of preference, that the app speaks.

    "en-GB, de;q=0.9" is English: a regional variant counts as its language before the next
    language of the list is tried (werkzeug's best_match would answer German).
    """
    for value, _quality in request.accept_languages:
        primary = value.replace("_", "-").split("-")[0].lower()
        if primary in LANGUAGES:
            return primary
    return None


def select_language() -> str:
    """The language of this request: the phone's choice, else its browser's, else English."""
    if not has_request_context():
        return DEFAULT  # work done outside a request (a command, an import) is worded in English
    return chosen() or browsers_language() or DEFAULT


def language() -> str:
    """The language the current request is answered in (``en``, ``fr``, ``de``, ``it``)."""
    return str(current_locale() or DEFAULT)


def catalog():
    """The catalog of the request's language, looked up once per request.

    Flask-Babel looks it up afresh on every message (~30 µs), and a table page words about 200;
    the lookup is kept in ``g`` with the language it was made for, so ``force_locale`` (an entry
    worded in every language) still gets the catalog of the language it forces.
    """
    try:
        # ``g`` once: each reach through the proxy costs as much as the catalog's own lookup.
        here = g._get_current_object()
    except RuntimeError:  # outside an app context
        return get_translations()
    kept = here.__dict__.get("_catalog")
    locale = get_locale() if kept is None else _locale_of(here)
    if kept is None or kept[0] is not locale:
        kept = here._catalog = (locale, get_translations())
    return kept[1]


def _locale_of(here) -> object:
    # Flask-Babel keeps the request's locale (a forced one too) on ``g._flask_babel``; read it there
    # when it is set, as ``get_locale`` itself does.
    babel_context = here.__dict__.get("_flask_babel")
    locale = getattr(babel_context, "babel_locale", None)
    return locale if locale is not None else get_locale()


@cache
def _wtforms_messages(language: str) -> Translations:
    return Translations.load(messages_path(), [language], domain="wtforms")


def wtforms_messages() -> Translations:
    """WTForms' own messages ("Not a valid choice.") in the reader's language, loaded once per language.

    Flask-WTF loads its catalog file again in every request that builds a form (about 0.4 ms); a table
    page builds a dozen forms, and every seat's page after an entry builds them again.
    """
    return _wtforms_messages(language())


def _filled(context, text: str, variables: dict) -> str:
    if context.eval_ctx.autoescape:
        text = Markup(text)
    return words.fill(text, variables)


# The positional names are Jinja's own (``__num``…): a message's values may be called ``num`` or ``context``.
@pass_context
def _gettext(__context, __string: str, **variables) -> str:
    return _filled(__context, catalog().ugettext(__string), variables)


@pass_context
def _ngettext(__context, __singular: str, __plural: str, __num: int, **variables) -> str:
    variables.setdefault("num", __num)
    return _filled(__context, catalog().ungettext(__singular, __plural, __num), variables)


@pass_context
def _pgettext(__context, __message_context: str, __string: str, **variables) -> str:
    return _filled(__context, catalog().upgettext(__message_context, __string), variables)


@pass_context
def _npgettext(__context, __message_context: str, __singular: str, __plural: str, __num: int, **variables) -> str:
    variables.setdefault("num", __num)
    return _filled(__context, catalog().unpgettext(__message_context, __singular, __plural, __num), variables)


class CatalogMissing(RuntimeError):
    """A language the app speaks has no catalog it can load: its phones would read English under its label."""


@cache
def _loads(directory: str, language: str, _modified: int) -> bool:
    try:
        return type(Translations.load(directory, [language])) is Translations
    except (OSError, ValueError):  # a file that is no compiled catalog
        return False


def check_catalogs(app: Flask) -> None:
    """Stop the start, saying what to do, if a language's compiled catalog cannot be loaded.

    Flask-Babel falls back to the English source without a word when a ``.mo`` file is missing, while
    the page still says ``<html lang="fr">``: a server in that state must not start.
    """
    directories = app.extensions["babel"].translation_directories
    for language in LANGUAGES:
        if language == DEFAULT:
            continue  # the message ids are the English sentences
        name = Locale.parse(language).get_display_name("en")
        files = [os.path.join(directory, language, "LC_MESSAGES", "messages.mo") for directory in directories]
        if not any(os.path.isfile(path) and _loads(directory, language, os.stat(path).st_mtime_ns)
                   for directory, path in zip(directories, files)):
            raise CatalogMissing(
                f"companion cannot start: the {name} catalog ({files[0]}) is missing or unreadable, so phones "
                f"set to {name} would read English. Install the package (pip install . and pip install -e . "
                f"compile the catalogs) or, in a checkout, compile them: make translations (or pybabel "
                f"compile -d companion/translations).")


def init_app(app: Flask) -> None:
    """Flask-Babel with the catalogs in ``companion/translations``; the rules word through it too."""
    babel.init_app(app, locale_selector=select_language, default_translation_directories="translations")
    check_catalogs(app)
    words.use(catalog, number=number)
    # The templates' _ and ngettext: Jinja's "new style" gettext (the values filled in by the call, escaped
    # under autoescape), filled by ``words.fill`` as the rules' sentences are: the reader's numbers and elisions.
    # (Flask-Babel has added Jinja's i18n extension, new style; these take the place of its callables.)
    app.jinja_env.newstyle_gettext = True
    app.jinja_env.globals.update(gettext=_gettext, _=_gettext, ngettext=_ngettext, pgettext=_pgettext,
                                 npgettext=_npgettext)
    app.jinja_env.globals.update(languages=LANGUAGES, language=language)
    # Every figure and date of a page is written in the phone's own locale (``formats``): ``number`` here, the
    # dates by ``local_time`` (views/review.py). Flask-Babel's filters would write the language's alone.
    for name in BABEL_FILTERS:
        app.jinja_env.filters.pop(name, None)
    app.jinja_env.filters.update(number=number)
    # A field's errors hold sentences, lazily worded ones too, and a FieldList's lists of them:
    # ``field.errors|select("message")`` keeps the sentences.
    app.jinja_env.tests["message"] = lambda value: isinstance(value, (str, LazyString))

    @app.after_request
    def _vary(response):
        # The same address answers in each phone's language: caches between must keep them apart.
        # Not on an answer without a body (the live poll's 204): there is nothing to word.
        if response.mimetype == "text/html" and response.status_code not in (204, 304):
            response.vary.update(("Accept-Language", "Cookie"))
            if not response.content_language:  # a page in a language of its own (the offline pages) says so itself
                response.content_language.add(language())
        return response
