"""How an open market (or a running table timer) closes: by hand, after a fixed time, or at a hidden moment.

Pure: standard library and the rules' words only. The plan is chosen on the opening form and kept on
the table's row while the market is open (``Table.bell_plan``), without the hidden moment, which
only ``Table.bell_due_at`` knows (``companion.table.bell``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from ..rules import RuleError
from ..rules.words import _, duration_words

MINUTES = range(1, 11)
MODES = ("hand", "fixed", "hidden")


def clock_face(seconds: float) -> str:
    """A running clock as a phone shows it: "0:07", "12:30"."""
    minutes, rest = divmod(max(0, int(seconds)), 60)
    return f"{minutes}:{rest:02d}"


@dataclass(frozen=True)
class Plan:
    """How an open market (or a running timer) closes: by hand, after ``seconds``, or hidden in ``low``..``high``."""

    mode: str = "hand"
    seconds: int | None = None
    low: int | None = None
    high: int | None = None

    def public(self) -> dict:
        """What every phone may know (never the hidden moment)."""
        return {key: value for key, value in vars(self).items() if value is not None}

    @classmethod
    def read(cls, data) -> Plan:
        """The plan stored on a table (anything unreadable closes by hand)."""
        if not isinstance(data, dict) or data.get("mode") not in MODES:
            return cls()
        return cls(data["mode"], data.get("seconds"), data.get("low"), data.get("high"))

    def words(self, thing: str) -> str:
        """The plan as a sentence for the players, about the ``thing`` ("market" or "timer") it closes."""
        market = thing == "market"
        if self.mode == "fixed":
            duration = duration_words(self.seconds)
            if market:
                return _("The market closes by itself after %(duration)s.", duration=duration)
            return _("The timer closes by itself after %(duration)s.", duration=duration)
        if self.mode == "hidden":
            low, high = duration_words(self.low), duration_words(self.high)
            if market:
                return _("The market closes by itself at a hidden moment between %(low)s and %(high)s: "
                         "nobody knows when.", low=low, high=high)
            return _("The timer closes by itself at a hidden moment between %(low)s and %(high)s: "
                     "nobody knows when.", low=low, high=high)
        if market:
            return _("The market closes when the bell rings again.")
        return _("The timer closes when the bell rings again.")

    def delay(self) -> int | None:
        """Seconds from the opening ring to the automatic close; the hidden one drawn here, unpredictably."""
        if self.mode == "fixed":
            return self.seconds
        if self.mode == "hidden":
            return self.low + secrets.randbelow(self.high - self.low + 1)
        return None


def plan_from(mode: str, minutes: int | None = None, low: int | None = None, high: int | None = None) -> Plan:
    """The plan chosen on the opening form (minutes); RuleError names the field at fault."""
    if mode == "fixed":
        if minutes not in MINUTES:
            raise RuleError(_("Choose how many minutes the market stays open: 1 to 10."), "minutes")
        return Plan("fixed", seconds=minutes * 60)
    if mode == "hidden":
        if low not in MINUTES or high not in MINUTES:
            raise RuleError(_("Choose the hidden time's range in minutes, from 1 to 10."), "low")
        if low >= high:
            raise RuleError(_("The latest moment must come after the earliest, e.g. 1 to 3 minutes."), "high")
        return Plan("hidden", low=low * 60, high=high * 60)
    if mode != "hand":
        raise RuleError(_("Choose how the bell closes: by hand, after a fixed time, or at a hidden moment."), "mode")
    return Plan()
