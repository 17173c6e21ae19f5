"""Each phone's dates and numbers in its browser's own locale of the language it reads (companion/i18n/formats.py):
an en-GB phone reads 7 Dec 2026, an en-US one Dec 7, 2026; a de-CH phone 1'012 and a German one 1.012, on the same
table at the same moment, the kept renderings included."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from babel import numbers

from companion.extensions import db
from companion.i18n import formats
from companion.models import Entry, Table
from companion.live import page as live_page
from helpers import form_key, make_table

SHEET = {"first_player": 0, "name": "Skat", "mode": "rounds"}
GB, US = {"Accept-Language": "en-GB,en;q=0.9"}, {"Accept-Language": "en-US,en;q=0.9"}
SWISS, GERMAN = {"Accept-Language": "de-CH,de;q=0.9"}, {"Accept-Language": "de-DE,de;q=0.9"}
FRENCH_SWISS = {"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.5"}
HTMX = {"HX-Request": "true"}
# Babel writes a narrow no-break space before AM (CLDR's).
AMERICAN = re.compile(r"Dec 7, 2026, 3:10\s?AM")


def shown(response) -> str:
    assert response.status_code == 200, response.status_code
    return html.unescape(response.get_data(as_text=True))


@pytest.mark.parametrize("accept, chosen, expected", [
    ("en-GB,en;q=0.9", None, "en_GB"),
    ("en-US", None, "en_US"),
    ("fr-CH, fr;q=0.9, en;q=0.8", None, "fr_CH"),
    ("de-AT", None, "de_AT"),
    ("es-ES, de-CH;q=0.8", None, "de_CH"),          # German read from the browser's second language, as it says it
    ("it-CH", None, "it_CH"),
    ("en-XX, en-AU;q=0.5", None, "en_AU"),           # a locale Babel does not know is passed over
    ("x-klingon, *;q=0.5", None, "en"),
    ("fr, fr-CH;q=0.9", None, "fr"),                 # the browser prefers French as France writes it
    ("en-GB", "fr", "fr"),                           # French chosen: written as French writes it
    ("de-CH, fr-CH;q=0.5", "fr", "fr_CH"),           # French chosen: the browser's own French
    ("en-GB, en;q=0.9", "en", "en_GB"),
    (None, None, "en"),
    ("../../etc/passwd, en-GB", None, "en_GB"),      # not a tag: never looked up
])
def test_the_formatting_locale_is_the_browsers_own_of_the_language_read(app, accept, chosen, expected):
    headers = {"Accept-Language": accept} if accept else {}
    if chosen:
        headers["Cookie"] = f"lang={chosen}"
    with app.test_request_context("/", headers=headers):
        assert formats.locale_key() == expected
        # Inside a language forced for every phone (a kept summary, an entry worded in every language):
        # the language's own.
        with formats.force_language("de"):
            assert formats.locale_key() == "de"


def test_a_long_accept_language_is_read_no_further_than_its_first_locales(app):
    many = ", ".join(f"xx-{n:02d}" for n in range(200)) + ", en-GB"
    with app.test_request_context("/", headers={"Accept-Language": many}):
        assert formats.locale_key() == "en"


@pytest.fixture
def early_morning(app):
    """A sheet begun at 03:10 UTC on 7 December 2026 (the players' clock is UTC), its first round at 03:12:05: Ana
    at 1,012."""
    token = make_table(app, "sheet", ["Ana", "Ben"], SHEET)
    client = app.test_client()
    data = {"key": form_key(), "round": "1", "seen": "0", "points-0": "1012", "points-1": "5"}
    assert client.post(f"/t/{token}/sheet/round", data=data).status_code == 303
    with app.app_context():
        moment = datetime(2026, 12, 7, 3, 10, tzinfo=UTC)
        db.session.execute(sa.update(Table).values(created_at=moment))
        db.session.execute(sa.update(Entry).values(created_at=moment.replace(minute=12, second=5)))
        db.session.commit()
    return token


def test_an_en_gb_and_an_en_us_phone_read_their_own_dates_in_the_history_and_results(app, early_morning):
    britain, america = app.test_client(), app.test_client()
    for _ in range(2):  # each asked twice, in turn: nothing kept for one reaches the other
        history_gb, history_us = shown(britain.get("/history", headers=GB)), shown(america.get("/history", headers=US))
        assert "7 Dec 2026, 03:10" in history_gb and "Dec 7, 2026" not in history_gb
        assert AMERICAN.search(history_us) and "7 Dec 2026" not in history_us
        results_gb = shown(britain.get(f"/t/{early_morning}/results", headers=GB))
        results_us = shown(america.get(f"/t/{early_morning}/results", headers=US))
        assert "7 Dec 2026, 03:10" in results_gb and AMERICAN.search(results_us)
    # The home page's recent tables and the table's list of entries, too.
    assert "7 Dec 2026" in shown(britain.get("/", headers=GB))
    assert re.search(r"\b3:12:05\s?AM\b", shown(america.get(f"/t/{early_morning}/history", headers=US)))
    assert ">03:12:05<" in shown(britain.get(f"/t/{early_morning}/history", headers=GB))


def test_a_swiss_and_a_german_phone_at_one_table_each_read_their_own_numbers(app, early_morning):
    swiss, german = app.test_client(), app.test_client()
    swiss_1012, german_1012 = numbers.format_decimal(1012, locale="de_CH"), "1.012"
    assert swiss_1012 != german_1012
    token = early_morning
    for _ in range(2):  # the page, then the live region, each phone in turn: the kept renderings are each's own
        for path, headers in ((f"/t/{token}", {}), (f"/t/{token}/live?seen=0", HTMX)):
            page_ch = shown(swiss.get(path, headers=SWISS | headers))
            page_de = shown(german.get(path, headers=GERMAN | headers))
            # The score badge and the round's sentence write the same figure, the phone's way.
            assert f"Runde 1: Ana {swiss_1012}, Ben 5." in page_ch and german_1012 not in page_ch
            assert f"Runde 1: Ana {german_1012}, Ben 5." in page_de and swiss_1012 not in page_de
            assert re.search(rf'class="points">{re.escape(swiss_1012)}<', page_ch)
            assert re.search(rf'class="points">{re.escape(german_1012)}<', page_de)
    # An entry recorded now is worded for every phone at once: each still reads it its own way.
    data = {"key": form_key(), "round": "2", "seen": "1", "points-0": "1000", "points-1": "2000"}
    assert german.post(f"/t/{token}/sheet/round", data=data, headers=GERMAN).status_code == 303
    page_ch = shown(swiss.get(f"/t/{token}", headers=SWISS))
    assert f"Runde 2: Ana {numbers.format_decimal(1000, locale='de_CH')}, Ben " \
           f"{numbers.format_decimal(2000, locale='de_CH')}." in page_ch
    assert "Runde 2: Ana 1.000, Ben 2.000." in shown(german.get(f"/t/{token}", headers=GERMAN))
    # The English summary kept with the entry (exports) is English's own.
    with app.app_context():
        summaries = db.session.scalars(sa.text("SELECT summary FROM entries ORDER BY seq")).all()
    assert summaries == ["Round 1: Ana 1,012, Ben 5.", "Round 2: Ana 1,000, Ben 2,000."]


def test_a_french_swiss_phone_reads_its_numbers_on_the_results(app, early_morning):
    page = shown(app.test_client().get(f"/t/{early_morning}/results", headers=FRENCH_SWISS))
    assert '<html lang="fr">' in page and numbers.format_decimal(1012, locale="fr_CH") in page
    assert "7 déc. 2026" in page


def test_a_kept_rendering_is_kept_per_formatting_locale(app):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    variants = set()
    for headers in (GB, US, SWISS, GERMAN, FRENCH_SWISS, {"Accept-Language": "fr"}):
        with app.test_request_context(f"/t/{token}", headers=headers):
            variants.add(live_page.region_variant(False))
    assert len(variants) == 6
