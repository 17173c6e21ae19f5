"""The library's form: a group's whole history, as a file, brought into the group."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired


class LibraryForm(FlaskForm):
    """A history file exported from this app, from this server or another."""

    file = FileField(_l("History file (.json)"), validators=[FileRequired(_l("Choose the .json file of a history."))])
