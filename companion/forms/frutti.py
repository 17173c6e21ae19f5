"""Frutti di Mare's forms: dish order, a card played, suspended selling, the next round, tallies.

Shape only (a seafood from the list, a number from 0 to 7); whether the move
is allowed is for ``companion.rules.frutti`` to say.
"""

from __future__ import annotations

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import FieldList, Form, FormField, HiddenField, IntegerField, SelectField, StringField
from wtforms.validators import InputRequired, Length, Optional, StopValidation, ValidationError

from ..rules.frutti import HAND_SIZE, MAX_PLAYERS, SEAFOOD, STALLS, capital, joined, seafood_name
from ..rules.words import N_plural, _, ngettext
from . import CONTROL, NAME_LENGTH, ActionForm, clean_name



def dish_label(seafood: str) -> LazyString:
    """The seafood's name as a label ("Sea urchins"), worded when shown, in the reader's language."""
    return LazyString(lambda: capital(seafood_name(seafood)))


SEAFOOD_CHOICES = [(seafood, dish_label(seafood)) for seafood in SEAFOOD]
DISH_CHOICES = [("", _l("Choose…")), *SEAFOOD_CHOICES]
NO_LAYOUT = ("",) * len(STALLS)  # no dish chosen under any stall yet
HOW_CHOICES = [("keep", _l("Keep the current order")), ("shuffle", _l("Shuffle")),
               ("table", _l("As laid out on the table"))]


class Slots(FieldList):
    """A FieldList whose entries are always numbered 0..n−1: an input left out of a post stays
    blank in its own place instead of shifting the ones after it into the wrong stall or seafood."""

    def _extract_indices(self, prefix, formdata):
        return range(self.min_entries)


class Within:
    """A whole number from ``low`` to ``high``, compared as integers (WTForms' NumberRange
    turns the number into a float first, and a 400-digit number overflows)."""

    def __init__(self, low: int, high: int, message: str | LazyString | None = None) -> None:
        self.low, self.high = low, high
        self.message = message

    def __call__(self, form, field) -> None:
        if field.data is None or not self.low <= field.data <= self.high:
            message = self.message or _("Number must be between %(low)d and %(high)d.", low=self.low, high=self.high)
            raise StopValidation(str(message))


class Required(InputRequired):
    """InputRequired whose message (``_l``) is worded when it is raised: the pages show only plain
    strings of ``field.errors`` (``select('string')``), and a lazy one would be left out."""

    def __call__(self, form, field) -> None:
        try:
            super().__call__(form, field)
        except StopValidation as stop:
            raise StopValidation(*(str(arg) for arg in stop.args)) from None


def dish_field() -> SelectField:
    return SelectField(_l("Dish"), choices=DISH_CHOICES, default="")


CARDS_RANGE = N_plural("From 0 to %(num)d card.", "From 0 to %(num)d cards.")


def count_field(label: str | LazyString) -> IntegerField:
    """A number of cards of one seafood: empty means none."""
    return IntegerField(label, validators=[
        Optional(), Within(0, HAND_SIZE, LazyString(ngettext, *CARDS_RANGE, HAND_SIZE)),
    ])


def check_layout(field: FieldList) -> None:
    """Every stall has a dish, and no dish lies under two stalls; the fields at fault are marked."""
    if any(entry.errors for entry in field.entries):
        raise ValidationError(_("Choose one of the five seafood under each stall."))
    missing = [(stall, entry) for stall, entry in zip(STALLS, field.entries) if not entry.data]
    for _stall, entry in missing:
        entry.errors = [*entry.errors, _("Choose a dish.")]
    if missing:
        stalls = ", ".join(str(stall) for stall, _entry in missing)
        # Translators: %(stalls)s is one price or a list of prices: "10", "0, 20, 50".
        raise ValidationError(ngettext("Choose the dish under the stall %(stalls)s.",
                                       "Choose the dish under the stalls %(stalls)s.", len(missing), stalls=stalls))
    for seafood in SEAFOOD:
        under = [(stall, entry) for stall, entry in zip(STALLS, field.entries) if entry.data == seafood]
        if len(under) > 1:
            for _stall, entry in under:
                # Translators: next to a dish chosen under two stalls.
                entry.errors = [*entry.errors, _("Twice.")]
            stalls = joined([str(stall) for stall, _entry in under])
            # Translators: %(stalls)s is a list of prices: "10 and 30".
            raise ValidationError(_("%(seafood)s are under %(stalls)s: each dish lies under exactly one stall.",
                                    seafood=capital(seafood_name(seafood)), stalls=stalls))


def layout_of(field: FieldList) -> list[str]:
    """The dish order as entered, left to right."""
    return [entry.data for entry in field.entries]


class FruttiAction(ActionForm):
    """ActionForm whose ``seen`` is compared as an integer: a 400-digit ``seen`` is refused, not a 500."""

    seen = IntegerField(widget=HiddenField.widget, validators=[Optional(), Within(0, 10**9)])


class DishesForm(FruttiAction):
    """The dish order at the start of a round: kept, shuffled by the app, or as laid out on the table."""

    how = SelectField(_l("Dishes"), choices=HOW_CHOICES, validators=[Required(_l("Choose how the dishes lie."))])
    order = Slots(dish_field(), min_entries=len(STALLS), max_entries=len(STALLS))

    def validate_order(self, field: FieldList) -> None:
        if self.how.data == "table":
            check_layout(field)

    def event(self) -> dict:
        if self.how.data == "table":
            return {"type": "dishes", "order": layout_of(self.order)}
        return {"type": "dishes", self.how.data: True}


class PlayForm(FruttiAction):
    """One card played: one submit button per seafood."""

    player = IntegerField(widget=HiddenField.widget, validators=[InputRequired(), Within(0, MAX_PLAYERS - 1)])
    seafood = SelectField(_l("Seafood"), choices=SEAFOOD_CHOICES,
                          validators=[Required(_l("Tap the seafood of the card played."))])

    def event(self) -> dict:
        return {"type": "play", "player": self.player.data, "seafood": self.seafood.data}


class SuspendForm(FruttiAction):
    """Suspended selling: the hand laid down, by seafood."""

    player = IntegerField(widget=HiddenField.widget, validators=[InputRequired(), Within(0, MAX_PLAYERS - 1)])
    hand = Slots(count_field(_l("Cards")), min_entries=len(SEAFOOD), max_entries=len(SEAFOOD))

    def event(self) -> dict:
        return {"type": "suspend", "player": self.player.data,
                "hand": {seafood: entry.data or 0 for seafood, entry in zip(SEAFOOD, self.hand.entries)}}


class NextRoundForm(FruttiAction):
    """Start the next round."""

    def event(self) -> dict:
        return {"type": "next_round"}


class CardsRow(Form):
    """One player's cards of a round, by seafood."""

    shrimp = count_field(dish_label("shrimp"))
    sea_urchins = count_field(dish_label("sea_urchins"))
    oysters = count_field(dish_label("oysters"))
    octopus = count_field(dish_label("octopus"))
    mussels = count_field(dish_label("mussels"))

    def cards(self) -> dict[str, int]:
        return {seafood: self[seafood].data or 0 for seafood in SEAFOOD}

    def counts_entered(self) -> bool:
        return any(self[seafood].data for seafood in SEAFOOD)


class NamedCardsRow(CardsRow):
    """A quick tally's player: a name (optional) and cards."""

    name = StringField(_l("Name"), filters=[clean_name], validators=[Length(max=NAME_LENGTH)])

    def validate_name(self, field: StringField) -> None:
        if CONTROL.search(field.data or ""):
            raise ValidationError(_("Names cannot contain control characters."))


def _rows(form: Form, rows: int) -> None:
    while len(form.cards.entries) > rows:
        form.cards.pop_entry()


class TableTallyForm(FruttiAction):
    """A whole round of a table entered at once: the final dish order and each seat's cards."""

    order = Slots(dish_field(), min_entries=len(STALLS), max_entries=len(STALLS))
    cards = Slots(FormField(CardsRow), min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)

    def __init__(self, *args, players: int = MAX_PLAYERS, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        _rows(self, players)

    def validate_order(self, field: FieldList) -> None:
        check_layout(field)

    def event(self) -> dict:
        return {"type": "tally", "order": layout_of(self.order),
                "cards": [row.form.cards() for row in self.cards.entries]}


class QuickTallyForm(FlaskForm):
    """The quick-tally page: the final dish order and up to six players' cards; nothing is stored."""

    class Meta:
        csrf = False  # a GET form that only counts

    order = Slots(dish_field(), min_entries=len(STALLS), max_entries=len(STALLS))
    cards = Slots(FormField(NamedCardsRow), min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)

    def validate_order(self, field: FieldList) -> None:
        check_layout(field)

    def validate_cards(self, field: FieldList) -> None:
        if len(self.players()) < 2:
            raise ValidationError(ngettext("Enter the cards of at least %(num)d player.",
                                           "Enter the cards of at least %(num)d players.", 2))

    def players(self) -> list[tuple[str, dict[str, int]]]:
        """(name, cards) of each row with a name or cards; unnamed rows are called "Player N"."""
        return [(row.form.name.data or _("Player %(number)d", number=number), row.form.cards())
                for number, row in enumerate(self.cards.entries, start=1)
                if row.form.name.data or row.form.counts_entered()]
