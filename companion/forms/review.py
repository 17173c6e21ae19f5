"""The session review's forms: the history filters, the import upload, reopening a session."""

from __future__ import annotations

from datetime import datetime

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import DateField, SelectField, StringField
from wtforms.validators import DataRequired, InputRequired, Length, Optional, ValidationError

from ..inputs import bounds
from ..rules.words import _, ngettext
from ..models import SEASON_NAME_LENGTH
from . import NAME_LENGTH, ActionForm, clean_name
from .fields import IntegerField

OUT_OF_RANGE = _l("Pick a date between %(first)d and %(last)d.", first=bounds.FIRST_DAY.year,
                  last=bounds.LAST_DAY.year)


class DayField(DateField):
    """A date typed or picked as year-month-day, with a sentence a person understands when it is not one."""

    def process_formdata(self, valuelist: list[str]) -> None:
        if not valuelist or not valuelist[0].strip():
            self.data = None
            return
        try:
            self.data = datetime.strptime(valuelist[0].strip(), "%Y-%m-%d").date()
        except ValueError:
            self.data = None
            raise ValueError(_("Enter a date as year-month-day, like 2025-03-14.")) from None

    def _value(self) -> str:
        # A date input holds a day or nothing: what could not be read is said next to it, not put back in it.
        return self.data.isoformat() if self.data else ""


class HistoryFilterForm(FlaskForm):
    """Narrow the history down: a game, a player, a date range (all optional; sent by GET)."""

    class Meta:
        csrf = False  # a search, changing nothing

    game = SelectField(_l("Game"), choices=[("", _l("All games"))], default="")
    player = StringField(_l("Player"), filters=[clean_name], validators=[Optional(), Length(max=NAME_LENGTH)])
    # Translators: the first day of the history's date filter.
    since = DayField(_l("From"), validators=[Optional()])
    # Translators: the last day of the history's date filter.
    until = DayField(_l("To"), validators=[Optional()])
    status = SelectField(_l("Status"), default="", choices=[
        ("", _l("Any")), ("active", _l("All but abandoned")), ("finished", _l("Finished")),
        ("playing", _l("Still playing")), ("abandoned", _l("Abandoned"))])

    def __init__(self, *args, games: list[tuple[str, str]] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.game.choices = [("", _("All games")), *games]

    def validate_since(self, field: DayField) -> None:
        if field.data and not bounds.day_in_range(field.data):
            raise ValidationError(OUT_OF_RANGE)

    def validate_until(self, field: DayField) -> None:
        if field.data and not bounds.day_in_range(field.data):
            raise ValidationError(OUT_OF_RANGE)
        if field.data and self.since.data and field.data < self.since.data:
            raise ValidationError(_("The end date comes before the start date."))


class ImportForm(FlaskForm):
    """A session file exported from this app (or another install of it)."""

    file = FileField(_l("Session file (.json)"), validators=[FileRequired(_l("Choose the .json file of a session."))])


class RemoveForm(FlaskForm):
    """Take a session out of the history, for good (asked on a page of its own)."""


class ReopenForm(ActionForm):
    """Reopen a finished session to correct it."""


class CloseForm(ActionForm):
    """Mark a reopened session finished again."""


class StandingsForm(FlaskForm):
    """Which standings to show: a season (or all time) and a game (or all); sent by GET."""

    class Meta:
        csrf = False  # a choice of what to read, changing nothing

    season = SelectField(_l("Season"), default="")
    game = SelectField(_l("Game"), default="")

    def __init__(self, *args, seasons: list[tuple[str, str]] = (), games: list[tuple[str, str]] = (),
                 **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.season.choices = list(seasons)
        self.game.choices = [("", _("All games")), *games]


class SeasonForm(FlaskForm):
    """A season the group starts: its name and its first day (a keeper's)."""

    name = StringField(_l("The season's name"), filters=[clean_name], validators=[
        DataRequired(_l("Give the season a name.")), Length(max=SEASON_NAME_LENGTH)])
    # Translators: the first day of a season a group starts.
    # InputRequired, not DataRequired: a day typed that cannot be read keeps its own sentence.
    starts_on = DayField(_l("First day"), validators=[InputRequired(_l("Pick the season's first day."))])

    def validate_starts_on(self, field: DayField) -> None:
        if field.data and not bounds.day_in_range(field.data):
            raise ValidationError(OUT_OF_RANGE)


class ReplayForm(FlaskForm):
    """Which step of a table's replay to show: the entry it stands after (0: the start); sent by GET."""

    class Meta:
        csrf = False  # a step to look at, changing nothing

    # Translators: the field of a replay's "go to" form: the number of the entry to show the table after.
    at = IntegerField(_l("Entry"), validators=[Optional()])

    def __init__(self, *args, last: int = 0, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.last = last

    def validate_at(self, field: IntegerField) -> None:
        if field.data is not None and not 0 <= field.data <= self.last:
            raise ValidationError(ngettext("Pick an entry from 0 (the start) to %(num)d.",
                                           "Pick an entry from 0 (the start) to %(num)d.", self.last))
