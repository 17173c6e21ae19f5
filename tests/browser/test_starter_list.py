"""The new table's "who starts" list names the players typed above it (issue #40), in the four languages.

With JavaScript it follows the names as they are typed or tapped in: no "Player 5" once four names are
there, a choice kept on its player while the others change, and given up (back to random) when that
player's name is cleared. Without JavaScript it offers the fields by their own labels, and "Player 4" is
whoever was typed under "Player 4", even with a field left empty above it.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.tables import record_table

pytestmark = pytest.mark.browser

LANGUAGES = {"en": "en-GB", "fr": "fr-FR", "de": "de-DE", "it": "it-IT"}
RANDOM = {"en": "Chosen at random", "fr": "Tiré au sort", "de": "Zufällig gewählt", "it": "Scelto a caso"}
PLAYER = {"en": "Player {}", "fr": "Joueur {}", "de": "Spieler {}", "it": "Giocatore {}"}

OFFERED = "s => [...s.options].filter(o => !o.hidden && !o.disabled).map(o => o.textContent.trim())"
CHOSEN = "s => s.selectedOptions[0].textContent.trim()"
# A score card's name, without the bell's words before it.
NAME = "el => [...el.childNodes].filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.textContent).join('').trim()"


def first_trader(page) -> str:
    """The name on the score card with the bell (🔔: the First Trader) on the table page."""
    return page.locator(".caram-scores li:has(.bell-mark) .name").evaluate(NAME)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_list_names_the_players_as_they_are_typed(new_phone, live_server, language):
    phone = new_phone(locale=LANGUAGES[language])
    phone.goto("/new/carambouille")
    starter, fields = phone.locator("select#starter"), phone.locator('input[name^="players-"]')
    assert starter.evaluate(OFFERED) == [RANDOM[language]]
    for number, name in enumerate(["Ana", "Ben", "Chloé", "Dario"]):
        fields.nth(number).press_sequentially(name)
    assert starter.evaluate(OFFERED) == [RANDOM[language], "Ana", "Ben", "Chloé", "Dario"]
    starter.select_option(label="Chloé")
    # Another name cleared or changed: the choice stays on Chloé.
    fields.nth(0).fill("")
    assert starter.evaluate(OFFERED) == [RANDOM[language], "Ben", "Chloé", "Dario"]
    fields.nth(0).press_sequentially("Anouk")
    assert starter.evaluate(OFFERED) == [RANDOM[language], "Anouk", "Ben", "Chloé", "Dario"]
    assert starter.evaluate(CHOSEN) == "Chloé"
    # Her own name cleared, nobody is chosen in her place: back to random.
    fields.nth(2).fill("")
    assert starter.evaluate(CHOSEN) == RANDOM[language]
    fields.nth(2).fill("Chloé")
    starter.select_option(label="Chloé")
    phone.locator("main form button[type=submit]").click()
    phone.wait_for_url(re.compile(r"/t/[^/]+$"))
    assert first_trader(phone) == "Chloé"
    assert phone.errors == []


@pytest.fixture
def someone_played_here(live_server) -> None:
    """An earlier table, so that the new-table page offers names to tap."""
    record_table(live_server, "carambouille", ["Ana", "Ben", "Chloé"], {"first_trader": 0}, [])


def test_a_name_tapped_in_from_earlier_tables_joins_the_list(new_phone, someone_played_here):
    phone = new_phone()
    phone.goto("/new/carambouille")
    chip = phone.locator("button[data-known-name]").first
    name = chip.get_attribute("data-known-name")
    chip.tap()
    assert phone.locator("select#starter").evaluate(OFFERED) == ["Chosen at random", name]
    chip.tap()  # taken back: gone from the list too
    assert phone.locator("select#starter").evaluate(OFFERED) == ["Chosen at random"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_without_javascript_player_4_is_whoever_was_typed_under_player_4(new_phone, live_server, language):
    phone = new_phone(java_script_enabled=False, locale=LANGUAGES[language])
    phone.goto("/new/carambouille")
    starter, fields = phone.locator("select#starter"), phone.locator('input[name^="players-"]')
    assert starter.evaluate(OFFERED) == [RANDOM[language]] + [PLAYER[language].format(n) for n in range(1, 8)]
    for number, name in ((0, "Ana"), (1, "Ben"), (3, "Dario")):  # "Player 3" left empty
        fields.nth(number).fill(name)
    starter.select_option(label=PLAYER[language].format(4))
    phone.locator("main form button[type=submit]").click()
    phone.wait_for_url(re.compile(r"/t/[^/]+$"))
    assert first_trader(phone) == "Dario"
    assert phone.locator(".caram-scores .name").evaluate_all(f"names => names.map({NAME})") == ["Ana", "Ben", "Dario"]


def test_without_javascript_a_refused_form_names_the_players_typed(new_phone, live_server):
    phone = new_phone(java_script_enabled=False, locale="fr-FR")
    phone.goto("/new/carambouille")
    fields = phone.locator('input[name^="players-"]')
    fields.nth(0).fill("Ana")
    fields.nth(1).fill("Ben")  # two: Carambouille wants three
    phone.locator("select#starter").select_option(label="Joueur 2")
    phone.locator("main form button[type=submit]").click()
    expect(phone.locator("#players-error")).to_be_visible()
    offered = phone.locator("select#starter").evaluate(OFFERED)
    assert offered[:4] == ["Tiré au sort", "Ana", "Ben", "Joueur 3"]
    assert phone.locator("select#starter").evaluate(CHOSEN) == "Ben"
