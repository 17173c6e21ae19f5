"""Each phone its own language: its browser's, or the one it chose with the switch (companion/i18n/__init__.py)."""

from __future__ import annotations

import re

import pytest

from companion import create_app
from companion.extensions import db
from helpers import csrf_token, database_url, make_table

LABEL = {"en": "Language", "fr": "Langue", "de": "Sprache", "it": "Lingua"}


def shown_language(page) -> str:
    lang = re.search(r'<html lang="(\w+)"', page.text).group(1)
    # The page says it in the language its <html lang> names: a reader's screen reader trusts it.
    assert f'<span id="language-label">{LABEL[lang]}</span>' in page.text
    return lang


@pytest.mark.parametrize("accept, lang", [
    (None, "en"),
    ("fr-CH, fr;q=0.9, en;q=0.8", "fr"),
    ("de-AT", "de"),
    ("es-ES, it;q=0.5, en;q=0.3", "it"),
    ("es, pt", "en"),
    ("en-GB, de;q=0.9", "en"),
])
def test_a_phone_reads_the_first_of_its_browsers_languages_the_app_speaks(client, accept, lang):
    headers = {"Accept-Language": accept} if accept else {}
    assert shown_language(client.get("/", headers=headers)) == lang


def test_the_switch_overrides_the_browser_and_is_kept_by_the_phone(client):
    german_browser = {"Accept-Language": "de"}
    answer = client.post("/language", data={"lang": "it", "next": "/history?game=jaipur"}, headers=german_browser)
    assert answer.status_code == 303 and answer.location == "/history?game=jaipur"
    cookie = client.get_cookie("lang", domain="companion.test")
    assert cookie.value == "it" and cookie.http_only and cookie.max_age and cookie.max_age > 300 * 24 * 3600
    assert shown_language(client.get("/", headers=german_browser)) == "it"
    client.post("/language", data={"lang": "en", "next": "/"}, headers=german_browser)
    assert shown_language(client.get("/", headers=german_browser)) == "en"


def test_the_switch_is_on_every_page_and_marks_the_current_language(app, client):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"])
    for path in ("/", "/new/jaipur", f"/t/{token}", f"/t/{token}/results", "/history", "/players", "/nowhere"):
        page = client.get(path, headers={"Accept-Language": "fr"})
        assert 'action="/language"' in page.text, path
        assert re.search(r'lang="fr"[^>]*aria-current="true"[^>]*>Français<', page.text), path
        for code, name in (("en", "English"), ("de", "Deutsch"), ("it", "Italiano")):
            assert re.search(rf'value="{code}" lang="{code}"[^>]*aria-pressed="false">{name}<', page.text), path


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\\evil.example", "", "sessions"])
def test_the_switch_goes_back_only_to_a_page_of_this_site(client, target):
    answer = client.post("/language", data={"lang": "fr", "next": target})
    assert answer.status_code == 303 and answer.location == "/"


@pytest.mark.parametrize("lang", ["es", "xx", "", "fr-FR", "frx"])
def test_a_language_the_app_does_not_speak_changes_nothing(client, lang):
    answer = client.post("/language", data={"lang": lang, "next": "/players"})
    assert answer.status_code == 303 and answer.location == "/players"
    assert client.get_cookie("lang", domain="companion.test") is None
    assert shown_language(client.get("/")) == "en"


def test_a_cookie_naming_another_language_is_ignored(client):
    client.set_cookie("lang", "klingon", domain="companion.test")
    assert shown_language(client.get("/", headers={"Accept-Language": "de"})) == "de"


def test_the_switch_needs_the_pages_csrf_token(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_url(tmp_path),
                      "SERVER_NAME": "companion.test"})
    with app.app_context():
        db.create_all()
    client = app.test_client()
    assert client.post("/language", data={"lang": "fr", "next": "/"}).status_code == 400
    assert client.get_cookie("lang", domain="companion.test") is None
    token = csrf_token(client.get("/").text)
    assert client.post("/language", data={"lang": "fr", "next": "/", "csrf_token": token}).status_code == 303
    assert client.get_cookie("lang", domain="companion.test").value == "fr"
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


def test_pages_say_their_language_and_that_it_differs_by_phone(client):
    page = client.get("/", headers={"Accept-Language": "it"})
    assert "Accept-Language" in page.headers["Vary"] and "Cookie" in page.headers["Vary"]
    assert page.headers["Content-Language"] == "it"
