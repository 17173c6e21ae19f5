"""Jaipur in each phone's language: its refusals, history, round results, review and pages go through gettext.

The real catalogs are not needed: a stub catalog (the ``marked`` fixture) marks every message it words («…»),
so a test sees which words went through gettext; on the pages it marks each phone's language ("[de]…") and
leaves English alone, so a test sees for whom.
"""

from __future__ import annotations

import html
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.rules import RuleError, jaipur
from companion.rules.jaipur import review as jaipur_review
from helpers import answered, form_key, make_table

ANA, BEN = 0, 1


def _scored_round():
    state = jaipur.new_game(["Ana", "Ben"], {"bonus": "enter"})
    for event in ({"type": "sale", "player": ANA, "good": "cloth", "cards": 3, "bonus": 2},
                  {"type": "sale", "player": BEN, "good": "diamonds", "cards": 2},
                  {"type": "end_round"},
                  {"type": "camels", "counts": [4, 2]}):
        state = jaipur.apply(state, event)
    return state


def test_a_refusal_is_worded_by_the_catalog(marked):
    state = jaipur.new_game(["Ana", "Ben"])
    with pytest.raises(RuleError) as refused:
        jaipur.apply(state, {"type": "sale", "player": ANA, "good": "gold", "cards": 1})
    # The sentence and the good's name inside it are both the catalog's.
    assert str(refused.value) == "«%(good)s must be sold at least %(least)d at a time.»" % {
        "good": "«Gold»", "least": 2}


def test_a_history_sentence_is_worded_by_the_catalog(marked):
    state = jaipur.new_game(["Ana", "Ben"], {"bonus": "enter"})
    text = jaipur.describe(state, {"type": "sale", "player": BEN, "good": "cloth", "cards": 3, "bonus": 2})
    # The sale, the good counted in its own words, and the bonus token: each part the catalog's.
    assert text == "««Ben sold «3 cloth» for 11 (5 + 3 + 3)» and a bonus token (1–3)»."


def test_the_round_result_is_worded_when_shown_not_when_scored(request):
    # Scored in English (the cached state is shared by every phone) …
    state = _scored_round()
    result = state.round.result
    assert result.explanation == "Ana wins 18 to 14"
    # … and read on a phone in another language (the stub catalog, installed only now): the state holds no words of
    # its own.
    request.getfixturevalue("marked")
    assert result.explanation == "«Ana wins 18 to 14»"
    assert jaipur.describe(state, {"type": "next_round"}) == "«Round 2 began; Ben starts.»"


def test_the_review_is_worded_by_the_catalog(marked):
    review = jaipur_review.review(_scored_round())
    # The names are English keys the review pages word in whole sentences (companion/review/words.py).
    assert (review.period_name, review.score_name, review.session_name) == ("Round", "Seals", "Matches")
    assert all(h.title.startswith("«") for h in review.highlights)
    assert [s.label for s in review.stats] == ["«Rounds won»", "«Seals won–lost»"]


def test_nothing_is_worded_at_import_time():
    # A fresh interpreter with a marking catalog installed before Jaipur is imported: its tables keep their
    # English message ids, worded only where they are shown.
    script = textwrap.dedent("""
        import sys
        from companion.rules import words
        from helpers import Marked

        words.use(Marked)
        # The modules under test are imported only now, with the catalog in use.
        assert not [name for name in sys.modules if name.startswith(("companion.rules.jaipur", "companion.views",
                                                                      "companion.forms"))], sorted(sys.modules)
        from companion.rules import jaipur
        from companion.rules.jaipur import review
        from companion.views import jaipur as views
        from companion.forms.jaipur import SaleForm
        texts = [*jaipur.GOODS_LABELS.values(), *jaipur.GOODS_WORDS.values(), *jaipur.BONUS_PILE_LABELS.values(),
                 jaipur.STARTER_LABEL, review.PERIOD_NAME, *(s.label for s in review.STATS), views.STALE_PREVIEW]
        assert not any("«" in text for text in texts), texts
        # The form's words are lazy: worded when a page is rendered, in that page's language.
        assert type(SaleForm.player.args[0]).__name__ == "LazyString"
        print("ok", len(texts))
    """)
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "tests")])})
    assert done.returncode == 0 and done.stdout.startswith("ok"), done.stderr


# --- the pages: each phone its own language ----------------------------------------------------------------------

def _phone(app, language):
    client = app.test_client()
    client.set_cookie("lang", language, domain="companion.test")
    return client


@pytest.mark.marked_by_language  # a German phone reads every message marked "[de]…", an English one English
def test_one_table_reads_in_each_phones_language(app, marked):
    token = make_table(app, "jaipur", ["Ana", "Ben"], {"bonus": "enter", "first_player": 0})
    english, german = _phone(app, "en"), _phone(app, "de")
    english_page, german_page = english.get(f"/t/{token}").text, german.get(f"/t/{token}").text
    assert "Goods tokens" in english_page and "[de]" not in english_page.split("<footer", 1)[0]
    for marked_words in ("[de]Goods tokens", "[de]Diamonds", "[de]Record a sale", "[de]3 cards", "[de]Camel token"):
        assert marked_words in german_page
    # A refusal on the German phone is worded for it: a form check, then a rule's.
    refused = answered(german, german.post(f"/t/{token}/jaipur/camels", data={
        "key": form_key(), "seen": "", "camels_0": "", "camels_1": "3"}), token, "camels-form")
    assert "[de]Count this player's camels (0 if none)." in html.unescape(refused.text)
    refused = german.post(f"/t/{token}/jaipur/end-round", data={"key": form_key(), "seen": ""})
    refused = answered(german, german.post(f"/t/{token}/jaipur/end-round", data={"key": form_key(), "seen": ""}),
                       token, "end-round")
    assert "[de]Round %(round)d has ended: enter both camel counts to score it." % {"round": 1} in refused.text
    # The same table, at the same moment, still reads English on the other phone (its board and actions).
    again = english.get(f"/t/{token}").text
    assert "Count your camels." in again and "Score round 1" in again and "Goods tokens" in again
    assert not any(word in again for word in ("[de]Count your camels.", "[de]Score round", "[de]Goods tokens",
                                              "[de]Camel token"))
