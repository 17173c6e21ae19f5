"""The app on a phone's home screen and in a pocket without Wi-Fi: its manifest, its service worker,
what the worker keeps for offline use, and the page it shows where it has no copy of a page.

The worker itself is ``static/sw.js``, served here at the root so that it may look after every page
(a worker's reach is the folder it is served from). It is registered with the release in its address
(``worker_url``): a new release is a new worker, whose caches replace the old ones.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, url_for

from .. import i18n
from ..i18n.formats import force_language
from ..rules.words import _

bp = Blueprint("installed", __name__)

# The brand's green (the icon's background) and the pages' own backgrounds, light and dark (Pico's).
THEME_COLOR = "#1d6f42"
BACKGROUND_LIGHT = "#ffffff"
BACKGROUND_DARK = "#13171f"
# The home-screen icons, drawn from static/icon.svg and static/icons/maskable.svg (scripts/make_icons.py).
ICONS = (
    {"src": "icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
    {"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
    {"src": "icons/maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
)
# Kept by the worker for offline use: every static file a page loads (licences, the icons' sources and
# the worker itself, which the browser keeps its own way, stay on the server).
_NOT_KEPT = {"LICENSE", "LICENSE.md", "maskable.svg", "sw.js"}


def static_files(app: Flask) -> list[str]:
    """The static files a page may load, by their path under ``static/``, sorted."""
    return list(_static_files(app.static_folder))


# Read once per process, as each file's own version is (``web.templating``): a release is a restart.
@cache
def _static_files(folder: str) -> tuple[str, ...]:
    root = Path(folder)
    return tuple(sorted(str(path.relative_to(root)) for path in root.rglob("*")
                        if path.is_file() and path.name not in _NOT_KEPT and not path.name.startswith(".")))


@cache
def _release(folder: str) -> str:
    digest = hashlib.sha256()
    for name in (*_static_files(folder), "sw.js"):
        digest.update(name.encode() + b"\0" + (Path(folder) / name).read_bytes())
    return digest.hexdigest()[:12]


def release() -> str:
    """The static files' version, as one short name: the worker's caches are named by it."""
    return _release(current_app.static_folder)


def worker_url() -> str:
    """Where a page registers the service worker: this release's."""
    return url_for("installed.worker", release=release())


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest, in the phone's language: what the home screen shows and how the app opens."""
    data = {
        "id": "/",
        "name": _("Table companion"),
        "short_name": _("Companion"),
        "description": _("The table companion: scores, memo cards and the bell for card games played at a real table."),
        "lang": i18n.language(),
        "dir": "ltr",
        "start_url": url_for("home.index"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_LIGHT,
        "categories": ["games", "utilities"],
        "icons": [{**icon, "src": url_for("static", filename=icon["src"])} for icon in ICONS],
        "shortcuts": [{"name": _("Carambouille memo card"), "url": url_for("carambouille.memo.card"),
                       "icons": [{"src": url_for("static", filename=ICONS[0]["src"]), "sizes": "192x192"}]}],
    }
    response = jsonify(data)
    response.mimetype = "application/manifest+json"
    response.headers["Cache-Control"] = "no-cache"
    response.vary.update(("Accept-Language", "Cookie"))
    return response


@cache
def _worker_script(folder: str) -> bytes:
    return (Path(folder) / "sw.js").read_bytes()


@bp.get("/sw.js")
def worker() -> Response:
    """The service worker (``static/sw.js``), from the root so that its scope is the whole site."""
    response = Response(_worker_script(current_app.static_folder), mimetype="text/javascript")
    # Asked again on every registration: a new release must reach the phones at once.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline/files")
def kept_files() -> Response:
    """What the worker keeps when it is installed: the static files (their versioned addresses), the
    offline page in each language, and the pages worth having without a network (the memo card)."""
    app = current_app._get_current_object()
    response = jsonify({
        "release": release(),
        "files": [url_for("static", filename=name) for name in static_files(app)]
                 + [url_for("installed.offline", lang=code) for code in i18n.LANGUAGES],
        "pages": [url_for("carambouille.memo.card")],
    })
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/offline/<lang>")
def offline(lang: str) -> tuple[str, int, dict]:
    """The page the worker shows for a page it has no copy of, in one language (it keeps all four)."""
    if lang not in i18n.LANGUAGES:
        abort(404)
    with force_language(lang):
        html = render_template("offline.html", lang=lang)
    return html, 200, {"Content-Language": lang, "Cache-Control": "no-cache"}


def init_app(app: Flask) -> None:
    """Give the pages the worker's address."""
    app.jinja_env.globals.update(worker_url=worker_url, theme_color=THEME_COLOR,
                                 background_dark=BACKGROUND_DARK)
