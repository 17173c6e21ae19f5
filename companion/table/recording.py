"""The entry log: record, void and replay a table's entries.

The log is the truth. A table's state is the fold of its live entries
through the game's ``apply``; the newest state of each table is cached in
this process, keyed by the table's last entry number, so a request costs
the same at entry 10 and at entry 1,000. Entries are only ever added: an
undo is a ``void`` entry naming the entry it takes back.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import sqlalchemy as sa
from flask import current_app
from flask_babel import force_locale

from ..live import heads
from ..extensions import db
from ..models import Entry, Table, now
from ..i18n import LANGUAGES
from ..rules import GAMES, RuleError
from ..rules.words import N_, _

VOID = "void"
# The table timer of the bell (companion/table/bell.py), on every game's table.
TIMER_STARTED = "timer_started"
TIMER_STOPPED = "timer_stopped"
# Entries about the table rather than the game: never folded through apply.
TABLE_EVENTS = {VOID, TIMER_STARTED, TIMER_STOPPED}


@dataclass(frozen=True)
class Snapshot:
    """A table's derived state after entry ``seq``."""

    seq: int
    state: Any


class StateCache:
    """The newest snapshot of recently used tables, least recently used dropped first.

    It keeps the sentences of their entries too, per language (``companion.table.wording``): an
    entry's sentence depends only on the entries before it, so once worded it never changes.
    """

    def __init__(self) -> None:
        self._snapshots: OrderedDict[int, Snapshot] = OrderedDict()
        self._words: dict[int, dict[str, dict[int, str]]] = {}
        self._lock = threading.Lock()

    def words(self, table_id: int, language: str, seqs: Iterable[int]) -> dict[int, str]:
        """The sentences kept in ``language`` for the entries ``seqs`` of the table (those it has)."""
        with self._lock:
            kept = self._words.get(table_id, {}).get(language, {})
            return {seq: kept[seq] for seq in seqs if seq in kept}

    def put_words(self, table_id: int, language: str, words: dict[int, str]) -> None:
        """Keep more sentences of the table's entries in ``language``."""
        with self._lock:
            self._words.setdefault(table_id, {}).setdefault(language, {}).update(words)
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

# A finished session reopened on purpose to correct it, and declared finished
# again: entries about the table, kept in the log like every other.
REOPEN = "reopen"
CLOSE = "close"
TABLE_EVENTS |= {REOPEN, CLOSE}
REOPENED = N_("The session was reopened to correct it.")
CLOSED = N_("The session was marked finished again.")

# Who is at the table: a seat's first phone, and the invitation put away once everyone is in.
SEAT_TAKEN = "seat_taken"
INVITE_CLOSED = "invite_closed"
TABLE_EVENTS |= {SEAT_TAKEN, INVITE_CLOSED}


@dataclass(frozen=True)
class Seating:
    """Which seats have a phone, and whether the invitation was put away."""

    with_phone: frozenset[int]
    invite_closed: bool

    def everyone_in(self, players: int) -> bool:
        """Whether every seat has a phone."""
        return len(self.with_phone) >= players


def seating(table: Table) -> Seating:
    """The seats that have a phone and the invitation's state, from the entries about them."""
    rows = db.session.execute(sa.select(Entry.type, Entry.event).where(
        Entry.table_id == table.id, Entry.type.in_((SEAT_TAKEN, INVITE_CLOSED))))
    seats, closed = set(), False
    for kind, event in rows:
        if kind == INVITE_CLOSED:
            closed = True
        elif isinstance(event.get("seat"), int):
            seats.add(event["seat"])
    return Seating(frozenset(seats), closed)


def game_of(table: Table):
    """The rules module of the table's game."""
    return GAMES[table.game]


def entries_of(table: Table, after: int = 0, upto: int | None = None) -> list[Entry]:
    """The table's entries numbered after ``after`` (up to ``upto``), in order."""
    query = sa.select(Entry).where(Entry.table_id == table.id, Entry.seq > after).order_by(Entry.seq)
    if upto is not None:
        query = query.where(Entry.seq <= upto)
    return list(db.session.scalars(query))


def voided_seqs(entries: list[Entry]) -> set[int]:
    """Numbers of the entries taken back by a void entry."""
    return {entry.event["entry"] for entry in entries if entry.type == VOID}


def is_game_entry(entry: Entry) -> bool:
    """Whether the entry goes through the game's rules."""
    return entry.type not in TABLE_EVENTS


def fold(table: Table, entries: list[Entry], voided: set[int] | None = None):
    """The state after the live entries; RuleError names the first one the rules refuse."""
    game = game_of(table)
    voided = voided_seqs(entries) if voided is None else voided
    state = game.new_game(table.players, table.options)
    for entry in entries:
        if not is_game_entry(entry) or entry.seq in voided:
            continue
        try:
            state = game.apply(state, entry.event)
        except RuleError as error:
            from .wording import kept_sentence

            # Said to whoever asked for the undo: the later entry's secrets stay out of it.
            raise RuleError(
                # Translators: %(entry)s is the entry's sentence, %(reason)s the rules' refusal.
                _("Undoing that would make entry %(seq)d (%(entry)s) impossible: %(reason)s",
                  seq=entry.seq, entry=kept_sentence(table, entry), reason=error.public),
                "entry",
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
        # A void changes the past: only plain new entries can be applied on top.
        if all(entry.type != VOID for entry in newer):
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


def _lock(table: Table) -> int:
    """Take the table's write lock and the next entry number.

    The UPDATE is the first statement of the transaction: PostgreSQL locks the
    row, SQLite takes its write lock, and concurrent writers queue behind it
    until commit, so entries get one definite order.
    """
    db.session.execute(sa.update(Table).where(Table.id == table.id).values(last_seq=Table.last_seq + 1))
    return db.session.scalar(sa.select(Table.last_seq).where(Table.id == table.id))


def _existing(table: Table, key: str | None) -> Entry | None:
    if not key:
        return None
    return db.session.scalar(sa.select(Entry).where(Entry.table_id == table.id, Entry.key == key))


class AlreadyRecorded(RuleError):
    """The move a form sent was recorded since the form was shown: it counts once."""

    def __init__(self, entry: Entry, device: str = "", sentence: str | None = None) -> None:
        sentence = entry.summary if sentence is None else sentence
        if entry.device and entry.device == device:
            # Translators: %(entry)s is the recorded entry's sentence, e.g. "Ben scored 7".
            message = _("Already recorded from this phone: “%(entry)s” It counts once.", entry=sentence)
        else:
            # Translators: %(entry)s is the recorded entry's sentence, e.g. "Ben scored 7".
            message = _("Already recorded from another phone: “%(entry)s” It counts once.", entry=sentence)
        super().__init__(message)
        self.entry = entry


class TableChanged(RuleError):
    """Something was recorded since the form was shown, and the form asked to be refused then."""


def same_move(game, recorded: dict, sent: dict) -> bool:
    """Whether ``recorded`` is the move ``sent`` describes, entered on another phone.

    The game's ``MOVE_KEYS`` names, per event type, the keys that make a move
    (``()``: a step the game takes once, whoever entered it); any other type
    is the same move when every key the form sent has the same value in the
    entry (what ``complete`` added, a drawn bonus token, is not compared).
    """
    if recorded.get("type") != sent.get("type"):
        return False
    keys = getattr(game, "MOVE_KEYS", {}).get(sent.get("type"))
    keys = sent.keys() if keys is None else keys
    return all(recorded.get(name) == sent.get(name) for name in keys)


def _refuse_if_recorded(table: Table, seen: int | None, seq: int, device: str,
                        is_same: Callable[[Entry], bool]) -> None:
    """Under the lock: refuse a move already recorded after entry ``seen``, the one the form was shown at.

    Only entries the phone could not have seen count, and only live ones: a
    move taken back may be entered again.
    """
    if seen is None or seen >= seq - 1:
        return
    later = entries_of(table, after=seen, upto=seq - 1)
    voided = voided_seqs(later)
    for entry in reversed(later):
        if entry.seq not in voided and is_same(entry):
            from .wording import sentence

            raise AlreadyRecorded(entry, device, sentence(table, entry))


def _refuse_if_changed(table: Table, seen: int | None, seq: int, changed: str | None) -> None:
    """Under the lock: refuse with ``changed`` when the game changed after entry ``seen``.

    Only a game entry or an undo changes what a preview showed; a phone joining the
    table, the invitation put away or the table timer do not.
    """
    if not changed or seen is None or seen >= seq - 1:
        return
    if any(is_game_entry(entry) or entry.type == VOID for entry in entries_of(table, after=seen, upto=seq - 1)):
        raise TableChanged(changed)


def _stale(error: RuleError, seen: int | None, seq: int) -> RuleError:
    """Say so when the table changed between showing a form and sending it."""
    if seen is not None and seen != seq - 1:
        # Translators: %(refusal)s is the rules' sentence saying why the entry is refused.
        return RuleError(_("The table changed while you were entering this: %(refusal)s",
                           refusal=error.message), error.field)
    return error


def _held_open(table: Table, entry: Entry) -> bool:
    """Whether a reopen keeps the table editable though its game is over.

    A reopen holds until the next game entry or ``close``: undoing entries
    (or ringing the timer) after a reopen leaves the table open for more
    corrections, however the game stands.
    """
    if is_game_entry(entry):
        return False
    reopened = db.session.scalar(
        sa.select(sa.func.max(Entry.seq)).where(Entry.table_id == table.id, Entry.type == REOPEN))
    if reopened is None:
        return False
    closing = sa.or_(Entry.type == CLOSE, Entry.type.not_in(TABLE_EVENTS))
    later = db.session.scalar(sa.select(sa.func.count()).select_from(Entry).where(
        Entry.table_id == table.id, Entry.seq > reopened, closing))
    return not later


def _append(table: Table, key: str | None, make: Callable[[int], tuple[Entry, Any]]) -> Entry:
    """Under the table's write lock, add the entry that ``make(seq)`` builds.

    ``make`` raises RuleError to refuse (nothing is written) or returns the
    entry with the game's state after it, from which the table's status
    follows (``None``: ``make`` set the status itself). A key already used
    returns the entry first recorded with it.
    """
    seq = _lock(table)
    try:
        if (existing := _existing(table, key)) is not None:
            db.session.rollback()
            return existing
        entry, state = make(seq)
        db.session.add(entry)
        if state is not None:
            finished = game_of(table).finished(state) and not _held_open(table, entry)
            table.status = "finished" if finished else "playing"
            table.finished_at = (table.finished_at or now()) if finished else None
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    heads.changed(table.id)
    if state is not None:
        cache.put(table.id, Snapshot(entry.seq, state))
    for language, sentence in getattr(entry, "worded", {}).items():
        cache.put_words(table.id, language, {entry.seq: sentence})
    return entry


def _refuse_if_finished(table: Table, undoing: bool = False) -> None:
    """Finished sessions are read-only until reopened."""
    if table.finished and undoing:
        raise RuleError(_("This game is finished; reopen it to undo an entry."), "entry")
    if table.finished:
        raise RuleError(_("This game is finished; reopen it to record more."))


def in_every_language(word: Callable[[], str]) -> dict[str, str]:
    """``word()`` in each language the app speaks: the sentence of a new entry, for every phone."""
    worded = {}
    for language in LANGUAGES:
        with force_locale(language):
            worded[language] = word()
    return worded


def in_english(word: Callable[[], str]) -> str:
    """``word()`` in English: the summary kept with an entry is written in the app's source language."""
    with force_locale("en"):
        return word()


def record(table: Table, event: dict, *, device: str = "", key: str | None = None,
           seen: int | None = None, rng=None, changed: str | None = None) -> Entry:
    """Check ``event`` against the table's newest state and append it; RuleError if refused.

    ``key`` makes a re-sent form a no-op; ``seen`` is the entry number the
    form was built on: the same move recorded after it is refused
    (AlreadyRecorded), and a refusal caused by someone else's entry says so.
    ``changed``: refuse with this sentence (TableChanged) when anything at all
    was recorded after ``seen`` (a preview that must still hold when confirmed).
    """
    def make(seq: int) -> tuple[Entry, Any]:
        game = game_of(table)
        _refuse_if_recorded(table, seen, seq, device,
                            lambda entry: is_game_entry(entry) and same_move(game, entry.event, event))
        _refuse_if_changed(table, seen, seq, changed)
        _refuse_if_finished(table)
        before = state_of(table, upto=seq - 1)
        completed = game.complete(before, event, rng)
        try:
            after = game.apply(before, completed)
        except RuleError as error:
            raise _stale(error, seen, seq) from None
        worded = in_every_language(lambda: game.describe(before, completed))
        entry = Entry(table_id=table.id, seq=seq, type=completed["type"], event=completed,
                      summary=worded["en"][:500], device=device, key=key)
        entry.worded = worded
        return entry, after

    return _append(table, key, make)


def record_table_event(table: Table, event: dict, summarise: Callable[[int], str], *,
                       device: str = "", key: str | None = None, seen: int | None = None) -> Entry:
    """Append an entry about the table itself (one of TABLE_EVENTS), never folded through the game.

    ``summarise(seq)`` runs under the table lock: it checks the entry still
    makes sense (RuleError if not) and returns its sentence for the history,
    which is kept in English (and worded anew in each reader's language).
    An entry of the same type recorded after ``seen`` is this one entered twice.
    """
    if event.get("type") not in TABLE_EVENTS - {VOID}:
        raise RuleError(_("That is not an entry about the table."), "type")

    def make(seq: int) -> tuple[Entry, Any]:
        _refuse_if_recorded(table, seen, seq, device, lambda entry: entry.type == event["type"])
        _refuse_if_finished(table)
        summarise(seq)  # its refusal in the reader's language
        summary = in_english(lambda: summarise(seq))
        entry = Entry(table_id=table.id, seq=seq, type=event["type"], event=event,
                      summary=summary[:500], device=device, key=key)
        return entry, state_of(table, upto=seq - 1)

    return _append(table, key, make)


def undid(target: int, sentence: str) -> str:
    """The sentence of an undo, given the sentence of the entry it takes back."""
    # Translators: %(entry)s is the sentence of the entry taken back, e.g. "Ben scored 7".
    return _("Undid entry %(seq)d: %(entry)s", seq=target, entry=sentence)


def void(table: Table, target: int, *, device: str = "", key: str | None = None,
         seen: int | None = None) -> Entry:
    """Take back entry ``target``, replaying everything after it; RuleError if that breaks a later entry.

    An undo of the same entry recorded after ``seen`` is this one tapped on two phones (AlreadyRecorded).
    """
    def make(seq: int) -> tuple[Entry, Any]:
        _refuse_if_recorded(table, seen, seq, device,
                            lambda entry: entry.type == VOID and entry.event.get("entry") == target)
        _refuse_if_finished(table, undoing=True)
        entries = entries_of(table, upto=seq - 1)
        voided = voided_seqs(entries)
        chosen = next((e for e in entries if e.seq == target), None)
        if chosen is None or not is_game_entry(chosen):
            raise RuleError(_("There is no such entry to undo."), "entry")
        if target in voided:
            raise RuleError(_("Entry %(seq)d is already undone.", seq=target), "entry")
        state = fold(table, entries, voided | {target})
        summary = in_english(lambda: undid(target, chosen.summary))
        entry = Entry(table_id=table.id, seq=seq, type=VOID, event={"type": VOID, "entry": target},
                      summary=summary[:500], device=device, key=key)
        return entry, state

    return _append(table, key, make)


def reopen(table: Table, *, device: str = "", key: str | None = None) -> Entry:
    """Make a finished table editable again, on purpose: undo works until the game is finished again."""
    def make(seq: int) -> tuple[Entry, None]:
        if not table.finished:
            raise RuleError(_("This session is not finished: there is nothing to reopen."))
        table.status, table.finished_at = "playing", None
        return Entry(table_id=table.id, seq=seq, type=REOPEN, event={"type": REOPEN},
                     summary=REOPENED, device=device, key=key), None

    return _append(table, key, make)


def close(table: Table, *, device: str = "", key: str | None = None) -> Entry:
    """Declare a reopened table finished again, when its game is over."""
    def make(seq: int) -> tuple[Entry, None]:
        if table.finished:
            raise RuleError(_("This session is already finished."))
        if not game_of(table).finished(state_of(table, upto=seq - 1)):
            raise RuleError(_("The game is not over yet: finish it at the table first."))
        table.status, table.finished_at = "finished", now()
        return Entry(table_id=table.id, seq=seq, type=CLOSE, event={"type": CLOSE},
                     summary=CLOSED, device=device, key=key), None

    return _append(table, key, make)


def newest_entries(table: Table, count: int) -> list[Entry]:
    """The table's ``count`` newest entries, newest first.

    A void is always newer than the entry it takes back, so the voids that
    concern these entries are among them: a page that shows only the newest
    entries never needs to read the whole log.
    """
    query = sa.select(Entry).where(Entry.table_id == table.id).order_by(Entry.seq.desc()).limit(count)
    return list(db.session.scalars(query))


LAST_LIVE_WINDOW = 16


def last_live_entry(table: Table, newest: list[Entry] | None = None) -> Entry | None:
    """The newest game entry not yet undone: what "Undo last entry" takes back.

    ``newest``: the table's newest ``LAST_LIVE_WINDOW`` entries, if the caller has read them already.
    """
    window = LAST_LIVE_WINDOW
    while True:
        if newest is None:
            newest = newest_entries(table, window)
        voided = voided_seqs(newest)
        for entry in newest:
            if is_game_entry(entry) and entry.seq not in voided:
                return entry
        if len(newest) < window:
            return None
        window *= 4
        newest = None


def history(table: Table, limit: int | None = None, newest: list[Entry] | None = None) -> list[tuple[Entry, bool]]:
    """Entries newest first, each with whether it has been undone.

    ``newest``: the newest entries already read by the caller, at least ``limit`` of them (or all there are).
    """
    if newest is not None and limit is not None:
        entries = newest
    else:
        entries = newest_entries(table, limit) if limit else entries_of(table)[::-1]
    # A void is newer than what it takes back: the rows read carry every undone mark they need.
    voided = voided_seqs(entries)
    return [(entry, entry.seq in voided) for entry in entries[:limit]]
