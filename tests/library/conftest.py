"""The library tests' fixture: a group's history to move."""

from __future__ import annotations

import pytest

from review.test_review_sessions import CARAMBOUILLE, FRUTTI, FRUTTI_TIE_EVENTS, JAIPUR, record_all


@pytest.fixture
def played(app):
    """The home group's history: a finished session of each game, and one of Frutti still being played."""
    tokens = [record_all(app, *session) for session in (CARAMBOUILLE, JAIPUR, FRUTTI)]
    tokens.append(record_all(app, "frutti", ["Ana", "Ben", "Cy"], {}, FRUTTI_TIE_EVENTS[:3]))
    return tokens
