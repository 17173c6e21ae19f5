"""Security by default: CSRF, headers on every page, no inline scripts, bounded requests, escaped text."""

from __future__ import annotations

import re
import time

import pytest

from companion import create_app
from companion.extensions import db
from helpers import csrf_token, database_url, form_key, make_table

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)
INLINE_STYLE = re.compile(r"<style|\sstyle\s*=", re.I)


@pytest.fixture
def csrf_app(tmp_path, tiny):
    # The tiny game is registered (``tiny``) before the app is made: the app registers its views.
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_url(tmp_path)})
    with app.app_context():
        db.drop_all()
        db.create_all()
    yield app
    with app.app_context():
        db.drop_all()
        db.engine.dispose()


def pages(app, client):
    token = make_table(app, "tiny", ["Ana", "<b>Ben</b>"])
    client.post(f"/t/{token}/tiny/score", data={"player": 1, "points": 5, "key": form_key()})
    with app.app_context():
        from companion.models import Table
        watch = db.session.query(Table).one().watch_token
    return [f"/new/tiny", f"/t/{token}", f"/w/{watch}", f"/t/{token}/history", f"/t/{token}/undo?entry=1",
            "/t/missing"]


# The policy as it must be, written out here rather than read from the app: this site's own files and nothing
# else, no inline code, no plugin, no <base>, forms posted here only, never framed by another site.
POLICY = {
    "default-src": ["'self'"], "script-src": ["'self'"], "style-src": ["'self'"], "img-src": ["'self'", "data:"],
    "media-src": ["'self'", "data:"], "connect-src": ["'self'"], "worker-src": ["'self'"],
    "manifest-src": ["'self'"], "font-src": ["'self'"], "object-src": ["'none'"], "base-uri": ["'none'"],
    "form-action": ["'self'"], "frame-ancestors": ["'none'"],
}


def directives(policy: str) -> dict[str, list[str]]:
    """A Content-Security-Policy header as {directive: sources}."""
    return {name: sources for name, *sources in (part.split() for part in policy.split(";") if part.strip())}


def test_every_page_sends_the_security_headers(app, client):
    for path in pages(app, client):
        response = client.get(path)
        assert directives(response.headers["Content-Security-Policy"]) == POLICY, path
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["Permissions-Policy"] == "camera=(), microphone=(), geolocation=()"


def test_no_page_has_inline_scripts_handlers_or_styles(app, client):
    for path in pages(app, client):
        html = client.get(path).text
        assert not INLINE_SCRIPT.search(html), path
        assert not INLINE_HANDLER.search(html), path
        assert not INLINE_STYLE.search(html), path


def test_player_names_are_escaped_everywhere(app, client):
    for path in pages(app, client):
        html = client.get(path).text
        assert "<b>Ben</b>" not in html, path


def test_a_post_without_the_csrf_token_is_refused(csrf_app):
    client = csrf_app.test_client()
    token = make_table(csrf_app, "tiny", ["Ana", "Ben"])
    refused = client.post(f"/t/{token}/tiny/score", data={"player": 0, "points": 5, "key": form_key()})
    assert refused.status_code == 400 and "This form has expired" in refused.text
    page = client.get(f"/t/{token}")
    accepted = client.post(f"/t/{token}/tiny/score", data={"player": 0, "points": 5, "key": form_key(),
                                                           "csrf_token": csrf_token(page.text)})
    assert accepted.status_code == 303


def test_htmx_requests_carry_the_csrf_token_in_a_header(csrf_app):
    client = csrf_app.test_client()
    token = make_table(csrf_app, "tiny", ["Ana", "Ben"])
    page = client.get(f"/t/{token}").text
    header = re.search(r"hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'", page).group(1)
    response = client.post(f"/t/{token}/tiny/score", data={"player": 0, "points": 5, "key": form_key()},
                           headers={"HX-Request": "true", "X-CSRFToken": header})
    assert response.status_code == 200 and "Ana scored 5" in response.text


def test_the_session_cookie_is_httponly_and_samesite_lax(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    cookie = client.get(f"/t/{token}").headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_oversized_requests_are_refused(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    response = client.post(f"/t/{token}/tiny/score", data={"player": "0", "points": "x" * (300 * 1024)})
    assert response.status_code == 413 and "larger than the app accepts" in response.text


def test_static_files_are_versioned_and_cached_long(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    html = client.get(f"/t/{token}").text
    url = re.search(r'src="(/static/vendor/htmx-2\.0\.11/htmx\.min\.js\?v=[0-9a-f]{10})"', html).group(1)
    response = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200 and "max-age=31536000" in response.headers["Cache-Control"]
    assert response.headers.get("Content-Encoding") == "gzip"
    response.close()


def test_a_static_address_kept_for_one_mount_point_is_not_given_to_another(app, client):
    # The templates' static addresses are built once per process and mount point: a server reached under
    # /games (behind a proxy) and at / at once gives each phone the files under its own address.
    token = make_table(app, "tiny", ["Ana", "Ben"])
    for root in ("", "/games", ""):
        html = client.get(f"/t/{token}", environ_overrides={"SCRIPT_NAME": root}).text
        assert re.search(rf'src="{root}/static/vendor/htmx-2\.0\.11/htmx\.min\.js\?v=[0-9a-f]{{10}}"', html)
        assert f'href="{root}/static/app.css?v=' in html


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_static_files_are_sent_compressed_as_small_as_they_get(app, client, encoding):
    import gzip
    from pathlib import Path

    import brotli

    original = (Path(app.static_folder) / "vendor/pico-2.1.1/pico.min.css").read_bytes()
    response = client.get("/static/vendor/pico-2.1.1/pico.min.css?v=x", headers={"Accept-Encoding": f"{encoding}, deflate"})
    body = response.get_data()
    assert response.status_code == 200 and response.headers["Content-Encoding"] == encoding
    assert (brotli.decompress(body) if encoding == "br" else gzip.decompress(body)) == original
    # The highest level: smaller than the quick level the pages use.
    quick = brotli.compress(original, quality=1) if encoding == "br" else gzip.compress(original, 1)
    assert len(body) < len(quick)
    assert response.headers["ETag"].endswith(f':{encoding}"')
    plain = client.get("/static/vendor/pico-2.1.1/pico.min.css?v=x", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and plain.get_data() == original
    response.close()
    plain.close()


def test_a_static_file_at_its_current_version_is_kept_a_year_with_nothing_to_revalidate(app, client):
    with app.test_request_context():
        from flask import url_for

        url = url_for("static", filename="app.js")
    response = client.get(url, headers={"Accept-Encoding": "br"})
    assert response.status_code == 200 and response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    # Bytes for nothing on every file of a first visit: the address changes with the file.
    for header in ("ETag", "Last-Modified", "Expires", "Content-Disposition"):
        assert header not in response.headers, header
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    response.close()
    # An address of another version is answered as before (validators kept: it may change under it).
    other = client.get("/static/app.js?v=old")
    assert "ETag" in other.headers and "immutable" not in other.headers["Cache-Control"]
    other.close()


@pytest.mark.parametrize("path", ["/history?player=a%00b", "/t/abcdefghijklmnop/live?seen=%00", "/memo/carambouille?product=%00"])
def test_a_nul_character_anywhere_is_a_clear_400_not_a_database_error(client, path):
    response = client.get(path)
    assert response.status_code == 400 and "That request did not make sense" in response.text


def test_a_nul_character_in_a_form_is_refused_before_any_query(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    response = client.post(f"/t/{token}/tiny/score", data={"player": "0", "points": "5\x00", "key": form_key()})
    assert response.status_code == 400


def test_a_nul_character_in_a_multipart_form_is_refused_too(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    response = client.post(f"/t/{token}/tiny/score", data={"player": "0", "points": "5\x00", "key": form_key()},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "Ana scored" not in client.get(f"/t/{token}").text


def test_a_nul_character_in_the_import_form_is_refused(client):
    import io

    response = client.post("/import", data={"csrf_token": "a\x00b", "file": (io.BytesIO(b"{}"), "s.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 400


def test_a_second_value_of_a_field_is_checked_for_nul_too(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    from werkzeug.datastructures import MultiDict

    form = MultiDict([("player", "0"), ("player", "\x00"), ("points", "5"), ("key", form_key())])
    response = client.post(f"/t/{token}/tiny/score", data=form)
    assert response.status_code == 400


def test_the_session_cookie_is_secure_when_the_request_came_over_https(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    plain = client.get(f"/t/{token}").headers["Set-Cookie"]
    assert "Secure" not in plain  # plain HTTP on the home network: a Secure cookie would never come back
    secure = app.test_client().get(f"/t/{token}", base_url="https://companion.test").headers["Set-Cookie"]
    assert "; Secure" in secure
    assert "Strict-Transport-Security" in app.test_client().get("/", base_url="https://companion.test").headers


def test_the_session_cookie_is_secure_behind_a_tls_proxy(tmp_path, tiny):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database_url(tmp_path),
                      "PROXY_FIX": 1})
    with app.app_context():
        db.create_all()
    response = app.test_client().get("/new/tiny", headers={"X-Forwarded-Proto": "https"},
                                     environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert "; Secure" in response.headers["Set-Cookie"]
    with app.app_context():
        db.drop_all()
        db.engine.dispose()


def test_the_session_cookie_keeps_table_links_for_a_month_not_a_year(app, client):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    cookie = client.get(f"/t/{token}").headers["Set-Cookie"]
    import email.utils
    from datetime import UTC, datetime

    expires = email.utils.parsedate_to_datetime(re.search(r"Expires=([^;]+)", cookie).group(1))
    assert 29 <= (expires - datetime.now(UTC)).days <= 31


def test_the_session_cookie_is_written_again_once_a_day_not_on_every_poll(app, client, monkeypatch):
    """A phone left on the table polls every second: its cookie is not signed and sent again each time,
    but a phone that keeps coming back still keeps its tables for a month from its last day of play."""
    token = make_table(app, "tiny", ["Ana", "Ben"])
    first = client.get(f"/t/{token}")
    assert "Set-Cookie" in first.headers  # the table noted among the phone's recent ones
    seen = re.search(r'data-seen="(\d+)"', first.text).group(1)
    for path in (f"/t/{token}", f"/t/{token}/live?seen={seen}", f"/t/{token}/live?seen=0"):
        assert "Set-Cookie" not in client.get(path, headers={"HX-Request": "true"}).headers, path
    # A day later the cookie's month starts again, on the next page the phone opens.
    from companion.web import security

    later = time.time() + security.SessionInterface.REFRESH_AFTER_SECONDS + 60
    monkeypatch.setattr(security.time, "time", lambda: later)
    refreshed = client.get(f"/t/{token}")
    assert "Expires=" in refreshed.headers["Set-Cookie"]


def test_the_database_file_and_its_journal_are_private_from_the_start(tmp_path, tiny):
    import os
    import stat

    path = tmp_path / "private.sqlite"
    old = os.umask(0o022)
    try:
        app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
        with app.app_context():
            db.create_all()
            with db.engine.connect() as connection:  # WAL: the -wal and -shm files exist while connected
                connection.exec_driver_sql("SELECT count(*) FROM tables").scalar()
                files = [path, *tmp_path.glob("private.sqlite-*")]
                assert len(files) >= 2
                for file in files:
                    assert stat.S_IMODE(file.stat().st_mode) == 0o600, file
            db.engine.dispose()
    finally:
        os.umask(old)


def test_the_secret_key_file_is_never_readable_by_others_even_for_an_instant(tmp_path, monkeypatch):
    """Created 0600, not written 0644 and chmodded after: with chmod doing nothing, the file is still private."""
    import os
    import stat
    from pathlib import Path

    from flask import Flask

    from companion import config

    monkeypatch.setattr(Path, "chmod", lambda *args, **kwargs: None)
    monkeypatch.setattr(os, "chmod", lambda *args, **kwargs: None)
    old = os.umask(0o022)
    try:
        config.ensure_secret_key(Flask(__name__, instance_path=str(tmp_path)))
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600


@pytest.mark.parametrize(("filename", "kept"), [("app.css", ".score-row"), ("app.js", "htmx:configRequest"),
                                               ("bell.js", "wakeLock"), ("carambouille.css", ".caram-scores")])
def test_our_own_files_are_sent_without_their_comments(app, client, filename, kept):
    import brotli
    from pathlib import Path

    original = (Path(app.static_folder) / filename).read_text()
    response = client.get(f"/static/{filename}?v=x", headers={"Accept-Encoding": "br"})
    sent = brotli.decompress(response.get_data()).decode()
    comment = "/*" if filename.endswith(".css") else "//"
    assert comment in original and f"{comment} " not in sent
    # A third or more of the bytes a phone downloads, gone; every rule and statement still there.
    assert len(response.get_data()) < 0.85 * len(brotli.compress(original.encode(), quality=11))
    assert kept in sent
    response.close()
