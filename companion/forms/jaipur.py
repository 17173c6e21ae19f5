"""Jaipur's forms: a sale, the end of a round, the camel counts, the next round."""

from __future__ import annotations

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, StringField
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional

from ..rules.jaipur import BONUS_TOKENS, CAMEL_CARDS, GOODS, HAND_LIMIT, HERD_SIZE
from ..rules.words import N_plural, ngettext
from . import ActionForm
from .fields import IntegerField

BONUS_VALUES = sorted({value for pile in BONUS_TOKENS.values() for value in pile})
SELL_RANGE = N_plural("Sell 1 to %(num)d card.", "Sell 1 to %(num)d cards.")
PREVIEW = "preview"
CONFIRM = "confirm"


class SaleForm(ActionForm):
    """Who sells which good and how many cards; in "enter" mode, the bonus token's value.

    The page shows the tokens a sale would take before it is recorded:
    ``previewed`` holds the choice that preview was for, and a sale is
    recorded only when it is confirmed with the same choice.
    """

    player = IntegerField(_l("Seller"), validators=[InputRequired(_l("Choose who sells.")),
                                                    AnyOf([0, 1], message=_l("Choose one of the two players."))])
    good = StringField(_l("Good"), validators=[InputRequired(_l("Choose the good sold.")),
                                               AnyOf(GOODS, message=_l("Choose one of the six goods."))])
    cards = IntegerField(_l("Cards sold"), validators=[
        InputRequired(_l("Choose how many cards are sold.")),
        NumberRange(min=1, max=HAND_LIMIT, message=LazyString(ngettext, *SELL_RANGE, HAND_LIMIT)),
    ])
    bonus = IntegerField(_l("Bonus token"), validators=[
        Optional(), AnyOf(BONUS_VALUES, message=_l("Choose the value printed on the bonus token.")),
    ])
    previewed = HiddenField(validators=[Optional(), Length(max=40)])
    step = StringField(validators=[Optional(), AnyOf([PREVIEW, CONFIRM])])

    # Filled in by the view for the page: what may be chosen, and the preview.
    card_options: tuple[int, ...] = ()
    bonus_options: tuple[int, ...] = ()
    preview = None
    note: str | None = None

    def choice(self) -> str:
        """The choice the preview was made for ("0:diamonds:3"), compared on confirming."""
        return ":".join("" if field.data is None else str(field.data)
                        for field in (self.player, self.good, self.cards))

    def event(self, bonus_mode: str = "enter") -> dict:
        """The sale entry. In "draw" mode the app draws the bonus token: a value sent is left out, so a
        phone can neither choose its token nor probe the pile with refusals ("no 3 left")."""
        event = {"type": "sale", "player": self.player.data, "good": self.good.data, "cards": self.cards.data}
        if self.bonus.data is not None and bonus_mode == "enter":
            event["bonus"] = self.bonus.data
        return event


class EndRoundForm(ActionForm):
    """The players say the market cannot be refilled: the round ends."""


class CamelsForm(ActionForm):
    """Both herds counted at the end of a round."""

    camels_0 = IntegerField(_l("Camels"), validators=[
        InputRequired(_l("Count this player's camels (0 if none).")),
        NumberRange(min=0, max=CAMEL_CARDS, message=LazyString(ngettext, *HERD_SIZE, CAMEL_CARDS)),
    ])
    camels_1 = IntegerField(_l("Camels"), validators=[
        InputRequired(_l("Count this player's camels (0 if none).")),
        NumberRange(min=0, max=CAMEL_CARDS, message=LazyString(ngettext, *HERD_SIZE, CAMEL_CARDS)),
    ])

    def event(self) -> dict:
        """The camels entry."""
        return {"type": "camels", "counts": [self.camels_0.data, self.camels_1.data]}


class NextRoundForm(ActionForm):
    """Start the next round with a full token bank."""
