"""The join link and QR code carry an address a phone can open: the LAN address for a page opened as localhost."""

from __future__ import annotations

import pytest

from companion.web import hosting
from companion.views.tables import qr_svg
from helpers import make_table


@pytest.fixture
def lan(monkeypatch):
    """This machine's LAN address, as the hosting module would find it on a laptop on the home Wi-Fi."""
    monkeypatch.setattr(hosting, "lan_address", lambda: "192.168.1.20")


def join_url_shown(client, token: str, base_url: str) -> str:
    """The join URL as the join box of the table page shows it in text."""
    page = client.get(f"/t/{token}", base_url=base_url).text
    start = page.index('<code class="join-url">') + len('<code class="join-url">')
    return page[start:page.index("</code>", start)]


@pytest.mark.parametrize("opened_as", ["http://localhost:8000", "http://127.0.0.1:8000", "http://[::1]:8000"])
def test_a_page_opened_on_the_host_machine_shows_its_lan_address(app, client, lan, opened_as):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    expected = f"http://192.168.1.20:8000/t/{token}"
    assert join_url_shown(client, token, opened_as) == expected
    assert client.get(f"/t/{token}/qr.svg", base_url=opened_as).data == qr_svg(expected)


@pytest.mark.parametrize("opened_as", ["http://localhost:8000", "http://127.0.0.1:8000", "http://[::1]:8000"])
@pytest.mark.parametrize("bound", [("0.0.0.0",), ("::",), ("127.0.0.1", "0.0.0.0")])
def test_a_server_listening_on_every_interface_shows_its_lan_address(app, client, lan, opened_as, bound):
    hosting.listening_on(app, bound)
    token = make_table(app, "tiny", ["Ana", "Ben"])
    assert join_url_shown(client, token, opened_as) == f"http://192.168.1.20:8000/t/{token}"


@pytest.mark.parametrize("opened_as", ["http://localhost:8000", "http://127.0.0.1:8000", "http://[::1]:8000"])
@pytest.mark.parametrize("bound", [("127.0.0.1",), ("::1",), ("127.0.0.1", "::1")])
def test_a_server_listening_on_loopback_alone_shows_the_address_it_was_opened_by(app, client, lan, opened_as, bound):
    """`HOST=127.0.0.1 make run`: nothing answers on the LAN address, so the links and QR codes are loopback's."""
    hosting.listening_on(app, bound)
    token = make_table(app, "tiny", ["Ana", "Ben"])
    expected = f"{opened_as}/t/{token}"
    assert join_url_shown(client, token, opened_as) == expected
    assert client.get(f"/t/{token}/qr.svg", base_url=opened_as).data == qr_svg(expected)


def test_a_group_invitation_on_a_server_listening_on_loopback_alone_is_loopbacks(app, client, lan):
    from companion import groups

    app.config["GROUPS"] = "private"
    hosting.listening_on(app, ("127.0.0.1",))
    with app.app_context():
        group = groups.start("Otters")
        invite = group.invite_token
    opened_as = "http://127.0.0.1:8000"
    client.post(f"/g/{invite}", base_url=opened_as)
    expected = f"{opened_as}/g/{invite}"
    assert f'href="{expected}"' in client.get("/group", base_url=opened_as).text
    assert client.get(f"/g/{invite}/qr.svg", base_url=opened_as).data == qr_svg(expected, "Scan to join this group")


def test_a_server_listening_on_a_lan_address_and_loopback_shows_that_address(app, client, lan):
    hosting.listening_on(app, ("127.0.0.1", "10.0.0.12"))
    token = make_table(app, "tiny", ["Ana", "Ben"])
    assert join_url_shown(client, token, "http://localhost:8000") == f"http://10.0.0.12:8000/t/{token}"


@pytest.mark.parametrize("opened_as", ["http://192.168.1.20:8000", "http://10.0.0.12:8000",
                                       "https://scores.example.org"])
def test_a_page_opened_by_another_name_shows_that_name(app, client, monkeypatch, opened_as):
    # The machine's own LAN address differs, to tell which one was used.
    monkeypatch.setattr(hosting, "lan_address", lambda: "192.168.50.50")
    token = make_table(app, "tiny", ["Ana", "Ben"])
    expected = f"{opened_as}/t/{token}"
    assert join_url_shown(client, token, opened_as) == expected
    assert client.get(f"/t/{token}/qr.svg", base_url=opened_as).data == qr_svg(expected)


@pytest.mark.parametrize("opened_as", ["http://localhost:8000", "http://192.168.1.20:8000"])
def test_public_url_fixes_the_address(app, client, lan, opened_as):
    app.config["PUBLIC_URL"] = "https://scores.example.org/"
    token = make_table(app, "tiny", ["Ana", "Ben"])
    expected = f"https://scores.example.org/t/{token}"
    assert join_url_shown(client, token, opened_as) == expected
    assert client.get(f"/t/{token}/qr.svg", base_url=opened_as).data == qr_svg(expected)


def test_public_url_is_read_from_the_environment(monkeypatch, tmp_path):
    from companion import create_app

    monkeypatch.setenv("COMPANION_PUBLIC_URL", "http://192.168.1.20:8000")
    monkeypatch.setenv("SECRET_KEY", "test")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'x.sqlite'}")
    assert create_app().config["PUBLIC_URL"] == "http://192.168.1.20:8000"

