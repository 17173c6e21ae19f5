"""Limits per client and window of time: join codes tried, imports, new tables.

A client is an IPv4 address, or an IPv6 /64: one home or one phone network gets one prefix, and
counting its 2^64 addresses one by one would limit nothing. Each count is one atomic statement
(INSERT … ON CONFLICT DO UPDATE … RETURNING): simultaneous requests each get their own number,
so exactly ``limit`` of them pass in a window, on SQLite and PostgreSQL alike. Windows are fixed
(10:00–10:10, 10:10–10:20…; a day from midnight UTC), so a client may spend two windows' worth around a
boundary. Every count is a client's own: no allowance is shared, so no client can use up another's.
"""

from __future__ import annotations

import ipaddress
from datetime import datetime, timedelta

import sqlalchemy as sa
from flask import request
from sqlalchemy.dialects import postgresql, sqlite

from ..extensions import db
from ..models import RateCount, now

# A kind's rows of windows that began this long before its current one are deleted as it counts; any row
# older than the longest window (a day) and this is deleted by any count.
KEEP = timedelta(hours=1)
LONGEST = timedelta(days=1)


def client_key(address: str | None) -> str:
    """The client an address belongs to: the IPv4 address itself, or the /64 of an IPv6 address."""
    try:
        ip = ipaddress.ip_address((address or "").split("%", 1)[0])
    except ValueError:
        return (address or "unknown")[:64]
    if ip.version == 6 and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def this_client() -> str:
    """The client of this request (its address as the trusted proxies report it; see security.py)."""
    return client_key(request.remote_addr)


def _window(seconds: int) -> datetime:
    moment = now()
    return datetime.fromtimestamp(int(moment.timestamp()) // seconds * seconds, tz=moment.tzinfo)


def count(kind: str, client: str, seconds: int) -> int:
    """Count one more ``kind`` for ``client`` in the current window of ``seconds``; the count, this one included.

    Committed at once: a refusal that follows must not take the count back with it.
    """
    start = _window(seconds)
    insert = (postgresql.insert if db.engine.dialect.name == "postgresql" else sqlite.insert)(RateCount)
    statement = insert.values(kind=kind, client=client, window_start=start, count=1).on_conflict_do_update(
        index_elements=[RateCount.kind, RateCount.client, RateCount.window_start],
        set_={"count": RateCount.count + 1},
    ).returning(RateCount.count)
    try:
        counted = db.session.execute(statement).scalar_one()
        db.session.execute(sa.delete(RateCount).where(sa.or_(
            sa.and_(RateCount.kind == kind, RateCount.window_start < start - KEEP),
            RateCount.window_start < start - LONGEST - KEEP)))
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return counted


def within(kind: str, limit: int, seconds: int, client: str | None = None) -> bool:
    """Count this request against ``limit`` per ``seconds`` for its client; whether it is still within."""
    return count(kind, client or this_client(), seconds) <= limit
