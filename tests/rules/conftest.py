"""The rules' own tests: the rules alone, worded in their English sources with plain numbers."""

from __future__ import annotations

import gettext

import pytest

from companion.rules import words


@pytest.fixture(autouse=True)
def plain_words():
    """Whatever app an earlier test created (it points ``words`` at its catalogs and Babel), the rules read as they
    do without one: the English message ids, numbers as digits."""
    kept = words._catalog, words._number
    words.use(gettext.NullTranslations)
    yield
    words.use(*kept)
