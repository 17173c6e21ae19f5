"""The views: one blueprint per area, and the forms each game offers on its table page.

Everything is registered here, by ``init_app``, and nowhere else: no module registers itself
when it is imported. The areas every table shares are listed; each game's views are found from
the registry (``companion.rules.GAMES``): the module its rules declare as ``VIEWS``, by default
``companion.views.<slug>``, supplies its blueprint ``bp``, its ``table_forms(table, state, seat)``
and its ``KEPT_FORMS``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from flask import Flask

from ..rules import GAMES, declared
from . import (bell, errors, evenings, exchange, group_commands, groups, home, installed, language, library, members, people,
               removal, replay, review, standings, tables)

# The areas that are no game's: a game's blueprint is registered after them (``init_app``).
BLUEPRINTS = (home.bp, language.bp, tables.bp, bell.bp, review.bp, replay.bp, evenings.bp, standings.bp, people.bp, groups.bp, members.bp, exchange.bp,
              removal.bp, installed.bp, library.bp)
# Endpoint -> function(table, formdata) building that view's form again, for the table page that shows it after
# a refusal or a preview without JavaScript (``companion.views.kept_forms``); each game's are added to these.
KEPT_FORMS = {**tables.KEPT_FORMS, **bell.KEPT_FORMS}


def game_views(slug: str) -> ModuleType:
    """The module of a registered game's views (its rules' ``VIEWS``, by default ``companion.views.<slug>``).

    Imported by name, not at the top: this package imports no game's views, so a game's views may import
    from it (``kept_forms``, ``table_forms``) without a circle.
    """
    return importlib.import_module(declared(GAMES[slug], "VIEWS") or f"{__name__}.{slug}")


def add_game(app: Flask, slug: str, views: ModuleType) -> None:
    """Register one game's blueprint, its table page's forms and its forms kept for a refusal."""
    app.register_blueprint(views.bp)
    app.extensions["game_forms"][slug] = views.table_forms
    app.extensions["kept_forms"].update(views.KEPT_FORMS)


def init_app(app: Flask) -> None:
    """Register the error pages, every area's blueprint and every registered game's views and table forms."""
    errors.init_app(app)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    app.extensions["game_forms"] = {}
    app.extensions["kept_forms"] = dict(KEPT_FORMS)
    for slug in GAMES:
        add_game(app, slug, game_views(slug))
    installed.init_app(app)
    group_commands.init_app(app)
