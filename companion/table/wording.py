"""Each entry in the reader's language: the history, the latest entries, the undo and "already recorded" sentences.

An entry keeps its summary in English (exports, the review); a phone reads it worded anew in its own
language. An entry's sentence depends only on the entries before it, so it is worded once per
language and kept with the table's state (``state.cache``): a new entry is worded in every
language when it is recorded; after a restart, the first phone of a language to need an older
entry words the whole log once, replaying it as it was recorded. What is kept holds its numbers as
markers, written as each reader's locale writes them when the sentence is shown (a de-CH phone's
1'080, a German one's 1.080: ``companion.i18n.formats``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..i18n import LANGUAGES, language
from ..i18n.formats import force_language, numbers_for_each_reader, readers_numbers
from ..models import Entry, Table
from ..rules import RuleError
from . import kinds
from .log import entries_of, game_of
from .state import cache


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


def _word_log(table: Table) -> dict[int, str]:
    """Every game entry's sentence in the current language, each from the state it was recorded on."""
    game = game_of(table)
    state = game.new_game(table.players, table.options)
    live: list[Entry] = []
    voided: set[int] = set()
    words: dict[int, str] = {}
    for row in entries_of(table):
        if row.type == kinds.VOID:
            # An undo changes what later entries were recorded on: replay what is left of the past.
            voided.add(row.event.get("entry"))
            state = game.new_game(table.players, table.options)
            for earlier in live:
                if earlier.seq not in voided:
                    state = game.apply(state, earlier.event)
            continue
        if not kinds.is_game_entry(row):
            continue
        try:
            words[row.seq] = game.describe(state, row.event)
            state = game.apply(state, row.event)
        except RuleError:
            words[row.seq] = row.summary
        live.append(row)
    return words


def sentences(table: Table, rows: Iterable[Entry]) -> dict[int, str]:
    """The sentences of ``rows`` in the reader's language, by entry number."""
    rows = list(rows)
    reader = language()
    needed = {row.seq for row in rows if kinds.is_game_entry(row)}
    needed |= {row.event.get("entry") for row in rows if row.type == kinds.VOID}
    # Only the sentences asked for: a page shows a few of a long log's.
    known = cache.words(table.id, tuple(table.players), reader, needed)
    if not needed <= known.keys():
        with numbers_for_each_reader():
            worded = _word_log(table)
        cache.put_words(table.id, tuple(table.players), reader, worded)
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
