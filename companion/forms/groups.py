"""The groups' forms: start, name, remove (its name typed), join by code; a person renamed or forgotten."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField
from wtforms.validators import DataRequired, Length, ValidationError

from ..inputs.names import CONTROL
from ..models import GROUP_NAME_LENGTH
from ..rules.words import _
from . import NAME_LENGTH, clean_name


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
    """Join the group of an invitation link (the link's page asks before the phone joins)."""


class RenamePersonForm(FlaskForm):
    """Rename a person across the group's sessions."""

    name = StringField(_l("New name"), filters=[clean_name], validators=[
        DataRequired(_l("Enter the new name.")), Length(max=NAME_LENGTH), _no_control])


class ForgetPersonForm(FlaskForm):
    """Forget a person: their name becomes "Player 3" at every session of the group, their scores kept."""
