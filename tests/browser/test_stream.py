"""Every phone knows at once (issue #23): the table's stream in a real browser, quiet phones, and the network's faults.

A table page holds one server-sent event stream (companion/live/streams.py, static/app.js). These tests
look at what a player would notice: an entry recorded elsewhere shows on the phone at once; a phone
left on the table stays quiet; where the stream cannot be held (blocked, a buffering proxy) the page
polls every second and says nothing is wrong; and after a stream cut again and again, a worker killed or
the whole server restarted, every phone catches up within 5 s with no entry missed or shown twice.
"""

from __future__ import annotations

import signal
import statistics
import time
from types import SimpleNamespace

import psutil
import pytest
from playwright.sync_api import expect

from bench.phones import Delays
from browser.conftest import PHONE
from browser.phone import assert_pushed, choose_seat, newest_entry, sit_on_table, submit_and_wait
from browser.server import scratch_database, start_server, stop_server, free_port
from browser.tables import record_entry, record_table
from browser.tcp_proxy import Proxy

# It measures how soon phones show what happened: it runs alone, never beside another test (`make test`).
pytestmark = [pytest.mark.browser, pytest.mark.timing]
CATCH_UP_S = 5
PLAYERS = ["Ana", "Ben", "Chloé"]
FRUTTI_TABLE = ["shrimp", "oysters", "mussels", "octopus", "sea_urchins"]

# Each phone notes, by the machine's clock, when it first showed each table version, and every
# version it showed, in order (a version shown again after a newer one would be an entry shown twice).
WATCH_VERSIONS = """() => {
  window.seenAt = {}; window.shown = [];
  document.addEventListener("click", () => { window.tappedAt = Date.now(); }, {capture: true});
  const note = () => {
    const live = document.getElementById("live");
    if (!live) return;
    const seq = live.dataset.seen;
    if (window.shown[window.shown.length - 1] !== seq) window.shown.push(seq);
    if (!(seq in window.seenAt)) window.seenAt[seq] = Date.now();
  };
  note();
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ["data-seen"]});
}"""


def memo_change(n: int) -> dict:
    """An entry allowed in any phase of a Carambouille game: the house memo's 5-card cheese value."""
    return {"type": "house_memo", "memo": {"40": [None, None, None, None, 500 + 10 * (n % 5)]}}


def now_ms(phone) -> float:
    return phone.evaluate("Date.now()")


def phone_at(browser, base_url: str, token: str, seat: str | None):
    """A phone with its own cookies opening the table at ``base_url`` (the server or a proxy before it)."""
    context = browser.new_context(base_url=base_url, viewport=PHONE, screen=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"/t/{token}")
    if seat:
        choose_seat(page, seat)
    page.evaluate(WATCH_VERSIONS)
    return page


def requests_of(page) -> list[str]:
    """Every HTTP request the page sends from now on, but its event stream's (heartbeats are no requests)."""
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url) if request.resource_type != "eventsource" else None)
    return sent


def shows(phone, seq: int, timeout_ms: float) -> float:
    """Milliseconds until the phone showed version ``seq`` (it may already have)."""
    phone.wait_for_function("seq => seq in window.seenAt", arg=str(seq), timeout=timeout_ms)
    return phone.evaluate("seq => window.seenAt[seq]", str(seq))


def the_truth(browser, base_url: str, token: str) -> list[str]:
    """The newest entries as a phone opening the table now reads them."""
    fresh = phone_at(browser, base_url, token, None)
    entries = fresh.locator(".recent-entries .entries li").all_inner_texts()
    fresh.context.close()
    return entries


def expect_caught_up(phone, browser, base_url: str, token: str, last: int) -> None:
    """The phone shows the table as it is: its newest entries those a new phone reads, each version once, in order."""
    shows(phone, last, CATCH_UP_S * 1000)
    shown = [int(seq) for seq in phone.evaluate("window.shown")]
    assert shown == sorted(set(shown)), f"versions shown out of order or twice: {shown}"
    assert phone.locator(".recent-entries .entries li").all_inner_texts() == the_truth(browser, base_url, token)
    assert phone.errors == []


@pytest.fixture
def table(live_server):
    token, _watch = record_table(live_server, "carambouille", PLAYERS, {"first_trader": 0}, [])
    return token


# The stream's clocks as a server may set them, ten times faster than the defaults (a beat every 10 s, the safety
# poll every 60 s); the page's own poll, when it polls, still asks every second.
QUICK = {"COMPANION_STREAM_BEAT_SECONDS": "1", "COMPANION_LIVE_SAFETY_SECONDS": "6"}


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory):
    """A server of the module's own whose streams beat every second and whose pages' safety poll asks every 6 s."""
    folder = tmp_path_factory.mktemp("quick")
    database_url, drop = scratch_database(folder)
    process, url = start_server(database_url, folder / "gunicorn.log", env=QUICK)
    yield SimpleNamespace(url=url, database_url=database_url)
    stop_server(process)
    drop()


@pytest.fixture
def quick_table(quick_server):
    token, _watch = record_table(quick_server, "carambouille", PLAYERS, {"first_trader": 0}, [])
    return token


def test_a_phone_left_on_the_table_sends_a_request_a_safety_period_and_still_hears_at_once(
        browser, quick_server, quick_table):
    ana = phone_at(browser, quick_server.url, quick_table, "Ana")
    expect(ana.locator("[data-stream][data-up]")).to_have_count(1)
    sent = requests_of(ana)
    # Two safety periods with twelve beats: the page asks at most three times, where a polling phone asks twelve (at
    # the defaults: a minute, at most six, where a polling phone asks sixty). Its pictures, loaded once, ask nothing.
    ana.wait_for_timeout(12_000)
    asked = [url for url in sent if "/live" in url]
    print(f"\na phone on the table for 12 s: {len(sent)} requests, {len(asked)} of them asking for the table")
    assert len(asked) <= 3, sent
    expect(ana.locator("[data-stream][data-up]")).to_have_count(1)
    # Quiet, not deaf: an entry recorded elsewhere shows within the stream's delay.
    before = now_ms(ana)
    seq = record_entry(quick_server.database_url, quick_table, memo_change(1))
    took = shows(ana, seq, 2000) - before
    print(f"after the quiet minute, an entry showed {took:.0f} ms after it was recorded")
    assert took < 1000
    ana.context.close()


def test_the_region_comes_on_the_stream_and_a_phone_that_changes_seat_is_pushed_its_new_one(
        browser, live_server, table):
    ben = phone_at(browser, live_server.url, table, "Ben")
    sit_on_table(ben, seconds=2)
    sent = requests_of(ben)
    seq = record_entry(live_server.database_url, table, memo_change(4))
    shows(ben, seq, 2000)
    # Its own region, pushed: no request asked for it.
    assert [url for url in sent if "/live" in url] == [], sent
    expect(ben.locator("summary", has_text="This phone is Ben's")).to_have_count(1)
    # The phone is handed to Ana: from now on the stream pushes Ana's region, never Ben's again.
    choose_seat(ben, "Ana")
    sit_on_table(ben, seconds=2)
    seq = record_entry(live_server.database_url, table, memo_change(5))
    shows(ben, seq, 2000)
    sit_on_table(ben, seconds=1)
    expect(ben.locator("summary", has_text="This phone is Ana's")).to_have_count(1)
    expect(ben.locator("summary", has_text="This phone is Ben's")).to_have_count(0)
    assert ben.errors == []
    ben.context.close()


def test_with_its_stream_blocked_a_page_polls_every_second_and_says_nothing_is_wrong(browser, live_server, table):
    ben = phone_at(browser, live_server.url, table, None)
    ben.context.route("**/stream", lambda route: route.abort())
    ben.reload()
    ben.evaluate(WATCH_VERSIONS)
    choose_seat(ben, "Ben")
    sent = requests_of(ben)
    ben.wait_for_timeout(5_000)
    polls = [url for url in sent if "/live?" in url]
    assert len(polls) >= 4, sent
    before = now_ms(ben)
    seq = record_entry(live_server.database_url, table, memo_change(2))
    assert shows(ben, seq, 2500) - before < 2000
    # Nothing on the page about the stream: no notice, no error, the recording controls as ever.
    expect(ben.locator("[data-stream][data-up]")).to_have_count(0)
    expect(ben.locator("[data-notice], [role=alert]")).to_have_count(0)
    assert ben.errors == []
    ben.context.close()


def test_behind_a_proxy_that_buffers_the_stream_the_page_polls_every_second(browser, live_server, table):
    proxy = Proxy(int(live_server.url.rsplit(":", 1)[1]), buffering=True)
    try:
        chloe = phone_at(browser, proxy.url, table, "Chloé")
        sent = requests_of(chloe)
        chloe.wait_for_timeout(5_000)
        assert len([url for url in sent if "/live?" in url]) >= 4, sent
        expect(chloe.locator("[data-stream][data-up]")).to_have_count(0)
        before = now_ms(chloe)
        seq = record_entry(live_server.database_url, table, memo_change(3))
        assert shows(chloe, seq, 2500) - before < 2000
        assert chloe.errors == []
        chloe.context.close()
    finally:
        proxy.close()


def test_a_stream_cut_again_and_again_misses_no_entry_and_shows_none_twice(browser, quick_server, quick_table):
    # At the quick server's clocks (a beat a second): a cut every 2 s is a cut every 20 s at the defaults.
    cut_every = 20 / 10
    proxy = Proxy(int(quick_server.url.rsplit(":", 1)[1]))
    try:
        ana = phone_at(browser, proxy.url, quick_table, "Ana")
        ben = phone_at(browser, quick_server.url, quick_table, "Ben")
        sit_on_table(ana, seconds=1)
        delays = []
        started = time.monotonic()
        last, n = 0, 0
        # Three cuts, each followed by an entry, however long a round takes on a busy machine (a round is an entry,
        # two phones showing it and a moment on the table).
        while time.monotonic() - started < 3 * cut_every + 0.2 or proxy.cuts < 3:
            elapsed = time.monotonic() - started
            if elapsed // cut_every > proxy.cuts:
                proxy.cut()  # and right after the cut, an entry: the phone must still hear of it
            n += 1
            before = now_ms(ana)
            last = record_entry(quick_server.database_url, quick_table, memo_change(n))
            delays.append(shows(ana, last, CATCH_UP_S * 1000) - before)
            shows(ben, last, CATCH_UP_S * 1000)
            ana.wait_for_timeout(300)
        assert proxy.cuts == 3
        delays.sort()
        print(f"\n{len(delays)} entries, the stream cut {proxy.cuts} times: shown p50 {statistics.median(delays):.0f} ms, "
              f"max {delays[-1]:.0f} ms after being recorded")
        expect_caught_up(ana, browser, quick_server.url, quick_table, last)
        expect_caught_up(ben, browser, quick_server.url, quick_table, last)
        # And after its last cut the stream is up again: the page is back to its quiet safety poll.
        expect(ana.locator("[data-stream][data-up]")).to_have_count(1, timeout=CATCH_UP_S * 1000)
        ana.context.close()
        ben.context.close()
    finally:
        proxy.close()


@pytest.fixture
def own_server(tmp_path):
    """A server of this test's own (it is killed and restarted), on a port that stays the same."""
    database_url, drop = scratch_database(tmp_path)
    port = free_port()
    server = {"url": f"http://127.0.0.1:{port}", "database_url": database_url, "port": port,
              "log": tmp_path / "gunicorn.log"}
    server["process"], _ = start_server(database_url, server["log"], port=port)
    yield server
    stop_server(server["process"])
    drop()


def test_a_worker_killed_or_the_whole_server_restarted_every_phone_catches_up_within_5_s(browser, own_server):
    url, database_url = own_server["url"], own_server["database_url"]
    token, _ = record_table(SimpleNamespace(database_url=database_url), "carambouille", PLAYERS,
                            {"first_trader": 0}, [])
    phones = [phone_at(browser, url, token, name) for name in PLAYERS]
    for phone in phones:
        sit_on_table(phone, seconds=0.5)
    # A worker dies (the OOM killer, a crash): the master starts another; its phones reconnect.
    worker = psutil.Process(own_server["process"].pid).children()[0]
    worker.send_signal(signal.SIGKILL)
    last = record_entry(database_url, token, memo_change(1))
    for phone in phones:
        shows(phone, last, CATCH_UP_S * 1000)
    # The whole server restarted (an update, the laptop's lid): entries recorded while it was down
    # (by another host on the same database) and after it came back, all on every phone.
    stop_server(own_server["process"])
    last = record_entry(database_url, token, memo_change(2))
    own_server["process"], _ = start_server(database_url, own_server["log"], port=own_server["port"])
    back = time.monotonic()
    last = record_entry(database_url, token, memo_change(3))
    for phone in phones:
        shows(phone, last, CATCH_UP_S * 1000)
    print(f"\nafter the restart, every phone caught up within {time.monotonic() - back:.1f} s")
    for phone in phones:
        expect_caught_up(phone, browser, url, token, last)
        expect(phone.locator("[data-stream][data-up]")).to_have_count(1, timeout=CATCH_UP_S * 1000)
        phone.context.close()


@pytest.fixture
def two_hosts(tmp_path):
    """Two app servers on one database, as a club with two machines behind one proxy runs it."""
    database_url, drop = scratch_database(tmp_path)
    servers = [start_server(database_url, tmp_path / f"host{n}.log") for n in (1, 2)]
    yield database_url, [url for _process, url in servers]
    for process, _url in servers:
        stop_server(process)
    drop()


def test_a_phone_on_each_of_two_app_servers_sees_the_others_entries_pushed(browser, two_hosts):
    database_url, (first, second) = two_hosts
    token, _ = record_table(SimpleNamespace(database_url=database_url), "frutti", ["Ana", "Ben"],
                            {"first_player": 0}, [{"type": "dishes", "order": FRUTTI_TABLE}])
    ana = phone_at(browser, first, token, "Ana")
    ben = phone_at(browser, second, token, "Ben")
    sit_on_table(ana, seconds=1)
    sit_on_table(ben, seconds=1)
    delays = []
    for n in range(8):
        actor, other = (ana, ben) if n % 2 == 0 else (ben, ana)
        # The player whose turn it is plays a card on their own phone, through their own app server.
        card = actor.locator(".play-form button:not([disabled])").first
        expect(card).to_be_visible()
        before = int(actor.locator("#live").get_attribute("data-seen"))
        submit_and_wait(actor, card)
        seq = int(actor.locator("#live").get_attribute("data-seen"))
        assert seq == before + 1
        delays.append(shows(other, seq, 2000) - actor.evaluate("window.tappedAt"))
        expect(newest_entry(other)).to_have_text(newest_entry(actor).inner_text())
    shown = Delays(delays)
    print(f"\ntwo app servers: {len(delays)} cards played, shown on the other server's phone: {shown}")
    # Each card reached the other server's phone pushed by its stream. The p95 ≤ 300 ms target across
    # two servers is measured by `make bench` (bench/phones.py on two app servers, docs/performance.md).
    assert_pushed(shown)
    assert ana.errors == [] and ben.errors == []
    ana.context.close()
    ben.context.close()
