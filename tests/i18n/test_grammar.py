"""What the catalogs say, as a reader of each language reads it (issue #22): counts through ngettext,
French elision before a vowel or a mute h, one full stop after an abbreviation, products and seafood
with their plurals, and numbers inside sentences written as the language writes them.

Each case is worded by the app itself (``force_locale``), through the templates' gettext and the
rules' ``words``, from the compiled catalogs `make test` builds.
"""

from __future__ import annotations

import gettext
import re

import pytest
from flask_babel import force_locale

from companion import create_app
from companion.i18n.catalogs import source
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


# --- every count through a plural form (issue #40) -------------------------------------------------------
# Each message that counts something, with its other values, and what a reader of each language reads at 1
# and at 2: the count with the noun, verb or participle that agrees with it.
COUNTS = [
    # The issue's own: a bonus token face down, cards left to sell, the sale form's "at most".
    (("%(num)d face down", "%(num)d face down"), {},
     {"en": ("1 face down", "2 face down"), "fr": ("1 face cachée", "2 faces cachées"),
      "de": ("1 verdeckt", "2 verdeckt"), "it": ("1 coperto", "2 coperti")}),
    (("%(num)d left", "%(num)d left"), {},
     {"en": ("1 left", "2 left"), "fr": ("reste 1", "reste 2"), "de": ("noch 1", "noch 2"),
      "it": ("ne resta 1", "ne restano 2")}),
    (("(at most %(num)d left)", "(at most %(num)d left)"), {},
     {"en": ("(at most 1 left)", "(at most 2 left)"), "fr": ("(au plus 1 restante)", "(au plus 2 restantes)"),
      "de": ("(höchstens 1 übrig)", "(höchstens 2 übrig)"), "it": ("(al massimo 1 rimasta)", "(al massimo 2 rimaste)")}),
    (("<strong>%(num)d</strong> left", "<strong>%(num)d</strong> left"), {},
     {"en": ("1</strong> left", "2</strong> left"), "fr": ("1</strong> restant", "2</strong> restants"),
      "de": ("1</strong> übrig", "2</strong> übrig"), "it": ("1</strong> rimasto", "2</strong> rimasti")}),
    (("%(num)d left in the stock", "%(num)d left in the stock"), {},
     {"en": ("1 left in the stock", "2 left in the stock"), "fr": ("il en reste 1 dans", "il en reste 2 dans"),
      "de": ("1 bleibt im Vorrat", "2 bleiben im Vorrat"), "it": ("ne resta 1 nella", "ne restano 2 nella")}),
    (("%(num)d left after the deal", "%(num)d left after the deal"), {},
     {"en": ("1 left after", "2 left after"), "fr": ("il en reste 1 après", "il en reste 2 après"),
      "de": ("danach bleibt 1", "danach bleiben 2"), "it": ("ne resta 1", "ne restano 2")}),
    (("%(num)d sold this round", "%(num)d sold this round"), {},
     {"en": ("1 sold", "2 sold"), "fr": ("1 vendue", "2 vendues"), "de": ("1 in dieser Runde verkauft", "2 in dieser"),
      "it": ("1 venduta", "2 vendute")}),
    # Points.
    (("%(num)d point", "%(num)d points"), {},
     {"en": ("1 point", "2 points"), "fr": ("1 point", "2 points"), "de": ("1 Punkt", "2 Punkte"),
      "it": ("1 punto", "2 punti")}),
    (("= %(points)s point", "= %(points)s points"), {"points": "<b>9</b>"},
     {"en": ("9</b> point", "9</b> points"), "fr": ("9</b> point", "9</b> points"), "de": ("9</b> Punkt", "9</b> Punkte"),
      "it": ("9</b> punto", "9</b> punti")}),
    (("%(name)s earns %(points)s point", "%(name)s earns %(points)s points"), {"name": "Ana", "points": "<b>9</b>"},
     {"en": ("9</b> point", "9</b> points"), "fr": ("9</b> point", "9</b> points"), "de": ("9</b> Punkt", "9</b> Punkte"),
      "it": ("9</b> punto", "9</b> punti")}),
    (("%(name)s wins with %(num)d point!", "%(name)s wins with %(num)d points!"), {"name": "Ana"},
     {"en": ("1 point!", "2 points!"), "fr": ("1 point", "2 points"), "de": ("1 Punkt!", "2 Punkten!"),
      "it": ("1 punto!", "2 punti!")}),
    (("%(names)s share the win with %(num)d point!", "%(names)s share the win with %(num)d points!"), {"names": "A, B"},
     {"en": ("1 point!", "2 points!"), "fr": ("1 point", "2 points"), "de": ("1 Punkt!", "2 Punkten!"),
      "it": ("1 punto!", "2 punti!")}),
    (("%(num)d point each, up to %(most)d per turn", "%(num)d points each, up to %(most)d per turn"), {"most": 2},
     {"en": ("1 point each", "2 points each"), "fr": ("1 point chacune", "2 points chacune"), "de": ("je 1 Punkt,", "je 2 Punkte,"),
      "it": ("1 punto l'una", "2 punti l'una")}),
    (("A selling value is 0 to %(num)d point.", "A selling value is 0 to %(num)d points."), {},
     {"en": ("1 point.", "2 points."), "fr": ("1 point.", "2 points."), "de": ("1 Punkt.", "2 Punkten."),
      "it": ("1 punto.", "2 punti.")}),
    # Cards.
    (("From 0 to %(num)d card.", "From 0 to %(num)d cards."), {},
     {"en": ("1 card.", "2 cards."), "fr": ("1 carte.", "2 cartes."), "de": ("1 Karte.", "2 Karten."), "it": ("1 carta.", "2 carte.")}),
    (("Sell 1 to %(num)d card.", "Sell 1 to %(num)d cards."), {},
     {"en": ("1 card.", "2 cards."), "fr": ("1 carte.", "2 cartes."), "de": ("1 Karte.", "2 Karten."), "it": ("1 carta.", "2 carte.")}),
    (("At most %(num)d card can be sold at once: a hand holds %(num)d.",
      "At most %(num)d cards can be sold at once: a hand holds %(num)d."), {},
     {"en": ("1 card can be", "2 cards can be"), "fr": ("au plus 1 carte à", "au plus 2 cartes à"),
      "de": ("1 Karte kann", "2 Karten können"), "it": ("Si può vendere al massimo 1 carta", "Si possono vendere al massimo 2 carte")}),
    (("%(good)s: at most %(num)d more card can be sold (%(exist)d in the game, %(sold)s).",
      "%(good)s: at most %(num)d more cards can be sold (%(exist)d in the game, %(sold)s)."),
     {"good": "Gold", "exist": 6, "sold": "4"},
     {"en": ("1 more card can", "2 more cards can"), "fr": ("au plus 1 (6", "au plus 2 (6"),
      "de": ("1 weitere Karte kann", "2 weitere Karten können"), "it": ("se ne può vendere al massimo un'altra", "se ne possono vendere al massimo altre 2")}),
    (("At most %(num)d Carambouille card per sales turn: %(player)s has already bought %(bought)d.",
      "At most %(num)d Carambouille cards per sales turn: %(player)s has already bought %(bought)d."), {"player": "Ana", "bought": 2},
     {"en": ("1 Carambouille card per", "2 Carambouille cards per"), "fr": ("1 carte Carambouille par", "2 cartes Carambouille par"),
      "de": ("1 Carambouille-Karte pro", "2 Carambouille-Karten pro"), "it": ("1 carta Carambouille per", "2 carte Carambouille per")}),
    (("The %(num)d %(card)s card has been drawn already: check the cards drawn.",
      "All %(num)d %(card)s cards have been drawn already: check the cards drawn."), {"card": "Illusion"},
     {"en": ("The 1 Illusion card has", "All 2 Illusion cards have"), "fr": ("La carte Illusion a déjà été piochée", "Les 2 cartes Illusion ont"),
      "de": ("Die Karte Illusion ist", "Alle 2 Karten Illusion sind"), "it": ("La carta Illusion è già stata pescata", "Tutte e 2 le carte Illusion sono")}),
    (("%(player)s would hold %(num)d product card by the app's count (%(before)d + %(given)d), over the hand limit of "
      "%(limit)d: count the hands and give their sizes, or deal fewer.",
      "%(player)s would hold %(num)d product cards by the app's count (%(before)d + %(given)d), over the hand limit of "
      "%(limit)d: count the hands and give their sizes, or deal fewer."), {"player": "Ana", "before": 0, "given": 1, "limit": 0},
     {"en": ("1 product card by", "2 product cards by"), "fr": ("1 carte Produit selon", "2 cartes Produit selon"),
      "de": ("1 Warenkarte (", "2 Warenkarten ("), "it": ("1 carta prodotto secondo", "2 carte prodotto secondo")}),
    (("%(num)d card from the stock; %(left)s.", "%(num)d cards from the stock; %(left)s."), {"left": "-"},
     {"en": ("1 card from", "2 cards from"), "fr": ("1 carte de la", "2 cartes de la"), "de": ("1 Karte aus", "2 Karten aus"),
      "it": ("1 carta dalla", "2 carte dalla")}),
    (("Hand %(hand)d: %(trader)s dealt %(num)d card (%(given)s); %(stock)s.",
      "Hand %(hand)d: %(trader)s dealt %(num)d cards (%(given)s); %(stock)s."), {"hand": 3, "trader": "Ana", "given": "-", "stock": "-"},
     {"en": ("dealt 1 card (", "dealt 2 cards ("), "fr": ("distribué 1 carte (", "distribué 2 cartes ("),
      "de": ("hat 1 Karte ausgeteilt", "hat 2 Karten ausgeteilt"), "it": ("distribuito 1 carta (", "distribuito 2 carte (")}),
    (("%(name)s's %(num)d card", "%(name)s's %(num)d cards"), {"name": "Ana"},
     {"en": ("1 card", "2 cards"), "fr": ("1 carte", "2 cartes"), "de": ("1 Karte von", "2 Karten von"),
      "it": ("L'unica carta di", "Le 2 carte di")}),
    (("%(num)d in hand", "%(num)d in hand"), {},
     {"en": ("1 in hand", "2 in hand"), "fr": ("1 en main", "2 en main"), "de": ("1 auf der Hand", "2 auf der Hand"),
      "it": ("1 in mano", "2 in mano")}),
    (("the %(num)d played", "all %(num)d played"), {},
     {"en": ("the 1 played", "all 2 played"), "fr": ("la seule jouée", "les 2 jouées"), "de": ("die eine gespielt", "alle 2 gespielt"),
      "it": ("l'unica giocata", "tutte e 2 giocate")}),
    (("the %(num)d out", "all %(num)d out"), {},
     {"en": ("the 1 out", "all 2 out"), "fr": ("la seule sortie", "les 2 sorties"), "de": ("die eine gespielt", "alle 2 gespielt"),
      "it": ("uscita l'unica", "uscite tutte e 2")}),
    (("%(name)s lays the card still held face up.", "%(name)s lays every card still held face up, by seafood: all %(num)d."),
     {"name": "Ana"},
     {"en": ("lays the card", "all 2."), "fr": ("la carte qui lui reste", "les 2."), "de": ("legt die Karte", "alle 2."),
      "it": ("cala scoperta la carta", "tutte e 2.")}),
    (("Each player's %(num)d card (played and laid down), %(players)s",
      "Each player's %(num)d cards (played and laid down), %(players)s"), {"players": "-"},
     {"en": ("1 card (", "2 cards ("), "fr": ("L'unique carte de chaque joueur (jouée", "Les 2 cartes de chaque joueur (jouées"),
      "de": ("Die 1 Karte jedes", "Die 2 Karten jedes"), "it": ("L'unica carta di ogni giocatore (giocata", "Le 2 carte di ogni giocatore (giocate")}),
    (("product card in hand", "product cards in hand"), {},
     {"en": ("product card in", "product cards in"), "fr": ("carte Produit en", "cartes Produit en"),
      "de": ("Warenkarte auf", "Warenkarten auf"), "it": ("carta prodotto in", "carte prodotto in")}),
    # Players, rounds, camels, stacks, entries, digits, characters.
    (("%(low)d–%(num)d player", "%(low)d–%(num)d players"), {"low": 1},
     {"en": ("1 player", "2 players"), "fr": ("1 joueur", "2 joueurs"), "de": ("1 Spieler", "2 Spieler"),
      "it": ("1 giocatore", "2 giocatori")}),
    (("%(least)d to %(num)d player", "%(least)d to %(num)d players"), {"least": 1},
     {"en": ("1 player", "2 players"), "fr": ("1 joueur", "2 joueurs"), "de": ("1 Spieler", "2 Spieler"),
      "it": ("1 giocatore", "2 giocatori")}),
    (("Enter the cards of at least %(num)d player.", "Enter the cards of at least %(num)d players."), {},
     {"en": ("1 player.", "2 players."), "fr": ("1 joueur.", "2 joueurs."), "de": ("1 Spieler ein", "2 Spielern ein"),
      "it": ("1 giocatore.", "2 giocatori.")}),
    (("Enter the cards of the %(num)d player.", "Enter the cards of all %(num)d players."), {},
     {"en": ("the 1 player.", "all 2 players."), "fr": ("du seul joueur", "des 2 joueurs"), "de": ("des einen Spielers", "aller 2 Spieler"),
      "it": ("dell'unico giocatore", "tutti i 2 giocatori")}),
    (("Frutti di Mare is for %(least)d to %(num)d player.", "Frutti di Mare is for %(least)d to %(num)d players."), {"least": 1},
     {"en": ("1 player.", "2 players."), "fr": ("1 joueur.", "2 joueurs."), "de": ("1 Spieler.", "2 Spieler."),
      "it": ("1 giocatore.", "2 giocatori.")}),
    (("Carambouille is for %(low)d to %(num)d player, not %(count)d.", "Carambouille is for %(low)d to %(num)d players, not %(count)d."),
     {"low": 1, "count": 9},
     {"en": ("1 player,", "2 players,"), "fr": ("1 joueur,", "2 joueurs,"), "de": ("1 Spieler,", "2 Spieler,"),
      "it": ("1 giocatore,", "2 giocatori,")}),
    (("Give the hand size of the %(num)d player.", "Give the hand size of each of the %(num)d players."), {},
     {"en": ("the 1 player.", "each of the 2 players."), "fr": ("du seul joueur", "chacun des 2 joueurs"),
      "de": ("des einen Spielers", "jedes der 2 Spieler"), "it": ("l'unico giocatore", "ciascuno dei 2 giocatori")}),
    (("The deal gives a number of cards to the %(num)d player.", "The deal gives a number of cards to each of the %(num)d players."), {},
     {"en": ("the 1 player.", "each of the 2 players."), "fr": ("au seul joueur", "chacun des 2 joueurs"),
      "de": ("der eine Spieler", "jeder der 2 Spieler"), "it": ("all'unico giocatore", "ciascuno dei 2 giocatori")}),
    (("%(game)s is played by %(num)d player; this file has %(count)d.", "%(game)s is played by %(num)d players; this file has %(count)d."),
     {"game": "Jaipur", "count": 9},
     {"en": ("1 player;", "2 players;"), "fr": ("1 joueur", "2 joueurs"), "de": ("von 1 Person", "zu 2 gespielt"),
      "it": ("in 1;", "in 2;")}),
    (("%(game)s is played by %(least)d to %(num)d player; this file has %(count)d.",
      "%(game)s is played by %(least)d to %(num)d players; this file has %(count)d."), {"game": "Frutti di Mare", "least": 1, "count": 9},
     {"en": ("1 player;", "2 players;"), "fr": ("1 joueur", "2 joueurs"), "de": ("bis 1 gespielt", "bis 2 gespielt"),
      "it": ("1 giocatore;", "2 giocatori;")}),
    (("The game is over: its %(num)d round has been played.", "The game is over: all %(num)d rounds have been played."), {},
     {"en": ("round has been", "2 rounds have been"), "fr": ("sa seule manche a été jouée", "les 2 manches ont été jouées"),
      "de": ("Die eine Runde ist", "Alle 2 Runden sind"), "it": ("l'unico round è stato giocato", "i 2 round sono stati giocati")}),
    (("The %(num)d round is played.", "All %(num)d rounds are played."), {},
     {"en": ("round is played", "2 rounds are played"), "fr": ("La seule manche est jouée", "Les 2 manches sont jouées"),
      "de": ("Die eine Runde ist", "Alle 2 Runden sind"), "it": ("L'unico round è stato giocato", "i 2 round sono stati giocati")}),
    (("%(game_over)s after %(num)d round", "%(game_over)s after %(num)d rounds"), {"game_over": "Over"},
     {"en": ("1 round", "2 rounds"), "fr": ("1 manche", "2 manches"), "de": ("1 Runde", "2 Runden"), "it": ("1 round", "2 round")}),
    (("A herd holds 0 to %(num)d camel.", "A herd holds 0 to %(num)d camels."), {},
     {"en": ("1 camel.", "2 camels."), "fr": ("1 chameau.", "2 chameaux."), "de": ("1 Kamel.", "2 Kamele."),
      "it": ("1 cammello.", "2 cammelli.")}),
    (("There is only %(num)d camel, not %(counted)d.", "There are only %(num)d camels, not %(counted)d."), {"counted": 9},
     {"en": ("There is only 1 camel,", "There are only 2 camels,"), "fr": ("1 chameau,", "2 chameaux,"),
      "de": ("1 Kamel,", "2 Kamele,"), "it": ("C'è solo 1 cammello,", "Ci sono solo 2 cammelli,")}),
    (("%(num)d goods stack is empty: round %(round)d is over.", "%(num)d goods stacks are empty: round %(round)d is over."), {"round": 2},
     {"en": ("1 goods stack is empty", "2 goods stacks are empty"), "fr": ("1 pile de jetons marchandise est vide", "2 piles de jetons marchandise sont vides"),
      "de": ("1 Warenchip-Stapel ist leer", "2 Warenchip-Stapel sind leer"), "it": ("1 pila di gettoni merce è vuota", "2 pile di gettoni merce sono vuote")}),
    (("House memo changed: %(changes)s and %(num)d more; sales from now on use it.",
      "House memo changed: %(changes)s and %(num)d more; sales from now on use it."), {"changes": "-"},
     {"en": ("and 1 more", "and 2 more"), "fr": ("et 1 de plus", "et 2 de plus"), "de": ("und 1 weitere", "und 2 weitere"),
      "it": ("e un altro;", "e altri 2;")}),
    (("The file has %(num)d entry; at most %(most)s can be imported.", "The file has %(num)d entries; at most %(most)s can be imported."),
     {"most": "9"},
     {"en": ("1 entry;", "2 entries;"), "fr": ("1 entrée", "2 entrées"), "de": ("1 Eintrag;", "2 Einträge;"), "it": ("1 voce;", "2 voci;")}),
    (("This session is already in the history, recorded with %(num)d entry (this file has %(count)s). To replace it with this "
      "file, remove that one from the history first.",
      "This session is already in the history, recorded with %(num)d entries (this file has %(count)s). To replace it with this "
      "file, remove that one from the history first."), {"count": "9"},
     {"en": ("1 entry (", "2 entries ("), "fr": ("1 entrée (", "2 entrées ("), "de": ("1 Eintrag (", "2 Einträgen ("),
      "it": ("1 voce (", "2 voci (")}),
    (("This file holds a number of %(num)d digit: the numbers of a session have at most %(most)d.",
      "This file holds a number of %(num)d digits: the numbers of a session have at most %(most)d."), {"most": 9},
     {"en": ("1 digit:", "2 digits:"), "fr": ("1 chiffre", "2 chiffres"), "de": ("1 Ziffer:", "2 Ziffern:"), "it": ("1 cifra:", "2 cifre:")}),
    (("Each player needs a name of 1 to %(num)d character, without control characters: %(name)s is not one.",
      "Each player needs a name of 1 to %(num)d characters, without control characters: %(name)s is not one."), {"name": "''"},
     {"en": ("1 character,", "2 characters,"), "fr": ("1 caractère,", "2 caractères,"), "de": ("1 bis 1 Zeichen", "1 bis 2 Zeichen"),
      "it": ("1 carattere,", "2 caratteri,")}),
    # Sentences that put a counted phrase inside another count: the points a buyer has, the winners' points.
    (("%(player)s has %(points)s: %(num)d Carambouille card costs %(price)d. A score never goes below zero.",
      "%(player)s has %(points)s: %(num)d Carambouille cards cost %(price)d. A score never goes below zero."),
     {"player": "Ana", "points": "-", "price": 50},
     {"en": ("1 Carambouille card costs", "2 Carambouille cards cost"), "fr": ("1 carte Carambouille coûte", "2 cartes Carambouille coûtent"),
      "de": ("1 Carambouille-Karte kostet", "2 Carambouille-Karten kosten"), "it": ("1 carta Carambouille costa", "2 carte Carambouille costano")}),
    (("The game is over: %(names)s wins with %(points)s.", "The game is over: %(names)s share the win with %(points)s."),
     {"names": "Ana", "points": "-"},
     {"en": ("wins with", "share the win"), "fr": ("gagne avec", "se partagent"), "de": ("gewinnt mit", "teilen sich"),
      "it": ("vince con", "si dividono")}),
]


@pytest.mark.parametrize("language", ["en", "fr", "de", "it"])
@pytest.mark.parametrize("pair, values, read", COUNTS, ids=[pair[1][:40] for pair, _v, _r in COUNTS])
def test_every_count_takes_the_form_of_its_number(app, pair, values, read, language):
    one, two = read[language]
    assert one in said(app, language, lambda: words.ngettext(*pair, 1, **values))
    assert two in said(app, language, lambda: words.ngettext(*pair, 2, **values))


@pytest.mark.parametrize("language, zero", [
    ("en", "0 points"), ("fr", "0 point"), ("de", "0 Punkte"), ("it", "0 punti"),
])
def test_nothing_is_counted_as_french_counts_it(app, language, zero):
    # French counts 0 in the singular ("0 point"), the others in the plural.
    assert said(app, language, lambda: words.points_words(0)) == zero


def test_a_deal_says_in_italian_how_many_cards_the_stock_keeps_in_the_number_of_that_count(app):
    left = said(app, "it", lambda: words.ngettext("%(num)d left in the stock", "%(num)d left in the stock", 1))
    sentence = said(app, "it", lambda: words.ngettext(
        "Hand %(hand)d: %(trader)s dealt %(num)d card (%(given)s); %(stock)s.",
        "Hand %(hand)d: %(trader)s dealt %(num)d cards (%(given)s); %(stock)s.", 5, hand=8, trader="Ana",
        given="Ana 2, Ben 3", stock=left))
    assert sentence == "Mano 8: Ana ha distribuito 5 carte (Ana 2, Ben 3); ne resta 1 nella riserva."


# Messages with a number in them that count nothing (an ordinal, a label, a range, a value, a unit): every other
# number in a sentence goes through ngettext. A new message with a number is added here only with its reason.
NOT_COUNTS = {
    "ordinal": {"Player %(number)d", "Player %(number)d (optional)", "Entry %(number)d (%(type)s)", "Entry %(number)d",
                "Session %(number)d of the file is not a session.",
                "Entry %(number)d: it needs a type and an event.", "entry %(number)d is already undone.",
                "Undoing that would make entry %(seq)d (%(entry)s) impossible: %(reason)s", "Hand %(number)d",
                "Round %(number)d", "%(period)s %(number)d", "Team %(number)d", "Hand %(hand)d", "Round %(round)d", "Rank %(rank)d",
                # A game's story and its replay (#55): where something happened, by hand, round or entry number.
                "in hand %(number)d", "in round %(number)d", "at entry %(number)d", "after hand %(number)d",
                "after round %(number)d", "after entry %(number)d", "Undone later, at entry %(number)d.",
                "See entry %(number)d",
                "Hand %(hand)d: %(player)s rang the bell in a pinch for %(trader)s: the market is open.",
                "Hand %(hand)d: %(trader)s rang the bell: the market is open.",
                "%(player)s ended their sales turn: hand %(hand)d is over, the bell passes to %(trader)s.",
                "%(player)s in hand %(hand)d", "Hand %(hand)d: %(duration)s of trading.",
                "Lay out the dishes for round %(round)d first.", "Round %(round)d is over: start round %(next)d first.",
                "The dishes of round %(round)d are already laid out.", "Round %(round)d is not over yet.",
                "Round %(round)d dishes: %(layout)s.", "Round %(round)d starts with %(name)s.",
                "Round %(round)d entered at once: %(money)s.", "%(name)s in round %(round)d (%(sum)s)",
                "Round %(round)d ended: the market could not be refilled.", "Round %(round)d began; %(name)s starts.",
                "%(name)s sold %(goods)s for %(points)d, in round %(round)d.",
                "%(name)s sold %(goods)s for %(points)d and a bonus token of %(bonus)d: %(total)d, in round %(round)d.",
                "%(name)s sold %(goods)s for %(points)d and a bonus token (face down until the round is scored), in round "
                "%(round)d.",
                "Round %(round)d is still going: it ends when three goods stacks are empty or the market cannot be "
                "refilled.", "Round %(round)d has ended: enter both camel counts to score it.",
                "Round %(round)d is scored: start the next round first.", "Undid entry %(seq)d: %(entry)s",
                "Entry %(seq)d is already undone.", "Longest market: hand %(hand)d, %(duration)s.",
                "Dishes for round %(round)d", "Start round %(round)d with these dishes", "Round %(round)d is over",
                "%(name)s starts round %(round)d.", "Start round %(round)d", "Save round %(round)d from this tally",
                "Round %(round)d of %(rounds)d", "The dishes as round %(round)d ended.", "Round %(round)d money",
                "When the deck is empty and the market cannot be refilled to 5 cards, round %(round)d ends now. Then "
                "both players count their camels.", "Yes, end round %(round)d", "Score round %(round)d",
                "<strong>Round %(round)d</strong> · %(name)s started it", "Round %(round)d result",
                "%(name)s starts round %(round)d (the loser starts).",
                "%(name)s starts round %(round)d (after a drawn round, the other player starts).",
                "<strong>Round %(round)d is over</strong>: three goods stacks are empty.",
                "<strong>Round %(round)d is over</strong>: the market could not be refilled.", "Round %(round)d so far",
                "<strong>Round %(round)d</strong>: %(result)s.", "Undo entry %(seq)d?", "Then entry %(seq)d can be undone.",
                "Undo entry %(seq)d first…", "Undo entry %(seq)d", "Error %(status)d",
                # The score sheet's rounds and categories (#42).
                "Category %(number)d", "%(name)s in round %(round)d",
                "Round %(round)d: %(scores)s.", "Round %(round)d: %(scores)s. %(end)s",
                "The game was ended after round %(round)d.", "The next round to enter is round %(round)d.",
                # A group's phone that was given no name, by its number in the group.
                "Phone %(number)d"},
    "a value, a price or a score, no noun after it": {
        "%(player)s sold %(cards)s for %(value)d.", "%(player)s sold %(cards)s for %(value)d, %(steps)s.",
        "%(num)d %(product)s", "The memo row for %(value)d needs 5 selling values (1 to 5 cards).",
        "Selling values on the memo are whole points from 0 to %(most)d (row %(value)d: %(cell)s).",
        "%(cards)d × %(product)s = %(value)d", "%(card)s by %(player)s → %(value)d", "%(card)s → %(value)d",
        "%(player)s played %(card)s on %(seller)s's sale of %(cards)s: %(before)d → %(after)d.",
        "%(player)s played %(card)s on their sale of %(cards)s: %(before)d → %(after)d.",
        "No product has the face value %(value)d.", "%(player)s sold %(cards)s for %(value)d in hand %(hand)d, with "
        "%(played)s.", "%(player)s sold %(cards)s for %(value)d in hand %(hand)d.", "%(seafood)s %(price)d",
        "%(name)s %(money)d", "%(money)d: %(who)s.", "%(seafood)s %(before)d → %(after)d",
        "%(name)s sold %(goods)s for %(points)d (%(tokens)s)", "%(name)s sold %(goods)s for %(points)d",
        "%(name)s wins %(points)d to %(other)d", "Equal at %(points)d with %(bonus)s each; %(name)s wins with "
        "%(goods)s to %(other)d", "%(price)d each", "Face value %(value)d", "worth %(money)d now", "sells at %(price)d now",
        "played, it drops to %(price)d", "Camel token (%(points)d): to the bigger herd at the round's end; equal herds, "
        "nobody.", "Biggest sale: %(seller)s, %(cards)s for %(value)s (hand %(hand)d).",
        "There are only %(cards)s, not %(total)d.",
        # The score sheet (#42): a sum and what it makes, a total, the target reached.
        "%(entry)s = %(value)d", "%(who)s %(total)d", "%(who)s reached %(total)d: the game is over.",
        "%(totals)s: the target of %(target)d is reached, the game is over.",
        "The game ends with the round in which a total reaches %(target)d.",
        "The game ends when a total reaches %(target)d.", "the game ends at %(target)d"},
    "a label or a tally, the count after a colon or in brackets": {
        "%(player)s laid a Basket: hand limit %(limit)d.", "Camels: %(first)s %(first_camels)d, %(second)s "
        "%(second_camels)d, no camel token.", "Camels: %(first)s %(first_camels)d, %(second)s %(second_camels)d, the "
        "camel token to %(owner)s.", "%(result)s and takes a seal (%(seals)d of %(needed)d).",
        "Most Carambouille cards played: %(names)s (%(count)d).", "max %(limit)d", "of %(total)d",
        "Carambouille cards: you hold %(count)d", "limit %(limit)d", "%(good)s: at least %(least)d",
        "Scores are seals of excellence: the first to %(needed)d wins the match"},
    "a range of numbers, or the limits of a value": {
        "Number must be between %(low)d and %(high)d.", "Pick a date between %(first)d and %(last)d.",
        "The length of the exchange phase in seconds is a whole number from %(low)d to %(high)d, not %(value)s.",
        "The cards dealt to a player is a whole number from %(low)d to %(high)d, not %(value)s.",
        "The number of cards sold is a whole number from %(low)d to %(high)d, not %(value)s.",
        "Players in seating order (%(low)d–%(high)d), going round the table to the left",
        "Players in seating order (%(low)d), going round the table to the left",
        "Camels in each herd (0–%(most)d); the bigger herd takes the camel token (%(token)d)",
        "%(good)s must be sold at least %(least)d at a time.",
        "Each player counts the product cards in their hand. The First Trader gives one card at a time round the "
        "table from their left, at most %(most)d each, never above the hand limit.",
        # The score sheet (#42): the most an entry or a total may make, either way.
        "%(entry)s makes more than %(most)d.", "%(entry)s makes less than −%(most)d.",
        "The total of %(who)s would pass %(most)d.", "The total of %(who)s would fall below −%(most)d.",
        "A BoardGameGeek id is a whole number from 1 to %(most)d."},
    "a unit, abbreviated": {"%(seconds)d s", "%(minutes)d min %(seconds)02d s", "%(minutes)d min",
                            "The file is larger than %(size)d MB: it cannot be a session export.",
                            "The file is larger than %(size)d MB, the most a history file brought in here can be.",
                            "This file is not valid JSON (line %(line)d, column %(column)d: %(error)s).",
                            "This file has format version %(version)s; this app reads version %(ours)d."},
}


def test_every_number_in_a_sentence_is_a_count_through_ngettext_or_counts_nothing():
    allowed = set().union(*NOT_COUNTS.values())
    singular = {message.id for message in source() if message.id and isinstance(message.id, str)
                and re.search(r"%\(\w+\)d", message.id)}
    assert singular - allowed == set(), "a number in a sentence without a plural form"
    assert allowed - singular == set(), "listed here, but no longer a message"
