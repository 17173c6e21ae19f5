"""Recording: an entry appended under the table's write lock, once, and only if the rules allow it.

Every write to a table's log goes through ``_append``: the lock gives entries one definite order, the
form's key makes a re-sent form a no-op, and a move equal to one recorded since the form was shown is
refused with that entry's sentence ("recorded once"). Entries are only ever added: an undo is a
``void`` entry naming the entry it takes back; a finished session is reopened and closed by entries too.
"""

from __future__ import annotations

from typing import Any, Callable

import sqlalchemy as sa

from ..database import write_turn
from ..extensions import db
from ..models import REMOVED, Entry, Table, now
from ..rules import RuleError, declared
from ..rules.words import _
from . import kinds, signals, wording
from .kinds import CLOSE, REOPEN, TABLE_EVENTS, VOID, is_game_entry
from .log import entries_of, game_of, voided_seqs
from .state import Snapshot, cache, fold, state_of


def _lock(table: Table) -> int:
    """Take the table's write lock and the next entry number (refused if the session went to the bin meanwhile).

    The UPDATE is the first write of the transaction: PostgreSQL locks the row, SQLite takes its write lock, and
    concurrent writers queue behind it until commit, so entries get one definite order. One statement: each one
    more made while the lock is held is one more wait for every other writer."""
    if (seq := db.session.execute(sa.update(Table).where(Table.id == table.id, Table.status != REMOVED).values(
            last_seq=Table.last_seq + 1).returning(Table.last_seq)).scalar_one_or_none()) is None:
        raise RuleError(_("This session was removed from the history: nothing was recorded."))
    return seq


def _existing(table: Table, key: str | None) -> Entry | None:
    return db.session.scalar(sa.select(Entry).where(Entry.table_id == table.id, Entry.key == key)) if key else None


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
    keys = declared(game, "MOVE_KEYS").get(sent.get("type"))
    keys = sent.keys() if keys is None else keys
    return all(recorded.get(name) == sent.get(name) for name in keys)


def _refuse_if_recorded(table: Table, seen: int | None, seq: int, device: str,
                        is_same: Callable[[Entry], bool]) -> None:
    """For entry ``seq`` (``_append``): refuse a move already recorded after entry ``seen``, the one the form was shown at.

    Only entries the phone could not have seen count, and only live ones: a
    move taken back may be entered again.
    """
    if seen is None or seen >= seq - 1:
        return
    later = entries_of(table, after=seen, upto=seq - 1)
    voided = voided_seqs(later)
    for entry in reversed(later):
        if entry.seq not in voided and is_same(entry):
            raise AlreadyRecorded(entry, device, wording.sentence(table, entry))


def _refuse_if_changed(table: Table, seen: int | None, seq: int, changed: str | None) -> None:
    """For entry ``seq`` (``_append``): refuse with ``changed`` when the game changed after entry ``seen``.

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


def _append(table: Table, key: str | None, make: Callable[[int], tuple[Entry, Any]], *, ahead: bool = True) -> Entry:
    """Under the table's write lock, add the entry that ``make(seq)`` builds.

    ``make`` raises RuleError to refuse (nothing is written) or returns the entry with the game's
    state after it, from which the table's status follows (``None``: ``make`` set the status
    itself). A key already used returns the entry first recorded with it.

    ``make`` runs before the lock, at the next entry number as the table was read, and what it
    gave is kept if that number is still next under the lock: SQLite has one write lock for the
    whole database (its writers take turns: ``companion.database.write_turn``), and the rules and
    sentences worked out holding it would hold up every table's entry. Another entry came first:
    ``make`` runs again, under the lock. ``ahead`` False: a ``make`` that changes the table itself
    runs under the lock only.
    """
    if (existing := _existing(table, key)) is not None:
        return existing  # a form sent again once its entry is in: nothing to lock
    expected = table.last_seq + 1 if ahead else None
    try:
        prepared: tuple[Entry, Any] | RuleError | None = make(expected) if ahead else None
    except RuleError as refusal:
        prepared = refusal
    with write_turn():
        try:
            seq = _lock(table)
            if seq != expected:
                entry, state = make(seq)
            elif isinstance(prepared, RuleError):
                raise prepared
            else:
                entry, state = prepared
            db.session.add(entry)
            if state is not None:
                finished = game_of(table).finished(state) and not _held_open(table, entry)
                table.status = "finished" if finished else "playing"
                table.finished_at = (table.finished_at or now()) if finished else None
            # The commit expires these: read again, a connection and 2 queries.
            table_id, seq, players = table.id, entry.seq, tuple(table.players)
            db.session.commit()
        except sa.exc.IntegrityError:
            # The same form, sent twice at once: the other one's entry is in (its key is unique at the table).
            db.session.rollback()
            if (existing := _existing(table, key)) is None:
                raise
            return existing
        except BaseException:
            db.session.rollback()
            raise
    signals.announce_table_changed(table_id)
    if state is not None:
        cache.put(table_id, Snapshot(seq, state))
    for language, sentence in getattr(entry, "worded", {}).items():
        cache.put_words(table_id, players, language, {seq: sentence})
    return entry


def _refuse_if_finished(table: Table, undoing: bool = False) -> None:
    """Finished sessions are read-only until reopened."""
    if table.finished and undoing:
        raise RuleError(_("This game is finished; reopen it to undo an entry."), "entry")
    if table.finished:
        raise RuleError(_("This game is finished; reopen it to record more."))


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
        worded = wording.in_every_language(lambda: game.describe(before, completed))
        entry = Entry(table_id=table.id, seq=seq, type=completed["type"], event=completed,
                      summary=wording.summary_of(worded)[:500], device=device, key=key)
        entry.worded = worded
        return entry, after

    return _append(table, key, make)


def record_table_event(table: Table, event: dict, summarise: Callable[[int], str], *,
                       device: str = "", key: str | None = None, seen: int | None = None) -> Entry:
    """Append an entry about the table itself (one of ``kinds.TABLE_EVENTS``), never folded through the game.

    ``summarise(seq)`` runs for entry ``seq`` as ``_append`` runs ``make``: it checks the entry still
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
        summary = wording.in_english(lambda: summarise(seq))
        entry = Entry(table_id=table.id, seq=seq, type=event["type"], event=event,
                      summary=summary[:500], device=device, key=key)
        return entry, state_of(table, upto=seq - 1)

    return _append(table, key, make)


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
        state = fold(table, entries, voided | {target}, sentence=lambda later: wording.kept_sentence(table, later))
        summary = wording.in_english(lambda: kinds.undid(target, chosen.summary))
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
                     summary=kinds.REOPENED, device=device, key=key), None

    return _append(table, key, make, ahead=False)


def close(table: Table, *, device: str = "", key: str | None = None) -> Entry:
    """Declare a reopened table finished again, when its game is over."""
    def make(seq: int) -> tuple[Entry, None]:
        if table.finished:
            raise RuleError(_("This session is already finished."))
        if not game_of(table).finished(state_of(table, upto=seq - 1)):
            raise RuleError(_("The game is not over yet: finish it at the table first."))
        table.status, table.finished_at = "finished", now()
        return Entry(table_id=table.id, seq=seq, type=CLOSE, event={"type": CLOSE},
                     summary=kinds.CLOSED, device=device, key=key), None

    return _append(table, key, make, ahead=False)
