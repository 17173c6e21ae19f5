"""A score sheet's state, and what the pages read from it: totals, teams, ranks, whose deal, how the game ended.

A *side* is who a total belongs to: a team, or a player alone when the table plays without teams. Scores,
ranks and the target go by sides; each player's own points stay on the sheet too.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.review import Standing, names
from companion.rules.sheet.options import CATEGORIES, MOST_ROUNDS, ROUNDS, Settings
from companion.rules.sheet.sums import Entry, entry_words
from companion.rules.words import _, ngettext


@dataclass(frozen=True)
class SheetState:
    """The whole sheet: who sits where, the settings, every round or every cell, and whether it was ended."""

    players: tuple[str, ...]
    settings: Settings
    rounds: tuple[tuple[Entry, ...], ...] = ()  # rounds mode: each round's entries, one per seat
    cells: tuple[tuple[Entry | None, ...], ...] = ()  # categories mode: per seat, per row (None: not filled)
    ended: bool = False  # an ``end`` entry stopped the game


def settings(state: SheetState) -> Settings:
    """The table's settings: name, mode, rows, tie-break row, lowest_wins, rounds, target, teams, bgg_id."""
    return state.settings


def by_rounds(state: SheetState) -> bool:
    return state.settings.mode == ROUNDS


def cell_rows(state: SheetState) -> tuple[str, ...]:
    """The rows each player fills, in order: the counted ones, then the tie-break row (categories)."""
    return state.settings.cell_rows if state.settings.mode == CATEGORIES else ()


def totals(state: SheetState) -> tuple[int, ...]:
    """Each player's own total: their rounds, or their counted rows (never the tie-break row)."""
    if by_rounds(state):
        return tuple(sum(r[seat].value for r in state.rounds) for seat in range(len(state.players)))
    counted = len(state.settings.rows)
    return tuple(sum(cell.value for cell in row[:counted] if cell is not None) for row in state.cells)


def sides(state: SheetState) -> tuple[tuple[int, ...], ...]:
    """Who counts together: each team's seats in team order, or each player alone."""
    teams = state.settings.teams
    if not teams:
        return tuple((seat,) for seat in range(len(state.players)))
    return tuple(tuple(s for s, t in enumerate(teams) if t == team) for team in range(state.settings.team_count))


def side_of(state: SheetState, seat: int) -> int:
    """The side (team number, or the seat itself without teams) a seat counts for."""
    return state.settings.teams[seat] if state.settings.teams else seat


def side_totals(state: SheetState) -> tuple[int, ...]:
    """Each side's total: a team's is the sum of its players' points."""
    own = totals(state)
    return tuple(sum(own[seat] for seat in side) for side in sides(state))


def team_totals(state: SheetState) -> tuple[int, ...]:
    """Each team's total, in team order (() without teams)."""
    return side_totals(state) if state.settings.teams else ()


def team_members(state: SheetState, team: int) -> tuple[int, ...]:
    """The seats of a team."""
    return tuple(seat for seat, t in enumerate(state.settings.teams) if t == team)


def side_names(state: SheetState, side: int) -> str:
    """A side's players by name: "Ana", "Ana and Ben", "Ana, Ben and Cy"."""
    return names(state.players, sides(state)[side])


def scores(state: SheetState) -> list[int]:
    """Per seat, what it ranks by: its side's total, so team mates share a rank."""
    totals_ = side_totals(state)
    return [totals_[side_of(state, seat)] for seat in range(len(state.players))]


def tie_breaks(state: SheetState) -> list[int]:
    """Per seat, its side's tie-break row (a team's added up); 0 where the sheet has none or it is not filled."""
    if state.settings.mode != CATEGORIES or state.settings.tie_break is None:
        return [0] * len(state.players)
    own = [row[-1].value if row[-1] is not None else 0 for row in state.cells]
    per_side = [sum(own[seat] for seat in side) for side in sides(state)]
    return [per_side[side_of(state, seat)] for seat in range(len(state.players))]


def standings(state: SheetState) -> tuple[Standing, ...]:
    """Places by score, higher first (lower first when the lowest total wins).

    On equal scores the tie-break row decides, more being better whichever way the scores go ("most coins"
    breaks the tie); still equal, the rank is shared (1, 1, 3).
    """
    score, coins = scores(state), tie_breaks(state)
    way = -1 if state.settings.lowest_wins else 1
    keys = [(way * s, c) for s, c in zip(score, coins)]
    order = sorted(range(len(score)), key=lambda seat: (-keys[seat][0], -keys[seat][1], seat))
    return tuple(Standing(1 + sum(other > keys[seat] for other in keys), seat, score[seat]) for seat in order)


def winners(state: SheetState) -> tuple[int, ...]:
    """The seats placed first (the leaders while the game goes on), in seating order."""
    return tuple(sorted(s.seat for s in standings(state) if s.rank == 1))


def running_totals(state: SheetState) -> tuple[tuple[int, ...], ...]:
    """Each player's own total after each round (rounds mode)."""
    rows: list[tuple[int, ...]] = []
    for entries in state.rounds:
        before = rows[-1] if rows else (0,) * len(state.players)
        rows.append(tuple(total + entry.value for total, entry in zip(before, entries)))
    return tuple(rows)


def round_words(state: SheetState) -> tuple[tuple[str, ...], ...]:
    """Each round's entries as shown, per seat: "12+7-3 = 16", "-5", "0"."""
    return tuple(tuple(entry_words(entry) for entry in entries) for entries in state.rounds)


def cell_words(state: SheetState) -> tuple[tuple[str, ...], ...]:
    """Per seat, each row's entry as shown ("3+4 = 7", "5"), "" where not filled (the tie-break row last)."""
    return tuple(tuple(entry_words(cell) for cell in row) for row in state.cells)


def empty_cells(state: SheetState) -> tuple[tuple[int, ...], ...]:
    """Per seat, the rows still to fill (indexes into ``cell_rows``)."""
    return tuple(tuple(i for i, cell in enumerate(row) if cell is None) for row in state.cells)


def cells_left(state: SheetState) -> int:
    """How many values of the sheet are still to fill in (categories)."""
    return sum(len(rows) for rows in empty_cells(state))


def next_to_fill(state: SheetState) -> int:
    """The first player, in seating order, with a row still empty (the first player once all are filled)."""
    return next((seat for seat, rows in enumerate(empty_cells(state)) if rows), 0)


def rounds_played(state: SheetState) -> int:
    return len(state.rounds)


def round_limit(state: SheetState) -> int:
    """The round after which the game ends: the table's number of rounds, or the sheet's most."""
    return state.settings.rounds or MOST_ROUNDS


def reached(state: SheetState) -> tuple[int, ...]:
    """The sides whose total has reached the target (none without a target)."""
    target = state.settings.target
    if target is None:
        return ()
    return tuple(side for side, total in enumerate(side_totals(state)) if total >= target)


def finished(state: SheetState) -> bool:
    """Ended by hand; by rounds: the last round played or the target reached; by categories: every cell filled."""
    if state.ended:
        return True
    if by_rounds(state):
        return rounds_played(state) >= round_limit(state) or bool(reached(state))
    return not any(empty_cells(state))


def next_round(state: SheetState) -> int | None:
    """The number of the round to enter next (None by categories and once the game is over)."""
    return rounds_played(state) + 1 if by_rounds(state) and not finished(state) else None


def dealer(state: SheetState) -> int | None:
    """Who deals the next round: the first dealer, then each seat in turn (None by categories or once over)."""
    if next_round(state) is None:
        return None
    return (state.settings.first_player + rounds_played(state)) % len(state.players)


def dealer_of(state: SheetState, number: int) -> int:
    """Who dealt round ``number`` (1-based)."""
    return (state.settings.first_player + number - 1) % len(state.players)


def end_reason(state: SheetState) -> str | None:
    """Why the game is over, for the banner; None while it goes on."""
    if not finished(state):
        return None
    if state.ended:
        if by_rounds(state):
            return _("The game was ended after round %(round)d.", round=rounds_played(state))
        return _("The game was ended before every row was filled.")
    if not by_rounds(state):
        return _("Every row is filled: the game is over.")
    sides_over = reached(state)
    if len(sides_over) == 1:
        side = sides_over[0]
        # Translators: a player (or a team: "Ana and Ben") and the total that ended the game: "Ben reached 104".
        return _("%(who)s reached %(total)d: the game is over.", who=side_names(state, side),
                 total=side_totals(state)[side])
    if sides_over:
        # Translators: a player (or a team) and their total: "Ben 104" (several are joined with "; ").
        each = "; ".join(_("%(who)s %(total)d", who=side_names(state, side), total=side_totals(state)[side])
                         for side in sides_over)
        # Translators: %(totals)s is "Ben 104; Dan 101".
        return _("%(totals)s: the target of %(target)d is reached, the game is over.", totals=each,
                 target=state.settings.target)
    if state.settings.rounds is not None:
        return ngettext("The game is over: its %(num)d round has been played.",
                        "The game is over: all %(num)d rounds have been played.", rounds_played(state))
    return ngettext("The game is over: a sheet holds at most %(num)d round.",
                    "The game is over: a sheet holds at most %(num)d rounds.", MOST_ROUNDS)
