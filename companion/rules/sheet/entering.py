"""A new entry as a phone sends it, checked harder than one read back from the log.

``complete`` runs these checks when an entry is recorded, and only then: ``apply`` reads a recorded entry as
it was entered, so a session recorded before a check was added replays as it did (an import reads a file the
same way). What is refused here is a slip a sheet on paper would not show: two signs in a row ("--5").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.rules.sheet.state import SheetState, by_rounds, finished
from companion.rules.sheet.sums import parse


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
    elif kind == "cells" and not by_rounds(state) and _listed(event.get("cells")):
        for pair in event["cells"]:
            if _listed(pair) and len(pair) == 2 and isinstance(pair[1], str):
                parse(pair[1], f"cells-{pair[0]}")
