"""A table's state: the fold of its live entries through the game's rules, kept per process.

The log is the truth. A table's state is the fold of its live entries through the game's ``apply``;
the newest state of each table is cached in this process, keyed by the table's last entry number, so
a request costs the same at entry 10 and at entry 1,000. The cache is an optimisation only.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from flask import current_app

from ..models import Entry, Table
from ..rules import RuleError
from ..rules.words import _
from .kinds import CHANGES_THE_PAST, VOID, is_game_entry
from .log import entries_of, game_of, voided_seqs


@dataclass(frozen=True)
class Snapshot:
    """A table's derived state after entry ``seq``."""

    seq: int
    state: Any


class StateCache:
    """The newest snapshot of recently used tables, least recently used dropped first.

    It keeps the sentences of their entries too, per language (``companion.table.wording``): an
    entry's sentence depends on the entries before it, the undos since and the players' names, so once
    worded it holds until the next undo (``past``: the table's newest undo) or until a player is renamed
    (``companion.groups.people``): they are kept with the names and the undo they were worded after.
    """

    def __init__(self) -> None:
        self._snapshots: OrderedDict[int, Snapshot] = OrderedDict()
        self._words: dict[int, tuple[tuple[str, ...], int, dict[str, dict[int, str]]]] = {}
        self._lock = threading.Lock()

    def words(self, table_id: int, players: tuple[str, ...], language: str, seqs: Iterable[int],
              past: int | None = None) -> dict[int, str]:
        """The sentences kept in ``language`` for the entries ``seqs`` of the table under these names and after
        the undo ``past`` (those it has; after any undo when ``past`` is None)."""
        with self._lock:
            named, after, kept = self._words.get(table_id, ((), 0, {}))
            kept = kept.get(language, {}) if named == players and past in (None, after) else {}
            return {seq: kept[seq] for seq in seqs if seq in kept}

    def put_words(self, table_id: int, players: tuple[str, ...], language: str, words: dict[int, str],
                  past: int | None = None) -> None:
        """Keep more sentences of the table's entries in ``language``, under these names, worded after the undo
        ``past``. None: a new entry's, worded on the table as it stands, kept beside those already kept."""
        with self._lock:
            named, after, _kept = self._words.get(table_id, ((), 0, {}))
            if past is None:
                if named != players:
                    return  # not known after which undo: worded again when asked for
            elif named != players or past != after:
                if named == players and past < after:
                    return  # a slow request: never put back the words of an older past
                self._words[table_id] = (players, past, {})
            self._words[table_id][2].setdefault(language, {}).update(words)
            limit = current_app.config["STATE_CACHE_TABLES"]
            while len(self._words) > limit:
                self._words.pop(next(iter(self._words)))

    def get(self, table_id: int) -> Snapshot | None:
        with self._lock:
            snapshot = self._snapshots.get(table_id)
            if snapshot is not None:
                self._snapshots.move_to_end(table_id)
            return snapshot

    def put(self, table_id: int, snapshot: Snapshot) -> None:
        with self._lock:
            current = self._snapshots.get(table_id)
            # Keep the newest: a slow request must not put back an older state.
            if current is None or current.seq <= snapshot.seq:
                self._snapshots[table_id] = snapshot
                self._snapshots.move_to_end(table_id)
            limit = current_app.config["STATE_CACHE_TABLES"]
            while len(self._snapshots) > limit:
                self._snapshots.popitem(last=False)
            if table_id in self._words:
                # Most recently used last, as the snapshots.
                self._words[table_id] = self._words.pop(table_id)

    def forget(self, table_id: int) -> None:
        with self._lock:
            self._snapshots.pop(table_id, None)
            self._words.pop(table_id, None)

    def clear(self) -> None:
        with self._lock:
            self._snapshots.clear()
            self._words.clear()


cache = StateCache()


class Blocked(RuleError):
    """An undo refused because a later entry would become impossible: ``blocking`` is that entry's number."""

    def __init__(self, message: str, blocking: int) -> None:
        super().__init__(message, "entry")
        self.blocking = blocking


def fold(table: Table, entries: list[Entry], voided: set[int] | None = None,
         sentence: Callable[[Entry], str] = lambda entry: entry.summary):
    """The state after the live entries; RuleError names the first one the rules refuse.

    ``sentence(entry)`` says that entry in the refusal (the undo that would break it is refused with it).
    """
    game = game_of(table)
    voided = voided_seqs(entries) if voided is None else voided
    state = game.new_game(table.players, table.options)
    for entry in entries:
        if not is_game_entry(entry) or entry.seq in voided:
            continue
        try:
            state = game.apply(state, entry.event)
        except RuleError as error:
            # Said to whoever asked for the undo: the later entry's secrets stay out of it.
            raise Blocked(
                # Translators: %(entry)s is the entry's sentence, %(reason)s the rules' refusal.
                _("Undoing that would make entry %(seq)d (%(entry)s) impossible: %(reason)s",
                  seq=entry.seq, entry=sentence(entry), reason=error.public),
                entry.seq,
            ) from None
    return state


def state_of(table: Table, upto: int | None = None):
    """The table's state after entry ``upto`` (default: its newest), from cache where possible."""
    upto = table.last_seq if upto is None else upto
    snapshot = cache.get(table.id)
    if snapshot is not None and snapshot.seq == upto:
        return snapshot.state
    if snapshot is not None and snapshot.seq < upto:
        newer = entries_of(table, after=snapshot.seq, upto=upto)
        # A void changes the past, a new name the players: only plain new entries can be applied on top.
        if all(entry.type not in CHANGES_THE_PAST for entry in newer):
            state = snapshot.state
            game = game_of(table)
            for entry in newer:
                if is_game_entry(entry):
                    state = game.apply(state, entry.event)
            cache.put(table.id, Snapshot(upto, state))
            return state
    state = fold(table, entries_of(table, upto=upto))
    cache.put(table.id, Snapshot(upto, state))
    return state


class _Count:
    """A whole log counted row by row as the table did: each game entry on the state the live entries before it make,
    an undo taking its entry back and counting the entries after it again."""

    def __init__(self, game, players: Sequence[str], options: dict | None) -> None:
        self.game = game
        self.counted: list[list] = []  # [entry, state before it, state after it]: the game entries counted so far
        self.state = game.new_game(players, options)
        self.taken_back: dict[int, list] = {}

    def take(self, row: Entry) -> None:
        if row.type == VOID:
            # Most undos take back the newest entry: look from the end, and replay only what came after it.
            target = row.event.get("entry")
            counted = self.counted
            place = next((i for i in range(len(counted) - 1, -1, -1) if counted[i][0].seq == target), None)
            if place is None:
                return
            self.taken_back[target] = counted[place]
            later, self.state = counted[place + 1:], counted[place][1]
            del counted[place:]
            for entry, _before, _after in later:
                self._count(entry)
        elif is_game_entry(row):
            self._count(row)

    def _count(self, entry: Entry) -> None:
        """Count ``entry`` on the state: the state after it (the state itself when the rules refuse it there)."""
        try:
            after = self.game.apply(self.state, entry.event)
        except RuleError:
            after = None
        self.counted.append([entry, self.state, after])
        if after is not None:
            self.state = after


def walk(game, players: Sequence[str], options: dict | None, rows: Sequence[Entry]) -> Iterator[tuple[Entry, Any, Any]]:
    """Each game entry of a whole log (``rows``, in order) with the state it stands on and the state after it.

    A live entry stands where the live entries put it, every undo counted: an older entry undone changes what
    the later ones are as it changes the scores (a score sheet's round 3 is its round 2 once round 2 is undone),
    on every page that says them. An undone entry stands where it stood when it was taken back. The state after
    an entry the rules refuse where it stands (a game's rules changed since) is None.
    """
    count = _Count(game, players, options)
    for row in rows:
        count.take(row)
    live = {entry.seq: (before, after) for entry, before, after in count.counted}
    for row in rows:
        if is_game_entry(row):
            placed = live.get(row.seq) or count.taken_back.get(row.seq, (row, count.state, None))[1:]
            yield row, *placed


def as_it_stood(game, players: Sequence[str], options: dict | None, rows: Sequence[Entry]) -> Iterator[tuple[Entry, Any]]:
    """Each row of a whole log with the game's state right after it, as the table stood then: an entry counts
    from the moment it was recorded until an undo takes it back (the replay's steps)."""
    count = _Count(game, players, options)
    for row in rows:
        count.take(row)
        yield row, count.state
