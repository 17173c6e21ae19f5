"""The bell's forms: ring to open (with how it closes) and ring to close."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import RadioField, SelectField
from wtforms.validators import InputRequired, ValidationError

from ..table.bell_plan import MINUTES
from ..rules.words import N_, _
from . import ActionForm

MINUTE_CHOICES = [(minutes, str(minutes)) for minutes in MINUTES]
MINUTES_SENTENCE = N_("Choose a number of minutes from the list, 1 to 10.")


class MinutesField(SelectField):
    """1 to 10 minutes, explained in words when a phone sends anything else."""

    def __init__(self, label: str | None = None, validators=None, **kwargs) -> None:
        kwargs.setdefault("coerce", int)
        kwargs.setdefault("choices", MINUTE_CHOICES)
        super().__init__(label, validators, **kwargs)

    def process_formdata(self, valuelist) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(_(MINUTES_SENTENCE)) from None

    def pre_validate(self, form) -> None:
        if self.data not in MINUTES:
            raise ValidationError(_(MINUTES_SENTENCE))


class ModeField(RadioField):
    """How the bell closes, explained in words when a phone sends anything else."""

    def pre_validate(self, form) -> None:
        if self.data not in {value for value, _ in self.choices}:
            raise ValidationError(_("Choose how the bell closes: by hand, after a fixed time, or at a hidden moment."))


class BellForm(ActionForm):
    """The bell's fields are named bell-…, apart from any game form on the same page."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("prefix", "bell")
        super().__init__(*args, **kwargs)


class BellOpenForm(BellForm):
    """Ding-a-Ding: open the market (or start the table timer), closing by hand, after a time, or hidden."""

    mode = ModeField(_l("Closes"), default="hand", validators=[InputRequired(_l("Choose how the bell closes."))],
                     choices=[
                         ("hand", _l("When the bell rings again")),
                         ("fixed", _l("After a fixed time")),
                         ("hidden", _l("At a hidden moment")),
                     ])
    minutes = MinutesField(_l("Fixed (min)"), default=3)
    low = MinutesField(_l("Hidden from (min)"), default=1)
    # Translators: the end of the hidden moment's range, after "Hidden from (min)".
    high = MinutesField(_l("to (min)"), default=3)


class BellCloseForm(BellForm):
    """Ding-a-Ding: close the market (or stop the table timer)."""
