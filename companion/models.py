"""The ORM models: groups (the people who play together), their tables (games being played), the tables'
seats, and the entry log."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, date, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import db

# No 0/O, 1/I/L: a join code is read aloud across a table and typed on a phone.
JOIN_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 6


# The status of a session taken out of the history: in its group's bin, then a tombstone row (companion/groups/bin.py).
REMOVED = "removed"


def now() -> datetime:
    """The current time, timezone-aware in UTC."""
    return datetime.now(UTC)


def aware(moment: datetime | None) -> datetime | None:
    """A moment as PostgreSQL gives it back: SQLite's (naive, in UTC) made aware."""
    return moment.replace(tzinfo=UTC) if moment is not None and moment.tzinfo is None else moment


def new_token() -> str:
    """An unguessable URL token: 128 random bits."""
    return secrets.token_urlsafe(16)


# What new_token makes (with room for longer ones): anything else is not looked up at all.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,32}")


def new_join_code() -> str:
    """A short code to type on the home page."""
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


# The longest name a group can be given.
GROUP_NAME_LENGTH = 40


class Group(db.Model):
    """The people who play together (a family, a club): every table is one of its sessions.

    ``name`` is empty until the group is given one (the one group of a home server, made by the
    migration): the pages then call it in the reader's language. On a private server a phone is in the
    groups it has a ``Member`` row in; ``invite_token`` and ``join_code`` bring a phone in, as a table's
    link and code do. On a home server every phone is in its one group, and keeps no row.
    """

    __tablename__ = "groups"
    # SQLite gives a deleted newest id to the next row unless told not to: a phone's cookie names its
    # groups by id, and a removed group's id must never open another group.
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(GROUP_NAME_LENGTH), default="")
    invite_token: Mapped[str] = mapped_column(sa.String(32), unique=True, default=new_token)
    join_code: Mapped[str] = mapped_column(sa.String(JOIN_CODE_LENGTH), unique=True, default=new_join_code)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)
    # A removed group lies in the bin (``removed_at``) until its time there is up; then its row stays, emptied (as
    # a removed session's does): its sessions' tombstones keep pointing at it, and its id is never given again.
    removed: Mapped[bool] = mapped_column(default=False, server_default=sa.false())
    removed_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
    # When the invitation (link and code) was made: a phone taken out of the group since comes back only through a
    # newer one. None: made before memberships were kept on the server (a phone's cookie is honoured once then).
    invited_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True), default=now)


# The longest name a member's phone can be given ("Ana's phone").
MEMBER_NAME_LENGTH = 40


class Member(db.Model):
    """A phone in a group of a private server: who joined, when, when it was last seen, and whether it keeps the group.

    ``device`` is the phone's random id (``companion.web.phone.device_id``, in its signed cookie). A phone taken
    out of the group (or that left) keeps its row with ``removed_at``: its old cookie and the invitation it
    had no longer bring it back (``Group.invited_at``). ``number`` names a phone that was given no name ("Phone 3").
    """

    __tablename__ = "members"
    __table_args__ = (sa.UniqueConstraint("group_id", "device"), sa.UniqueConstraint("group_id", "number"))

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(sa.ForeignKey("groups.id"), index=True)
    device: Mapped[str] = mapped_column(sa.String(32), index=True)
    number: Mapped[int]
    name: Mapped[str] = mapped_column(sa.String(MEMBER_NAME_LENGTH), default="")
    keeper: Mapped[bool] = mapped_column(default=False, server_default=sa.false())
    joined_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)
    seen_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)
    removed_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))


class GroupLog(db.Model):
    """One thing a keeper (or, on a home server, a phone) did to the group: who, when, what (``companion.groups.log``)."""

    __tablename__ = "group_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(sa.ForeignKey("groups.id"), index=True)
    at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)
    kind: Mapped[str] = mapped_column(sa.String(20))
    # Who did it, as the group called the phone then (its name, else its number); empty on a home server.
    by_name: Mapped[str] = mapped_column(sa.String(MEMBER_NAME_LENGTH), default="")
    by_number: Mapped[int | None] = mapped_column()
    # What it was done to: a name, a session's game and players, a number of phones (per ``kind``).
    details: Mapped[dict[str, Any]] = mapped_column(sa.JSON, default=dict)


class Table(db.Model):
    """A game being played (or played) at one physical table, a session of one group."""

    __tablename__ = "tables"
    # A session brought in from a file is in its group's history once (companion/review/storing.py): its
    # identity is unique in the group among the sessions not removed, so the same file sent from two phones
    # at the same instant is stored by one of them.
    __table_args__ = (sa.Index("uq_tables_group_id_import_digest", "group_id", "import_digest", unique=True,
                               sqlite_where=sa.text(f"status != '{REMOVED}'"),
                               postgresql_where=sa.text(f"status != '{REMOVED}'")),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(sa.ForeignKey("groups.id"), index=True)
    token: Mapped[str] = mapped_column(sa.String(32), unique=True, default=new_token)
    watch_token: Mapped[str] = mapped_column(sa.String(32), unique=True, default=new_token)
    join_code: Mapped[str] = mapped_column(sa.String(JOIN_CODE_LENGTH), unique=True, default=new_join_code)
    game: Mapped[str] = mapped_column(sa.String(20))
    options: Mapped[dict[str, Any]] = mapped_column(sa.JSON, default=dict)
    status: Mapped[str] = mapped_column(sa.String(10), default="playing", index=True)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now, index=True)
    finished_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
    # The number of the newest entry: the table's version, compared by the live
    # poll, and the row every writer locks to put entries in one order.
    last_seq: Mapped[int] = mapped_column(default=0)
    # The bell's schedule (companion/table/bell.py): the entry that opened the market
    # or started the timer, its public closing plan, and the moment the server
    # closes it. bell_due_at may be a hidden random moment: it never leaves
    # the server; the live poll reads it in its one-row query and fires it.
    bell_seq: Mapped[int | None] = mapped_column()
    bell_plan: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON)
    bell_due_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
    # What a session brought in from a file is (its game, start and players: ``review.exchange.identity``, in
    # hex); None for a session played here.
    import_digest: Mapped[str | None] = mapped_column(sa.String(64))

    # A session removed from the history lies in its group's bin (status ``removed``) from ``removed_at`` until its
    # time there is up, every entry kept: restored, it is as it was (``removed_from``: the status it had). Emptied,
    # ``removed_at`` is None and only the tombstone is left. ``with_group``: binned with its group, restored with it.
    removed_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
    removed_from: Mapped[str | None] = mapped_column(sa.String(10))
    removed_with_group: Mapped[bool] = mapped_column(default=False, server_default=sa.false())

    seats: Mapped[list[Seat]] = relationship(
        back_populates="table", order_by="Seat.position", cascade="all, delete-orphan", lazy="selectin"
    )

    @property
    def players(self) -> list[str]:
        """Player names in seating order."""
        return [seat.name for seat in self.seats]

    @property
    def finished(self) -> bool:
        """Whether the game at this table has ended."""
        return self.status == "finished"


# On PostgreSQL every change to a table's row (one added too) is announced to the workers, who listen on CHANNEL
# (companion/live/board.py, companion/live/changes.py, companion/commits.py). What creates the trigger: run after the
# tables table is created, and by the migrations for a database made by `flask db upgrade`.
CHANNEL = "companion_tables"
TRIGGER = "tables_changed"


def announcing(table: str, trigger: str, function: str, payload: str) -> list[str]:
    """What makes PostgreSQL announce on CHANNEL, when its transaction commits, each row of ``table`` added, changed
    or deleted: ``payload`` (SQL of the row, NEW or OLD) as the notice."""
    return [
        f"""CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{CHANNEL}', {payload});
    RETURN NULL;
END $$""",
        f"DROP TRIGGER IF EXISTS {trigger} ON {table}",
        f"""CREATE TRIGGER {trigger} AFTER INSERT OR UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION {function}()""",
    ]


TRIGGER_DDL = announcing("tables", TRIGGER, "companion_table_changed", "COALESCE(NEW.id, OLD.id)::text")
for _statement in TRIGGER_DDL:
    sa.event.listen(Table.__table__, "after_create", sa.DDL(_statement).execute_if(dialect="postgresql"))


class Seat(db.Model):
    """A player's place at a table, in seating order."""

    __tablename__ = "seats"
    __table_args__ = (sa.UniqueConstraint("table_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    name: Mapped[str] = mapped_column(sa.String(40))

    table: Mapped[Table] = relationship(back_populates="seats")


class Entry(db.Model):
    """One recorded event, numbered 1, 2, 3… per table; never changed once written."""

    __tablename__ = "entries"
    __table_args__ = (
        sa.UniqueConstraint("table_id", "seq"),
        sa.UniqueConstraint("table_id", "key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(sa.ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int]
    type: Mapped[str] = mapped_column(sa.String(40))
    event: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    # The sentence shown in the history, written once when the entry was made.
    summary: Mapped[str] = mapped_column(sa.String(500), default="")
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)
    device: Mapped[str] = mapped_column(sa.String(32), default="")
    # The form's idempotency key: a re-sent form is recorded once.
    key: Mapped[str | None] = mapped_column(sa.String(32))


# The longest name a season a group starts can be given ("Winter league").
SEASON_NAME_LENGTH = 40


class Season(db.Model):
    """A season a group started itself (``companion.review.standings``): from its first day to the next one's; its
    standings rate the group's sessions of those days. Before a group's first, its seasons are calendar quarters."""

    __tablename__ = "seasons"
    __table_args__ = (sa.UniqueConstraint("group_id", "starts_on"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(sa.ForeignKey("groups.id"), index=True)
    name: Mapped[str] = mapped_column(sa.String(SEASON_NAME_LENGTH))
    starts_on: Mapped[date] = mapped_column(sa.Date)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=now)


# A group's season started, renamed or removed is announced on the tables' CHANNEL as table 0 (no table's id): the
# standings kept for the group are read again (``companion.commits``).
SEASONS_TRIGGER = "seasons_changed"
SEASONS_TRIGGER_DDL = announcing("seasons", SEASONS_TRIGGER, "companion_season_changed", "'0'")
for _statement in SEASONS_TRIGGER_DDL:
    sa.event.listen(Season.__table__, "after_create", sa.DDL(_statement).execute_if(dialect="postgresql"))


class RateCount(db.Model):
    """How many times one client did one limited thing (a wrong join code, an import…) in one window of time.

    One row per kind, client and window, counted up atomically (companion/web/limits.py); rows of
    past windows are deleted as new ones are counted.
    """

    __tablename__ = "rate_counts"

    kind: Mapped[str] = mapped_column(sa.String(16), primary_key=True)
    client: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    window_start: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), primary_key=True, index=True)
    count: Mapped[int] = mapped_column(default=0)
