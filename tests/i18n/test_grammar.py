"""What the catalogs say, as a reader of each language reads it (issue #22): counts through ngettext,
French elision before a vowel or a mute h, one full stop after an abbreviation, products and seafood
with their plurals, and numbers inside sentences written as the language writes them.

Each case is worded by the app itself (``force_locale``), through the templates' gettext and the
rules' ``words``, from the compiled catalogs `make test` builds.
"""

from __future__ import annotations

import gettext

import pytest
from flask_babel import force_locale

from companion import create_app
from companion.rules import words
from companion.rules.carambouille.memo import PRODUCT_BY_SLUG, sale_steps
from companion.rules.frutti.track import seafood_cards

NNBSP = "\u202f"  # Babel's group separator in French: a narrow no-break space


@pytest.fixture(scope="module")
def app():
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "grammar"})


def worded(app, language: str, template: str, **values) -> str:
    """``template`` rendered by the app's Jinja environment for a phone reading ``language``."""
    with app.test_request_context(headers={"Accept-Language": language}), force_locale(language):
        return app.jinja_env.from_string(template).render(**values)


def said(app, language: str, words_call) -> str:
    """What a rules' sentence (``words_call()``) says to a phone reading ``language``."""
    with app.test_request_context(headers={"Accept-Language": language}), force_locale(language):
        return words_call()


INVITE = ('{{ ngettext("%(num)d of %(all)d players has a phone.", "%(num)d of %(all)d players have a phone.", '
          'count, all=total) }}')


@pytest.mark.parametrize("language, count, total, sentence", [
    ("en", 1, 4, "1 of 4 players has a phone."),
    ("en", 3, 4, "3 of 4 players have a phone."),
    ("fr", 1, 4, "1 joueur sur 4 a un téléphone."),
    ("fr", 3, 4, "3 joueurs sur 4 ont un téléphone."),
    ("de", 1, 4, "1 von 4 Spielern hat ein Handy."),
    ("de", 2, 4, "2 von 4 Spielern haben ein Handy."),
    ("it", 1, 4, "1 giocatore su 4 ha un telefono."),
    ("it", 2, 4, "2 giocatori su 4 hanno un telefono."),
])
def test_the_invitation_counts_the_players_with_a_phone_in_the_plural_of_that_count(app, language, count, total,
                                                                                   sentence):
    assert worded(app, language, INVITE, count=count, total=total) == sentence


@pytest.mark.parametrize("name, sentence", [
    ("Alice", "au tour d'Alice"),
    ("Émile", "au tour d'Émile"),
    ("Hélène", "au tour d'Hélène"),
    ("Yasmine", "au tour d'Yasmine"),
    ("Bernard", "au tour de Bernard"),
])
def test_french_elides_de_before_a_name_that_starts_with_a_vowel_or_an_h(app, name, sentence):
    assert worded(app, "fr", '{{ _("%(name)s\'s turn", name=name) }}', name=name) == sentence


def test_the_elision_reads_through_the_markup_a_name_is_wrapped_in(app):
    page = worded(app, "fr", '{% set who %}<strong>{{ name }}</strong>{% endset %}{{ _("%(name)s\'s sales turn", '
                             'name=who) }}', name="Ines")
    assert page == "Tour de vente d'<strong>Ines</strong>"
    # The name itself is still escaped: the elision never lets markup in.
    assert worded(app, "fr", '{{ _("%(name)s\'s turn", name=name) }}', name="<i>Ana") == "au tour d'&lt;i&gt;Ana"


def test_the_rules_sentences_elide_too_and_other_languages_keep_their_words(app):
    ended = {"player": "Bernard", "next": "Alice"}
    message = "%(player)s ended their sales turn; %(next)s's turn."
    french = said(app, "fr", lambda: words._(message, **ended))
    assert french.startswith("Bernard a fini son tour de vente") and french.endswith(" au tour d'Alice.")
    assert said(app, "en", lambda: words._(message, **ended)) == "Bernard ended their sales turn; Alice's turn."
    italian = said(app, "it", lambda: words._("%(name)s's turn", name="Alice"))
    assert "Alice" in italian and "d'" not in italian


def test_an_abbreviation_that_ends_a_sentence_ends_it_with_one_full_stop(app):
    german = said(app, "de", lambda: words._("The market closes by itself after %(duration)s.",
                                             duration=words.duration_words(60)))
    assert german.endswith("1 Min.") and ".." not in german
    assert said(app, "de", lambda: words._("The market closes by itself after %(duration)s.",
                                           duration=words.duration_words(75))).endswith("1 Min. 15 Sek.")
    # A value that ends in a full stop inside a sentence keeps it: only the doubled stop goes.
    assert said(app, "en", lambda: words._("The market closes by itself after %(duration)s.",
                                           duration=words.duration_words(45))) == \
        "The market closes by itself after 45 s."


@pytest.mark.parametrize("language, product, cards, text", [
    ("en", "cheese", 3, "3 cheeses"),
    ("en", "cheese", 1, "1 cheese"),
    ("en", "wine", 2, "2 wines"),
    ("en", "sausage", 3, "3 sausages"),
    ("en", "ham", 2, "2 hams"),
    ("en", "saffron", 2, "2 saffron"),
    ("fr", "cheese", 3, "3 fromages"),
    ("it", "cheese", 3, "3 formaggi"),
    ("de", "truffles", 1, "1 Trüffel"),
])
def test_products_are_counted_with_their_plurals(app, language, product, cards, text):
    assert said(app, language, lambda: PRODUCT_BY_SLUG[product].cards(cards)) == text


@pytest.mark.parametrize("language, seafood, cards, text", [
    ("en", "octopus", 2, "2 octopuses"),
    ("en", "octopus", 1, "1 octopus"),
    ("en", "shrimp", 3, "3 shrimp"),
    ("fr", "oysters", 1, "1 huître"),
    ("fr", "oysters", 2, "2 huîtres"),
])
def test_seafood_is_counted_with_its_plurals(app, language, seafood, cards, text):
    assert said(app, language, lambda: seafood_cards(seafood, cards)) == text


@pytest.mark.parametrize("language, value", [
    ("en", "1,080"), ("fr", f"1{NNBSP}080"), ("de", "1.080"), ("it", "1.080"),
])
def test_numbers_inside_the_rules_sentences_are_written_as_the_reader_writes_them(app, language, value):
    truffles = PRODUCT_BY_SLUG["truffles"]
    step = sale_steps(truffles.face_value, 5)[0]
    text = said(app, language, lambda: step.text(truffles.word(5)))
    assert text.startswith("5 × ") and text.endswith(f"= {value}")
    # The badge beside it (the templates' number filter) writes the same figure.
    assert worded(app, language, "{{ 1080|number }}") == value


def test_the_template_sentences_write_their_numbers_the_same_way(app):
    assert worded(app, "fr", '{{ _("worth %(money)d now", money=1250) }}') == f"vaut 1{NNBSP}250 maintenant"
    assert worded(app, "en", '{{ _("worth %(money)d now", money=999) }}') == "worth 999 now"


def test_without_the_app_the_rules_word_in_english_with_plain_numbers():
    words.use(lambda: gettext.NullTranslations())
    try:
        assert words._("%(cards)d × %(product)s = %(value)d", cards=5, product="truffles", value=1080) == \
            "5 × truffles = 1080"
        assert words.fill("au tour de %(name)s", {"name": "Alice"}) == "au tour de Alice"
    finally:
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "grammar"})


UNPLAYED = ("Only %(num)d of the %(most)d %(cards)s is still unplayed this round, not %(given)d.",
            "Only %(num)d of the %(most)d %(cards)s are still unplayed this round, not %(given)d.")


@pytest.mark.parametrize("language, left, verb", [
    ("en", 1, " is still unplayed"), ("en", 2, " are still unplayed"),
    ("de", 1, " ist in dieser Runde"), ("de", 2, " sind in dieser Runde"),
    ("it", 1, " non è ancora stata giocata"), ("it", 2, " non sono ancora state giocate"),
])
def test_a_refusal_agrees_with_the_number_of_cards_it_counts(app, language, left, verb):
    text = said(app, language, lambda: words.ngettext(*UNPLAYED, left, most=9, cards="oyster cards", given=3))
    assert verb in text and f"{left} " in text
