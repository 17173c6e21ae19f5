"""Each entry in the reader's language: the history, the latest entries, the undo and "already recorded" sentences.

An entry keeps its summary in English, written when it was recorded; a phone reads it worded anew in its
own language, from the entry where it stands now (``state.walk``): a live entry from the live entries
before it, so that an older entry undone changes what the later ones say as it changes the scores (a
score sheet's round 3 is its round 2 once round 2 is undone, in its sentence as on the sheet); an undone
entry as it was recorded. So an entry's sentence depends on the entries before it and on the undos since:
it is worded once per language and kept with the table's state (``state.cache``), under the table's
newest undo. A new entry is worded in every language when it is recorded; after a restart or an undo, the
first phone of a language to need an older entry words the whole log once. What is kept holds its numbers
as markers, written as each reader's locale writes them when the sentence is shown (a de-CH phone's
1'080, a German one's 1.080: ``companion.i18n.formats``). An export words its summaries anew where an
undo changed them (``summaries``).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable

from ..i18n import LANGUAGES, language
from ..i18n.formats import force_language, numbers_for_each_reader, readers_numbers
from ..models import Entry, Table
from ..rules import RuleError
from . import kinds
from .log import entries_of, game_of, newest_undo
from .state import cache, walk


def in_every_language(word: Callable[[], str]) -> dict[str, str]:
    """``word()`` in each language the app speaks: the sentence of a new entry, for every phone of each
    language, its numbers left for each reader to write (``summary_of`` gives its English summary)."""
    worded = {}
    with numbers_for_each_reader():
        for each in LANGUAGES:
            with force_language(each):
                worded[each] = word()
    return worded


def in_english(word: Callable[[], str]) -> str:
    """``word()`` in English: the summary kept with an entry is written in the app's source language."""
    with force_language("en"):
        return word()


def summary_of(worded: dict[str, str]) -> str:
    """The English summary kept with an entry, from its sentences in every language (``in_every_language``)."""
    return in_english(lambda: readers_numbers(worded["en"]))


def _word_log(table: Table, rows: list[Entry] | None = None) -> dict[int, str]:
    """Every game entry's sentence in the current language, from where it stands in the log (``state.walk``)."""
    game = game_of(table)
    rows = entries_of(table) if rows is None else rows
    words: dict[int, str] = {}
    for row, before, after in walk(game, table.players, table.options, rows):
        words[row.seq] = game.describe(before, row.event) if after is not None else row.summary
    return words


def sentences(table: Table, rows: Iterable[Entry], past: int | None = None) -> dict[int, str]:
    """The sentences of ``rows`` in the reader's language, by entry number.

    ``past``: the table's newest undo (``log.newest_undo``), if the caller has read it already.
    """
    rows = list(rows)
    reader = language()
    needed = {row.seq for row in rows if kinds.is_game_entry(row)}
    needed |= {row.event.get("entry") for row in rows if row.type == kinds.VOID}
    past = newest_undo(table) if past is None else past
    # Only the sentences asked for: a page shows a few of a long log's.
    known = cache.words(table.id, tuple(table.players), reader, needed, past)
    if not needed <= known.keys():
        with numbers_for_each_reader():
            worded = _word_log(table)
        cache.put_words(table.id, tuple(table.players), reader, worded, past)
        known.update(worded)
    return {row.seq: readers_numbers(_sentence(table, row, known)) for row in rows}


def _sentence(table: Table, row: Entry, known: dict[int, str]) -> str:
    if kinds.is_game_entry(row):
        return known.get(row.seq, row.summary)
    if row.type == kinds.VOID:
        target = row.event.get("entry")
        return kinds.undid(target, known[target]) if target in known else row.summary
    try:
        return kinds.sentence(row.event, table.players)
    except (RuleError, IndexError):
        return row.summary


def sentence(table: Table, row: Entry) -> str:
    """The sentence of one entry in the reader's language."""
    return sentences(table, [row])[row.seq]


def kept_sentence(table: Table, row: Entry) -> str:
    """The entry's sentence in the reader's language if it was worded already, else its kept summary (no reads)."""
    kept = cache.words(table.id, tuple(table.players), language(), (row.seq,))
    return readers_numbers(kept.get(row.seq, row.summary))


def as_recorded(table: Table, logged: list[Entry]) -> dict[int, str]:
    """The sentence of every entry of the whole log ``logged`` in the current language as it was recorded: each from
    the state the table was in then (an undo counted from where it came), with the names the table has now. What
    an entry keeps as its summary (a player renamed writes it again: ``renaming``), as an import replays it."""
    game = game_of(table)
    state = game.new_game(table.players, table.options)
    live: list[Entry] = []
    voided: set[int] = set()
    known: dict[int, str] = {}
    for row in logged:
        if row.type == kinds.VOID:
            # An undo changes what the later entries were recorded on: what is left of the past, replayed.
            voided.add(row.event.get("entry"))
            state = game.new_game(table.players, table.options)
            for earlier in live:
                if earlier.seq not in voided:
                    state = game.apply(state, earlier.event)
        elif kinds.is_game_entry(row):
            try:
                known[row.seq] = game.describe(state, row.event)
                state = game.apply(state, row.event)
            except RuleError:
                known[row.seq] = row.summary
            live.append(row)
    return {row.seq: _sentence(table, row, known) for row in logged}


def summaries(table: Table, logged: list[Entry]) -> dict[int, str]:
    """The English sentence of every entry of the whole log ``logged``, as it reads now (a session file's
    ``summary``): the summary kept with it, or, once an undo has changed what a later entry says, each worded
    anew from where it stands."""
    if not _undo_changed_the_past(logged):
        return {row.seq: row.summary for row in logged}

    def word() -> dict[int, str]:
        known = _word_log(table, logged)
        return {row.seq: _sentence(table, row, known) for row in logged}

    return in_english(word)


def _undo_changed_the_past(logged: list[Entry]) -> bool:
    """Whether an undo took back an entry with a game entry recorded after it: that one now stands elsewhere."""
    games = [row.seq for row in logged if kinds.is_game_entry(row)]  # in order
    for row in logged:
        target = row.event.get("entry") if row.type == kinds.VOID else None
        if isinstance(target, int) and (after := bisect.bisect_right(games, target)) < len(games) \
                and games[after] < row.seq:
            return True
    return False
