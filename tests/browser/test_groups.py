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
    page.locator("#member-name").fill("Maximilians Telefon")
    page.locator("main form button[type=submit]").click()  # joins by the invitation, a plain member
    open_frutti(page, ["Maximilian", "Chloé"])
    for what, address in (("the group, a member's", "/group"), ("your groups", "/groups"),
                          ("a player", "/players/Maximilian")):
        page.goto(address)
        problems += [f"{what}: {problem}" for problem in page.evaluate(AUDIT, [HOLDERS, NAMES_AT, []])]
        shoot(page, f"{language}-{size}", scheme, what)
    # The founder makes it a keeper; it removes a session (to the bin) and reads the keeper's page: phones, bin, log.
    founder.goto("/group")
    founder.get_by_role("button", name="Make Maximilians Telefon a keeper").click()
    open_frutti(page, ["Maximilian", "Chloé", "Anne-Sophie"])
    page.goto(page.url + "/remove")
    page.locator("form button.danger").click()
    for what, address in (("the group, a keeper's", "/group"), ("the history with its bin", "/history"),
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


TAKEN_OUT = {"en": "This session was removed", "it": "Questa partita è stata rimossa"}


def test_a_phone_taken_out_stops_seeing_its_groups_table_and_history(phone):
    keeper = phone()
    code = start_group(keeper, "Herons")
    member = phone(locale="it-IT")
    member.goto("/")
    member.locator("#code").fill(code)
    member.locator("#join-form button[type=submit]").click()
    expect(member.get_by_role("heading", level=1)).to_have_text("Herons")
    open_frutti(member, ["Zelda", "Yannick"])
    table = member.url
    member.locator("section.who").get_by_role("button", name="Zelda").click()
    expect(member.locator("[data-stream][data-up]")).to_have_count(1, timeout=10_000)
    keeper.goto("/group")
    keeper.get_by_role("button", name="Take Phone 2 out of the group").click()
    expect(keeper.locator("main")).to_contain_text("Phone 2 was taken out of the group")
    # The member's open table page, holding its stream: closed within a heartbeat, then told the table is gone.
    expect(member.locator("#live h1")).to_have_text(TAKEN_OUT["it"], timeout=25_000)
    expect(member.locator("#live form")).to_have_count(0)
    member.goto(table)
    assert "Zelda" not in member.locator("body").inner_text()
    member.goto("/history")
    assert "Zelda" not in member.locator("body").inner_text() and "Herons" not in member.locator("body").inner_text()
    assert keeper.errors == member.errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_keepers_pages_pass_axe_and_are_walked_with_the_tab_key(phone, scheme):
    from browser.test_accessibility import violations
    from browser.test_focus import unseen, walk

    keeper = phone(color_scheme=scheme)
    start_group(keeper, "Kingfishers")
    invitation = urlsplit(keeper.locator(".invite-link a").inner_text()).path
    member = phone(color_scheme=scheme)
    member.goto(invitation)
    member.locator("#member-name").fill("Ana's phone")
    member.locator("main form button[type=submit]").click()
    open_frutti(keeper, ["Zelda", "Yannick"])
    keeper.goto(keeper.url + "/remove")
    keeper.locator("form button.danger").click()
    keeper.goto("/group")
    keeper.get_by_role("button", name="Make Ana's phone a keeper").click()
    problems = {}
    for who, page, address in (("keeper", keeper, "/group"), ("keeper", keeper, "/history"),
                               ("member", member, "/group"), ("member", member, "/groups")):
        page.goto(address)
        if found := violations(page):
            problems[f"{who} {address}: axe"] = found
        rings = walk(page)
        assert len(rings) > 3, f"{who} {address}: the Tab key reached {len(rings)} controls"
        if found := unseen(rings):
            problems[f"{who} {address}: focus"] = found
    assert not problems, "\n".join(f"{what}: {found}" for what, found in problems.items())
