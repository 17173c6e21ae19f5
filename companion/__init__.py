"""The table companion: a scoring app for card games played at a real table."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask

from . import config

PACKAGE = Path(__file__).resolve().parent


def _folder(name: str) -> str:
    """Where ``templates`` or ``static`` is: inside the installed package, else at the top of the checkout."""
    packaged = PACKAGE / name
    return str(packaged if packaged.is_dir() else PACKAGE.parent / name)


def create_app(test_config: dict | None = None) -> Flask:
    """Create and configure the app: defaults, then instance/config.py, then the environment."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        # Kept at the top of the repository and copied into the package when it is built (setup.py).
        template_folder=_folder("templates"),
        static_folder=_folder("static"),
    )
    app.config.from_mapping(config.defaults(app))
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        config.load_environment(app)
    else:
        app.config.from_mapping(test_config)
    # The instance folder holds the secret key and (by default) the database: its owner's only.
    os.makedirs(app.instance_path, mode=0o700, exist_ok=True)
    config.ensure_secret_key(app)

    from .extensions import csrf, db, migrate

    db.init_app(app)
    migrate.init_app(app, db, directory=os.path.join(os.path.dirname(__file__), "migrations"))
    csrf.init_app(app)

    from . import database, forms, i18n, views
    from .library import backup_commands
    from .live import bell_panel, heads, parts, polls, regions, store
    from .table import view
    from .web import markers, membership, security, templating

    i18n.init_app(app)
    database.init_app(app)
    heads.init_app(app)
    # Ahead of Flask, inside the proxy fix that security.init_app puts around everything.
    polls.init_app(app)
    # What fills the values of one answer in a rendering shared by the phones of a seat.
    markers.init_app(app, fillers={"key": forms.fresh_key, "now": bell_panel.server_clock, "clock": bell_panel.open_clock})
    regions.init_app(app)
    parts.init_app(app)
    store.init_app(app)
    view.init_app(app)
    security.init_app(app)
    templating.init_app(app)
    views.init_app(app)
    membership.init_app(app)
    backup_commands.init_app(app)
    return app
