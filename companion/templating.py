"""Template helpers: versioned static URLs, htmx detection, the game registry."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from flask import Flask, request
from flask_compress import Compress

from .rules import GAMES

compress = Compress()


@cache
def _file_version(static_folder: str, filename: str) -> str:
    path = Path(static_folder) / filename
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:10]
    except OSError:
        return "0"


def is_htmx() -> bool:
    """Whether the request is an htmx swap (not a boosted navigation or history restore)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"


def init_app(app: Flask) -> None:
    """Versioned static URLs (cached for a year), compression, template globals."""

    @app.url_defaults
    def _static_version(endpoint: str, values: dict) -> None:
        # The file's hash in the URL lets browsers keep it for a year safely.
        if endpoint == "static" and "filename" in values and "v" not in values:
            values["v"] = _file_version(app.static_folder, values["filename"])

    app.config.setdefault("COMPRESS_MIMETYPES", [
        "text/html", "text/css", "text/plain", "text/csv", "application/javascript",
        "text/javascript", "application/json", "image/svg+xml",
    ])
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    compress.init_app(app)

    @app.after_request
    def _compress_static(response):
        # Registered after Compress, so it runs first: static files are sent
        # as a passthrough stream that Compress would otherwise leave as is.
        if request.endpoint == "static" and response.status_code == 200:
            response.direct_passthrough = False
            response.make_sequence()
        return response
    app.jinja_env.globals.update(games=GAMES, is_htmx=is_htmx)
    if app.testing:
        from jinja2 import StrictUndefined

        app.jinja_env.undefined = StrictUndefined
