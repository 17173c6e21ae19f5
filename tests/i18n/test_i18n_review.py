"""The review in each phone's language: its words go through gettext when shown, its dates and figures through Babel.

The real catalogs are filled later; the stub catalog (the ``marked`` fixture) that marks every message («…»)
shows which words went through it. Dates and figures need no catalog: Babel's locale data words them.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companion.review import chart, csvfiles, exchange
from companion.rules.review import Period, Review, Standing
from review.test_review_sessions import CARAMBOUILLE, record_all
from review.test_review_views import dated, page_text


def test_import_refusals_are_worded_through_the_catalog(marked):
    with pytest.raises(exchange.ImportRefused, match="^«This file is not valid JSON"):
        exchange.load(b"{nope")
    with pytest.raises(exchange.ImportRefused) as refused:
        exchange.build({"format": exchange.FORMAT, "version": 1, "game": "carambouille", "players": ["Ana", "ana", "Cy"]}, 1)
    assert str(refused.value) == "«Two players have the same name.»"


def test_chart_and_csv_words_go_through_the_catalog(marked):
    progression = (("Start", (0, 0)), ("Hand 1", (80, 25)))
    told = chart.description(["Ana", "Ben"], progression, "Points", "Hand")
    # The whole sentence is one message, and so is each of its parts: "Points", "after each hand", "1 hand".
    assert told == "«««Points» after each hand» («1 hand»). At the end: «Ana 80», «Ben 25».»"
    review = Review("Hand", "Points", "Points", (Standing(1, 0, 80), Standing(2, 1, 25)), (0,),
                    (Period(1, "Hand 1", (80, 25), (80, 25)),), ())
    header, *_rows = csvfiles.results_csv(["Ana", "Ben"], review).splitlines()
    assert header == "«Rank»,«Player»,«Points»"
    assert "«Hand»,Ana,Ben,«Ana total»,«Ben total»,«Note»" in csvfiles.results_csv(["Ana", "Ben"], review)


def test_results_history_players_and_removal_pages_are_worded(app, client, marked):
    token = record_all(app, *CARAMBOUILLE)
    results = page_text(client.get(f"/t/{token}/results"))
    for message in ("«Final standings»", "««Points» hand by hand»", "«Every entry»", "«Take it with you»",
                    "«Standings and hands (CSV)»", "«Remove this session from the history…»"):
        assert message in results
    # The score's word follows the number, in the reader's plural: never "Points" lowercased.
    assert '<strong>920</strong> <small>«points»</small>' in results
    assert "«Session history»" in page_text(client.get("/history"))
    assert "«Who wins most»" in page_text(client.get("/players?order=wins"))
    assert "«Remove this session from the history?»" in page_text(client.get(f"/t/{token}/remove"))
    refused = page_text(client.get("/history?since=2025-13-40"))
    assert "«Enter a date as year-month-day, like 2025-03-14.»" in refused
    assert client.get("/history.csv").get_data(as_text=True).startswith("\ufeff«Date»,«Game»,«Players»")


@pytest.mark.parametrize(("language", "day", "thousand"), [
    ("en", "Dec 1, 2026", "1,000"),
    ("fr", "1 déc. 2026", "1 000"),  # a narrow no-break space, one space once the page's spaces are folded
    ("de", "01.12.2026", "1.000"),
    ("it", "1 dic 2026", "1.000"),
])
def test_dates_and_figures_as_each_phone_writes_them(app, client, language, day, thousand):
    token = record_all(app, *CARAMBOUILLE)
    dated(app, token, datetime(2026, 12, 1, 20, 5, tzinfo=UTC))
    phone = {"Accept-Language": language}
    assert day in page_text(client.get("/history", headers=phone))
    # Ana ends on 920: the chart's value axis goes up to 1,000.
    assert f">{thousand}</text>" in page_text(client.get(f"/t/{token}/results", headers=phone))


def test_a_status_badge_is_in_each_phones_own_language_whoever_asked_first(app, client):
    # The badge is a filter on a constant: Jinja must not bake the first phone's word into the template.
    token = record_all(app, *CARAMBOUILLE)
    french = page_text(client.get(f"/t/{token}/results", headers={"Accept-Language": "fr"}))
    italian = page_text(client.get(f"/t/{token}/results", headers={"Accept-Language": "it"}))
    assert "<mark>terminée</mark>" in french
    assert "<mark>finita</mark>" in italian and "terminée" not in italian
    assert "terminée" not in page_text(client.get("/history", headers={"Accept-Language": "it"}))


def test_no_review_words_are_worded_at_import_time():
    """Imported while a catalog is in use, the review's modules keep their English sources: wording waits for a reader."""
    script = """
import sys
from companion.rules import words
from helpers import Marked
words.use(Marked)
# The modules under test are imported only now, with the catalog in use.
assert not [name for name in sys.modules if name.startswith(("companion.review", "companion.rules.review",
                                                              "companion.forms"))], sorted(sys.modules)
from companion.review import chart, csvfiles, exchange, export, history, session, stats, sentences as review_words
from companion.rules import review
from companion.forms import review as forms
tables = [export.WITHHELD, exchange.WITHHELD_REFUSED, review_words.QUANTITIES, review_words.SESSIONS,
          review_words.HAND, review.SCORE_STATS, stats.GameStats("g", "G").session_name]
print(repr(tables))
print(type(forms.OUT_OF_RANGE).__name__, type(forms.HistoryFilterForm.game.args[0]).__name__)
"""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=True,
                          env={"PYTHONPATH": os.pathsep.join([str(root), str(root / "tests")])})
    tables, lazy = done.stdout.splitlines()
    assert "«" not in tables and "Best points" in tables
    assert lazy == "LazyString LazyString"
