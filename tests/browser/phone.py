"""What a player does on a phone, for the browser tests: open a table, join it (code or QR code), pick a seat, send a form."""

from __future__ import annotations

import re

from bench.phones import ANSWERED, EXPECT_ANSWER, Delays

# What a phone whose page polls (every second without a stream, every 15 s with one) cannot reach: half
# of the entries on the other phones within this, each within a second. The p95 ≤ 300 ms target itself
# is measured by `make bench` on a quiet machine (bench/phones.py, docs/performance.md), where a slower
# moment of a loaded test machine does not decide it.
PUSHED_P50_MS = 400
PUSHED_MAX_MS = 1000


def assert_pushed(shown: Delays) -> None:
    """Each entry reached the other phones pushed by their streams, not fetched by a poll."""
    assert shown.p50 <= PUSHED_P50_MS and shown.max <= PUSHED_MAX_MS, f"entries took {shown} to show on the other phones"


def create_table(page, game: str, players: list[str], starter: str | None = None) -> str:
    """Open a table through the UI: home → game card → names → who starts (by name, as the list shows the names
    typed) → Open the table. Its URL."""
    page.goto("/")
    page.locator(f'a.game-card[href="/new/{game}"]').click()
    page.wait_for_url(f"**/new/{game}")
    for number, name in enumerate(players, start=1):
        page.get_by_label(re.compile(rf"^Player {number}\b")).fill(name)
    if starter is not None:
        page.locator("select#starter").select_option(label=starter)
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    return page.url


def join_code(page) -> str:
    """The join code shown on a table page, read the way a player does: open "Invite the table"."""
    page.locator("summary", has_text="Invite the table").click()
    code = page.locator(".join-code").first
    code.wait_for()
    return code.inner_text().strip()


def join_by_code(page, code: str) -> str:
    """Type a join code on the home page, as a second phone does; the table's URL."""
    page.goto("/")
    page.get_by_label("Join code").fill(code)
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    return page.url


def choose_seat(page, name: str) -> None:
    """Tell the table page whose phone this is: "Who are you?" right after joining, else the seat picker."""
    asked = page.locator("section.who")
    if asked.count():
        # Not \b: JavaScript's word boundary does not know that é is a letter.
        asked.get_by_role("button", name=re.compile(rf"^{re.escape(name)}(\s|$)")).click()
    else:
        page.locator("summary", has_text=re.compile(r"Whose phone is this\?|This phone is")).click()
        picker = page.locator("details.seat-picker")
        picker.get_by_role("radio", name=name, exact=True).check()
        picker.get_by_role("button", name="Save").click()
    page.locator("summary", has_text=f"This phone is {name}'s").wait_for(state="attached")


def take_seat(page, seat: int) -> None:
    """Answer "Who are you?" with a seat, and "This phone too?" with yes if another phone has that seat already."""
    page.locator(f'section.who button[name="seat"][value="{seat}"]').click()
    page.wait_for_function("() => !document.querySelector('section.who:not(#seat-question)')")
    if page.locator("#seat-question").count():
        page.locator("#seat-question button[type=submit]").click()
    page.locator("section.who").wait_for(state="detached")


def expect_answer(page) -> None:
    """Get ready to wait for the answer of the next form this phone sends (``wait_for_answer``)."""
    page.evaluate(EXPECT_ANSWER)


def wait_for_answer(page) -> None:
    """Wait until the answer of the form sent since ``expect_answer`` shows: swapped in, or a new page.

    Not "the live region changed": the stream may have the phone fetch the region of an earlier entry
    meanwhile, and what that region shows is not this form's answer.
    """
    page.wait_for_function(ANSWERED)


def submit_and_wait(page, button) -> None:
    """Press a button that answers with a new live region (htmx swap or a whole new page) and wait for it.

    Waiting for the region itself, not just the response, matters: a form
    filled in before the swap would still carry the old idempotency key.
    """
    if page.evaluate("() => typeof window.htmx === 'undefined'"):
        # A phone without JavaScript: the form is posted plainly and its answer is the page it is sent to
        # (Post/Redirect/Get). Waited for from before the tap: a check made after it could read the old page.
        with page.expect_navigation(wait_until="domcontentloaded"):
            button.click()
        return
    expect_answer(page)
    button.click()
    wait_for_answer(page)


def scan_qr(image) -> str:
    """Point a phone's camera at a QR code on the screen: a screenshot of the element, decoded. The text it holds."""
    import io

    import zxingcpp
    from PIL import Image

    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(image.screenshot())))
    assert found, "no QR code could be read from the screen"
    return found[0].text


def sit_on_table(page, seconds: float = 3) -> None:
    """Leave the phone on the table as a real one is between moves: ``seconds`` with nothing tapped, its
    stream open all the while (companion/live/streams.py: it hears each entry the moment it is recorded)."""
    from playwright.sync_api import expect

    up = page.locator("[data-stream][data-up]")
    expect(up).to_have_count(1, timeout=10_000)
    page.wait_for_timeout(seconds * 1000)
    expect(up).to_have_count(1)


def newest_entry(page):
    """The newest line of "Latest entries", as every phone at the table reads it."""
    return page.locator(".recent-entries .entries li").first


def scores(page):
    """Each player's score in the score row, in seating order."""
    return page.get_by_role("list", name="Scores").locator(".points")


def tap_once(page, button) -> float:
    """One tap on a recording button, as a player makes it (no wait for an answer): the time of the tap."""
    import time

    button.click(no_wait_after=True)
    return time.monotonic()


def expect_recorded(phones, sentence, points=None, tapped_at: float | None = None, timeout: int = 5_000) -> None:
    """Every phone of ``phones`` (the acting one first) shows the entry's own sentence as the newest entry,
    and the scores ``points`` (texts, in seating order) when given. Prints how long after the tap each showed it."""
    import time

    from playwright.sync_api import expect

    for index, phone in enumerate(phones):
        expect(newest_entry(phone)).to_have_text(sentence, timeout=timeout)
        if points is not None:
            expect(scores(phone)).to_have_text(points, timeout=timeout)
        if tapped_at is not None:
            who = "acting phone" if index == 0 else f"phone {index + 1}"
            print(f"\n{who}: “{sentence}” shown {1000 * (time.monotonic() - tapped_at):.0f} ms after the tap")


def seated_at_a_new_table(new_phone, game: str, players: list[str]) -> list:
    """A phone for each player at a new table opened by the first (who starts): the others join by its
    code, each set to its player. The phones, in seating order."""
    first = new_phone()
    create_table(first, game, players, starter=players[0])
    choose_seat(first, players[0])
    code = join_code(first)
    phones = [first]
    for name in players[1:]:
        phone = new_phone()
        join_by_code(phone, code)
        choose_seat(phone, name)
        phones.append(phone)
    return phones
