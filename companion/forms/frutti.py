"""Frutti di Mare's forms: dish order, a card played, suspended selling, the next round, tallies.

Shape only (a seafood from the list, a number from 0 to 7); whether the move
is allowed is for ``companion.rules.frutti`` to say.
"""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import FieldList, Form, FormField, HiddenField, IntegerField, SelectField, StringField
from wtforms.validators import InputRequired, Length, Optional, StopValidation, ValidationError

from ..rules.frutti import HAND_SIZE, MAX_PLAYERS, PLURAL, SEAFOOD, STALLS
from ..rules.words import pick
from . import CONTROL, NAME_LENGTH, ActionForm, clean_name

SEAFOOD_CHOICES = [(seafood, PLURAL[seafood].capitalize()) for seafood in SEAFOOD]
DISH_CHOICES = [("", "Choose…"), *SEAFOOD_CHOICES]
NO_LAYOUT = ("",) * len(STALLS)  # no dish chosen under any stall yet
HOW_CHOICES = [("keep", "Keep the current order"), ("shuffle", "Shuffle"), ("table", "As laid out on the table")]


class Slots(FieldList):
    """A FieldList whose entries are always numbered 0..n−1: an input left out of a post stays
    blank in its own place instead of shifting the ones after it into the wrong stall or seafood."""

    def _extract_indices(self, prefix, formdata):
        return range(self.min_entries)


class Within:
    """A whole number from ``low`` to ``high``, compared as integers (WTForms' NumberRange
    turns the number into a float first, and a 400-digit number overflows)."""

    def __init__(self, low: int, high: int, message: str | None = None) -> None:
        self.low, self.high = low, high
        self.message = message or f"Number must be between {low} and {high}."

    def __call__(self, form, field) -> None:
        if field.data is None or not self.low <= field.data <= self.high:
            raise StopValidation(self.message)


def dish_field() -> SelectField:
    return SelectField("Dish", choices=DISH_CHOICES, default="")


def count_field(label: str) -> IntegerField:
    """A number of cards of one seafood: empty means none."""
    return IntegerField(label, validators=[
        Optional(), Within(0, HAND_SIZE, f"From 0 to {HAND_SIZE} cards."),
    ])


def check_layout(field: FieldList) -> None:
    """Every stall has a dish, and no dish lies under two stalls; the fields at fault are marked."""
    if any(entry.errors for entry in field.entries):
        raise ValidationError("Choose one of the five seafood under each stall.")
    missing = [(stall, entry) for stall, entry in zip(STALLS, field.entries) if not entry.data]
    for _, entry in missing:
        entry.errors = [*entry.errors, "Choose a dish."]
    if missing:
        stalls = ", ".join(str(stall) for stall, _ in missing)
        raise ValidationError(f"Choose the dish under the {pick(len(missing), 'stall', 'stalls')} {stalls}.")
    for seafood in SEAFOOD:
        under = [(stall, entry) for stall, entry in zip(STALLS, field.entries) if entry.data == seafood]
        if len(under) > 1:
            for _, entry in under:
                entry.errors = [*entry.errors, "Twice."]
            stalls = " and ".join(str(stall) for stall, _ in under)
            raise ValidationError(
                f"{PLURAL[seafood].capitalize()} are under {stalls}: each dish lies under exactly one stall."
            )


def layout_of(field: FieldList) -> list[str]:
    """The dish order as entered, left to right."""
    return [entry.data for entry in field.entries]


class FruttiAction(ActionForm):
    """ActionForm whose ``seen`` is compared as an integer: a 400-digit ``seen`` is refused, not a 500."""

    seen = IntegerField(widget=HiddenField.widget, validators=[Optional(), Within(0, 10**9)])


class DishesForm(FruttiAction):
    """The dish order at the start of a round: kept, shuffled by the app, or as laid out on the table."""

    how = SelectField("Dishes", choices=HOW_CHOICES, validators=[InputRequired("Choose how the dishes lie.")])
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
    seafood = SelectField("Seafood", choices=SEAFOOD_CHOICES,
                          validators=[InputRequired("Tap the seafood of the card played.")])

    def event(self) -> dict:
        return {"type": "play", "player": self.player.data, "seafood": self.seafood.data}


class SuspendForm(FruttiAction):
    """Suspended selling: the hand laid down, by seafood."""

    player = IntegerField(widget=HiddenField.widget, validators=[InputRequired(), Within(0, MAX_PLAYERS - 1)])
    hand = Slots(count_field("Cards"), min_entries=len(SEAFOOD), max_entries=len(SEAFOOD))

    def event(self) -> dict:
        return {"type": "suspend", "player": self.player.data,
                "hand": {seafood: entry.data or 0 for seafood, entry in zip(SEAFOOD, self.hand.entries)}}


class NextRoundForm(FruttiAction):
    """Start the next round."""

    def event(self) -> dict:
        return {"type": "next_round"}


class CardsRow(Form):
    """One player's cards of a round, by seafood."""

    shrimp = count_field(PLURAL["shrimp"].capitalize())
    sea_urchins = count_field(PLURAL["sea_urchins"].capitalize())
    oysters = count_field(PLURAL["oysters"].capitalize())
    octopus = count_field(PLURAL["octopus"].capitalize())
    mussels = count_field(PLURAL["mussels"].capitalize())

    def cards(self) -> dict[str, int]:
        return {seafood: self[seafood].data or 0 for seafood in SEAFOOD}

    def counts_entered(self) -> bool:
        return any(self[seafood].data for seafood in SEAFOOD)


class NamedCardsRow(CardsRow):
    """A quick tally's player: a name (optional) and cards."""

    name = StringField("Name", filters=[clean_name], validators=[Length(max=NAME_LENGTH)])

    def validate_name(self, field: StringField) -> None:
        if CONTROL.search(field.data or ""):
            raise ValidationError("Names cannot contain control characters.")


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
            raise ValidationError("Enter the cards of at least 2 players.")

    def players(self) -> list[tuple[str, dict[str, int]]]:
        """(name, cards) of each row with a name or cards; unnamed rows are called "Player N"."""
        return [(row.form.name.data or f"Player {number}", row.form.cards())
                for number, row in enumerate(self.cards.entries, start=1)
                if row.form.name.data or row.form.counts_entered()]
