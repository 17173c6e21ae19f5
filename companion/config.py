"""Configuration: defaults, then ``instance/config.py``, then the environment."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask

SECRET_FILE = "secret_key"


def defaults(app: Flask) -> dict:
    """The factory's defaults; everything here can be overridden."""
    return {
        "SQLALCHEMY_DATABASE_URI": "sqlite:///" + str(Path(app.instance_path) / "companion.sqlite"),
        "MAX_CONTENT_LENGTH": 256 * 1024,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_NAME": "companion",
        # The phone's seats and recent tables (their tokens) are forgotten after a month without a visit.
        "PERMANENT_SESSION_LIFETIME": 30 * 24 * 3600,
        "WTF_CSRF_TIME_LIMIT": None,
        "SEND_FILE_MAX_AGE_DEFAULT": 365 * 24 * 3600,
        "LIVE_POLL_SECONDS": 1,
        # While a page's stream is up (companion/live/streams.py), its poll asks only this often: a safety net.
        "LIVE_SAFETY_SECONDS": 60,
        # How often a page's stream beats (proxies and phones keep an idle stream open; the page counts its
        # stream lost after three missed beats).
        "STREAM_BEAT_SECONDS": 10,
        # Join codes tried per client (an IPv4 address or an IPv6 /64), right or wrong, per 10 minutes and
        # per day: past either, no code from that client is checked. Per client only: a guesser never blocks
        # another client (docs/architecture.md, "Security": how hopeless guessing is).
        "JOIN_ATTEMPTS_PER_10_MINUTES": 20,
        "JOIN_ATTEMPTS_PER_DAY": 100,
        # A join code opens a table that is still being played and had an entry in the last hours.
        "JOIN_CODE_IDLE_HOURS": 12,
        "IMPORTS_PER_MINUTE": 10,
        "NEW_TABLES_PER_MINUTE": 20,
        # Reverse proxies in front of gunicorn whose X-Forwarded-* headers to read, and from which
        # addresses: anything else connecting directly is taken at its own address.
        "PROXY_FIX": 0,
        "TRUSTED_PROXIES": "127.0.0.1, ::1",
        "STATE_CACHE_TABLES": 512,
        # Rendered table regions kept per worker (companion/live/regions.py): a table page is 20-60 KB.
        "REGION_CACHE_SIZE": 512,
        # Parts every seat of a table shares (scoreboard, board, newest entries; companion/live/parts.py), per worker.
        "SHARED_PART_CACHE_SIZE": 1024,
        # Steps of replays kept rendered per worker (companion/views/replay.py): about 10 KB each.
        "REPLAY_STEPS_KEPT": 256,
        # Tables whose newest version's reads (seating, newest entries, rings; companion/table/view.py) are kept per worker.
        "VERSION_READS_TABLES": 512,
        # A session nobody has recorded anything at for this long, and not finished, is called
        # abandoned in the history (which can leave such sessions out).
        "ABANDONED_AFTER_HOURS": 24,
        # PostgreSQL only: keep table heads between the changes the database announces
        # (companion/live/board.py). Turn off behind a pooler that cannot LISTEN (PgBouncer's
        # transaction mode): every poll then reads the row.
        "HEAD_BOARD": True,
        # The address phones open, printed by `make run` and encoded in the join link and QR code
        # (companion/web/hosting.py). None: this machine's LAN address when opened as localhost, else
        # the request's own URL root.
        "PUBLIC_URL": None,
        # "open": one group, and every phone that reaches the server is in it (a home network). "private": a
        # server for many groups, where a phone sees only the groups whose invitation it opened.
        "GROUPS": "open",
        # A SQLite library's backups (companion/library/): `make run` takes one at start and one a day after,
        # keeping the newest BACKUPS_KEPT (0: none taken) in BACKUP_FOLDER (None: instance/backups; a
        # relative folder is inside the instance folder).
        # A removed session or group lies in its group's bin this many days, restorable; then it is gone for good.
        "BIN_DAYS": 30,
        "BACKUP_FOLDER": None,
        "BACKUPS_KEPT": 7,
    }


def load_environment(app: Flask) -> None:
    """Read DATABASE_URL and SECRET_KEY (and any COMPANION_* setting) from the environment."""
    app.config.from_prefixed_env("COMPANION")
    if url := os.environ.get("DATABASE_URL"):
        # Hosted PostgreSQL often hands out postgres:// URLs; SQLAlchemy wants a driver.
        for prefix in ("postgres://", "postgresql://"):
            if url.startswith(prefix):
                url = "postgresql+psycopg://" + url[len(prefix):]
        app.config["SQLALCHEMY_DATABASE_URI"] = url
    if key := os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = key


def write_private(path: Path, text: str) -> None:
    """Write a file only its owner can read, from the moment it exists (never a world-readable instant)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(text)


def ensure_secret_key(app: Flask) -> None:
    """Use the configured key, else one generated once into ``instance/`` and kept."""
    if app.config.get("SECRET_KEY"):
        return
    path = Path(app.instance_path) / SECRET_FILE
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written aside, then linked into place: two workers starting together
        # must agree on one key and never read a half-written file.
        scratch = path.with_name(f"{SECRET_FILE}.{os.getpid()}")
        write_private(scratch, secrets.token_hex(32))
        try:
            os.link(scratch, path)
        except FileExistsError:
            pass
        finally:
            scratch.unlink()
    app.config["SECRET_KEY"] = path.read_text().strip()

