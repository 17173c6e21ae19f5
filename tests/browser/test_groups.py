"""A private server (COMPANION_GROUPS=private) in the browser: a club starts a group, a member joins it by its
code on a French phone and reads its history, a stranger's phone reads nothing of it; and the groups' pages
at 320 px in the four languages, light and dark, nothing running sideways, the console quiet."""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from browser.conftest import PHONE, phones_of
from browser.server import scratch_database, start_server, stop_server
from browser.test_narrow_pages import AUDIT, HOLDERS, NAMES_AT

pytestmark = pytest.mark.browser

LANGUAGES = {"en": "en-GB", "fr": "fr-FR", "de": "de-DE", "it": "it-IT"}
NO_GROUP = {"en": "This phone is in no group yet", "fr": "Ce téléphone n'est encore dans aucun groupe",
            "de": "Dieses Handy ist noch in keiner Gruppe", "it": "Questo telefono non è ancora in nessun gruppo"}
SHOTS = os.environ.get("NARROW_SHOTS")


@pytest.fixture(scope="module")
def server(tmp_path_factory, browser):
    folder = tmp_path_factory.mktemp("groups")
    database_url, drop = scratch_database(folder)
    process, url = start_server(database_url, folder / "gunicorn.log", workers=2, env={"COMPANION_GROUPS": "private"})
    yield url
    stop_server(process)
    drop()


@pytest.fixture
def phone(browser, server):
    """A factory of phones on the private server, each with its own cookies."""
    with phones_of(browser, server) as make:
        def on_private(locale: str = "en-GB", size: dict | None = None, color_scheme: str = "light"):
            return make(locale=locale, size=size or PHONE, color_scheme=color_scheme)
        yield on_private


def start_group(page, name: str) -> str:
    """Start a group from the home page; its 6-character code, as its page shows it."""
    page.goto("/")
    page.get_by_role("button", name="Start a group").click()
    page.get_by_label("The group's name").fill(name)
    page.get_by_role("button", name="Start a group").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    return page.locator(".invite-group .join-code strong").inner_text()


def open_frutti(page, players: list[str]) -> None:
    page.goto("/new/frutti")
    for seat, name in enumerate(players):
        page.locator(f'input[name="players-{seat}"]').fill(name)
    page.locator("form[action^='/new/'] button[type=submit]").last.click()
    expect(page.locator("main")).to_contain_text(players[0])


def test_a_club_starts_a_group_a_member_joins_by_code_a_stranger_sees_nothing(phone):
    founder = phone()
    code = start_group(founder, "Otters")
    open_frutti(founder, ["Zelda", "Yannick"])
    member = phone(locale="fr-FR")
    member.goto("/")
    member.locator("#code").fill(code)
    member.locator("#join-form button[type=submit]").click()
    expect(member.get_by_role("heading", level=1)).to_have_text("Otters")
    expect(member.locator("main")).to_contain_text("Bienvenue dans Otters")
    member.goto("/history")
    expect(member.locator("main")).to_contain_text("Zelda, Yannick")
    stranger = phone(locale="de-DE")
    for address in ("/", "/history", "/players", "/groups", "/group", "/new/frutti"):
        stranger.goto(address)
        text = stranger.locator("body").inner_text()
        assert "Zelda" not in text and "Otters" not in text, address
    stranger.goto("/history")
    expect(stranger.get_by_role("heading", level=1)).to_have_text(NO_GROUP["de"])
    assert founder.errors == member.errors == stranger.errors == []
    assert founder.violations == member.violations == stranger.violations == []


SIZES = {"320": {"width": 320, "height": 640}, "195": {"width": 195, "height": 422}}  # 195: a 390 px phone at 200 %


@pytest.mark.parametrize(("size", "scheme"), [("320", "light"), ("320", "dark"), ("195", "light")])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_groups_pages_fit_a_narrow_phone(phone, language, size, scheme):
    page = phone(locale=LANGUAGES[language], size=SIZES[size], color_scheme=scheme)
    pages = [("home, in no group", "/"), ("no group", "/history"), ("your groups, none", "/groups")]
    founder = phone()
    start_group(founder, "Les Loutres de la rue Saint-Exupéry")
    # The link as the phones open it (the server's LAN address); this phone asks the test server for its path.
    invitation = urlsplit(founder.locator(".invite-link a").inner_text()).path
    pages.append(("an invitation", invitation))
    problems = []
    for what, address in pages:
        page.goto(address)
        problems += [f"{what}: {problem}" for problem in page.evaluate(AUDIT, [HOLDERS, NAMES_AT, []])]
        shoot(page, f"{language}-{size}", scheme, what)
    page.locator("main form button[type=submit]").click()  # joins by the invitation
    open_frutti(page, ["Maximilian", "Chloé"])
    for what, address in (("the group", "/group"), ("your groups", "/groups"), ("a player", "/players/Maximilian"),
                          ("remove, asked", "/group/remove")):
        page.goto(address)
        problems += [f"{what}: {problem}" for problem in page.evaluate(AUDIT, [HOLDERS, NAMES_AT, []])]
        shoot(page, f"{language}-{size}", scheme, what)
    page.locator("form button.danger").click()
    expect(page.locator("#remove-name")).to_be_visible()
    problems += [f"remove, typed: {problem}" for problem in page.evaluate(AUDIT, [HOLDERS, NAMES_AT, []])]
    shoot(page, f"{language}-{size}", scheme, "remove, typed")
    assert not problems, "\n".join(problems)
    assert page.errors == page.violations == []


def shoot(page, language: str, scheme: str, what: str) -> None:
    if SHOTS:
        name = re.sub(r"\W+", "-", what).strip("-")
        page.screenshot(path=Path(SHOTS) / f"groups-{language}-{scheme}-{name}.png", full_page=True)
