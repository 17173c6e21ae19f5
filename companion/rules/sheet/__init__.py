"""A score sheet for any game (2–12 players): points round by round, or an end-of-game sheet by categories.

The table names the game it plays (Skat, Hearts, 7 Wonders…) and chooses how the sheet counts: by rounds (each
round, each player's points; it may end after a number of rounds or once a total reaches a target) or by
categories (rows named when the table opens, each player's value per row entered in any order; an optional
tie-break row not counted in the total). Players may count together in teams. Points are typed as sums
("12+7-3"), checked and computed in ``sums``; the settings are checked in ``options``; the state and what the
pages read from it are in ``state``; what a new entry may not hold, though a recorded one does, in ``entering``.
Events are documented in ``docs/events.md (Score sheet)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from companion.rules import RuleError
from companion.rules.words import N_, _, ngettext

# Re-exported so views and tests need only this module.
from companion.rules.sheet.options import (  # noqa: F401
    CATEGORIES,
    LONGEST_NAME,
    MODES,
    MOST_BGG_ID,
    MOST_ROUNDS,
    MOST_ROWS,
    MOST_TARGET,
    MOST_TEAMS,
    ROUNDS,
    Settings,
    check_options,
)
from companion.rules.sheet.state import (  # noqa: F401
    SheetState,
    by_rounds,
    cell_rows,
    cell_words,
    cells_left,
    dealer,
    dealer_of,
    empty_cells,
    end_reason,
    finished,
    next_round,
    next_to_fill,
    reached,
    round_limit,
    round_words,
    rounds_played,
    running_totals,
    scores,
    settings,
    side_names,
    side_of,
    side_totals,
    sides,
    standings,
    team_members,
    team_totals,
    tie_breaks,
    totals,
    winners,
)
from companion.rules.sheet.sums import EMPTY, LIMIT, LONGEST, Entry, entry_words, parse  # noqa: F401
from companion.rules.sheet.entering import check_new

# How the home page offers it (worded there); a table is shown by the game it names (``title``).
NAME = N_("Any other game")
# The sheet reads the same on every phone: rendered once per version for all of them; and its whole region once
# for every seat (what reads the seat, "(you)" and whose row to fill, between its seat markers).
SHARED_BOARD = True
ONE_PASS = True
MIN_PLAYERS = 2
MAX_PLAYERS = 12
# One move entered on two phones is recorded once (docs/events.md, "Recorded once"): round 3 entered on two
# phones at the same instant is one round 3, whatever each typed; ``end`` is a step taken once. A row's cells:
# every key sent (two players may fill their own rows at the same time).
MOVE_KEYS = {"round": ("round",), "end": ()}

# The option naming who deals first, and how the new-table form asks for it.
STARTER_OPTION = "first_player"
STARTER_LABEL = N_("Deals first")

_KEYS = {"round": {"type", "round", "points"}, "cells": {"type", "seat", "cells"}, "end": {"type"}}


def title(options) -> str:
    """The game a table's sheet is for, as the table named it ("Skat"); the sheet's own name without one."""
    name = options.get("name") if isinstance(options, Mapping) else None
    return name if isinstance(name, str) and name.strip() else _(NAME)


def new_game(players, options=None, rng=None) -> SheetState:
    """A blank sheet for ``players`` with the table's ``options`` (see ``options.check_options``)."""
    names = tuple(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError(ngettext("A score sheet is for %(least)d to %(num)d player.",
                                 "A score sheet is for %(least)d to %(num)d players.", MAX_PLAYERS,
                                 least=MIN_PLAYERS), "players")
    chosen = check_options(len(names), options)
    cells = ((None,) * len(chosen.cell_rows),) * len(names) if chosen.mode == CATEGORIES else ()
    return SheetState(players=names, settings=chosen, cells=cells)


def complete(state: SheetState, event, rng=None):
    """A plain copy of ``event`` (nothing on a score sheet is left to chance), once it holds nothing a new entry may
    not: RuleError otherwise (``entering.check_new``). Only a new entry is completed; a recorded one is applied."""
    if isinstance(event, Mapping):
        check_new(state, event)
        return dict(event)
    return event


def apply(state: SheetState, event) -> SheetState:
    """The sheet after ``event``; RuleError if it cannot be entered."""
    if not isinstance(event, Mapping):
        raise RuleError(_("This entry is not readable."), "type")
    kind = event.get("type")
    handler = _EVENTS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise RuleError(_("A score sheet has no such entry."), "type")
    if finished(state):
        raise RuleError(_("The game is over: nothing more can be entered."), "type")
    for key in event:
        if key not in _KEYS[kind]:
            raise RuleError(_("This entry cannot hold %(key)s.", key=repr(key)), "type")
    return handler(state, event)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _round(state: SheetState, event: Mapping) -> SheetState:
    if not by_rounds(state):
        raise RuleError(_("This sheet counts categories: enter each player's rows."), "type")
    # ``round`` is the round the phone's form was for: two phones entering it at once record it once
    # (MOVE_KEYS). It is not the round's place: an older round undone moves every later one up a row.
    number = event.get("round")
    if not _whole(number) or not 1 <= number <= MOST_ROUNDS:
        raise RuleError(_("The next round to enter is round %(round)d.", round=rounds_played(state) + 1), "round")
    points = event.get("points")
    if isinstance(points, str | bytes) or not isinstance(points, Sequence) or len(points) != len(state.players):
        raise RuleError(ngettext("Enter a score for the %(num)d player, in seating order.",
                                 "Enter a score for each of the %(num)d players, in seating order.",
                                 len(state.players)), "points")
    entries = tuple(parse(text, f"points-{seat}", recorded=True) for seat, text in enumerate(points))
    after = replace(state, rounds=state.rounds + (entries,))
    # A total past the limit is refused on the field of a player who scored in this round.
    _check_totals(after, [f"points-{seat}" for seat in range(len(entries))],
                  [seat for seat, entry in enumerate(entries) if entry.value])
    return after


def _cells(state: SheetState, event: Mapping) -> SheetState:
    if by_rounds(state):
        raise RuleError(_("This sheet counts rounds: enter a whole round."), "type")
    seat = event.get("seat")
    if not _whole(seat) or not 0 <= seat < len(state.players):
        raise RuleError(_("Choose one of the players at the table."), "seat")
    rows = cell_rows(state)
    cells = event.get("cells")
    if isinstance(cells, str | bytes) or not isinstance(cells, Sequence) or not 1 <= len(cells) <= len(rows):
        raise RuleError(ngettext("Enter the row of %(name)s: the row and what it scores.",
                                 "Enter 1 to %(num)d rows of %(name)s: each row and what it scores.",
                                 len(rows), name=state.players[seat]), "cells")
    row_of = list(state.cells[seat])
    seen: list[int] = []
    for pair in cells:
        if isinstance(pair, str | bytes) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise RuleError(_("Each cell is a row and what it scores."), "cells")
        row, text = pair
        if not _whole(row) or not 0 <= row < len(rows):
            raise RuleError(_("Choose one of the sheet's rows."), "cells")
        if row in seen:
            raise RuleError(_("The row %(row)s is entered twice.", row=rows[row]), f"cells-{row}")
        seen.append(row)
        entry = parse(text, f"cells-{row}", recorded=True)
        row_of[row] = entry if entry.text else None  # an empty entry clears the cell
    after = replace(state, cells=state.cells[:seat] + (tuple(row_of),) + state.cells[seat + 1:])
    _check_totals(after, [f"cells-{seen[0]}"] * len(state.players), [seat])
    return after


def _end(state: SheetState, event: Mapping) -> SheetState:
    if not state.rounds and not any(cell is not None for row in state.cells for cell in row):
        raise RuleError(_("Nothing has been entered yet: there is no game to end."), "type")
    return replace(state, ended=True)


def _check_totals(after: SheetState, fields: list[str], moved: list[int]) -> None:
    """Refuse a player's or a side's total beyond ±LIMIT, on the field of a seat that moved it."""
    own, side_total = totals(after), side_totals(after)
    for seat, total in enumerate(own):
        side = side_of(after, seat)
        for who, value in ((after.players[seat], total), (side_names(after, side), side_total[side])):
            if abs(value) <= LIMIT:
                continue
            scorers = [s for s in sides(after)[side] if s in moved] or list(sides(after)[side])
            if value > 0:
                raise RuleError(_("The total of %(who)s would pass %(most)d.", who=who, most=LIMIT),
                                fields[scorers[0]])
            raise RuleError(_("The total of %(who)s would fall below −%(most)d.", who=who, most=LIMIT),
                            fields[scorers[0]])


_EVENTS = {"round": _round, "cells": _cells, "end": _end}


def describe(state: SheetState, event) -> str:
    """The entry in words, for the history (``state`` is the sheet before it)."""
    try:
        after = apply(state, event)
    except RuleError as error:
        return _("Refused entry: %(reason)s", reason=error.message)
    kind = event["type"]
    ends = end_reason(after)
    if kind == "end":
        return ends
    if kind == "round":
        # Translators: a player and their points for the round: "Ana 12+7-3 = 16".
        said = ", ".join(_("%(name)s %(entry)s", name=name, entry=entry_words(entry))
                         for name, entry in zip(after.players, after.rounds[-1]))
        if ends:
            # Translators: %(end)s says why the game is over: "Ben reached 104: the game is over."
            return _("Round %(round)d: %(scores)s. %(end)s", round=len(after.rounds), scores=said, end=ends)
        # Translators: every player's points for the round: "Round 3: Ana 12+7-3 = 16, Ben -5, Cleo 0."
        return _("Round %(round)d: %(scores)s.", round=len(after.rounds), scores=said)
    seat, rows = event["seat"], cell_rows(state)
    parts = []
    for row, _text in event["cells"]:
        cell = after.cells[seat][row]
        if cell is None:
            # Translators: a row of a player's sheet emptied again: "Military cleared".
            parts.append(_("%(row)s cleared", row=rows[row]))
        else:
            # Translators: a row of a player's sheet and what they scored in it: "Science 3+4 = 7".
            parts.append(_("%(row)s %(entry)s", row=rows[row], entry=entry_words(cell)))
    if ends:
        return _("%(name)s: %(cells)s. %(end)s", name=state.players[seat], cells=", ".join(parts), end=ends)
    # Translators: a player's rows as entered: "Ana: Military 5, Science 3+4 = 7."
    return _("%(name)s: %(cells)s.", name=state.players[seat], cells=", ".join(parts))
