"""Joining by the QR code: the image shows on the phone, it scans to the table's address, and a second phone opening it sees the table."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from browser.phone import create_table, scan_qr
from browser.server import free_port, start_server, stop_server
from companion.web import hosting

pytestmark = pytest.mark.browser


def open_invitation(page):
    """The invitation at the top of a new table's page, once its QR image has loaded and drawn; the image."""
    image = page.locator("section.invite img.qr")
    expect(image).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    return image


def shows_the_table(page) -> None:
    """The table's own page: its two players in the score row, each at 0."""
    scores = page.get_by_role("list", name="Scores")
    expect(scores.locator(".name")).to_have_text([re.compile(r"^Ana\b"), re.compile(r"^Ben\b")])
    expect(scores.locator(".points")).to_have_text(["0", "0"])


def test_the_qr_code_of_a_server_on_loopback_scans_to_its_own_address(new_phone, live_server):
    host = new_phone()
    table_url = create_table(host, "tiny", ["Ana", "Ben"])
    scanned = scan_qr(open_invitation(host))
    # The same address is written under the code, for typing or copying.
    expect(host.locator(".join-url")).to_have_text(scanned)

    # The test server listens on 127.0.0.1 alone, as `HOST=127.0.0.1 make run` does: nothing answers on the
    # machine's LAN address, so the code carries the address the page was opened by (a server listening on
    # every interface carries its LAN address: tests/server/test_make_run.py, test_hosting_views.py).
    address, served = urlsplit(scanned), urlsplit(live_server.url)
    assert hosting.is_loopback(address.hostname)
    assert (address.scheme, address.netloc, address.path) == (served.scheme, served.netloc, urlsplit(table_url).path)

    # A second phone opens the scanned address as it is, and sees the table.
    guest = new_phone()
    guest.goto(scanned)
    shows_the_table(guest)
    assert host.errors == [] and guest.errors == []


@pytest.fixture(scope="module")
def public_server(live_server, tmp_path_factory):
    """A second server on the same database, with COMPANION_PUBLIC_URL set to its own loopback URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = tmp_path_factory.mktemp("public") / "gunicorn.log"
    process, _ = start_server(live_server.database_url, log, port=port, workers=1,
                              env={"COMPANION_PUBLIC_URL": url + "/"})
    yield url
    stop_server(process)


def test_with_a_public_url_the_scanned_address_opens_the_table_as_it_is(new_phone, public_server):
    host = new_phone()
    path = urlsplit(create_table(host, "tiny", ["Ana", "Ben"])).path
    # The host opened the page as localhost: the code still carries the configured address.
    host.goto(public_server.replace("127.0.0.1", "localhost") + path)
    scanned = scan_qr(open_invitation(host))
    assert scanned == public_server + path

    guest = new_phone()
    guest.goto(scanned)
    shows_the_table(guest)
