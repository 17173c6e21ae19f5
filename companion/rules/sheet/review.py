"""A score sheet's session review: a row per round (or per category), standings, the best entry, how it was scored.

By rounds, each round is a period ("Round 3", who dealt); by categories, each counted row is one, labelled with
its name as the table typed it. The tie-break row is counted in no period: it has a highlight of its own.
"""

from __future__ import annotations

from companion.rules import sheet as game
from companion.rules.review import Highlight, Period, Review, Stat, first_placed, names, running
from companion.rules.words import N_, _, ngettext

# Worded where shown: ``_(PERIOD_NAME)``. A sheet by categories names its periods ``CATEGORY`` (``period_name``).
PERIOD_NAME = N_("Round")
# What the players' pages say of this game's figures (``Review.stats``), worded where shown.
FIGURES_NOTE = N_("Score sheets: the average points of finished games, each game by the name its tables gave it.")
CATEGORY = N_("Category")
SHOWN = 3  # places named for the best entry; the others are counted

# Points summed over sessions mean something whichever way the game is won; "Best points" would not when the
# lowest total wins, so a player's record counts the average. The games won are the players page's own column.
STATS = (Stat(N_("Average points"), "score", "average"),)


def period_name(state: game.SheetState) -> str:
    """ "Round" by rounds, "Category" by categories (an English source word, worded where shown)."""
    return PERIOD_NAME if game.by_rounds(state) else CATEGORY


def period_number(state: game.SheetState) -> int | None:
    """The round an entry belongs to (the state after it holds it); None by categories, entered in any order."""
    return max(1, game.rounds_played(state)) if game.by_rounds(state) else None


def periods(state: game.SheetState) -> tuple[Period, ...]:
    """By rounds: each round's points and the running totals; by categories: each counted row's, in order."""
    if game.by_rounds(state):
        gains = [tuple(entry.value for entry in entries) for entries in state.rounds]
        return tuple(
            Period(number, _("Round %(round)d", round=number), gain, totals,
                   _("%(name)s dealt", name=state.players[game.dealer_of(state, number)]))
            for number, (gain, totals) in enumerate(zip(gains, running(gains)), start=1)
        )
    counted = state.settings.rows
    gains = [tuple(row[i].value if row[i] is not None else 0 for row in state.cells) for i in range(len(counted))]
    rows = []
    for i, (name, gain, totals) in enumerate(zip(counted, gains, running(gains))):
        missing = [seat for seat, row in enumerate(state.cells) if row[i] is None]
        # Translators: the players who have not yet filled a row of the sheet: "Still to fill: Ana and Ben".
        note = _("Still to fill: %(names)s", names=names(state.players, missing)) if missing else ""
        rows.append(Period(i + 1, name, gain, totals, note, bool(missing)))
    return tuple(rows)


def best_move(state: game.SheetState) -> Highlight | None:
    """The best single move of the game, for its story: the best entry of the sheet (None before one)."""
    return _best(state) if _entered(state) else None


def _entered(state: game.SheetState) -> bool:
    return any(state.rounds) if game.by_rounds(state) else any(cell is not None for row in state.cells for cell in row)


def _best(state: game.SheetState) -> Highlight:
    """The best single entry: the highest (the lowest when the lowest total wins), and where it was made."""
    if game.by_rounds(state):
        title = _("Best round")
        found = [(entry, _round_place(state, seat, number, entry))
                 for number, entries in enumerate(state.rounds, start=1) for seat, entry in enumerate(entries)]
        nothing = _("No round has been entered yet.")
    else:
        title = _("Best category")
        rows = state.settings.rows
        # Translators: who made the best entry of the sheet, and in which row: "Ana in Science".
        found = [(cell, _("%(name)s in %(row)s", name=state.players[seat], row=rows[i]))
                 for i in range(len(rows)) for seat, row in enumerate(state.cells) if (cell := row[i]) is not None]
        nothing = _("No category has been filled yet.")
    if not found:
        return Highlight(title, nothing)
    pick = min if state.settings.lowest_wins else max
    best = pick(entry.value for entry, _place in found)
    where = [place for entry, place in found if entry.value == best]
    said = where[:SHOWN]
    if len(where) > SHOWN:
        # Translators: after the first places named for the best entry: "and 4 more".
        said.append(ngettext("and %(num)d more", "and %(num)d more", len(where) - SHOWN))
    # Translators: %(where)s is "Ana in hand 3; Ben in hand 5".
    return Highlight(title, ngettext("%(num)d point: %(where)s.", "%(num)d points: %(where)s.", best,
                                     where="; ".join(said)))


def _round_place(state: game.SheetState, seat: int, number: int, entry: game.Entry) -> str:
    name = state.players[seat]
    if entry.plain:
        # Translators: who made the best entry, and in which round: "Ana in round 3".
        return _("%(name)s in round %(round)d", name=name, round=number)
    return _("%(name)s in round %(round)d (%(sum)s)", name=name, round=number, sum=game.entry_words(entry))


def _scoring(state: game.SheetState) -> Highlight | None:
    """How the sheet was scored, when it is not simply the highest total at the end."""
    chosen = state.settings
    parts = []
    if chosen.lowest_wins:
        parts.append(_("Lowest total wins."))
    if chosen.target is not None:
        parts.append(_("The game ends with the round in which a total reaches %(target)d.", target=chosen.target))
    if chosen.rounds is not None:
        parts.append(ngettext("The game lasts %(num)d round.", "The game lasts %(num)d rounds.", chosen.rounds))
    return Highlight(_("Scoring"), " ".join(parts)) if parts else None


def _teams(state: game.SheetState) -> Highlight | None:
    if not state.settings.teams:
        return None
    totals = game.side_totals(state)
    text = "; ".join(_("%(who)s %(total)d", who=game.side_names(state, side), total=total)
                     for side, total in enumerate(totals))
    return Highlight(_("Teams"), text + ".")


def _tie_break(state: game.SheetState) -> Highlight | None:
    row = state.settings.tie_break
    if game.by_rounds(state) or row is None:
        return None
    # Translators: the title of the tie-break row's line: "Tie-break: Coins".
    title = _("Tie-break: %(row)s", row=row)
    filled = [(seat, cells[-1]) for seat, cells in enumerate(state.cells) if cells[-1] is not None]
    if not filled:
        return Highlight(title, _("Nobody has filled it yet."))
    values = ", ".join(_("%(name)s %(entry)s", name=state.players[seat], entry=game.entry_words(cell))
                       for seat, cell in filled)
    # Translators: %(values)s is every player's tie-break row: "Ana 5, Ben 3".
    return Highlight(title, _("%(values)s. Not counted in the total: on equal totals, the most wins.", values=values))


def highlights(state: game.SheetState) -> tuple[Highlight, ...]:
    """The best round or category, how the sheet is scored, the teams, the tie-break row, how the game ended."""
    lines = [_best(state), _scoring(state), _teams(state), _tie_break(state)]
    ended = game.end_reason(state)
    if ended:
        lines.append(Highlight(_("How the game ended"), ended))
    return tuple(line for line in lines if line is not None)


def record(state: game.SheetState) -> tuple[dict[str, int], ...]:
    """What the session adds to each player's record: their own total, as the sheet's total row says it (never
    their team's: the players page says each player's figures, and a game may be played with teams or not)."""
    return tuple({"score": total} for total in game.totals(state))


def review(state: game.SheetState) -> Review:
    """The whole review: standings (by the tie-break row on equal totals), one row per period, highlights."""
    standings = game.standings(state)
    return Review(
        period_name=period_name(state),
        score_name=N_("Points"),
        chart_name=N_("Points"),
        standings=standings,
        winners=first_placed(standings),
        periods=periods(state),
        highlights=highlights(state),
        record=record(state),
        stats=STATS,
        sides=game.sides(state) if state.settings.teams else (),
        lowest_wins=state.settings.lowest_wins,
    )
