"""The bench's phones poll as a phone does (static/app.js): with the version the page they show carries,
so an unchanged table answers 204; a night of phones that did not is refused, not measured."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from bench.__main__ import ServerCPU, recovered_after
from bench.city import CityResult
from bench.protocol import Phone, ProtocolError, check_city, check_night, poll_kind
from companion.extensions import db
from companion.models import Table
from companion.table import recording
from helpers import make_table

HTMX = {"HX-Request": "true"}


def record(app, token: str, event: dict) -> None:
    with app.app_context():
        recording.record(db.session.scalar(sa.select(Table).where(Table.token == token)), event)


def test_the_bench_phone_polls_with_the_version_its_page_shows(app, client):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0})
    record(app, token, {"type": "market_opened"})
    phone = Phone.from_page(client.get(f"/t/{token}").data)
    assert phone.poll_path() == f"/t/{token}/live?seen=1"
    # Nothing changed: the server answers as it does to a phone every second, with nothing.
    assert client.get(phone.poll_path(), headers=HTMX).status_code == 204


def test_the_bench_phone_follows_each_new_region(app, client):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0})
    phone = Phone.from_page(client.get(f"/t/{token}").data)
    record(app, token, {"type": "market_opened"})
    record(app, token, {"type": "market_closed", "seconds": 90})
    changed = client.get(phone.poll_path(), headers=HTMX)
    assert changed.status_code == 200
    phone.answered(changed.status_code, changed.data)
    assert phone.poll_path() == f"/t/{token}/live?seen=2"
    assert client.get(phone.poll_path(), headers=HTMX).status_code == 204


def test_an_older_region_does_not_take_the_phone_back():
    phone = Phone(live_url="/t/abc/live", seen=7)
    phone.answered(200, b'<div id="live" class="live" data-seen="5" hx-get="/t/abc/live">')
    assert phone.poll_path() == "/t/abc/live?seen=7"


def test_a_page_without_the_version_stops_the_bench():
    with pytest.raises(ProtocolError, match="data-seen"):
        Phone.from_page(b'<div id="live" class="live" hx-get="/t/abc/live">')
    with pytest.raises(ProtocolError, match="no live region"):
        Phone(live_url="/t/abc/live", seen=1).answered(200, b"<p>Internal error</p>")


def test_a_night_of_all_200_polls_is_refused():
    # What the bench measured while its phones sent no version: 36,000 polls, every one rendered.
    with pytest.raises(ProtocolError, match="did not poll with the version"):
        check_night({200: 36_000, "POST 303": 600}, phones=600, phones_per_table=6)


def test_a_night_of_phones_that_follow_the_page_passes():
    # 600 entries at 100 tables: each of a table's 6 phones sees each entry once, every other poll is a 204.
    check_night({200: 3_600, 204: 32_400, "POST 303": 600}, phones=600, phones_per_table=6)



def test_a_city_whose_phones_poll_in_step_is_refused():
    # What the city night measured while its phones asked at the stream's first message and then kept
    # one clock: all 6,000 at the night's start and again 15 s later, a stall of seconds each time.
    burst = {0: 6_000, 1: 12, 15: 5_400, 16: 600}
    with pytest.raises(ProtocolError, match="polled in second 0"):
        check_city(burst, phones=6_000, safety_seconds=15)


def test_a_city_of_phones_at_their_own_phases_passes():
    check_city({second: 400 + (second % 3) * 20 for second in range(30)}, phones=6_000, safety_seconds=15)


def test_a_city_whose_server_fell_behind_is_measured_not_refused():
    # Its phones began at their own phases; a stall answered 654 of them at once, and their next safety
    # polls, 60 s after each one's own last request, came in step, as real pages' would.
    check_city({**{second: 100 for second in range(60)}, 106: 654}, phones=6_000, safety_seconds=60)


@pytest.mark.parametrize(("timed_out", "told", "seen", "kind"), [
    (True, 7, 7, "safety poll"),  # waited its whole period, nothing new: the safety net
    (False, 8, 7, "region"),  # its stream said a version it does not show
    # Woken by its stream, its region pushed before the poll went out: it asked for the region all the same.
    (False, 8, 8, "region"),
    (True, 8, 7, "region"),  # a beat said a version it missed just as its period ended
])
def test_a_city_phone_polls_for_its_safety_net_only_when_nothing_woke_it(timed_out, told, seen, kind):
    assert poll_kind(timed_out, told, seen) == kind


def night_of(delays_by_second: dict[int, list[float]]) -> CityResult:
    """A city night whose entries sent in each second were shown after these delays."""
    night = CityResult()
    for second, delays in delays_by_second.items():
        night.delivered_at += [second + 0.5] * len(delays)
        night.delivered_ms += delays
    return night


def test_an_overload_night_still_slow_when_its_recovery_ends_is_never_itself_again():
    # The load fell at 30 s; 20 s later its phones are still a second behind: the bench says "never", a failure.
    night = night_of({30 + second: [40.0] * 90 + [900.0] * 10 for second in range(20)})
    assert recovered_after(night, 30, 50) is None


def test_an_overload_night_back_to_its_pace_says_how_soon():
    # Four seconds of the backlog's tail, then every second's entries shown at the city night's pace.
    night = night_of({**{30 + second: [2_500.0] for second in range(4)},
                      **{34 + second: [40.0] * 100 for second in range(16)}})
    assert recovered_after(night, 30, 50) == 4.0
    assert recovered_after(night_of({30 + second: [40.0] for second in range(20)}), 30, 50) == 0.0


def test_the_servers_cpu_over_a_night_is_read_between_its_samples():
    cpu = ServerCPU.__new__(ServerCPU)  # its samples as its thread took them, without a server
    cpu.samples = [(100.0, 10.0), (101.0, 12.0), (102.0, 12.5)]
    assert cpu.at(100.5) == 11.0
    assert cpu.at(102.0) - cpu.at(100.0) == 2.5
    assert cpu.at(99.0) == 10.0 and cpu.at(105.0) == 12.5  # outside the samples: the nearest
