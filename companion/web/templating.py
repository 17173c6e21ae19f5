"""Template helpers: versioned static URLs, htmx detection, the game registry, times for machines."""

from __future__ import annotations

import gzip
import hashlib
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

import brotli
import rcssmin
import rjsmin
from flask import Flask, has_request_context, request, url_for
from flask_compress import Compress

from .hosting import phone_url
from ..rules import GAMES
from ..table.log import game_title

compress = Compress()


@cache
def _file_version(static_folder: str, filename: str) -> str:
    path = Path(static_folder) / filename
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:10]
    except OSError:
        return "0"


# Our own style sheets and scripts are written to be read, their comments saying why: a phone is sent them
# without the comments and the spaces (a third of their bytes, compressed). The vendored files come minified.
MINIFIERS = {".css": rcssmin.cssmin, ".js": rjsmin.jsmin}


def minified(path: Path, data: bytes) -> bytes:
    """The bytes a phone is sent of one of our own static files: without comments and spaces."""
    minify = MINIFIERS.get(path.suffix)
    if minify is None or "vendor" in path.parts:
        return data
    return minify(data.decode("utf-8")).encode("utf-8")


@cache
def _compressed_static(path: str, _modified: int, encoding: str) -> bytes:
    """A static file minified and compressed at the highest level, once per process (and again if the file
    changes)."""
    data = minified(Path(path), Path(path).read_bytes())
    return brotli.compress(data, quality=11) if encoding == "br" else gzip.compress(data, 9, mtime=0)


@cache
def _static_url(_script_root: str, filename: str) -> str:
    return url_for("static", filename=filename)


def template_url_for(endpoint: str, **values) -> str:
    """``url_for`` as the templates call it: a static file's address (its version in it) built once per process
    and mount point, as a page names a dozen of them on every answer."""
    if endpoint == "static" and values.keys() == {"filename"} and has_request_context():
        return _static_url(request.script_root, values["filename"])
    return url_for(endpoint, **values)


def machine_time(moment: datetime) -> str:
    """A stored time as a ``<time datetime>`` value: whole seconds with its zone (HTML allows no more than
    milliseconds; SQLite hands the time back without its zone, which is UTC)."""
    return (moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment).isoformat(timespec="seconds")


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
    # Pages change with every entry and are compressed fast; static files never change under their
    # versioned URL, so each is compressed once, as small as it gets, and kept (below).
    app.config.setdefault("COMPRESS_BR_LEVEL", 3)
    app.config.setdefault("COMPRESS_LEVEL", 6)
    compress.init_app(app)

    @app.after_request
    def _compress_static(response):
        # Registered after Compress, so it runs first: Compress leaves an encoded answer alone.
        if request.endpoint != "static" or response.status_code != 200 or response.mimetype not in compressible:
            return response
        encoding = request.accept_encodings.best_match(["br", "gzip"])
        if encoding is None:
            return response
        path = Path(app.static_folder) / request.view_args["filename"]
        body = _compressed_static(str(path), path.stat().st_mtime_ns, encoding)
        # The file send_file opened is not read: close it before sending the kept bytes instead.
        if hasattr(response.response, "close"):
            response.response.close()
        response.direct_passthrough = False
        response.set_data(body)
        response.headers["Content-Encoding"] = encoding
        etag, weak = response.get_etag()
        if etag:
            response.set_etag(f"{etag}:{encoding}", weak=weak)
        return response

    @app.after_request
    def _immutable_static(response):
        # Registered last, so it runs first. A file asked at its current version never changes under
        # that address: the browser keeps it for the year without asking again, so the validators
        # and the rest are bytes for nothing on every file of a first visit (about 0.25 KB each).
        if request.endpoint != "static" or response.status_code != 200:
            return response
        filename = request.view_args["filename"]
        if request.args.get("v") != _file_version(app.static_folder, filename):
            return response
        for name in ("Last-Modified", "ETag", "Expires", "Accept-Ranges", "Content-Disposition"):
            response.headers.pop(name, None)
        response.headers["Cache-Control"] = f"public, max-age={365 * 24 * 3600}, immutable"
        return response

    compressible = set(app.config["COMPRESS_MIMETYPES"])
    app.jinja_env.globals.update(url_for=template_url_for, games=GAMES, game_title=game_title, is_htmx=is_htmx, phone_url=phone_url)
    app.jinja_env.filters["machine_time"] = machine_time
    if app.testing:
        from jinja2 import StrictUndefined

        app.jinja_env.undefined = StrictUndefined
