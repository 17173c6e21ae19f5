"""Forms: the shape of what a phone may send. Meaning is checked by the rules."""

from __future__ import annotations

import re
import secrets
from contextlib import contextmanager

from flask import g
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import FieldList, HiddenField, RadioField, SelectField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional, Regexp, ValidationError

from ..inputs import names
from ..inputs.names import CONTROL, NAME_LENGTH  # noqa: F401  (the forms' too)
from ..i18n import LANGUAGES, wtforms_messages
from ..rules.words import _, ngettext
from ..web import markers
from .fields import IntegerField



def new_key() -> str:
    """A fresh idempotency key for one rendering of a form (in a shared region, filled in per answer)."""
    return markers.per_answer("key") or secrets.token_hex(16)


def fresh_key(_: str | None) -> str:
    """The marker ``key`` in a kept rendering: a fresh idempotency key in each answer."""
    return secrets.token_hex(16)


@contextmanager
def fresh_forms():
    """Forms built inside are blank, even while answering a post.

    Flask-WTF fills every form from the posted data: a form rendered in an
    htmx answer would otherwise carry the key of the entry just recorded,
    and the next tap on it would be taken for a re-send and dropped.
    """
    g.fresh_forms = True
    try:
        yield
    finally:
        g.fresh_forms = False


class ActionForm(FlaskForm):
    """Base of every form that records an entry: carries its idempotency key and the version it saw."""

    class Meta:
        def wrap_formdata(self, form, formdata):
            if g.get("fresh_forms"):
                return None
            return super().wrap_formdata(form, formdata)

        def get_translations(self, form):
            # WTForms' messages in the reader's language, the catalog loaded once per process.
            return wtforms_messages()

    key = HiddenField(default=new_key, validators=[InputRequired(), Regexp(r"^[0-9a-f]{32}$")])
    seen = IntegerField(widget=HiddenField.widget, validators=[Optional(), NumberRange(min=0, max=10**9)])


name_key = names.key
clean_name = names.clean


# A player's name field as posted: "players-0", "players-12".
PLAYER_FIELD = re.compile(r"players-[0-9]+")


class NewTableForm(FlaskForm):
    """Players in seating order and the options every game has."""

    players = FieldList(StringField(_l("Player"), filters=[clean_name], validators=[Length(max=NAME_LENGTH)]),
                        min_entries=7, max_entries=7)
    starter = SelectField(_l("Who starts"), choices=[("random", _l("Chosen at random"))], default="random")
    # Jaipur's table setting (its rules' SETTINGS): who draws the bonus tokens.
    bonus = RadioField(_l("Bonus tokens"), default="draw", choices=[
        ("draw", _l("The app draws them (no bonus tokens on the table)")),
        ("enter", _l("We take the real tokens and enter their values")),
    ])

    def __init__(self, *args, min_players: int = 2, max_players: int = 7, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.min_players = min_players
        self.max_players = max_players
        while len(self.players.entries) > max_players:
            self.players.pop_entry()
        self.starter.choices = [(value, label) for value, label, _field in self.starter_options()]

    def process(self, formdata=None, obj=None, data=None, extra_filters=None, **kwargs) -> None:
        formdata = self.meta.wrap_formdata(self, formdata)
        # Every name posted, kept or not: the fields hold as many players as the game takes, and a name sent in
        # a field beyond them (a 13th player) is refused with the others, never dropped.
        self.posted_names = {key: clean_name(formdata.get(key)) for key in formdata or ()
                             if PLAYER_FIELD.fullmatch(key)}
        super().process(formdata, obj, data, extra_filters, **kwargs)

    def validate_players(self, field: FieldList) -> None:
        names = self.names()
        kept = {entry.name for entry in field.entries}
        beyond = [name for key, name in self.posted_names.items() if key not in kept and name]
        for name in names + beyond:
            if CONTROL.search(name):
                raise ValidationError(_("Names cannot contain control characters."))
        if len(names) < self.min_players:
            raise ValidationError(ngettext("Enter at least %(num)d player.", "Enter at least %(num)d players.",
                                           self.min_players))
        if len(names) > self.max_players or beyond:
            raise ValidationError(ngettext("At most %(num)d player can play.", "At most %(num)d players can play.",
                                           self.max_players))
        # Two names that the statistics would take for one player are one name at the table too.
        folded = [name_key(name) for name in names]
        duplicates = sorted({name for name, low in zip(names, folded) if folded.count(low) > 1})
        if duplicates:
            # Translators: %(names)s is a name, or names separated by commas.
            raise ValidationError(_("Each player needs a different name: %(names)s is there twice.",
                                    names=", ".join(duplicates)))

    def validate_starter(self, field: SelectField) -> None:
        # Anything not offered is already refused as "Not a valid choice"; only a field left empty is left.
        if field.data.isdecimal() and not self._typed(int(field.data)):
            raise ValidationError(_("Pick one of the players entered above, or random."))

    def names(self) -> list[str]:
        """The non-empty names, in seating order."""
        return [name for name in (entry.data for entry in self.players.entries) if name]

    def starter_options(self) -> list[tuple[str, str, int | None]]:
        """The "who starts" list: (value, label, name field) — a field's name once typed, else its own label
        ("Player 3"). Its value is the name field's number, so "Player 3" is whoever was typed there."""
        return [("random", _("Chosen at random"), None)] + [
            (str(field), self._typed(field) or _("Player %(number)d", number=field + 1), field)
            for field in range(self.max_players)]

    def starter_seat(self) -> int | None:
        """The chosen starter's seat among the names (empty fields take no seat), or None: chosen at random."""
        if self.starter.data == "random":
            return None
        return sum(1 for field in range(int(self.starter.data)) if self._typed(field))

    def _typed(self, field: int) -> str | None:
        entries = self.players.entries
        return entries[field].data or None if field < len(entries) else None


class JoinForm(FlaskForm):
    """A join code typed on the home page."""

    code = StringField(_l("Join code"), filters=[lambda s: (s or "").strip().upper().replace(" ", "")],
                       validators=[InputRequired(_l("Type the 6-character code shown on the table page.")),
                                   Length(min=6, max=6, message=_l("A join code has 6 characters."))])


class UndoForm(ActionForm):
    """Take back one entry (normally the last)."""

    entry = IntegerField(widget=HiddenField.widget, validators=[InputRequired(), NumberRange(min=1, max=10**9)])


class InviteForm(ActionForm):
    """Put the table's invitation (join code and QR) away for everyone."""


class SeatForm(FlaskForm):
    """Which player holds this phone (or nobody: a watching phone)."""

    seat = SelectField(_l("I am"), choices=[], validate_choice=True)
    # Sent by "Yes, this phone too": the seat already has a phone, and this one takes it as well.
    also = HiddenField(validators=[Optional(), Length(max=1)])


class LanguageForm(FlaskForm):
    """The language switch: one of the app's languages, and the page to go back to."""

    lang = SelectField(choices=list(LANGUAGES.items()), validators=[InputRequired()])
    next = HiddenField(validators=[Optional(), Length(max=2000)])
