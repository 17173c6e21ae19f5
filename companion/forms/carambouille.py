"""Carambouille's forms: the shape of a sale, a purchase, a deal, the cards played and the memo.

Shape only: every field is bounded here, and what it means (whose turn, who
holds what, what is left) is checked by ``companion.rules.carambouille``.
Field names are the event keys, so a refusal lands next to its field.
"""

from __future__ import annotations

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from wtforms import FieldList, Form, HiddenField, IntegerField, RadioField, SelectField, StringField
from wtforms.validators import AnyOf, InputRequired, NumberRange, Optional, Regexp, ValidationError

from ..rules import carambouille as game
from ..rules.words import _, ngettext
from . import ActionForm

SEAT = NumberRange(min=0, max=game.MAX_PLAYERS - 1)
DIGITS = 9  # more is never a count at a card table, and would overflow NumberRange's float check


class WholeNumberField(IntegerField):
    """An integer of at most 9 digits; anything longer is refused in words, never a crash."""

    def process_formdata(self, valuelist) -> None:
        if valuelist and len(str(valuelist[0]).strip().lstrip("+-")) > DIGITS:
            self.data = None
            raise ValueError(_("That number is far too big."))
        super().process_formdata(valuelist)


def word_errors(form: Form) -> None:
    """Every error message of the form as a plain sentence: the lazy ones worded now, in the reader's language
    (the pages keep only the strings of a field's errors, and a list field's errors are its entries' lists)."""
    for field in form:
        for entry in getattr(field, "entries", ()):
            entry.errors[:] = [str(error) for error in entry.errors]
        field.errors[:] = [error if isinstance(error, list) else str(error) for error in field.errors]


class CarambouilleForm(ActionForm):
    """An action form whose numbers are all bounded in length."""

    seen = WholeNumberField(widget=HiddenField.widget, validators=[Optional(), NumberRange(min=0, max=10**9)])

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        word_errors(self)
        return valid
# Choices are built once, at import: their labels are worded when shown, in the reader's language.
PRODUCT_CHOICES = [("", _l("Choose a product"))] + [(p.slug, LazyString(p.label)) for p in game.PRODUCTS]
CARD_CHOICES = [(kind, LazyString(game.card_name, kind)) for kind in game.CARD_TYPES]
STEPS = ("preview", "confirm")
# A sale card on a sale, as the form sends it: "bargain:2" (card, seat).
EFFECT = Regexp(r"^((illusion|bargain|overstock):[0-6])?$", message=_l("Choose a sale card from the list."))


def seat_field(label: str, *, optional: bool = False) -> WholeNumberField:
    checks = [Optional()] if optional else [InputRequired(_l("Choose a player."))]
    return WholeNumberField(label, validators=[*checks, SEAT])


def flat_errors(field: FieldList) -> list[str]:
    """A list field's own errors and its entries', as sentences."""
    found = []
    for error in field.errors:
        # An entry's errors are a list; a message may be a lazy string, worded now.
        found += [str(e) for e in error] if isinstance(error, (list, tuple)) else [str(error)]
    return list(dict.fromkeys(found))


def read_effects(values: list[str | None]) -> list[tuple[str, int]]:
    """The sale cards chosen, in order, blanks (and anything unreadable, refused by EFFECT) skipped."""
    chosen = []
    for value in values:
        if value and EFFECT.regex.fullmatch(value):
            card, seat = value.split(":")
            chosen.append((card, int(seat)))
    return chosen


class SaleForm(CarambouilleForm):
    """A sale: the seller (whose turn it is), a product, 1–5 cards, the sale cards played on it."""

    player = WholeNumberField(widget=HiddenField.widget, validators=[InputRequired(_l("Say who sells.")), SEAT])
    product = SelectField(_l("Product"), choices=PRODUCT_CHOICES,
                          validators=[InputRequired(_l("Choose the product sold."))])
    cards = WholeNumberField(_l("Cards sold together"), validators=[
        InputRequired(_l("How many cards are sold?")), NumberRange(min=1, max=5, message=_l("A sale is 1 to 5 cards."))])
    effects = FieldList(StringField(validators=[Optional(), EFFECT]), min_entries=0,
                        max_entries=game.MAX_SALE_EFFECTS)
    # Only an explicit "Record" records: a form sent any other way is previewed.
    step = HiddenField(default="preview", validators=[Optional(), AnyOf(STEPS)])

    # Set by the view: the arithmetic of the sale as entered, or why it cannot be made.
    preview = None

    def chosen_effects(self) -> list[tuple[str, int]]:
        return read_effects([entry.data for entry in self.effects.entries])

    def effects_errors(self) -> list[str]:
        return flat_errors(self.effects)

    def event(self) -> dict:
        event = {"type": "sale", "player": self.player.data, "product": self.product.data,
                 "cards": self.cards.data}
        if effects := self.chosen_effects():
            event["effects"] = [{"card": card, "player": seat} for card, seat in effects]
        return event


class PlayOnSaleForm(CarambouilleForm):
    """A sale card played on the sale on the table, from the phone of whoever plays it."""

    player = WholeNumberField(widget=HiddenField.widget, validators=[InputRequired(_l("Say who plays it.")), SEAT])
    card = StringField(validators=[InputRequired(_l("Tap the card you play.")), AnyOf(
        game.SALE_CARDS, message=_l("Only Illusion, Bargain and Overstock are played on a sale."))])

    def event(self) -> dict:
        return {"type": "play_on_sale", "player": self.player.data, "card": self.card.data}


class BuyForm(CarambouilleForm):
    """Buying 1 or 2 Carambouille cards: the button says how many, the radios what was drawn."""

    player = WholeNumberField(widget=HiddenField.widget, validators=[InputRequired(_l("Say who buys.")), SEAT])
    cards = WholeNumberField(_l("Cards bought"), validators=[InputRequired(_l("Tap +1 or +2.")),
                                                          NumberRange(min=1, max=game.MAX_PURCHASES)])
    first = RadioField(_l("Card drawn"), choices=CARD_CHOICES, validate_choice=False,
                       validators=[InputRequired(_l("Tap the type of the card you drew.")), AnyOf(game.CARD_TYPES)])
    second = RadioField(_l("Second card drawn"), choices=CARD_CHOICES, validate_choice=False)

    def validate_second(self, field: RadioField) -> None:
        if self.cards.data == 2 and not field.data:
            raise ValidationError(_("Tap the type of the second card you drew."))
        if field.data and field.data not in game.CARD_TYPES:
            raise ValidationError(_("Tap one of the six Carambouille cards."))

    def event(self) -> dict:
        drawn = [self.first.data] + ([self.second.data] if self.cards.data == 2 else [])
        return {"type": "buy", "player": self.player.data, "cards": drawn}


class EndTurnForm(CarambouilleForm):
    """The seller is done selling and buying."""

    player = WholeNumberField(widget=HiddenField.widget, validators=[InputRequired(), SEAT])

    def event(self) -> dict:
        return {"type": "end_sales_turn", "player": self.player.data}


class PlayCardForm(CarambouilleForm):
    """A Carambouille card played on its own: “I lied!”, Persuasion (on someone), a Basket laid."""

    type = HiddenField(validators=[InputRequired(), AnyOf(("i_lied", "persuasion", "basket"))])
    player = seat_field(_l("Who plays it"))
    target = seat_field(_l("On whom (optional)"), optional=True)

    def event(self) -> dict:
        event = {"type": self.type.data, "player": self.player.data}
        if self.type.data == "persuasion" and self.target.data is not None:
            event["target"] = self.target.data
        return event


class GiveCardForm(CarambouilleForm):
    """A Carambouille card traded to another player during the exchanges."""

    player = seat_field(_l("Who gives it"))
    to = seat_field(_l("To"))
    card = SelectField(_l("Card"), choices=CARD_CHOICES, validators=[InputRequired()])

    def event(self) -> dict:
        return {"type": "give_card", "player": self.player.data, "to": self.to.data, "card": self.card.data}


class DealForm(CarambouilleForm):
    """The new First Trader's deal: each player's hand size as counted; the app works out the cards."""

    hand_sizes = FieldList(
        WholeNumberField(_l("Cards in hand"), validators=[InputRequired(_l("Count the cards in this hand.")),
                                                      NumberRange(min=0, max=game.PRODUCT_CARDS)]),
        min_entries=game.MIN_PLAYERS, max_entries=game.MAX_PLAYERS)
    step = HiddenField(default="preview", validators=[Optional(), AnyOf(STEPS)])
    # Set by the view: the deal for the sizes entered, and whether a player has changed them.
    outcome = None
    touched = False

    def __init__(self, *args, players: int = game.MIN_PLAYERS, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        while len(self.hand_sizes.entries) < players:
            self.hand_sizes.append_entry()
        while len(self.hand_sizes.entries) > players:
            self.hand_sizes.pop_entry()

    def sizes(self) -> list[int]:
        return [entry.data for entry in self.hand_sizes.entries]


class EndGameForm(CarambouilleForm):
    """The players end the game: the final standings."""

    def event(self) -> dict:
        return {"type": "end_game"}


def _memo_fields():
    for value in game.FACE_VALUES:
        for cards in range(1, 6):
            yield f"m{value}_{cards}", WholeNumberField(
                f"{cards} × {value}",
                validators=[InputRequired(LazyString(_give_the_value, cards, value)),
                            NumberRange(min=0, max=game.MAX_MEMO_VALUE, message=LazyString(_most_memo_value))])


def _most_memo_value() -> str:
    return ngettext("A selling value is 0 to %(num)d point.", "A selling value is 0 to %(num)d points.",
                    game.MAX_MEMO_VALUE)


def _give_the_value(cards: int, value: int) -> str:
    # Translators: a cell of the memo left empty: "Give the value of 3 cards of 40." (40 is the face value).
    return ngettext("Give the value of %(num)d card of %(value)d.", "Give the value of %(num)d cards of %(value)d.",
                    cards, value=value)


class HouseMemoForm(CarambouilleForm):
    """Every cell of the table's memo card; "reset" goes back to the printed memo."""

    reset = HiddenField(validators=[Optional(), AnyOf(("", "yes"))])
    memo = HiddenField()  # where a refusal of the whole memo is shown

    def cell(self, value: int, cards: int):
        return self[f"m{value}_{cards}"]

    def table_memo(self) -> dict[int, tuple[int, ...]]:
        if self.reset.data == "yes":
            return dict(game.DEFAULT_MEMO)
        return {value: tuple(self.cell(value, n).data for n in range(1, 6)) for value in game.FACE_VALUES}

    @classmethod
    def filled(cls, memo: dict[int, tuple[int, ...]], **kwargs) -> HouseMemoForm:
        data = {f"m{value}_{n + 1}": cell for value, row in memo.items() for n, cell in enumerate(row)}
        return cls(data=data, **kwargs)

    def event(self) -> dict:
        return {"type": "house_memo", "memo": game.memo_overrides(self.table_memo())}

    def validate(self, extra_validators=None) -> bool:
        if self.reset.data == "yes":
            # Going back to the print needs no cells.
            for name, _field in _memo_fields():
                self[name].validators = [Optional()]
        return super().validate(extra_validators)


for _name, _field in _memo_fields():
    setattr(HouseMemoForm, _name, _field)


class CalculatorForm(Form):
    """The memo page's quick calculator (a GET form: nothing is recorded)."""

    product = SelectField(_l("Product"), choices=PRODUCT_CHOICES, validators=[InputRequired(_l("Choose a product."))])
    cards = RadioField(_l("Cards sold together"), choices=[(n, str(n)) for n in range(1, 6)], coerce=int,
                       validators=[InputRequired(_l("How many cards are sold together?"))])
    effects = FieldList(SelectField(choices=[("", "—")] + [(c, LazyString(game.card_name, c)) for c in game.SALE_CARDS],
                                    validators=[Optional()]),
                        min_entries=0, max_entries=game.MAX_SALE_EFFECTS)

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        word_errors(self)
        return valid

    def chosen_effects(self) -> list[str]:
        return [entry.data for entry in self.effects.entries if entry.data in game.SALE_CARDS]

    def effects_errors(self) -> list[str]:
        return flat_errors(self.effects)
