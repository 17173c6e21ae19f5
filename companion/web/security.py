"""Security headers, the device id, and proxy awareness."""

from __future__ import annotations

import ipaddress
import time

from flask import Flask, Response, abort, current_app, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature
from werkzeug.middleware.proxy_fix import ProxyFix

# No inline scripts or styles anywhere: htmx is configured through a meta tag
# and its indicator styles live in app.css.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        # The silent video nosleep.js plays to keep a phone's screen on over plain HTTP is a data: URL.
        "media-src 'self' data:",
        "connect-src 'self'",
        # The service worker (served from /sw.js) and the web app manifest: this site's own only.
        "worker-src 'self'",
        "manifest-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

# Sent on every answer over HTTPS.
HSTS = ("Strict-Transport-Security", "max-age=31536000")

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}


class SessionInterface(SecureCookieSessionInterface):
    """The signed session cookie, marked Secure whenever the request came over HTTPS.

    The same server answers plain HTTP on the home network and HTTPS behind a proxy (PROXY_FIX
    passes the scheme on): a fixed SESSION_COOKIE_SECURE would break one or leak the other.
    """

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or (has_request_context() and request.is_secure)

    # A permanent session's month is counted from the last visit, but the cookie is written again at
    # most once a day: Flask's own refresh signs and sends it on every answer, the live poll's 204
    # every second included (a quarter of a poll's time, and a Set-Cookie on each).
    REFRESH_AFTER_SECONDS = 24 * 3600

    def open_session(self, app: Flask, request):
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        try:
            data, signed_at = serializer.loads(value, max_age=int(app.permanent_session_lifetime.total_seconds()),
                                               return_timestamp=True)
        except BadSignature:
            return self.session_class()
        session = self.session_class(data)
        session.signed_at = signed_at.timestamp()
        return session

    def should_set_cookie(self, app: Flask, session) -> bool:
        if session.modified:
            return True
        if not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        signed_at = getattr(session, "signed_at", None)
        return signed_at is None or time.time() - signed_at >= self.REFRESH_AFTER_SECONDS


# A script or a style sheet is never a document: of the headers, only nosniff means anything to it
# (the others govern the page that loads it). Left off, 11 files of a first visit weigh 4 KB less.
SUBRESOURCES = {"text/css", "text/javascript", "application/javascript"}
SUBRESOURCE_HEADERS = {"X-Content-Type-Options": HEADERS["X-Content-Type-Options"]}


# An SVG image opened on its own is a document, but ours (the icon, a table's QR code) need nothing at
# all: no script, no style, no link, nothing fetched. A policy that allows nothing says so in a tenth
# of the page's bytes, stricter than the page's (the two of a table page's first visit: 0.8 KB less).
# Raster images are never documents: nosniff alone.
IMAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": HEADERS["X-Content-Type-Options"],
}


def _header_set(response: Response) -> dict:
    if response.mimetype == "image/svg+xml":
        return IMAGE_HEADERS
    if (response.mimetype or "").startswith("image/") or (request.endpoint == "static" and response.mimetype in SUBRESOURCES):
        return SUBRESOURCE_HEADERS
    return HEADERS


def _headers(response: Response) -> Response:
    for name, value in _header_set(response).items():
        response.headers.setdefault(name, value)
    if request.is_secure:
        response.headers.setdefault(*HSTS)
    return response


def allows_upload(limit: int):
    """Let one view take a multipart body of up to ``limit`` bytes; every other keeps MAX_CONTENT_LENGTH."""
    def decorate(view):
        view.upload_limit = limit
        return view
    return decorate


# The longest address (path and query) and header line the app takes: as long as gunicorn's defaults
# allowed before (a 4,094-byte request line, 8,190-byte header lines). Longer ones are answered here, with
# the app's own 414 and 431 pages in the phone's language; gunicorn's own limits stand above these
# (companion/server/gunicorn_conf.py), so that it hands such requests on rather than answer them itself.
URL_MAX = 4096
HEADER_LINE_MAX = 8190


def _refuse_oversized_head() -> None:
    environ = request.environ
    address = environ.get("RAW_URI") or environ.get("REQUEST_URI") or request.full_path
    if len(address) > URL_MAX:
        abort(414)
    if any(len(name) + 2 + len(value) > HEADER_LINE_MAX for name, value in request.headers.items()):
        abort(431)


def _has_nul(values) -> bool:
    return any("\x00" in value for _, listed in values.lists() for value in listed)


def _refuse_nul() -> None:
    # No player ever types a NUL; PostgreSQL cannot even compare one, so it
    # would turn a bad link or a hostile form into a 500 deep in a query.
    if "\x00" in request.path:
        abort(404)
    if _has_nul(request.args):
        abort(400)
    if request.method != "POST":
        return
    if request.mimetype == "multipart/form-data":
        view = current_app.view_functions.get(request.endpoint)
        if limit := getattr(view, "upload_limit", None):
            request.max_content_length = limit
        # A body over the limit is left to the view (or the 413 page) to refuse, unread.
        if request.content_length is None or request.content_length > (request.max_content_length or 0):
            return
    if _has_nul(request.form):
        abort(400)


class TrustedProxyFix:
    """ProxyFix for requests that come from a trusted proxy's address only.

    With PROXY_FIX set and gunicorn also reachable directly, anyone could send X-Forwarded-For
    with a new made-up address on every request and never be limited. The headers are read only
    when the connection itself comes from TRUSTED_PROXIES (loopback by default: a proxy on the
    same machine); from anywhere else they are ignored and the connection's address counts.
    """

    def __init__(self, app, hops: int, trusted: str) -> None:
        self.app = app
        self.fixed = ProxyFix(app, x_for=hops, x_proto=hops, x_host=hops)
        self.trusted = [ipaddress.ip_network(part.strip(), strict=False) for part in trusted.split(",") if part.strip()]

    def trusts(self, address: str | None) -> bool:
        try:
            ip = ipaddress.ip_address((address or "").split("%", 1)[0])
        except ValueError:
            return False
        if ip.version == 6 and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in network for network in self.trusted if network.version == ip.version)

    def __call__(self, environ, start_response):
        if self.trusts(environ.get("REMOTE_ADDR")):
            return self.fixed(environ, start_response)
        return self.app(environ, start_response)


def init_app(app: Flask) -> None:
    """Install the headers, refuse oversized heads and NUL characters, and trust PROXY_FIX proxies at
    TRUSTED_PROXIES addresses."""
    app.session_interface = SessionInterface()
    app.before_request(_refuse_oversized_head)
    app.before_request(_refuse_nul)
    app.after_request(_headers)
    if hops := int(app.config["PROXY_FIX"]):
        app.wsgi_app = TrustedProxyFix(app.wsgi_app, hops, str(app.config["TRUSTED_PROXIES"]))
