"""A session removed while phones still have its table open: each says so in its own language and stops asking.

The removal runs on one phone (its remove page); the others sat on the table, one holding its stream,
one without streams (it polls). Neither is left on a dead table asking every second, and the server
renders nothing at the removal (it logged a failed rendering of a table with no seats).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser.phone import choose_seat, sit_on_table
from browser.tables import record_table

pytestmark = pytest.mark.browser

REMOVED = {
    "en": "This session was removed",
    "fr": "Cette partie a été retirée",
    "de": "Diese Partie wurde entfernt",
    "it": "Questa partita è stata rimossa",
}


def live_requests(page) -> list[str]:
    """The live poll's requests the page sends from now on."""
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url) if "/live" in request.url else None)
    return sent


@pytest.mark.parametrize("streams", [True, False], ids=["stream", "poll"])
def test_the_open_phones_say_the_session_was_removed_and_stop_asking(new_phone, live_server, streams):
    token, _watch = record_table(live_server, "carambouille", ["Ana", "Ben", "Chloé"], {"first_trader": 0},
                                 [{"type": "market_opened"}])
    remover = new_phone(locale="en-GB")
    remover.goto(f"/t/{token}")
    choose_seat(remover, "Ana")
    others = {}
    # Each phone's answer to "Who are you?", in its language: a player, or "Just watching".
    for language, answer in (("fr", "Ben"), ("de", "Chloé"), ("it", "Guardo soltanto")):
        phone = new_phone(locale=language)
        if not streams:
            phone.route("**/stream", lambda route: route.abort())
        phone.goto(f"/t/{token}")
        phone.locator("section.who").get_by_role("button", name=answer).click()
        expect(phone.locator("section.who")).to_have_count(0)
        if streams:
            sit_on_table(phone)
        else:
            phone.wait_for_timeout(2_000)
        others[language] = phone
    log_before = live_server.log.read_text()

    remover.goto(f"/t/{token}/remove")
    remover.get_by_role("button", name="Remove this session").click()
    expect(remover.locator("body")).to_contain_text("is in the bin: it can be restored until")

    asking = {}
    for language, phone in others.items():
        expect(phone.locator("#live h1")).to_have_text(REMOVED[language])
        expect(phone.locator("#live form")).to_have_count(0)
        asking[language] = live_requests(phone)
    # Three seconds on the table, the three phones at once: a phone still asking would have asked by then.
    remover.wait_for_timeout(3_000)
    for language, phone in others.items():
        assert asking[language] == [], f"{language}: still asking after the removal: {asking[language]}"
        assert phone.locator("[data-stream]").count() == 0
        assert phone.errors == []
    logged = live_server.log.read_text()[len(log_before):]
    assert "ERROR" not in logged and "Traceback" not in logged, logged
