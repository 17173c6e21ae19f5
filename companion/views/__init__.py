"""The views: one blueprint per area, and the forms each game offers on its table page.

Everything is registered here, by ``init_app``, and nowhere else: no module registers itself
when it is imported.
"""

from __future__ import annotations

from flask import Flask

from . import (bell, carambouille, errors, exchange, frutti, groups, home, installed, jaipur, language, library, people,
               removal, review, tables)

BLUEPRINTS = (home.bp, language.bp, tables.bp, bell.bp, carambouille.bp, jaipur.bp, frutti.bp, review.bp, people.bp,
              groups.bp, exchange.bp, removal.bp, installed.bp, library.bp)
# Game slug -> function(table, state, seat) giving that game's fresh action forms by name, for the table page.
GAME_FORMS = {
    "carambouille": carambouille.table_forms,
    "jaipur": jaipur.page_forms,
    "frutti": frutti.table_forms,
}
# Endpoint -> function(table, formdata) building that view's form again, for the table page that shows it after
# a refusal or a preview without JavaScript (``companion.views.kept_forms``).
KEPT_FORMS = {**tables.KEPT_FORMS, **bell.KEPT_FORMS, **carambouille.KEPT_FORMS, **jaipur.KEPT_FORMS,
              **frutti.KEPT_FORMS}


def init_app(app: Flask) -> None:
    """Register the error pages, every area's blueprint and the games' table forms."""
    errors.init_app(app)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    installed.init_app(app)
    app.extensions["game_forms"] = dict(GAME_FORMS)
    app.extensions["kept_forms"] = dict(KEPT_FORMS)
