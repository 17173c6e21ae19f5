"""A table replayed: the game as it stood after each entry of its log, derived by the rules, never stored.

Step 0 is the table as it began; step N is the table right after entry N, as it stood then: an entry counts from
the moment it was recorded until an undo takes it back (``table.state.as_it_stood``). What a step shows of the
game is its board, rendered for the reader as the table page renders it (a seat's secrets to that seat's phone
alone). The steps of a table are read once per version of it and kept, a few tables at a time: stepping through a
long game costs one board a step, never a fold of the log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..models import Entry, Table
from ..table import log
from ..table.state import as_it_stood
from ..table.view import detached
from ..table.kinds import VOID
from .keeping import kept

# How many tables' steps a process keeps: those being replayed now (a long game's are a few hundred states).
REPLAYS_KEPT = 16
# The entries a step lists, the newest first: those just before it, as the table page lists its newest.
SHOWN = 6


@dataclass(frozen=True)
class Steps:
    """Every step of a table: its entries in order, the state after each (``states[0]``: the start), and for each
    undone entry the undo that took it back."""

    entries: tuple[Entry, ...]
    states: tuple[Any, ...]
    undone_by: dict[int, int]

    @property
    def last(self) -> int:
        return len(self.entries)

    def entry(self, at: int) -> Entry | None:
        """The entry step ``at`` stands after (None at the start)."""
        return self.entries[at - 1] if at else None

    def shown(self, at: int) -> list[tuple[Entry, bool]]:
        """The newest entries up to step ``at``, newest first, each with whether it was undone by then."""
        return [(entry, self.undone_by.get(entry.seq, at + 1) <= at)
                for entry in reversed(self.entries[max(0, at - SHOWN):at])]

    @property
    def newest_undo(self) -> int:
        """The number of the table's newest undo (0 before any): what its entries' words are kept under."""
        return max(self.undone_by.values(), default=0)

    def undone_later(self, at: int) -> int | None:
        """The entry that will undo step ``at``'s entry, if one does."""
        entry = self.entry(at)
        return None if entry is None else self.undone_by.get(entry.seq)


def steps_of(table: Table) -> Steps:
    """The table's steps at its version, kept."""
    key = (table.id, table.token, table.last_seq, table.status, tuple(table.players))
    return kept("replay_steps", REPLAYS_KEPT).get_or_make(key, lambda: _read(table))


def _read(table: Table) -> Steps:
    game = log.game_of(table)
    rows = detached(log.entries_of(table))
    start = game.new_game(table.players, table.options or {})
    states = [start] + [state for _row, state in as_it_stood(game, table.players, table.options or {}, rows)]
    undone_by = {row.event.get("entry"): row.seq for row in rows if row.type == VOID}
    return Steps(tuple(rows), tuple(states), undone_by)
