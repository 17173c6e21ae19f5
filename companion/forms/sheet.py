"""The score sheet's forms: a new sheet (its game, players and options), a round, a player's cells, the end.

Shape only (text of at most 40 characters, a whole number in range); what an entry means, and
whether its arithmetic holds, is for ``companion.rules.sheet`` to say.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, FieldList, HiddenField, RadioField, SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, Optional, ValidationError

from ..rules.words import _
from . import CONTROL, ActionForm, NewTableForm, clean_name
from .fields import IntegerField

MAX_PLAYERS = 12
MAX_ROWS = 30  # the rules' most; the cells form holds them and the tie-break row
TEXT = 40  # a game's name, a row's name, a typed entry
TEAMS = 4
MODES = [("rounds", _l("Rounds")), ("categories", _l("Categories"))]
TEAM_CHOICES = [("", _l("No team"))] + [(str(n), _l("Team %(number)d", number=n)) for n in range(1, TEAMS + 1)]


def _strip(value: str | None) -> str | None:
    return value.strip() if isinstance(value, str) else value


def _plain(form, field) -> None:
    if field.data and CONTROL.search(field.data):
        raise ValidationError(_("Only letters, digits and signs, no control characters."))


def _sized(field: FieldList, entries: int) -> None:
    """One entry per player (or row) of this table: the list's length is the table's, not the post's."""
    while len(field.entries) < entries:
        field.append_entry()
    while len(field.entries) > entries:
        field.pop_entry()


def entry_field() -> StringField:
    """A player's points as typed: a number or a sum ("12+7-3"); empty counts nothing."""
    return StringField(filters=[_strip], validators=[Optional(), Length(max=TEXT), _plain])


class NewSheetForm(NewTableForm):
    """A new score sheet: the game's name, 2–12 players, rounds or categories, and how it is won and ends.

    Each setting's meaning (how many rows, which numbers) is the rules' to check (``rules.sheet.options``):
    their sentence is shown beside the field it names.
    """

    players = FieldList(StringField(_l("Player"), filters=[clean_name], validators=[Length(max=TEXT)]),
                        min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)
    name = StringField(_l("Game"), filters=[_strip], validators=[
        InputRequired(_l("Name the game: it heads the sheet and sorts the history.")), Length(max=TEXT), _plain])
    mode = RadioField(_l("The sheet"), choices=MODES, default="rounds")
    rows = TextAreaField(_l("Categories, one per line"), filters=[_strip], validators=[Optional()])
    tie_break = StringField(_l("Tie-break row (optional)"), filters=[_strip],
                            validators=[Optional(), Length(max=TEXT), _plain])
    lowest_wins = BooleanField(_l("Lowest total wins"))
    rounds = IntegerField(_l("Ends after this many rounds (optional)"), validators=[Optional()])
    target = IntegerField(_l("Ends when a total reaches (optional)"), validators=[Optional()])
    teams = FieldList(SelectField(choices=TEAM_CHOICES, default=""), min_entries=MAX_PLAYERS,
                      max_entries=MAX_PLAYERS)
    bgg_id = IntegerField(_l("BoardGameGeek id (optional)"), validators=[Optional()])

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, min_players=2, max_players=MAX_PLAYERS, **kwargs)

    def row_names(self) -> list[str]:
        """The categories typed, one per line, empty lines left out."""
        return [line.strip() for line in (self.rows.data or "").splitlines() if line.strip()]

    def team_of_seats(self) -> list[int] | None:
        """Each seated player's team (0-based, numbered in the order chosen), or None without teams."""
        chosen = [self.teams.entries[field].data for field, entry in enumerate(self.players.entries)
                  if entry.data and field < len(self.teams.entries)]
        if not any(chosen):
            return None
        order = sorted({team for team in chosen if team})
        return [order.index(team) if team else -1 for team in chosen]

    def options(self) -> dict:
        """The sheet's options as the rules take them (``companion.rules.sheet.new_game``)."""
        options: dict = {"name": self.name.data, "mode": self.mode.data, "lowest_wins": bool(self.lowest_wins.data)}
        if self.mode.data == "categories":
            options["rows"] = self.row_names()
            if self.tie_break.data:
                options["tie_break"] = self.tie_break.data
        else:
            options.update({key: self[key].data for key in ("rounds", "target") if self[key].data is not None})
        if (teams := self.team_of_seats()) is not None:
            options["teams"] = teams
        if self.bgg_id.data is not None:
            options["bgg_id"] = self.bgg_id.data
        return options


class RoundForm(ActionForm):
    """A round: each player's points, in seating order, typed as a number or a sum."""

    round = IntegerField(widget=HiddenField.widget, validators=[InputRequired()])
    points = FieldList(entry_field(), min_entries=0, max_entries=MAX_PLAYERS)

    def __init__(self, *args, players: int = 0, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        _sized(self.points, players)

    def event(self) -> dict:
        return {"type": "round", "round": self.round.data, "points": [entry.data or "" for entry in self.points]}


class CellsForm(ActionForm):
    """One player's values, row by row (the tie-break row last); a field left empty is left as it was."""

    player = IntegerField(widget=HiddenField.widget, validators=[InputRequired()])
    cells = FieldList(entry_field(), min_entries=0, max_entries=MAX_ROWS + 1)

    def __init__(self, *args, rows: int = 0, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        _sized(self.cells, rows)

    def validate_cells(self, field) -> None:
        if not any(entry.data for entry in field.entries):
            raise ValidationError(_("Enter at least one value."))

    def event(self) -> dict:
        return {"type": "cells", "seat": self.player.data,
                "cells": [[row, entry.data] for row, entry in enumerate(self.cells) if entry.data]}


class EndForm(ActionForm):
    """End the game here: the sheet's totals are the result."""

    def event(self) -> dict:
        return {"type": "end"}


def earlier(sheet) -> dict:
    """The new-sheet form's fields as an earlier table had them (``review.remembered``): its game, rows, options,
    players and teams."""
    options = sheet.options
    teams = options.get("teams")
    return {
        "name": sheet.name,
        "mode": options.get("mode", "rounds"),
        "rows": "\n".join(options.get("rows", ())),
        "tie_break": options.get("tie_break", ""),
        "lowest_wins": bool(options.get("lowest_wins")),
        "rounds": options.get("rounds"),
        "target": options.get("target"),
        "bgg_id": options.get("bgg_id"),
        "players": list(sheet.players),
        "teams": [str(team + 1) for team in teams] if teams else [],
        "starter": str(options.get("first_player", "random")),
    }


def row_count(options: dict) -> int:
    """The rows a player's cells form has: the categories, and the tie-break row last if there is one."""
    return len(options.get("rows", ())) + (1 if options.get("tie_break") else 0)
