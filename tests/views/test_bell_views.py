"""The bell on the table page: ringing the market open and closed, the timers, the refusals, the hidden moment kept hidden."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import sqlalchemy as sa

from companion.table import bell, bell_plan, kinds, recording
from companion.table.state import state_of
from companion.extensions import db
from companion.models import Entry, Table
from helpers import answered, form_key, make_table

HTMX = {"HX-Request": "true"}
PLAYERS = ["Ana", "Ben", "Cy"]


def rows(app, kind: str | None = None) -> list[Entry]:
    """The entries of one kind, or all but those saying which seats have a phone."""
    with app.app_context():
        query = sa.select(Entry).order_by(Entry.seq)
        if kind:
            query = query.where(Entry.type == kind)
        else:
            query = query.where(Entry.type != kinds.SEAT_TAKEN)
        found = list(db.session.scalars(query))
        for row in found:
            db.session.expunge(row)
        return found


def table_row(app, token: str) -> Table:
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        db.session.expunge(table)
        return table


def state(app, token: str):
    with app.app_context():
        return state_of(db.session.scalar(sa.select(Table).where(Table.token == token)))


def sit(client, token: str, seat: int) -> None:
    client.post(f"/t/{token}/seat", data={"seat": str(seat)})


def ring_open(client, token, headers=None, **plan):
    data = {"bell-key": form_key(), "bell-mode": "hand", "bell-minutes": "3", "bell-low": "1", "bell-high": "3"}
    data.update({f"bell-{name}": str(value) for name, value in plan.items()})
    return client.post(f"/t/{token}/bell/open", data=data, headers=headers or {})


def ring_close(client, token, headers=None):
    return client.post(f"/t/{token}/bell/close", data={"bell-key": form_key()}, headers=headers or {})


def bell_section(html: str) -> str:
    return html[html.index('<section id="bell"'):html.index("</section>", html.index('<section id="bell"'))]


# --- the Carambouille market ------------------------------------------------

def test_the_first_traders_phone_has_the_bell_and_the_others_ring_in_a_pinch(app, client):
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 1})
    sit(client, token, 1)
    mine = bell_section(client.get(f"/t/{token}").text)
    assert "Ding-a-Ding!" in mine and "Open the market" in mine and "in a pinch" not in mine
    assert "Ben is the First Trader" in mine
    sit(client, token, 0)
    theirs = bell_section(client.get(f"/t/{token}").text)
    assert "Ring in a pinch for Ben" in theirs and 'class="bell-button pinch secondary"' in theirs


def test_a_ring_in_a_pinch_says_who_rang_for_the_first_trader(app, client):
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 0})
    sit(client, token, 1)
    assert ring_open(client, token).status_code == 303
    assert ring_close(client, token).status_code == 303
    opened, closed = rows(app, "market_opened") + rows(app, "market_closed")
    assert opened.event == {"type": "market_opened", "rung_by": 1}
    assert opened.summary == "Hand 1: Ben rang the bell in a pinch for Ana: the market is open."
    assert closed.summary.startswith("Ding-a-Ding! The market closed after ")
    assert closed.summary.endswith(", rung by Ben in a pinch; Ana sells first.")
    history = client.get(f"/t/{token}/history").text
    assert "Ben rang the bell in a pinch for Ana" in history


def test_ringing_opens_the_market_as_an_entry_and_every_phone_learns_the_ring(app, client):
    token = make_table(app, "carambouille", PLAYERS)
    sit(client, token, 0)
    response = ring_open(client, token)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{token}")
    [opened] = rows(app, "market_opened")
    assert opened.summary == "Hand 1: Ana rang the bell: the market is open."
    assert state(app, token).phase == "market"
    # Another phone's poll carries the ring's number and the moment it rings, 1.2 s after the entry.
    other = app.test_client()
    live = other.get(f"/t/{token}/live?seen=0", headers=HTMX)
    ring_at = bell.epoch_ms(bell.aware(opened.created_at) + bell.LEAD)
    assert f'data-ring-id="{opened.seq}"' in live.text and f'data-ring-at="{ring_at}"' in live.text
    assert "Market open" in live.text and "Close the market" in live.text
    assert int(live.headers["X-Server-Time"]) > 0


def test_closing_records_the_exchange_time_and_the_first_trader_sells_first(app, client, clock):
    token = make_table(app, "carambouille", PLAYERS, {"first_trader": 2})
    sit(client, token, 2)
    ring_open(client, token, headers=HTMX)
    [opened] = rows(app, "market_opened")
    clock.at(bell.aware(opened.created_at) + timedelta(seconds=95))
    page = client.get(f"/t/{token}").text
    assert re.search(r"data-bell-clock>1:33<", page)  # counted from the ring, 1.2 s after the tap
    response = ring_close(client, token, headers=HTMX)
    assert response.status_code == 200 and "Market open" not in response.text
    [closed] = rows(app, "market_closed")
    assert closed.event == {"type": "market_closed", "seconds": 95, "rung_by": 2}
    assert closed.summary == "Ding-a-Ding! The market closed after 1 min 35 s; Cy sells first."
    after = state(app, token)
    assert (after.phase, after.turn, after.market_seconds) == ("sales", 2, (95,))
    history = client.get(f"/t/{token}/history").text
    assert "after 1 min 35 s" in history


def test_a_fixed_time_closes_the_market_on_the_poll_that_sees_it_due(app, client, clock):
    token = make_table(app, "carambouille", PLAYERS)
    ring_open(client, token, mode="fixed", minutes=2)
    [opened] = rows(app, "market_opened")
    ring = bell.aware(opened.created_at) + bell.LEAD
    page = client.get(f"/t/{token}").text
    # The fixed deadline is public: the phones count down to it and warn 10 s before.
    assert f'data-deadline="{bell.epoch_ms(ring + timedelta(minutes=2))}"' in page
    assert f'data-warning="{bell.epoch_ms(ring + timedelta(seconds=110))}"' in page
    assert "closes by itself after 2 min" in page
    seen = table_row(app, token).last_seq
    clock.at(bell.aware(opened.created_at) + timedelta(seconds=119))
    assert client.get(f"/t/{token}/live?seen={seen}", headers=HTMX).status_code == 204
    clock.at(bell.aware(opened.created_at) + timedelta(seconds=120))
    live = client.get(f"/t/{token}/live?seen={seen}", headers=HTMX)
    assert live.status_code == 200 and "Market open" not in live.text
    assert [row.event for row in rows(app, "market_closed")] == [{"type": "market_closed", "seconds": 120}]
    assert app.test_client().get(f"/t/{token}/live?seen={seen}", headers=HTMX).status_code == 200
    assert len(rows(app, "market_closed")) == 1
    assert state(app, token).turn == 0


def due_formats(due) -> list[str]:
    """Every way the hidden moment could leak into a page."""
    due = bell.aware(due)
    millis = bell.epoch_ms(due)
    return [str(millis), str(millis // 1000), str(millis // 10), due.isoformat(), due.strftime("%H:%M:%S"),
            due.strftime("%H:%M"), "2 min 17 s", "2:17", "137"]


def test_the_hidden_moment_reaches_no_browser_until_it_has_fired(app, client, clock, monkeypatch):
    monkeypatch.setattr(bell_plan.secrets, "randbelow", lambda n: 77)  # 1 min + 77 s = 137 s
    token = make_table(app, "carambouille", PLAYERS)
    watch_token = table_row(app, token).watch_token
    sit(client, token, 0)
    answers = [ring_open(client, token, headers=HTMX, mode="hidden", low=1, high=3)]
    [opened] = rows(app, "market_opened")
    assert opened.event == {"type": "market_opened", "rung_by": 0}  # who rang; never the hidden moment
    due = table_row(app, token).bell_due_at
    assert bell.aware(due) == bell.aware(opened.created_at) + timedelta(seconds=137)
    clock.at(bell.aware(opened.created_at) + timedelta(seconds=136))
    seen = table_row(app, token).last_seq
    other = app.test_client()
    answers += [
        client.get(f"/t/{token}"), other.get(f"/t/{token}"), client.get(f"/t/{token}/live?seen=0", headers=HTMX),
        client.get(f"/t/{token}/live?seen={seen}", headers=HTMX), client.get(f"/w/{watch_token}"),
        client.get(f"/w/{watch_token}/live?seen=0", headers=HTMX), client.get(f"/t/{token}/history"),
        ring_open(client, token, mode="hidden", low=1, high=3),  # refused: already open
    ]
    for answer in answers:
        text = answer.get_data(as_text=True) + " " + " ".join(answer.headers.values())
        for leak in due_formats(due):
            # Whole numbers only: a random key or token may contain "137" by chance.
            assert not re.search(rf"(?<![\w:.+-]){re.escape(leak)}(?![\w:.+-])", text), (answer.request.path, leak)
    assert "hidden moment between 1 min and 3 min" in answers[1].text
    assert len(rows(app)) == 1
    clock.at(due)
    fired = other.get(f"/t/{token}/live?seen={seen}", headers=HTMX)
    assert fired.status_code == 200 and "Market open" not in fired.text
    [closed] = rows(app, "market_closed")
    assert closed.event["seconds"] == 137 and "after 2 min 17 s" in closed.summary
    assert table_row(app, token).bell_due_at is None


def test_closing_a_market_that_is_not_open_is_refused_and_changes_nothing(app, client):
    token = make_table(app, "carambouille", PLAYERS)
    # Without htmx: 303 to the table page at the bell, which shows the refusal to this phone.
    plain = answered(client, ring_close(client, token), token, "bell")
    assert "Only an open market can be closed; now Ana has not rung the bell to open the market yet." in plain.text
    htmx = ring_close(client, token, headers=HTMX)
    assert htmx.status_code == 200 and "Only an open market can be closed" in htmx.text
    assert rows(app) == [] and state(app, token).phase == "opening"


def rendered_form(html: str, action: str) -> dict:
    """The hidden fields of the form posting to ``action``, as the page rendered them."""
    form = html[html.index(f'action="{action}"'):]
    form = form[:form.index("</form>")]
    return dict(re.findall(r'name="(bell-key|bell-seen)" type="hidden" value="([^"]*)"', form))


def test_the_forms_as_rendered_open_then_close_the_market(app, client):
    token = make_table(app, "carambouille", PLAYERS)
    page = client.get(f"/t/{token}").text
    opened = client.post(f"/t/{token}/bell/open", headers=HTMX,
                         data=rendered_form(page, f"/t/{token}/bell/open") | {"bell-mode": "hand"})
    # The close form that replaces it has a key of its own, not the one just sent.
    close = rendered_form(opened.text, f"/t/{token}/bell/close")
    assert close["bell-key"] != rendered_form(page, f"/t/{token}/bell/open")["bell-key"]
    client.post(f"/t/{token}/bell/close", headers=HTMX, data=close)
    assert [row.type for row in rows(app)] == ["market_opened", "market_closed"]


def test_ringing_open_twice_is_refused(app, client):
    token = make_table(app, "carambouille", PLAYERS)
    ring_open(client, token)
    again = ring_open(client, token, headers=HTMX)
    assert "The market can only be opened at the start of a hand" in again.text
    assert len(rows(app)) == 1


def test_a_double_tapped_ring_is_recorded_once(app, client):
    token = make_table(app, "carambouille", PLAYERS)
    data = {"bell-key": form_key(), "bell-mode": "hand"}
    for _ in range(2):
        assert client.post(f"/t/{token}/bell/open", data=data).status_code == 303
    assert len(rows(app)) == 1


def test_ringing_on_a_finished_table_is_refused_and_changes_nothing(app, client):
    token = make_table(app, "carambouille", PLAYERS)
    with app.app_context():
        recording.record(db.session.scalar(sa.select(Table).where(Table.token == token)), {"type": "end_game"})
    page = client.get(f"/t/{token}").text
    assert "Ding-a-Ding!" not in bell_section(page)
    for answer in (answered(client, ring_open(client, token), token, "bell"),
                   answered(client, ring_close(client, token, headers=HTMX), token, "bell", htmx=True)):
        assert "The game is finished: the bell is put away." in answer.text
    assert len(rows(app)) == 1


@pytest.mark.parametrize("plan, field, message", [
    ({"mode": "hidden", "low": 3, "high": 2}, "bell-high", "The latest moment must come after the earliest"),
    ({"mode": "fixed", "minutes": 11}, "bell-minutes", "Choose a number of minutes from the list, 1 to 10."),
    ({"mode": "loud"}, "bell-mode", "Choose how the bell closes: by hand, after a fixed time"),
    ({"low": "x"}, "bell-low", "Choose a number of minutes from the list, 1 to 10."),
])
def test_a_bad_closing_plan_is_explained_next_to_its_field(app, client, plan, field, message):
    token = make_table(app, "carambouille", PLAYERS)
    for headers in ({}, HTMX):
        answer = answered(client, ring_open(client, token, headers=headers, **plan), token, "bell",
                          htmx=bool(headers))
        assert re.search(rf'id="{field}-error">[^<]*{message}', answer.text), answer.text
    assert rows(app) == []


def test_the_watch_view_shows_the_market_without_any_bell_button(app, client):
    token = make_table(app, "carambouille", PLAYERS)
    ring_open(client, token, mode="fixed", minutes=3)
    table = table_row(app, token)
    page = client.get(f"/w/{table.watch_token}").text
    section = bell_section(page)
    assert "Market open" in section and "data-deadline" in section
    assert "<form" not in section and table.token not in page


# --- the table timer of every other game ---------------------------------------

@pytest.mark.parametrize("game, players", [("jaipur", ["Ana", "Ben"]), ("frutti", ["Ana", "Ben", "Cy"]),
                                           ("tiny", ["Ana", "Ben"])])
def test_every_other_game_has_the_table_timer(app, client, game, players):
    token = make_table(app, game, players)
    section = bell_section(client.get(f"/t/{token}").text)
    assert "Table timer" in section and "Ring and start the timer" in section and "pinch" not in section
    ring_open(client, token, mode="fixed", minutes=1)
    [started] = rows(app)
    assert started.type == "timer_started"
    assert "Table timer running" in client.get(f"/t/{token}").text
    stopped = ring_close(client, token, headers=HTMX)
    assert "Table timer running" not in stopped.text and "Last timer:" in stopped.text
    assert [row.type for row in rows(app)] == ["timer_started", "timer_stopped"]


def test_the_timer_counts_down_and_stops_by_itself(app, client, clock, tiny):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    sit(client, token, 0)
    ring_open(client, token, mode="fixed", minutes=3)
    [started] = rows(app)
    assert started.summary == "Ana rang the bell: the table timer is running. The timer closes by itself after 3 min."
    clock.at(bell.aware(started.created_at) + timedelta(minutes=3))
    page = client.get(f"/t/{token}").text
    assert "Table timer running" not in page and "Last timer: 3 min" in page
    assert rows(app, "timer_stopped")[0].summary == "Ding-a-Ding! The table timer stopped after 3 min: time is up."
    # Timer entries are not game entries: the undo button never offers them.
    assert "Undo last entry" not in page


def test_stopping_a_stopped_timer_is_refused(app, client, tiny):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    answer = answered(client, ring_close(client, token), token, "bell")
    assert "The table timer is not running: ring the bell to start it." in answer.text
    assert rows(app) == []


def test_every_answer_tells_the_server_time_even_the_empty_poll(app, client, tiny):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    empty = client.get(f"/t/{token}/live?seen=0", headers=HTMX)
    assert empty.status_code == 204
    assert abs(int(empty.headers["X-Server-Time"]) - bell.epoch_ms(bell.now())) < 5000
    with client.get("/static/bell.js") as script:
        assert "X-Server-Time" not in script.headers
