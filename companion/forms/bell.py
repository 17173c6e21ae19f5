"""The bell's forms: ring to open (with how it closes) and ring to close."""

from __future__ import annotations

from wtforms import RadioField, SelectField
from wtforms.validators import InputRequired

from ..bell import MINUTES
from . import ActionForm

MINUTE_CHOICES = [(minutes, f"{minutes} min") for minutes in MINUTES]


class BellForm(ActionForm):
    """The bell's fields are named bell-…, apart from any game form on the same page."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("prefix", "bell")
        super().__init__(*args, **kwargs)


class BellOpenForm(BellForm):
    """Ding-a-Ding: open the market (or start the table timer), closing by hand, after a time, or hidden."""

    mode = RadioField("Closes", default="hand", validators=[InputRequired("Choose how the bell closes.")], choices=[
        ("hand", "When the bell rings again"),
        ("fixed", "After a fixed time"),
        ("hidden", "At a hidden moment"),
    ])
    minutes = SelectField("Fixed time", coerce=int, choices=MINUTE_CHOICES, default=3)
    low = SelectField("Not before", coerce=int, choices=MINUTE_CHOICES, default=1)
    high = SelectField("Not after", coerce=int, choices=MINUTE_CHOICES, default=3)


class BellCloseForm(BellForm):
    """Ding-a-Ding: close the market (or stop the table timer)."""
