"""Migrations build the whole schema from nothing, and it matches the models."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import upgrade

from companion import create_app
from companion.extensions import db
from helpers import database_url


def test_upgrade_from_nothing_creates_the_schema_the_models_expect(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": database_url(tmp_path)})
    with app.app_context():
        db.drop_all()
        with db.engine.begin() as connection:
            connection.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        db.engine.dispose()
        upgrade()
        names = set(sa.inspect(db.engine).get_table_names())
        assert {"tables", "seats", "entries", "rate_counts", "alembic_version"} <= names
        with db.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
        assert differences == []
        # Every change to a table's row is announced on PostgreSQL (companion/live/board.py); SQLite has no such thing.
        if db.engine.dialect.name == "postgresql":
            with db.engine.connect() as connection:
                assert connection.scalar(sa.text("SELECT count(*) FROM pg_trigger WHERE tgname = 'tables_changed'")) == 1
        db.drop_all()
        with db.engine.begin() as connection:
            connection.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        db.engine.dispose()
