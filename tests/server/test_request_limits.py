"""A request too large in its head, under gunicorn as `make run` starts it: an address too long (414) or a header
line too large (431) gets the app's own error page, with its headers, in the phone's language.

gunicorn's limits stand above the app's (companion/server/gunicorn_conf.py), so it hands such requests on;
only past its own (a request line over 8,190 bytes, a header line over 32 KB) does it answer itself.
"""

from __future__ import annotations

import html
import http.client

import pytest

from browser.server import scratch_database, start_server, stop_server
from companion.server import gunicorn_conf
from companion.web.security import HEADER_LINE_MAX, URL_MAX

FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("limits")
    database_url, drop = scratch_database(folder)
    process, url = start_server(database_url, folder / "gunicorn.log", workers=1)
    yield url.removeprefix("http://")
    stop_server(process)
    drop()


def ask(server: str, path: str, headers: dict) -> tuple[int, dict, str]:
    connection = http.client.HTTPConnection(server, timeout=10)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, html.unescape(response.read().decode())
    finally:
        connection.close()


def the_apps_page_in_french(headers: dict, page: str) -> None:
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff" and headers["content-language"] == "fr"
    assert '<html lang="fr">' in page


def test_an_address_too_long_gets_the_apps_page_in_the_phones_language(server):
    status, headers, page = ask(server, "/?from=" + "x" * 5000, FRENCH)
    assert status == 414
    the_apps_page_in_french(headers, page)
    assert "Cette adresse est trop longue" in page and "rouvre la table depuis la page d'accueil" in page


def test_a_header_too_large_gets_the_apps_page_in_the_phones_language(server):
    # A cookie jar grown too big, the usual way a browser sends too much.
    status, headers, page = ask(server, "/", FRENCH | {"Cookie": "crumbs=" + "y" * 10_000})
    assert status == 431
    the_apps_page_in_french(headers, page)
    assert "Trop de données envoyées avec la demande" in page and "Efface les cookies de ce site" in page


def test_an_address_and_a_header_at_the_apps_limits_are_served(server):
    path = "/?from=" + "x" * (URL_MAX - len("/?from="))
    status, _headers, page = ask(server, path, FRENCH | {"X-Note": "z" * (HEADER_LINE_MAX - len("X-Note: "))})
    assert status == 200 and "Rejoindre une table" in page


def test_past_gunicorns_own_limits_gunicorn_answers_as_documented(server):
    # docs/architecture.md, "Serving": gunicorn's bare page, without the app's headers.
    status, headers, _page = ask(server, "/?from=" + "x" * 9000, FRENCH)
    assert status == 414 and "content-security-policy" not in headers
    status, headers, _page = ask(server, "/", FRENCH | {"Cookie": "crumbs=" + "y" * 40_000})
    assert status == 431 and "content-security-policy" not in headers


def test_gunicorns_limits_stand_above_the_apps():
    request_line = len("GET  HTTP/1.1") + URL_MAX
    assert request_line < gunicorn_conf.limit_request_line <= 8190
    assert HEADER_LINE_MAX < gunicorn_conf.limit_request_field_size
