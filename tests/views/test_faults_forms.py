"""Faults a phone would notice in the forms of the live region: lost taps and misplaced errors."""

from __future__ import annotations

import sqlalchemy as sa

from companion.extensions import db
from companion.models import Entry, Table
from companion.rules import RuleError
from companion.views.table_forms import _field_for
from companion.live.page import table_context
from companion.views.table_page import table_or_404
from helpers import form_key, make_table
from tinyviews import ScoreForm

HTMX = {"HX-Request": "true"}


def entry_count(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Entry))


def test_the_forms_in_an_htmx_answer_carry_fresh_keys_so_the_next_tap_counts(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    sent = form_key()
    answer = client.post(f"/t/{token}/tiny/score", headers=HTMX,
                         data={"player": 0, "points": 5, "key": sent, "seen": 0})
    assert answer.status_code == 200 and "Ana scored 5" in answer.text

    # The live region answering that post is built while the posted form is still the request's:
    # its fresh forms must not pick up the posted key, or the next tap would be dropped as a re-send.
    with app.test_request_context(f"/t/{token}/tiny/score", method="POST", headers=HTMX,
                                  data={"player": "0", "points": "5", "key": sent, "seen": "0"}):
        context = table_context(table_or_404(token))
        fresh = context["forms"]["score"]
        assert fresh.key.data != sent and fresh.seen.data == 1 and fresh.points.data is None
        next_key = fresh.key.data

    client.post(f"/t/{token}/tiny/score", headers=HTMX, data={"player": 1, "points": 3, "key": next_key, "seen": 1})
    assert entry_count(app) == 2
    assert "Ben scored 3" in client.get(f"/t/{token}/history").text


def test_a_rule_refusal_is_shown_next_to_the_field_it_is_about(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    # The form allows 60; the rules refuse it with field "points".
    answer = client.post(f"/t/{token}/tiny/score", headers=HTMX,
                         data={"player": 0, "points": 60, "key": form_key(), "seen": 0})
    # tests' tiny game has no templates: _no_actions lists field errors before form errors.
    assert "Points go from 1 to 50." in answer.text
    with app.test_request_context(method="POST", data={"points": "60"}):
        form = ScoreForm()
        assert _field_for(form, RuleError("x", "points")) is form.points
        assert _field_for(form, RuleError("x", "validate")) is None
        assert _field_for(form, RuleError("x", None)) is None
    assert entry_count(app) == 0


def test_joining_by_code_through_htmx_navigates_the_phone_to_the_table(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    with app.app_context():
        code = db.session.scalar(sa.select(Table.join_code).where(Table.token == token))
    # Not a redirect: htmx would follow it inside the request and swap the table into the join form.
    answer = client.post("/join", data={"code": code.lower()}, headers=HTMX)
    assert answer.status_code == 200 and answer.headers["HX-Redirect"] == f"/t/{token}"
    assert client.post("/join", data={"code": code}).status_code == 303
