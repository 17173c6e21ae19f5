"""Under gunicorn as `make run` serves it: a timed close is recorded at its moment while no phone asks, and every
phone that wakes up afterwards reads the market closed after the time it was set for (issue #23's due closes)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from companion import create_app
from companion.extensions import db
from companion.models import Entry, Table
from companion.table import bell, bell_plan
from browser.tables import record_table

# It measures how soon phones show what happened: it runs alone, never beside another test (`make test`).
pytestmark = [pytest.mark.browser, pytest.mark.timing]


def test_a_timed_market_closes_at_its_moment_with_every_phone_asleep(live_server, new_phone):
    token, watch = record_table(live_server, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0}, [])
    app = create_app({"SQLALCHEMY_DATABASE_URI": live_server.database_url, "SECRET_KEY": "browser-tests"})
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        opened = bell.open_bell(table, bell_plan.Plan("fixed", seconds=60))
        # The minute brought to 1.5 s from now, as if it had nearly passed while every phone slept.
        moment = bell.aware(opened.created_at) + timedelta(seconds=1.5)
        db.session.execute(sa.update(Table).where(Table.token == token).values(bell_due_at=moment))
        db.session.commit()
        db.session.remove()
    time.sleep(4)  # no request reaches the server meanwhile
    with app.app_context():
        (close,) = db.session.scalars(sa.select(Entry).where(Entry.type == "market_closed")
                                      .join(Table).where(Table.token == token)).all()
        late = (bell.aware(close.created_at) - moment).total_seconds()
        db.session.remove()
        db.engine.dispose()
    assert 0 <= late < 1.0, f"recorded {late:.2f} s after its moment"
    # A phone that wakes now reads the close as it happened, not as its own request.
    phone = new_phone()
    phone.goto(f"/w/{watch}")
    expect(phone.locator(".entries li").first).to_contain_text("Ding-a-Ding! The market closed after")
