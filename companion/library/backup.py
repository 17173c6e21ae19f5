"""Backups of a SQLite library: a consistent copy taken while the server writes, checked, kept in turn, put back.

Every copy goes through SQLite's online backup API (``sqlite3.Connection.backup``): it reads the
whole database in one read transaction, through SQLite's own locks, so the copy is the library as it
stood at one moment, while the server's writers go on committing beside it (the database is in WAL
mode). A file copy of a database in use can catch it half-written.
"""

from __future__ import annotations

import itertools
import os
import re
import sqlite3
from collections.abc import Collection
from contextlib import closing, suppress
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from ..models import REMOVED

MAGIC = b"SQLite format 3\x00"
HEADER_BYTES = 100
# What makes a file a companion library: the app's own tables, and the migration its schema is at.
LIBRARY_TABLES = ("tables", "entries", "alembic_version")
STAMP = "%Y-%m-%d-%H%M%S"
# The names the app gives the backups it makes in a folder; rotation counts and touches nothing else.
NAMED = re.compile(r"companion-(\d{4}-\d\d-\d\d-\d{6})(?:-(\d+))?\.sqlite")
# A backup being written, under a name of its own until it is checked: ".<its name>.partial-<pid>".
PARTIAL = re.compile(r"\.companion-.+\.sqlite\.partial-(\d+)")
BUSY_SECONDS = 15


class BackupRefused(Exception):
    """A backup or a restore that was not done; the message says why, in one sentence."""


class NotALibrary(BackupRefused):
    """A file that is not a companion library; ``reason`` says what it is instead."""

    def __init__(self, path: Path, reason: str) -> None:
        message = f"{path} {reason}."
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Library:
    """A library file, checked: where it is, its size, what it holds, and the migration its schema is at."""

    path: Path
    size: int
    sessions: int
    entries: int
    revision: str


@dataclass(frozen=True)
class Restored:
    """A restore done: the library put back, and where the database as it was is kept (None if there was none)."""

    library: Library
    aside: Path | None


def readable_size(size: float) -> str:
    """``size`` bytes as a person reads it: 812 bytes, 40.0 KB, 1.2 MB."""
    if size < 1024:
        return f"{size:.0f} bytes"
    for unit in ("KB", "MB", "GB"):
        size /= 1024
        if size < 1024:
            break
    return f"{size:.1f} {unit}"


def take(database: Path, destination: Path) -> Library:
    """Copy the library at ``database`` into ``destination`` while it serves, and check the copy.

    ``destination`` is a file to create, or a folder to name one in (``companion-YYYY-MM-DD-HHMMSS.sqlite``);
    an existing file is never replaced. The copy is its owner's only (0600), as the database is.
    """
    if not database.is_file():
        raise BackupRefused(f"There is no database at {database}: nothing was backed up.")
    if destination.is_dir():
        target = _next_in(destination)
    elif destination.exists() or destination.is_symlink():
        raise BackupRefused(f"{destination} already exists: a backup never replaces a file.")
    elif not destination.parent.is_dir():
        raise BackupRefused(f"There is no folder {destination.parent} to write {destination.name} in.")
    else:
        target = destination
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        _remove(partial)  # left by a killed process that had this one's number
        _copy(database, partial)
        library = check(partial)
        _place(partial, target)
    except NotALibrary as refusal:
        raise BackupRefused(f"{database} {refusal.reason}: no backup was kept.") from None
    except (sqlite3.Error, OSError) as error:
        raise BackupRefused(f"{database} could not be backed up into {target} ({_why(error)}).") from None
    finally:
        _remove(partial)
    return replace(library, path=target, size=target.stat().st_size)


def check(path: Path) -> Library:
    """What the library file at ``path`` holds; ``NotALibrary``, with the reason, for anything else."""
    try:
        size = path.stat().st_size
        with path.open("rb") as file:
            header = file.read(HEADER_BYTES)
    except FileNotFoundError:
        raise NotALibrary(path, "does not exist") from None
    except IsADirectoryError:
        raise NotALibrary(path, "is a folder, not a backup file") from None
    except OSError as error:
        raise NotALibrary(path, f"cannot be read ({_why(error)})") from None
    if size == 0:
        raise NotALibrary(path, "is empty")
    if len(header) < HEADER_BYTES or not header.startswith(MAGIC):
        raise NotALibrary(path, "is not a SQLite database")
    if reason := _cut_short(header, size):
        raise NotALibrary(path, reason)
    try:
        with closing(_open(path, "ro")) as library:
            names = {row[0] for row in library.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if missing := [f'"{name}"' for name in LIBRARY_TABLES if name not in names]:
                listed = ", ".join(missing[:-1]) + " or " + missing[-1] if len(missing) > 1 else missing[0]
                raise NotALibrary(path, f"is a SQLite database, but not a companion library (it has no {listed} table)")
            verdict = library.execute("PRAGMA integrity_check").fetchall()
            if verdict != [("ok",)]:
                raise NotALibrary(path, f"is damaged (SQLite's integrity check says: {verdict[0][0]})")
            revisions = [row[0] for row in library.execute("SELECT version_num FROM alembic_version")]
            sessions = library.execute("SELECT count(*) FROM tables WHERE status != ?", (REMOVED,)).fetchone()[0]
            entries = library.execute("SELECT count(*) FROM entries JOIN tables ON tables.id = entries.table_id "
                                      "WHERE tables.status != ?", (REMOVED,)).fetchone()[0]
    except sqlite3.OperationalError as error:
        raise NotALibrary(path, f"cannot be read as a companion library ({error})") from None
    except sqlite3.DatabaseError as error:
        raise NotALibrary(path, f"is damaged ({error})") from None
    if len(revisions) != 1:
        raise NotALibrary(path, "is not a companion library (it names no single migration of its schema)")
    return Library(path, size, sessions, entries, revisions[0])


def rotate(folder: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` backups the app named in ``folder`` (none if ``keep`` < 1); those deleted.

    Only the files under the app's own names are counted and deleted, and the partial copies that a
    backup killed halfway left behind: anything else in the folder stays as it is.
    """
    made = sorted((path for path in folder.iterdir() if NAMED.fullmatch(path.name) and path.is_file()),
                  key=_made_when)
    gone = made[:-keep] if keep >= 1 else []
    for path in gone:
        path.unlink()
    for path in folder.iterdir():
        if (partial := PARTIAL.fullmatch(path.name)) and not _running(int(partial[1])):
            _remove(path)
    return gone


def restore(backup: Path, database: Path, revisions: Collection[str]) -> Restored:
    """Put the library in ``backup`` in place of the one at ``database``, which is kept aside first.

    Refused, with nothing changed, for anything but a companion library at one of ``revisions`` (the
    migrations this app knows). The copy goes in through the online backup API, so a server still
    running sees either library whole, never half of each; but what its workers keep in memory does
    not follow, which is why a restore is made with the server stopped.
    """
    if database.exists() and backup.exists() and os.path.samefile(backup, database):
        raise BackupRefused(f"{backup} is the current database itself, not a backup of it.")
    library = check(backup)
    if library.revision not in revisions:
        raise BackupRefused(f"{backup} comes from a newer version of the app (its schema is at migration "
                            f"{library.revision}, which this one does not know): update the app, then restore it.")
    aside = _keep_aside(database) if database.exists() else None
    try:
        if aside is None:
            _create_private(database)
        with closing(_open(backup, "ro")) as reading, closing(_open(database, "rw")) as live:
            reading.backup(live)
    except (sqlite3.Error, OSError) as error:
        kept = f"; the database as it was is kept in {aside}" if aside else ""
        raise BackupRefused(f"{backup} could not be copied into {database} ({_why(error)}){kept}.") from None
    return Restored(library, aside)


def _keep_aside(database: Path) -> Path:
    """A copy of the database as it is, beside it, before a restore replaces it."""
    aside = _unused(database.parent, f"{database.name}.before-restore-{datetime.now().strftime(STAMP)}")
    try:
        _copy(database, aside)
    except (sqlite3.Error, OSError) as error:
        _remove(aside)
        raise BackupRefused(f"The current database {database} could not be copied aside ({_why(error)}): with "
                            "the server stopped, move it away (and its -wal and -shm files), then restore again.") from None
    return aside


def _copy(source: Path, target: Path) -> None:
    """The online backup of ``source`` into ``target``, a new private file that stands on its own."""
    _create_private(target)
    with closing(_open(source, "rw")) as reading, closing(sqlite3.connect(target, timeout=BUSY_SECONDS)) as writing:
        reading.backup(writing)
        # The copy arrives in the source's WAL mode; as one file, with no -wal beside it, it can be moved,
        # mailed and opened read-only.
        writing.execute("PRAGMA journal_mode=DELETE")


def _open(path: Path, mode: str) -> sqlite3.Connection:
    """A connection to the existing database at ``path``, read-only (``ro``) or not (``rw``); never one it creates."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True, timeout=BUSY_SECONDS)


def _create_private(path: Path) -> None:
    # Created 0600 before SQLite opens it (SQLite would make it 0644); its journal takes the same mode.
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _cut_short(header: bytes, size: int) -> str | None:
    """Why a file with a SQLite header cannot be the whole database, if it cannot."""
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return "is not a SQLite database (its header is damaged)"
    # The header's page count holds only when SQLite vouched for it (its "version-valid-for" number).
    pages = int.from_bytes(header[28:32], "big") if header[24:28] == header[92:96] else 0
    if size % page_size or size < pages * page_size:
        return (f"is cut short ({readable_size(size)} where its header counts "
                f"{readable_size(max(pages * page_size, size))}): a truncated copy")
    return None


def _place(partial: Path, target: Path) -> None:
    """Give the checked copy its name, never over an existing file, and make the name durable."""
    try:
        os.link(partial, target)
    except OSError as error:
        # A file system without hard links (a FAT memory stick): a rename, after one last look.
        if isinstance(error, FileExistsError) or target.exists():
            raise BackupRefused(f"{target} already exists: a backup never replaces a file.") from None
        os.rename(partial, target)
    with suppress(OSError):  # a file system that cannot sync a folder: the file itself is synced
        folder = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def _unused(folder: Path, name: str, suffix: str = "") -> Path:
    """``folder/<name><suffix>``, or with -2, -3… before the suffix while the name is taken."""
    candidates = (folder / (f"{name}{suffix}" if number == 1 else f"{name}-{number}{suffix}")
                  for number in itertools.count(1))
    return next(path for path in candidates if not path.exists() and not path.is_symlink())


def _next_in(folder: Path) -> Path:
    """The name of a new backup in ``folder``: its moment, and a number after those of the same second (rotation
    may have deleted the first ones: their names are not taken again, so a name's order stays its age)."""
    stamp = datetime.now().strftime(STAMP)
    numbers = [_made_when(path)[1] for path in folder.glob(f"companion-{stamp}*.sqlite") if NAMED.fullmatch(path.name)]
    number = max(numbers, default=0) + 1
    return folder / (f"companion-{stamp}.sqlite" if number == 1 else f"companion-{stamp}-{number}.sqlite")


def _made_when(path: Path) -> tuple[str, int]:
    named = NAMED.fullmatch(path.name)
    return named[1], int(named[2] or 1)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's
    return True


def _remove(path: Path) -> None:
    """Delete a copy of ours and the journal files SQLite may have left beside it."""
    for leftover in (path, *(path.with_name(path.name + end) for end in ("-journal", "-wal", "-shm"))):
        leftover.unlink(missing_ok=True)


def _why(error: Exception) -> str:
    return getattr(error, "strerror", None) or str(error)
