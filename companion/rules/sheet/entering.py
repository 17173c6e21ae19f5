"""A new entry as a phone sends it, checked harder than one read back from the log.

``complete`` runs these checks when an entry is recorded, and only then: ``apply`` reads a recorded entry as
it was entered, so a session recorded before a check was added replays as it did (an import reads a file the
same way). What is refused here is a slip a sheet on paper would not show: two signs in a row ("--5"), and a
round with a box left empty (an empty round used to count as a round of zeros, and a forgotten player as 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.rules import RuleError
from companion.rules.review import names
from companion.rules.sheet.state import SheetState, by_rounds, finished
from companion.rules.sheet.sums import parse
from companion.rules.words import _


def _listed(value: object) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def check_new(state: SheetState, event: Mapping) -> None:
    """Refuse (RuleError, on the field it is about) what a new entry may no longer hold; a malformed entry is
    left for ``apply`` to refuse."""
    if finished(state):
        return
    kind = event.get("type")
    if kind == "round" and by_rounds(state):
        points = event.get("points")
        if _listed(points) and len(points) == len(state.players):
            for seat, text in enumerate(points):
                if isinstance(text, str):
                    parse(text, f"points-{seat}")
            _every_box_typed(state, points)
    elif kind == "cells" and not by_rounds(state) and _listed(event.get("cells")):
        for pair in event["cells"]:
            if _listed(pair) and len(pair) == 2 and isinstance(pair[1], str):
                parse(pair[1], f"cells-{pair[0]}")


def _every_box_typed(state: SheetState, points: Sequence) -> None:
    """A round holds every player's points as typed, a 0 too: an empty box is a player forgotten, not a 0."""
    empty = [seat for seat, text in enumerate(points) if isinstance(text, str) and not text.strip()]
    if len(empty) == len(points):
        raise RuleError(_("Type each player's points, 0 included."), "points")
    if empty:
        # Translators: the players whose boxes were left empty in a round: "Ben", "Ben and Cleo".
        raise RuleError(_("Type the points of %(names)s too, 0 included.", names=names(state.players, empty)),
                        f"points-{empty[0]}")
