"""A score sheet's settings, chosen when the table opens: the game's name, rounds or categories, how it ends, teams.

``check_options`` reads the options the new-table form sends (a mapping of JSON values) and gives them back as
one immutable ``Settings``, or refuses the first wrong one with ``RuleError.field`` naming it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from companion.rules import RuleError
from companion.rules.words import _, ngettext

ROUNDS, CATEGORIES = "rounds", "categories"
MODES = (ROUNDS, CATEGORIES)
LONGEST_NAME = 40  # characters of the game's name, a row's or the tie-break row's
MOST_ROWS = 30
MOST_ROUNDS = 200  # a sheet by rounds ends after this many, whatever its settings
MOST_TARGET = 1_000_000
MOST_TEAMS = 4
MOST_BGG_ID = 10_000_000
KEYS = ("first_player", "name", "mode", "rows", "tie_break", "lowest_wins", "rounds", "target", "teams", "bgg_id")


@dataclass(frozen=True)
class Settings:
    """A table's settings as checked: what the sheet counts, how it ends and who plays together."""

    name: str  # the game played, as the table named it: "Skat", "7 Wonders"
    mode: str = ROUNDS
    first_player: int = 0  # deals the first round
    rows: tuple[str, ...] = ()  # categories: the rows counted in the total, in order
    tie_break: str | None = None  # categories: a row not counted, that breaks an equal total ("Coins")
    lowest_wins: bool = False
    rounds: int | None = None  # rounds: the game ends after this many
    target: int | None = None  # rounds: the game ends once a total reaches this
    teams: tuple[int, ...] = ()  # each seat's team (0-based), or () when everyone plays alone
    bgg_id: int | None = None  # the game on BoardGameGeek

    @property
    def cell_rows(self) -> tuple[str, ...]:
        """Every row a player fills: the counted rows, then the tie-break row when there is one."""
        return self.rows + ((self.tie_break,) if self.tie_break is not None else ())

    @property
    def team_count(self) -> int:
        return max(self.teams) + 1 if self.teams else 0


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _list(value: object) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def check_name(value: object, field: str, missing: str) -> str:
    """A name typed at the table: 1 to 40 characters once its outer spaces are left out, none of them unseen."""
    if not isinstance(value, str) or not value.strip():
        raise RuleError(missing, field)
    name = value.strip()
    if len(name) > LONGEST_NAME:
        raise RuleError(ngettext("A name holds at most %(num)d character: “%(name)s” has %(given)d.",
                                 "A name holds at most %(num)d characters: “%(name)s” has %(given)d.",
                                 LONGEST_NAME, name=name, given=len(name)), field)
    # A line break or another control character would break the sheet's layout and the CSV files.
    if any(unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") for char in name):
        raise RuleError(_("“%(name)s” holds a character that cannot be shown.", name=name), field)
    return name


def check_options(players: int, options: object) -> Settings:
    """The settings for ``players`` seats; RuleError on the first option that is wrong or out of place."""
    options = {} if options is None else options
    if not isinstance(options, Mapping):
        raise RuleError(_("The table's settings are not readable."), "options")
    for key in options:
        if key not in KEYS:
            raise RuleError(_("A score sheet has no setting %(setting)s.", setting=repr(key)), "options")
    first = options.get("first_player", 0)
    if not _whole(first) or not 0 <= first < players:
        raise RuleError(_("The first player must be one of the players at the table."), "first_player")
    name = check_name(options.get("name"), "name", _("Name the game played on this sheet."))
    mode = options.get("mode", ROUNDS)
    if mode not in MODES:
        raise RuleError(_("A sheet counts rounds or categories."), "mode")
    lowest = options.get("lowest_wins", False)
    if not isinstance(lowest, bool):
        raise RuleError(_("Say whether the lowest total wins: yes or no."), "lowest_wins")
    settings = Settings(name=name, mode=mode, first_player=first, lowest_wins=lowest,
                        teams=_teams(options.get("teams"), players), bgg_id=_bgg_id(options.get("bgg_id")))
    if mode == ROUNDS:
        return _by_rounds(settings, options)
    return _by_categories(settings, options)


def _by_rounds(settings: Settings, options: Mapping) -> Settings:
    for key in ("rows", "tie_break"):
        if options.get(key) is not None:
            raise RuleError(_("Rows are for a sheet by categories."), key)
    rounds, target = options.get("rounds"), options.get("target")
    if rounds is not None and (not _whole(rounds) or not 1 <= rounds <= MOST_ROUNDS):
        raise RuleError(ngettext("A game on a sheet lasts 1 to %(num)d round.", "A game on a sheet lasts 1 to "
                                 "%(num)d rounds.", MOST_ROUNDS), "rounds")
    if target is not None and (not _whole(target) or not 1 <= target <= MOST_TARGET):
        raise RuleError(ngettext("The target is 1 to %(num)d point.", "The target is 1 to %(num)d points.",
                                 MOST_TARGET), "target")
    return replace(settings, rounds=rounds, target=target)


def _by_categories(settings: Settings, options: Mapping) -> Settings:
    for key in ("rounds", "target"):
        if options.get(key) is not None:
            raise RuleError(_("A sheet by categories ends when every row is filled."), key)
    rows = options.get("rows")
    if not _list(rows) or not 1 <= len(rows) <= MOST_ROWS:
        raise RuleError(ngettext("Name the sheet's rows: 1 to %(num)d row.",
                                 "Name the sheet's rows: 1 to %(num)d rows.", MOST_ROWS), "rows")
    names: list[str] = []
    for row in rows:
        name = check_name(row, "rows", _("Every row needs a name."))
        if name.casefold() in (other.casefold() for other in names):
            raise RuleError(_("Two rows are named “%(row)s”.", row=name), "rows")
        names.append(name)
    tie_break = options.get("tie_break")
    if tie_break is not None:
        tie_break = check_name(tie_break, "tie_break", _("Name the tie-break row, or leave it out."))
        same = [row for row in names if row.casefold() == tie_break.casefold()]
        if same:
            raise RuleError(_("The tie-break row cannot be named like the row “%(row)s”.", row=same[0]),
                            "tie_break")
    return replace(settings, rows=tuple(names), tie_break=tie_break)


def _teams(teams: object, players: int) -> tuple[int, ...]:
    if teams is None:
        return ()
    if not _list(teams) or len(teams) != players or not all(_whole(team) and team >= 0 for team in teams):
        raise RuleError(_("Give each player's team."), "teams")
    count = len(set(teams))
    if not 2 <= count <= MOST_TEAMS:
        raise RuleError(ngettext("Players form 2 to %(num)d team.", "Players form 2 to %(num)d teams.", MOST_TEAMS),
                        "teams")
    if set(teams) != set(range(count)):
        # The form numbers teams 1, 2, 3…: a gap would leave a team without a player.
        raise RuleError(_("Every team needs a player: number the teams without a gap."), "teams")
    return tuple(teams)


def _bgg_id(bgg_id: object) -> int | None:
    if bgg_id is not None and (not _whole(bgg_id) or not 1 <= bgg_id <= MOST_BGG_ID):
        raise RuleError(_("A BoardGameGeek id is a whole number from 1 to %(most)d.", most=MOST_BGG_ID), "bgg_id")
    return bgg_id
