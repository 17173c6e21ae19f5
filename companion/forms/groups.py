"""The groups' forms: start, name, remove (its name typed), join by code; a person renamed or forgotten."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField
from wtforms.validators import DataRequired, Length, NumberRange, Optional, ValidationError

from ..i18n import wtforms_messages
from ..inputs.names import CONTROL
from ..models import GROUP_NAME_LENGTH, MEMBER_NAME_LENGTH
from ..rules.words import _
from . import NAME_LENGTH, clean_name
from .fields import IntegerField


def _no_control(_form, field) -> None:
    if field.data and CONTROL.search(field.data):
        raise ValidationError(_("A name cannot hold control characters."))


class GroupNameForm(FlaskForm):
    """A group's name: when it is started, and to rename it."""

    name = StringField(_l("The group's name"), filters=[clean_name], validators=[
        DataRequired(_l("Give the group a name.")), Length(max=GROUP_NAME_LENGTH), _no_control])


class RemoveGroupForm(FlaskForm):
    """Remove the group with all its sessions: asked twice, its name typed the second time."""

    name = StringField(_l("Type the group's name"), filters=[clean_name], validators=[Length(max=GROUP_NAME_LENGTH)])
    step = HiddenField(default="1")


class LeaveGroupForm(FlaskForm):
    """Leave a group on this phone."""


class SwitchGroupForm(FlaskForm):
    """Look at another of this phone's groups."""


class JoinGroupForm(FlaskForm):
    """Join the group of an invitation link (the link's page asks before the phone joins), saying whose phone it is."""

    name = StringField(_l("Whose phone is this? (the group sees it in its list)"), filters=[clean_name],
                       validators=[Length(max=MEMBER_NAME_LENGTH), _no_control])


class PhoneNameForm(FlaskForm):
    """A phone's name in the group ("Ana's phone"); empty gives it back its number."""

    name = StringField(_l("This phone's name in the group"), filters=[clean_name],
                       validators=[Length(max=MEMBER_NAME_LENGTH), _no_control])


# The longest a keeper may say "not seen for": ten years.
UNSEEN_DAYS_MOST = 3650


class NewInvitationForm(FlaskForm):
    """Put the group's link and code away and make new ones; the phones not seen for so many days taken out too."""

    class Meta:
        def get_translations(self, form):
            return wtforms_messages()  # "Not a valid integer value." in the reader's language

    unseen_days = IntegerField(_l("Also take out the phones not seen for this many days (leave empty to keep them)"),
                               validators=[Optional(), NumberRange(1, UNSEEN_DAYS_MOST, _l(
                                   "Say a number of days from 1 to 3650, or leave it empty."))])


class KeeperForm(FlaskForm):
    """A keeper's action on one phone or session (taken out, made a keeper, restored): a tap, checked by its token."""


class RenamePersonForm(FlaskForm):
    """Rename a person across the group's sessions."""

    name = StringField(_l("New name"), filters=[clean_name], validators=[
        DataRequired(_l("Enter the new name.")), Length(max=NAME_LENGTH), _no_control])


class ForgetPersonForm(FlaskForm):
    """Forget a person: their name becomes "Player 3" at every session of the group, their scores kept."""
