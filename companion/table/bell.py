"""The bell: Ding-a-Ding on every phone at the table, and a table timer for every game.

A ring is an entry like any other, written with the server's time. Every
phone learns of it through the live poll (1 s) and rings at the same moment:
the entry's time plus ``LEAD``, translated into its own clock with the
offset it measures from the server's ``X-Server-Time`` header
(``static/bell.js``).

On the table of a game that declares ``MARKET_BELL`` (Carambouille) the bell
opens and closes the market (the game's ``market_opened`` / ``market_closed``
events, the latter with the exchange phase's length in seconds); on every
other table it starts and stops a table timer (``timer_started`` / ``timer_stopped``, entries about the table
that are never folded through the game's rules).

A market or timer may close by itself (``bell_plan.Plan``): after a fixed time,
or at a hidden random moment. That moment lives only in ``Table.bell_due_at``;
the server's sweeper (``companion.live.due``) records the close at that moment, and
any request that finds it past first records it as well (``fire_if_due``, once).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

from ..database import write_turn
from ..extensions import db
from ..models import Entry, Table
from ..rules import RuleError, declared
from ..rules.words import _
from . import kinds, signals
from .bell_plan import Plan
from .log import game_of, voided_seqs
from .recording import record, record_table_event
from .view import table_view

# From the entry's time to the moment every phone rings: longer than one poll
# plus a slow answer, short enough to feel like the tap rang the bell.
LEAD = timedelta(milliseconds=1200)
# The market's phases (Carambouille's opening and open market): the bell is the move then.
MARKET_PHASES = {"opening", "market"}
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


def server_time_header() -> tuple[str, str]:
    """The header every answer carries, the live poll's 204 included, so the phones ring together."""
    return "X-Server-Time", str(epoch_ms(now()))


def is_market(table: Table) -> bool:
    """Whether the table's bell is its game's market (the game declares ``MARKET_BELL``: Carambouille's exchange
    phase), not the table timer every other game gets."""
    return declared(game_of(table), "MARKET_BELL")


def kind_of(table: Table) -> str:
    """ "market" (the game's market, ``is_market``) or "timer" (any other game's table timer)."""
    return "market" if is_market(table) else "timer"


def ring_at(entry: Entry) -> datetime:
    """The moment every phone rings for a ring entry."""
    return aware(entry.created_at) + LEAD


def rings(table: Table) -> list[Entry]:
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


def open_ring(table: Table, rings: list[Entry], state) -> Entry | None:
    """The ring that opened the market (or started the timer) still open, if any."""
    if not _is_open(table, rings, state):
        return None
    return next((ring for ring in reversed(rings) if ring.type in OPENS), None)


def plan_of(table: Table, opening: Entry | None) -> Plan:
    """The plan of the opening ring still open (none kept: it closes by hand)."""
    return Plan.read(table.bell_plan) if opening is not None and table.bell_seq == opening.seq else Plan()


# --- recording the rings ----------------------------------------------------

def _schedule(table_id: int, seq: int, plan: Plan, due: datetime | None) -> None:
    """Remember the plan of the opening ``seq``, once: a re-sent form never draws a new hidden moment."""
    with write_turn():
        db.session.execute(sa.update(Table).where(
            Table.id == table_id, sa.or_(Table.bell_seq.is_(None), Table.bell_seq < seq)).values(
            bell_seq=seq, bell_plan=plan.public(), bell_due_at=due))
        db.session.commit()
    signals.announce_table_changed(table_id)


def _unschedule(table_id: int, seq: int | None) -> None:
    """Forget the automatic close of the opening ``seq`` (never a newer one's)."""
    with write_turn():
        db.session.execute(sa.update(Table).where(Table.id == table_id, Table.bell_seq == seq).values(
            bell_plan=None, bell_due_at=None))
        db.session.commit()
    signals.announce_table_changed(table_id)


def _timer_open_check(table: Table, opening: bool):
    """Under the lock: refuse starting a running timer or stopping a stopped one."""
    def check(seq: int) -> None:
        running = open_ring(table, rings(table), None) is not None
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
    opening = open_ring(table, rings(table), table_view(table).state)
    seconds = int((now() - aware(opening.created_at)).total_seconds()) if opening is not None else 0
    seconds = max(0, seconds)
    if kind_of(table) == "market":
        event = {"type": "market_closed", "seconds": seconds} | ({"rung_by": player} if player is not None else {})
        entry = record(table, event, device=device, key=key, seen=seen)
    else:
        check = _timer_open_check(table, opening=False)
        plan = plan_of(table, opening)
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
    opening = open_ring(table, rings(table), table_view(table).state)
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
