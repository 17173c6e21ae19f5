"""A worker's memory settled once it has started, so that Python's full collections stay short.

A full (generation 2) collection holds the worker's interpreter lock while it walks every object
that has lived long: about 100,000 of them once the app is loaded (Flask, SQLAlchemy, Babel's
locale data, the catalogs, the compiled templates), 45 ms of CPU a time on the laptop, and it ran
about once a second per worker at a table night: every phone whose request was in that worker
waited for it (the table night, docs/performance.md). Loaded once and never let go, those objects
need no collecting: they are loaded first, then frozen out of every later collection. And the
youngest generation is collected after more allocations than Python's default, so that the
objects of the requests in flight (a render is some thousands) are not promoted towards the full
collection merely for being alive at that moment.
"""

from __future__ import annotations

import gc

from babel import Locale, numbers
from flask import Flask
from flask_babel import force_locale, get_translations

from ..i18n import LANGUAGES, wtforms_messages

# Allocations before a collection of the youngest generation (Python's default is 700); the
# older generations keep Python's ratios.
YOUNGEST_THRESHOLD = 20_000


def load_what_stays(app: Flask) -> None:
    """Load now what the app would load on its first requests and keep for good: each language's
    locale data and catalog, WTForms' messages, every template compiled."""
    with app.test_request_context():
        for language in LANGUAGES:
            with force_locale(language):
                get_translations()
                numbers.format_decimal(1234.5, locale=language)
                Locale.parse(language).get_display_name(language)
                wtforms_messages()
    for name in app.jinja_env.list_templates():
        app.jinja_env.get_template(name)


def settle(app) -> None:
    """Load what stays, collect once, and leave all of it out of every later collection."""
    if isinstance(app, Flask):
        load_what_stays(app)
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNGEST_THRESHOLD, older, oldest)
