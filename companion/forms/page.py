"""A table page's forms: the game's fresh action forms for a phone's seat, each built when first read."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import partial

from flask import current_app

from ..models import Table
from ..table.view import table_view
from . import fresh_forms


def later(form_class, /, **data) -> partial:
    """A fresh form that a game's ``table_forms`` leaves to be built when a template first reads it.

    For the forms of the parts every seat shares (``companion.live.parts``): once a part is kept, a
    seat's rendering reads it from there, and building its form again would be wasted.
    """
    return partial(form_class, formdata=None, **data)


class PageForms(Mapping):
    """A phone's forms by name; one left for later (a ``functools.partial``, as ``later`` gives) is built,
    blank, the first time it is read."""

    def __init__(self, forms: Mapping):
        self._forms = dict(forms)

    def __getitem__(self, name: str):
        form = self._forms[name]
        if isinstance(form, partial):
            with fresh_forms():
                form = self._forms[name] = form()
        return form

    def __iter__(self) -> Iterator[str]:
        return iter(self._forms)

    def __len__(self) -> int:
        return len(self._forms)

    def update(self, forms: Mapping) -> None:
        """Put the forms an answer was given (refused, previewed) in place of the fresh ones."""
        self._forms.update(forms)


def game_forms(table: Table, seat: int | None) -> PageForms:
    """The game's fresh action forms by name (``companion.views.GAME_FORMS``), for the phone in ``seat``."""
    make: Callable | None = current_app.extensions["game_forms"].get(table.game)
    if make is None:
        return PageForms({})
    with fresh_forms():
        return PageForms(make(table, table_view(table).state, seat))
