"""The bell panel: what rang last, the open market or running timer with its clock, and how it closes.

Derived from the ring entries and the table's public plan (``companion.table.bell``); the server's
clock and the open market's clock are per-answer values in a kept rendering (``companion.web.markers``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from ..models import Table
from ..rules.words import _, duration_words
from ..table import bell
from ..table.bell_plan import Plan, clock_face
from ..table.view import detached, table_view
from ..web import markers

WARNING_SECONDS = 10


@dataclass(frozen=True)
class BellView:
    """What the bell panel shows: the newest ring, and the open market or running timer."""

    kind: str
    ring_id: int | None
    ring_at_ms: int | None
    server_now_ms: int
    is_open: bool
    open_since_ms: int | None
    open_clock: str
    plan: Plan
    plan_words: str
    deadline_ms: int | None
    warning_ms: int | None
    last_words: str
    finished: bool

    @property
    def thing(self) -> str:
        return "market" if self.kind == "market" else "timer"

    @property
    def server_now(self) -> str:
        """The server's clock as rendered (in a shared region, each answer's own)."""
        return markers.per_answer("now") or str(self.server_now_ms)

    @property
    def clock(self) -> str:
        """How long the market has been open (or the timer running), as rendered."""
        if self.open_since_ms is None:
            return self.open_clock
        return markers.per_answer("clock", self.open_since_ms) or self.open_clock


def server_clock(_: str | None) -> str:
    """The marker ``now`` in a kept rendering: the server's clock at this answer."""
    return str(bell.epoch_ms(bell.now()))


def open_clock(since_ms: str | None) -> str:
    """The marker ``clock:<since>`` in a kept rendering: how long the market has been open, at this answer."""
    return clock_face((bell.epoch_ms(bell.now()) - int(since_ms or 0)) / 1000)


def _last_words(thing: str, seconds: int) -> str:
    duration = duration_words(seconds)
    if thing == "market":
        return _("Last exchange phase: %(duration)s", duration=duration)
    return _("Last timer: %(duration)s", duration=duration)


def view_of(table: Table, state) -> BellView:
    """The bell panel's contents, derived from the ring entries and the table's public plan."""
    # The same for every phone until the next entry: read once per table version in this process.
    rings = table_view(table).kept("rings", lambda: detached(bell.rings(table)), bell.RINGS)
    clock = bell.now()
    opening = bell.open_ring(table, rings, state)
    last = rings[-1] if rings else None
    plan = bell.plan_of(table, opening)
    since = bell.ring_at(opening) if opening is not None else None
    deadline = since + timedelta(seconds=plan.seconds) if since is not None and plan.mode == "fixed" else None
    closes = [ring for ring in rings if ring.type in bell.CLOSES and isinstance(ring.event.get("seconds"), int)]
    thing = bell.kind_of(table)
    return BellView(
        kind=thing,
        ring_id=last.seq if last else None,
        ring_at_ms=bell.epoch_ms(bell.ring_at(last)) if last else None,
        server_now_ms=bell.epoch_ms(clock),
        is_open=opening is not None,
        open_since_ms=bell.epoch_ms(since) if since else None,
        open_clock=clock_face((clock - since).total_seconds()) if since else "0:00",
        plan=plan,
        plan_words=plan.words(thing),
        deadline_ms=bell.epoch_ms(deadline) if deadline else None,
        warning_ms=bell.epoch_ms(deadline - timedelta(seconds=WARNING_SECONDS)) if deadline else None,
        last_words=_last_words(thing, closes[-1].event["seconds"]) if closes else "",
        finished=table.finished,
    )
