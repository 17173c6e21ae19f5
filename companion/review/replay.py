"""A session file's entry log replayed in memory, entry by entry, with the checks the live app makes."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..table import kinds, wording
from ..models import Entry, Table
from ..rules import GAMES, RuleError
from ..rules.words import _

IMPORT_DEVICE = "import"
# Entries replayed again because of undos, over the whole file: an undo of the newest entry costs
# nothing, an undo of entry 10 of 10,000 costs 9,990.
REPLAY_BUDGET = 50_000


class Replay:
    """The entry log rebuilt in memory, entry by entry, with the checks ``companion.table.recording`` makes.

    Each live game entry is kept with the state before it, so an undo replays only the entries
    after the one it takes back (an undo of the last entry costs nothing), never the whole log:
    an import costs the length of its file, and a file that undoes far back again and again is
    refused once it has asked for REPLAY_BUDGET steps of replaying.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.game = GAMES[table.game]
        self.state = self.game.new_game(table.players, table.options)
        self.logged: list[Entry] = []
        self.live: list[tuple[Entry, Any]] = []  # live game entries, each with the state before it
        self.voided: set[int] = set()
        self.finished = False  # the table's status
        self.held_open = False  # reopened, and no game entry or close since
        self.replayed = 0
        self.seats_with_phone: set[int] = set()
        self.invite_closed = False
        self.timer_running = False

    def _status(self) -> None:
        self.finished = self.game.finished(self.state) and not self.held_open

    def add(self, seq: int, kind: str, event: dict, moment: datetime) -> None:
        """Check the entry against the log so far and add it; its sentence is kept in English, as the live
        app keeps it (readers see it worded anew in their language), and a refusal is in the reader's."""
        if kind == kinds.VOID:
            text = self._void(event)
        elif kind == kinds.REOPEN:
            if not self.finished:
                raise RuleError(_("the session is not finished, so it cannot be reopened."))
            self.held_open, self.finished, text = True, False, kinds.REOPENED
        elif kind == kinds.CLOSE:
            if self.finished or not self.game.finished(self.state):
                raise RuleError(_("only a reopened session whose game is over can be marked finished again."))
            self.held_open, self.finished, text = False, True, kinds.CLOSED
        elif kind == kinds.RENAMED:
            # A name changed after the fact (a person renamed or forgotten): at any point, finished or not.
            kinds.seat_of(event, self.table.players)
            text = wording.in_english(lambda: kinds.sentence(event, self.table.players))
        elif kind in kinds.TABLE_EVENTS:
            if self.finished:
                raise RuleError(_("the game is finished at this point; it must be reopened first."))
            self._check_table_entry(kind, event)
            text = wording.in_english(lambda: kinds.sentence(event, self.table.players))
            self._status()
        else:
            if self.finished:
                raise RuleError(_("the game is finished at this point; it must be reopened first."))
            before = self.state
            self.state = self.game.apply(before, event)
            text = wording.in_english(lambda: self.game.describe(before, event))
            self.held_open = False
            self._status()
        entry = Entry(seq=seq, type=kind, event=event, summary=text[:500], created_at=moment, device=IMPORT_DEVICE)
        if kinds.is_game_entry(entry):
            self.live.append((entry, before))
        self.logged.append(entry)

    def _check_table_entry(self, kind: str, event: dict) -> None:
        """What the live app refuses of an entry about the table, refused here too."""
        if kind == kinds.SEAT_TAKEN:
            seat = kinds.seat_of(event, self.table.players)
            if seat in self.seats_with_phone:
                raise RuleError(_("%(name)s already has a phone.", name=self.table.players[seat]))
            self.seats_with_phone.add(seat)
        elif kind == kinds.SEAT_MOVED:
            seat = kinds.seat_of(event, self.table.players)
            if seat not in self.seats_with_phone:
                raise RuleError(_("%(name)s has no phone to move the seat from.", name=self.table.players[seat]))
        elif kind == kinds.INVITE_CLOSED:
            if self.invite_closed:
                raise RuleError(_("the invitation is already put away."))
            self.invite_closed = True
        elif kind in (kinds.TIMER_STARTED, kinds.TIMER_STOPPED):
            starting = kind == kinds.TIMER_STARTED
            if starting == self.timer_running:
                raise RuleError(_("the table timer is already running.") if starting
                                else _("the table timer is not running."))
            self.timer_running = starting

    def _void(self, event: dict) -> str:
        target = event.get("entry")
        if self.finished:
            raise RuleError(_("the game is finished at this point; it must be reopened before an undo."))
        if type(target) is not int:
            raise RuleError(_("it undoes an entry that does not exist before it."))
        if target in self.voided:
            raise RuleError(_("entry %(number)d is already undone.", number=target))
        # Most undos take back the newest entry: look from the end.
        place = next((i for i in range(len(self.live) - 1, -1, -1) if self.live[i][0].seq == target), None)
        if place is None:
            raise RuleError(_("it undoes an entry that does not exist before it."))
        chosen, state = self.live[place]
        later = self.live[place + 1:]
        self.replayed += len(later)
        if self.replayed > REPLAY_BUDGET:
            raise RuleError(_("it undoes entries so far back, so often, that this file would take too long to "
                              "replay. Export the session again from the app that recorded it."))
        rebuilt = []
        for entry, _state in later:
            try:
                after = self.game.apply(state, entry.event)
            except RuleError as error:
                # Translators: %(entry)s is the entry's sentence; %(reason)s the rules' refusal.
                raise RuleError(_("Undoing that would make entry %(seq)d (%(entry)s) impossible: %(reason)s",
                                  seq=entry.seq, entry=entry.summary, reason=error.message)) from None
            rebuilt.append((entry, state))
            state = after
        self.live[place:] = rebuilt
        self.state = state
        self.voided.add(target)
        self._status()
        return wording.in_english(lambda: kinds.undid(target, chosen.summary))
