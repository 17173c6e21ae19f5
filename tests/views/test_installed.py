"""The app on the home screen and offline (issue #24): manifest, service worker, kept files, offline pages,
and the memo card's offline data."""

from __future__ import annotations

import html
import json
import re
import shutil
import struct
from pathlib import Path

import pytest

from companion.rules import carambouille as game
from companion.views import installed

FR = {"Accept-Language": "fr-FR,fr;q=0.9"}


def test_the_manifest_names_the_app_opens_it_standalone_and_lists_its_icons(app, client):
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200 and answer.mimetype == "application/manifest+json"
    manifest = answer.get_json()
    assert (manifest["name"], manifest["short_name"], manifest["lang"]) == ("Table companion", "Companion", "en")
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")
    assert manifest["theme_color"] == installed.THEME_COLOR
    static = Path(app.static_folder)
    for icon in manifest["icons"]:
        path, version = re.fullmatch(r"/static/([^?]+)\?v=(\w+)", icon["src"]).groups()
        data = (static / path).read_bytes()
        assert struct.unpack(">II", data[16:24]) == tuple(int(n) for n in icon["sizes"].split("x")), path
        served = client.get(icon["src"])
        assert served.status_code == 200
        served.close()
    assert {icon["purpose"] for icon in manifest["icons"]} == {"any", "maskable"}
    assert client.get(manifest["shortcuts"][0]["url"]).status_code == 200


def test_the_manifest_speaks_the_phones_language(client):
    manifest = client.get("/manifest.webmanifest", headers=FR).get_json()
    assert (manifest["name"], manifest["short_name"], manifest["lang"]) == ("Compagnon de table", "Compagnon", "fr")
    assert "Accept-Language" in client.get("/manifest.webmanifest").headers["Vary"]


def test_every_page_links_the_manifest_and_the_workers_address_of_this_release(client):
    page = client.get("/")
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page.text
    worker = re.search(r'<meta name="companion-worker" content="([^"]+)">', page.text).group(1)
    assert re.fullmatch(r"/sw\.js\?release=[0-9a-f]{12}", worker)
    csp = page.headers["Content-Security-Policy"]
    assert "worker-src 'self'" in csp and "manifest-src 'self'" in csp


def test_the_worker_is_served_from_the_root_and_never_kept_stale(client):
    answer = client.get("/sw.js?release=x")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert "self.addEventListener(\"fetch\"" in answer.text


def test_the_worker_keeps_every_static_file_at_its_versioned_address_and_each_offline_page(app, client):
    kept = client.get("/offline/files").get_json()
    static = Path(app.static_folder)
    files = {re.fullmatch(r"/static/([^?]+)\?v=\w+", url).group(1) for url in kept["files"] if url.startswith("/static/")}
    every = {str(p.relative_to(static)) for p in static.rglob("*") if p.is_file()}
    assert files == {name for name in every if Path(name).name not in ("LICENSE", "LICENSE.md", "maskable.svg", "sw.js")}
    assert {url for url in kept["files"] if url.startswith("/offline/")} == {"/offline/en", "/offline/fr", "/offline/de", "/offline/it"}
    assert kept["pages"] == ["/memo/carambouille"]
    for url in kept["files"] + kept["pages"]:
        served = client.get(url)
        assert served.status_code == 200, url
        served.close()


def test_a_new_release_is_a_new_worker(app, tmp_path):
    with app.test_request_context():
        before = installed.release()
    # The same files with one of them changed, as the next release ships them.
    shutil.copytree(app.static_folder, tmp_path / "static")
    with (tmp_path / "static" / "app.js").open("a") as script:
        script.write("\n")
    assert installed._release(str(tmp_path / "static")) != before
    assert installed._release(app.static_folder) == before


@pytest.mark.parametrize("lang, heading", [("en", "No connection"), ("fr", "Pas de connexion"),
                                           ("de", "Keine Verbindung"), ("it", "Nessuna connessione")])
def test_the_offline_page_is_kept_in_each_language(client, lang, heading):
    # Asked by an English phone: the worker keeps all four, each in its own language.
    page = client.get(f"/offline/{lang}")
    assert page.status_code == 200 and page.headers["Content-Language"] == lang
    assert f'<html lang="{lang}">' in page.text and f"<h1>{heading}</h1>" in page.text
    assert 'href="/memo/carambouille"' in page.text


def test_an_offline_page_in_a_language_the_app_does_not_speak_is_not_found(client):
    assert client.get("/offline/es").status_code == 404


def offline_data(page_html: str) -> dict:
    return json.loads(html.unescape(re.search(r"data-offline='([^']*)'", page_html).group(1)))


def test_the_memo_card_carries_every_calculator_value_and_its_words_in_the_readers_language(client):
    data = offline_data(client.get("/memo/carambouille", headers=FR).text)
    assert data["values"]["40"][2][2]["illusion"][0] == 300 == game.sale_value(40, 3, ["illusion"])
    assert data["first"]["cheese"][2] == "3 × fromages = {value}"
    assert data["cards"]["bargain"] == {"name": "Soldes", "then": "Soldes → {value}", "cancelled": "Soldes → annulée, 0"}
    # The reader's way of writing a number: 1 200 in French.
    assert data["numbers"]["1200"] == "1\u202f200"
    assert data["faces"]["cheese"] == 40


def test_a_tables_memo_carries_its_house_values(app, client):
    from views.test_carambouille_memo_views import memo_form, new_table

    token = new_table(app)
    client.post(f"/t/{token}/memo/edit", data=memo_form({"m40_3": 200}))
    data = offline_data(client.get(f"/t/{token}/memo").text)
    assert data["values"]["40"][2][0] == 200
    assert data["values"]["40"][2][2]["bargain"][0] == 100


def notice_words(page_html: str) -> tuple[str, str]:
    found = re.search(r'data-offline-notice\s+data-text="([^"]*)"\s+data-unsent="([^"]*)"', page_html)
    return html.unescape(found.group(1)), html.unescape(found.group(2))


def test_each_page_words_its_offline_notice_for_what_it_is(app, client):
    from companion.extensions import db
    from companion.models import Table
    from helpers import make_table

    token = make_table(app, "carambouille", ["Ana", "Ben", "Pia"], {"first_trader": 0})
    with app.app_context():
        watch = db.session.query(Table).one().watch_token
    text, unsent = notice_words(client.get(f"/t/{token}").text)
    assert text == "Offline — last update {time}. Nothing can be recorded until the connection is back."
    assert unsent == "Not recorded: the connection dropped. Send it again once it is back; it will count once."
    # The watch view records nothing: it only says since when it shows the table.
    assert notice_words(client.get(f"/w/{watch}").text)[0] == "Offline — last update {time}."
    assert notice_words(client.get("/memo/carambouille").text)[0] == (
        "Offline — the memo card and its calculator work without a connection.")
    assert notice_words(client.get("/history", headers=FR).text)[0] == "Hors ligne — cette page telle qu'elle était à {time}."
    # The offline page says it all itself.
    assert "data-offline-notice" not in client.get("/offline/en").text
