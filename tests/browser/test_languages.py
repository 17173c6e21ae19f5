"""One table, two languages: a French phone and a German phone play a short Carambouille hand.

Each phone reads its own language and nothing of English is left in the live region, and both show
the same numbers. The locators never use words, since the words are what differs.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import expect

from browser.phone import submit_and_wait
from companion.i18n.catalogs import TRANSLATIONS

pytestmark = pytest.mark.browser
PLAYERS = ["Ana", "Ben", "Chloé"]
WORD = re.compile(r"[^\W\d_]{3,}")


def words_of(language: str, side: str) -> set[str]:
    """Every word of the catalog's messages (``side="id"``, the English source) or translations."""
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as po:
        catalog = read_po(po)
    found: set[str] = set()
    for message in catalog:
        texts = getattr(message, side)
        for text in texts if isinstance(texts, tuple) else (texts,):
            # Placeholders are not words of either language.
            found |= {word.lower() for word in WORD.findall(re.sub(r"%\(\w+\)\w", " ", text or ""))}
    return found


def english_only(language: str) -> set[str]:
    """Words the English messages use and the language's translations never do ("sold", "market"…)."""
    return words_of("en", "id") - words_of(language, "string") - {name.lower() for name in PLAYERS}


def english_left(phone, language: str) -> list[str]:
    shown = {word.lower() for word in WORD.findall(phone.locator("#live").inner_text())}
    return sorted(shown & english_only(language))


def scores(phone) -> list[str]:
    return [text.split()[0] for text in phone.locator(".score-row .points").all_inner_texts()]


def ring(phone) -> None:
    """The First Trader's bell: open the market, or close it."""
    submit_and_wait(phone, phone.locator("#bell button[data-bell-ring]:not(.pinch)").first)


def test_a_french_phone_and_a_german_phone_play_one_hand_each_in_its_language(new_phone):
    ana = new_phone(locale="fr-FR")
    ana.goto("/new/carambouille")
    for number, name in enumerate(PLAYERS):
        ana.locator(f"#players-{number}").fill(name)
    ana.locator("select#starter").select_option(value="0")
    ana.locator("main form button[type=submit]").click()
    ana.wait_for_url(re.compile(r"/t/[^/]+$"))
    ana.locator("section.who button[name=seat][value='0']").click()
    ben = new_phone(locale="de-DE")
    ben.goto(ana.url)
    ben.locator("section.who button[name=seat][value='1']").click()
    expect(ben.locator("section.who")).to_have_count(0)

    assert ana.locator("html").get_attribute("lang") == "fr"
    assert ben.locator("html").get_attribute("lang") == "de"
    expect(ana.locator("#bell-heading")).to_have_text("Marché fermé")

    # The hand: Ana opens the market, closes it, sells 2 cheese (previewed, then recorded).
    ring(ana)
    expect(ben.locator("#bell.is-open")).to_have_count(1, timeout=3000)
    ring(ana)
    sale = ana.locator("#sale-form")
    sale.locator("select[name=product]").select_option(value="cheese")
    sale.locator("label.pill", has_text="2").first.click()
    record = sale.locator("button[name=step][value=confirm]")
    record.wait_for()
    value = re.search(r"\+(\d+)", record.inner_text()).group(1)
    submit_and_wait(ana, record)
    expect(ben.locator(".score-row .points").first).to_contain_text(value, timeout=3000)
    submit_and_wait(ana, ana.locator("form.end-turn button[type=submit]"))
    expect(ben.locator("form.end-turn button[type=submit]")).to_have_count(1, timeout=3000)

    # The same numbers on both phones, each in its own words.
    assert scores(ana) == scores(ben) == [value, "0", "0"]
    # The sale, in each phone's own sentence (the entry before the end of Ana's sales turn).
    assert value == "100"
    expect(ana.locator(".entries li").nth(1)).to_have_text("Ana a vendu 2 fromages pour 100.")
    expect(ben.locator(".entries li").nth(1)).to_have_text("Ana hat 2 Käse für 100 verkauft.")
    assert ana.locator(".entries li").first.inner_text() != ben.locator(".entries li").first.inner_text()
    assert english_left(ana, "fr") == []
    assert english_left(ben, "de") == []
    # The check itself sees English when there is some: an English phone at the same table.
    cy = new_phone(locale="en-GB")
    cy.goto(ana.url)
    cy.locator("section.who button[name=seat][value='2']").click()
    expect(cy.locator("section.who")).to_have_count(0)
    assert len(english_left(cy, "fr")) > 10
    for phone in (ana, ben, cy):
        assert phone.errors == []
