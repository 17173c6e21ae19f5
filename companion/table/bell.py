"""The bell: Ding-a-Ding on every phone at the table, and a table timer for every game.

A ring is an entry like any other, written with the server's time. Every
phone learns of it through the live poll (1 s) and rings at the same moment:
the entry's time plus ``LEAD``, translated into its own clock with the
offset it measures from the server's ``X-Server-Time`` header
(``static/bell.js``).

On a Carambouille table the bell opens and closes the market (the game's
``market_opened`` / ``market_closed`` events, the latter with the exchange
phase's length in seconds); on every other table it starts and stops a
table timer (``timer_started`` / ``timer_stopped``, entries about the table
that are never folded through the game's rules).

A market or timer may close by itself (``bell_plan.Plan``): after a fixed time,
or at a hidden random moment. That moment lives only in ``Table.bell_due_at``;
the first request that finds it past (normally a live poll) records the close.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

from ..extensions import db
from ..live import heads, regions
from ..models import Entry, Table
from ..rules import RuleError
from ..rules.words import _, duration_words
from . import kinds
from .bell_plan import Plan, clock_face
from .log import voided_seqs
from .recording import record, record_table_event
from .view import table_view

# From the entry's time to the moment every phone rings: longer than one poll
# plus a slow answer, short enough to feel like the tap rang the bell.
LEAD = timedelta(milliseconds=1200)
WARNING_SECONDS = 10
# The market's phases (Carambouille's opening and open market): the bell is the move then.
MARKET_PHASES = {"opening", "market"}
# Games whose bell is the market of the exchange phase; every other game gets the timer.
MARKET_GAMES = {"carambouille"}
OPENS = {"market_opened", kinds.TIMER_STARTED}
CLOSES = {"market_closed", kinds.TIMER_STOPPED}
RINGS = OPENS | CLOSES


def now() -> datetime:
    """The server's clock (tests replace it to make timers fire)."""
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """The moment in UTC (SQLite hands back naive datetimes)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def epoch_ms(moment: datetime) -> int:
    """Milliseconds since 1970, as a browser's Date counts."""
    return int(aware(moment).timestamp() * 1000)


def kind_of(table: Table) -> str:
    """ "market" (the Carambouille exchange phase) or "timer" (any other game's table timer)."""
    return "market" if table.game in MARKET_GAMES else "timer"


def ring_at(entry: Entry) -> datetime:
    """The moment every phone rings for a ring entry."""
    return aware(entry.created_at) + LEAD


def _rings(table: Table) -> list[Entry]:
    """The table's newest live ring entries, oldest first: enough for the panel, never the whole log.

    The panel needs the last ring, the ring that opened what is open, and the
    last close that measured its time. A void is always newer than the ring
    it takes back, so reading the newest rows (more until those are found)
    sees every void that matters.
    """
    window = 8
    while True:
        rows = list(db.session.scalars(sa.select(Entry).where(
            Entry.table_id == table.id, Entry.type.in_(RINGS | {kinds.VOID}))
            .order_by(Entry.seq.desc()).limit(window)))
        voided = voided_seqs(rows)
        rings = [row for row in reversed(rows) if row.type in RINGS and row.seq not in voided]
        has_open = any(ring.type in OPENS for ring in rings)
        has_close = any(ring.type in CLOSES and isinstance(ring.event.get("seconds"), int) for ring in rings)
        if len(rows) < window or (has_open and has_close):
            return rings
        window *= 4


def _is_open(table: Table, rings: list[Entry], state) -> bool:
    if kind_of(table) == "market":
        return getattr(state, "phase", None) == "market"
    return bool(rings) and rings[-1].type in OPENS


def _opening(table: Table, rings: list[Entry], state) -> Entry | None:
    """The ring that opened the market (or started the timer) still open, if any."""
    if not _is_open(table, rings, state):
        return None
    return next((ring for ring in reversed(rings) if ring.type in OPENS), None)


def _plan_of(table: Table, opening: Entry | None) -> Plan:
    """The plan of the opening ring still open (none kept: it closes by hand)."""
    return Plan.read(table.bell_plan) if opening is not None and table.bell_seq == opening.seq else Plan()


# --- what the panel shows -----------------------------------------------------

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
        return regions.per_answer("now") or str(self.server_now_ms)

    @property
    def clock(self) -> str:
        """How long the market has been open (or the timer running), as rendered."""
        if self.open_since_ms is None:
            return self.open_clock
        return regions.per_answer("clock", self.open_since_ms) or self.open_clock


def server_clock(_: str | None) -> str:
    """The marker ``now`` in a kept rendering: the server's clock at this answer."""
    return str(epoch_ms(now()))


def open_clock(since_ms: str | None) -> str:
    """The marker ``clock:<since>`` in a kept rendering: how long the market has been open, at this answer."""
    return clock_face((epoch_ms(now()) - int(since_ms or 0)) / 1000)


def _last_words(thing: str, seconds: int) -> str:
    duration = duration_words(seconds)
    if thing == "market":
        return _("Last exchange phase: %(duration)s", duration=duration)
    return _("Last timer: %(duration)s", duration=duration)


def view_of(table: Table, state) -> BellView:
    """The bell panel's contents, derived from the ring entries and the table's public plan."""
    rings = _rings(table)
    clock = now()
    opening = _opening(table, rings, state)
    last = rings[-1] if rings else None
    plan = _plan_of(table, opening)
    since = ring_at(opening) if opening is not None else None
    deadline = since + timedelta(seconds=plan.seconds) if since is not None and plan.mode == "fixed" else None
    closes = [ring for ring in rings if ring.type in CLOSES and isinstance(ring.event.get("seconds"), int)]
    thing = kind_of(table)
    return BellView(
        kind=thing,
        ring_id=last.seq if last else None,
        ring_at_ms=epoch_ms(ring_at(last)) if last else None,
        server_now_ms=epoch_ms(clock),
        is_open=opening is not None,
        open_since_ms=epoch_ms(since) if since else None,
        open_clock=clock_face((clock - since).total_seconds()) if since else "0:00",
        plan=plan,
        plan_words=plan.words(thing),
        deadline_ms=epoch_ms(deadline) if deadline else None,
        warning_ms=epoch_ms(deadline - timedelta(seconds=WARNING_SECONDS)) if deadline else None,
        last_words=_last_words(thing, closes[-1].event["seconds"]) if closes else "",
        finished=table.finished,
    )


# --- recording the rings ----------------------------------------------------

def _schedule(table_id: int, seq: int, plan: Plan, due: datetime | None) -> None:
    """Remember the plan of the opening ``seq``, once: a re-sent form never draws a new hidden moment."""
    db.session.execute(sa.update(Table).where(
        Table.id == table_id, sa.or_(Table.bell_seq.is_(None), Table.bell_seq < seq)).values(
        bell_seq=seq, bell_plan=plan.public(), bell_due_at=due))
    db.session.commit()
    heads.changed(table_id)


def _unschedule(table_id: int, seq: int | None) -> None:
    """Forget the automatic close of the opening ``seq`` (never a newer one's)."""
    db.session.execute(sa.update(Table).where(Table.id == table_id, Table.bell_seq == seq).values(
        bell_plan=None, bell_due_at=None))
    db.session.commit()
    heads.changed(table_id)


def _timer_open_check(table: Table, opening: bool):
    """Under the lock: refuse starting a running timer or stopping a stopped one."""
    def check(seq: int) -> None:
        running = _opening(table, _rings(table), None) is not None
        if opening and running:
            raise RuleError(_("The table timer is already running: ring again to stop it."), "type")
        if not opening and not running:
            raise RuleError(_("The table timer is not running: ring the bell to start it."), "type")
    return check


def open_bell(table: Table, plan: Plan, *, player: int | None = None, device: str = "",
              key: str | None = None, seen: int | None = None) -> Entry:
    """Ring to open the market (or start the timer), and schedule its automatic close."""
    if table.finished:
        raise RuleError(_("The game is finished: the bell is put away."), "type")
    table_id = table.id
    if kind_of(table) == "market":
        event = {"type": "market_opened"} | ({"rung_by": player} if player is not None else {})
        entry = record(table, event, device=device, key=key, seen=seen)
    else:
        check = _timer_open_check(table, opening=True)
        event = {"type": kinds.TIMER_STARTED, "plan": plan.public()}
        if player is not None:
            event["player"] = player

        def summarise(seq: int) -> str:
            check(seq)
            return kinds.timer_started(event, table.players)

        entry = record_table_event(table, event, summarise, device=device, key=key, seen=seen)
    delay = plan.delay()
    due = aware(entry.created_at) + timedelta(seconds=delay) if delay is not None else None
    _schedule(table_id, entry.seq, plan, due)
    return entry


def close_bell(table: Table, *, player: int | None = None, device: str = "", key: str | None = None,
               seen: int | None = None, automatic: bool = False) -> Entry:
    """Ring to close the market (or stop the timer), recording how long it was open."""
    if table.finished:
        raise RuleError(_("The game is finished: the bell is put away."), "type")
    table_id = table.id
    opening = _opening(table, _rings(table), table_view(table).state)
    seconds = int((now() - aware(opening.created_at)).total_seconds()) if opening is not None else 0
    seconds = max(0, seconds)
    if kind_of(table) == "market":
        event = {"type": "market_closed", "seconds": seconds} | ({"rung_by": player} if player is not None else {})
        entry = record(table, event, device=device, key=key, seen=seen)
    else:
        check = _timer_open_check(table, opening=False)
        plan = _plan_of(table, opening)
        stopped = {"type": kinds.TIMER_STOPPED, "seconds": seconds}
        if automatic and plan.mode in kinds.TIMER_ENDINGS:
            stopped["ending"] = plan.mode  # kept in the entry: an imported log writes the same sentence

        def summarise(seq: int) -> str:
            check(seq)
            return kinds.timer_stopped(stopped)

        entry = record_table_event(table, stopped, summarise, device=device, key=key, seen=seen)
    if opening is not None:
        _unschedule(table_id, opening.seq)
    return entry


def is_due(due_at: datetime | None) -> bool:
    """Whether an automatic close planned for ``due_at`` should fire now."""
    return due_at is not None and now() >= aware(due_at)


def fire_if_due(table: Table) -> bool:
    """Close the market (or stop the timer) if its automatic close is past; the first request to see it wins.

    Costs nothing unless the moment has come: ``bell_due_at`` arrives with the
    table row the request has already read.
    """
    if not is_due(table.bell_due_at):
        return False
    table_id, seq = table.id, table.bell_seq
    opening = _opening(table, _rings(table), table_view(table).state)
    if opening is None or opening.seq != seq:
        # Undone, or closed by some other way: nothing to ring.
        _unschedule(table_id, seq)
        return False
    try:
        # One key per opening ring: whoever comes second finds the close recorded.
        close_bell(table, device="bell", key=f"bell-close-{seq}", automatic=True)
    except RuleError:
        db.session.rollback()
        _unschedule(table_id, seq)
        return False
    return True
