"""A group's library (or the whole server's) as one file: every session in the session file's format, in an envelope.

The envelope (format ``table-companion-library``, version 1; see docs/review.md) names the group, says
when it was made, lists the sessions newest first (removed ones left out) and carries the digest of
those sessions, which the import checks before it reads a single one. A whole server's file holds one
such envelope per group, under ``groups``, and the digest of them all.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from .. import groups as groups_
from ..extensions import db
from ..models import REMOVED, Entry, Group, Table, now
from . import seasons
from ..review.export import export, iso_time
from ..review.history import local
from ..rules import GAMES

FORMAT = "table-companion-library"
VERSION = 1


def digest(part: list) -> str:
    """The checksum an envelope carries of its sessions (or groups): SHA-256 of their canonical JSON.

    Canonical: keys sorted, no spaces, every character past ASCII written as a \\u escape, so that the
    same sessions give the same digest however the file was indented or its text encoded.
    """
    canonical = json.dumps(part, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(canonical.encode("ascii")).hexdigest()


def sessions_of(group: Group, *, withhold: bool = True) -> list[dict[str, Any]]:
    """The group's sessions as session files, newest first; removed sessions (and games this app no longer
    knows) left out. ``withhold``: what is still secret at a table in play is left out, as its own export does."""
    kept = (Table.group_id == group.id, Table.status != REMOVED, Table.game.in_(list(GAMES.keys())))
    tables = list(db.session.scalars(sa.select(Table).where(*kept).order_by(Table.created_at.desc(), Table.id.desc())))
    # Every entry of the group in one query, not one query per session.
    entries: dict[int, list[Entry]] = defaultdict(list)
    for entry in db.session.scalars(sa.select(Entry).join(Table, Table.id == Entry.table_id).where(*kept)
                                    .order_by(Entry.table_id, Entry.seq)):
        entries[entry.table_id].append(entry)
    return [export(table, entries[table.id], withhold=withhold) for table in tables]


def library(group: Group, *, withhold: bool = True) -> dict[str, Any]:
    """The group's library: its name ("" for the home group never named), its sessions with their digest, and the
    seasons it started."""
    sessions = sessions_of(group, withhold=withhold)
    return {"format": FORMAT, "version": VERSION, "group": group.name, "exported_at": iso_time(now()),
            "sessions": sessions, "digest": digest(sessions), "seasons": seasons.exported(group)}


def server_library(*, withhold: bool = False) -> dict[str, Any]:
    """Every group's library, oldest group first, in one envelope (``"group": null``); the operator's, so whole."""
    parts = [library(group, withhold=withhold) for group in groups_.groups()]
    return {"format": FORMAT, "version": VERSION, "group": None, "exported_at": iso_time(now()),
            "groups": parts, "digest": digest(parts)}


def dumps(envelope: dict[str, Any]) -> str:
    """The library as text: names as they are written, one line (tens of MB need no indentation)."""
    return json.dumps(envelope, ensure_ascii=False)


def count(envelope: dict[str, Any]) -> int:
    """How many sessions a library (of a group or a server) holds."""
    return sum(len(part["sessions"]) for part in envelope.get("groups", [envelope]))


def file_name(group: Group) -> str:
    """The library file's name: the group's name in plain letters, and the day ("tuesday-club-library-2025-03-14")."""
    letters = unicodedata.normalize("NFKD", group.name.casefold()).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", letters).strip("-")[:40].strip("-") or "group"
    return f"{slug}-library-{local(now()).strftime('%Y-%m-%d')}.json"


def write(envelope: dict[str, Any], path: Path) -> int:
    """Write the library to ``path``, readable by its owner only (it names every player); the bytes written.

    Written beside it first, then put in its place: a write cut short never leaves half a file there.
    """
    data = dumps(envelope).encode("utf-8")
    scratch = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        with os.fdopen(os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as file:
            file.write(data)
        os.replace(scratch, path)
    finally:
        scratch.unlink(missing_ok=True)
    return len(data)
