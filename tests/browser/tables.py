"""A table set up straight in the live server's database, for a browser test that needs a game well under way."""

from __future__ import annotations

import sqlalchemy as sa

from companion import create_app, groups
from companion.table import recording
from companion.extensions import db
from companion.models import Seat, Table


def record_table(live_server, game: str, players: list[str], options: dict, events: list[dict]) -> tuple[str, str]:
    """A table with ``events`` recorded through the entry log, as phones would have; its player and watch tokens."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": live_server.database_url, "SECRET_KEY": "browser-tests"})
    with app.app_context():
        table = Table(game=game, options=options, group_id=groups.home_group().id, seats=[Seat(position=i, name=n) for i, n in enumerate(players)])
        db.session.add(table)
        db.session.commit()
        # This process keeps each table's state by id, and every test's database starts its ids again:
        # the state kept of another test's table with this id is not this one's.
        recording.cache.forget(table.id)
        for event in events:
            recording.record(db.session.scalar(sa.select(Table).where(Table.id == table.id)), event)
        tokens = table.token, table.watch_token
        db.session.remove()
        db.engine.dispose()
    return tokens


def record_entry(database_url: str, token: str, event: dict) -> int:
    """One entry at the table, recorded from outside the server (as another worker or app host would); its number."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "browser-tests"})
    with app.app_context():
        seq = recording.record(db.session.scalar(sa.select(Table).where(Table.token == token)), event).seq
        db.session.remove()
        db.engine.dispose()
    return seq
