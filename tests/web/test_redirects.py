"""An address taken from a request sends the phone only to a page of this site (companion/web/redirects.py)."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

import pytest

from companion.web.redirects import local_path

HTMX = {"HX-Request": "true"}
SITE = "http://companion.test"

# What a browser does to an address before it reads it (the WHATWG URL standard): it drops every tab and line
# break, drops control characters and spaces at either end, and reads a backslash as a slash.
WHATWG_DROPPED = re.compile(r"[\t\n\r]")


def as_a_browser_opens(location: str, on: str = SITE + "/players") -> str:
    """The host a browser on ``on`` goes to when told ``Location: location``."""
    seen = WHATWG_DROPPED.sub("", location).strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f"
                                                "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d"
                                                "\x1e\x1f ").replace("\\", "/")
    return urlsplit(urljoin(on, seen)).netloc


HOSTILE = [
    "/\t/evil.example", "/\n/evil.example", "/\r\n/evil.example", "\t//evil.example", " //evil.example",
    "/ /evil.example", "/\x0b/evil.example", "/\x00/evil.example", "/\x7f/evil.example", "/\x85/evil.example",
    "/\\evil.example", "\\\\evil.example", "\\/evil.example", "/\\/evil.example",
    "//evil.example", "///evil.example", "////evil.example", "//evil.example/history",
    "https://evil.example/", "HTTPS://evil.example", "https:evil.example", "https:/evil.example",
    "javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "data:text/html,<b>hi</b>",
    "%2F%2Fevil.example", "%5C%5Cevil.example", "%09//evil.example",
    "/\u2028/evil.example", "/\u200b/evil.example", "/\u00a0/evil.example", "/\u3000/evil.example",
    "/\ufeff/evil.example", "\u202e//evil.example", "\uff0f\uff0fevil.example",
    "evil.example", "sessions", "", "/" + "a" * 2000,
]

# Addresses of this site, some of them looking like another's once decoded: a browser reads each as a path here.
OURS = [
    ("/", "/"),
    ("/history?game=jaipur&page=2", "/history?game=jaipur&page=2"),
    ("/players/Zoé", "/players/Zo%C3%A9"),
    ("/%2F%2Fevil.example", "/%2F%2Fevil.example"),
    ("/%09/evil.example", "/%09/evil.example"),
    ("/%5Cevil.example", "/%5Cevil.example"),
    ("/\uff0fevil.example", "/%EF%BC%8Fevil.example"),
    ("/t/abc?next=//evil.example", "/t/abc?next=//evil.example"),
]


@pytest.mark.parametrize("target", HOSTILE)
def test_an_address_of_another_site_or_one_a_browser_would_read_otherwise_is_refused(target):
    assert local_path(target) is None


@pytest.mark.parametrize("target, kept", OURS)
def test_a_path_of_this_site_is_kept_percent_encoded(target, kept):
    assert local_path(target) == kept
    assert as_a_browser_opens(kept) == "companion.test"


def test_only_text_is_an_address():
    assert local_path(None) is None and local_path(["/"]) is None and local_path(b"/history") is None


@pytest.mark.parametrize("target", HOSTILE)
def test_the_language_switch_sends_a_crafted_next_home(client, target):
    answer = client.post("/language", data={"lang": "fr", "next": target})
    if "\x00" in target:  # refused before any view reads it (companion/web/security.py): nothing chosen
        assert answer.status_code == 400 and "Location" not in answer.headers
        assert client.get_cookie("lang", domain="companion.test") is None
        return
    assert answer.status_code == 303 and answer.headers["Location"] == "/"
    # The language is chosen all the same (a next too long makes the form invalid, and changes nothing).
    chosen = client.get_cookie("lang", domain="companion.test")
    assert (chosen is None) if len(target) > 2000 else (chosen.value == "fr")


@pytest.mark.parametrize("target", HOSTILE)
def test_the_language_switch_asked_by_htmx_sends_a_crafted_next_home(client, target):
    answer = client.post("/language", data={"lang": "de", "next": target}, headers=HTMX)
    if "\x00" in target:
        assert answer.status_code == 400 and "HX-Redirect" not in answer.headers
        return
    assert answer.status_code == 200 and answer.headers["HX-Redirect"] == "/"
    assert "Location" not in answer.headers


@pytest.mark.parametrize("target, kept", OURS)
def test_the_language_switch_goes_back_to_the_page_it_was_pressed_on(client, target, kept):
    plain = client.post("/language", data={"lang": "it", "next": target})
    assert plain.status_code == 303 and plain.headers["Location"] == kept
    htmx = client.post("/language", data={"lang": "it", "next": target}, headers=HTMX)
    assert htmx.headers["HX-Redirect"] == kept
    assert as_a_browser_opens(plain.headers["Location"]) == "companion.test"


def test_a_page_whose_path_decodes_to_another_site_offers_a_switch_that_stays_here(client):
    # /%2F%2Fevil.example is the path //evil.example once decoded: its page's switch sends that along as next.
    page = client.get("/%2F%2Fevil.example")
    assert page.status_code == 404
    sent = re.search(r'name="next" value="([^"]*)"', page.text)[1]
    answer = client.post("/language", data={"lang": "fr", "next": sent})
    assert as_a_browser_opens(answer.headers["Location"]) == "companion.test"
