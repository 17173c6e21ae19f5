"""Each entry of a session in the reader's words, worded when shown: the stored summary is only the fallback.

A game entry is worded by its game from the state before it (as when it was recorded); an entry
about the table by the words of the table; an undo names what it took back, as worded just before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType

from .. import entries, table_words
from ..rules import RuleError
from ..rules.words import _


def entry_words(game: ModuleType, players: Sequence[str], entry, before, worded: Mapping[int, str]) -> str:
    """The entry in the reader's language; ``before`` is the game's state before it, ``worded`` the earlier entries."""
    try:
        if entry.type == entries.VOID:
            target = entry.event["entry"]
            # Translators: an undo in the list of entries; %(entry)s is the sentence of the entry taken back.
            return _("Undid entry %(number)d: %(entry)s", number=target, entry=worded[target])
        if entry.type == entries.REOPEN:
            return _(entries.REOPENED)
        if entry.type == entries.CLOSE:
            return _(entries.CLOSED)
        if entry.type in entries.TABLE_EVENTS:
            return table_words.sentence(entry.event, players)
        return game.describe(before, entry.event)
    except (RuleError, KeyError, IndexError, TypeError, ValueError, AttributeError):
        return entry.summary
