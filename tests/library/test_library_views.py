"""The group's page offers its whole history as a file, and takes one in: for its members only."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime

import pytest
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from companion import groups
from companion.library import export
from groups.tables import member_of as groups_member_of
from helpers import csrf_token
from library.test_library_files import counts
from review.test_review_sessions import JAIPUR, record_all


def upload(client, content: bytes, **fields):
    # Encoded here, in memory: the test client would spool a large body to a file it never closes.
    file = FileStorage(io.BytesIO(content), filename="history.json", content_type="application/json")
    boundary, body = encode_multipart({"file": file, **fields})
    return client.post("/group/library", data=body, content_type=f"multipart/form-data; boundary={boundary}")


def download(client) -> bytes:
    response = client.get("/group/library.json")
    assert response.status_code == 200
    return response.get_data()


def member_of(client, *ids: int) -> None:
    """This phone is in these groups (the last one shown)."""
    groups_member_of(client, *ids)
    with client.session_transaction() as session:
        session["group"] = ids[-1]


def test_the_group_page_offers_the_whole_history_both_ways(app, client):
    page = client.get("/group").text
    assert "Your whole history" in page
    assert 'href="/group/library.json" download>Download our whole history</a>' in page
    assert 'action="/group/library" enctype="multipart/form-data"' in page
    assert "At most 20 MB." in page and ">Bring in a history</button>" in page


def test_a_member_downloads_the_groups_history_as_a_private_file(app, client, played):
    response = client.get("/group/library.json")
    assert response.status_code == 200 and response.headers["Content-Type"] == "application/json; charset=utf-8"
    day = datetime.now(UTC).strftime("%Y-%m-%d")
    assert response.headers["Content-Disposition"] == f'attachment; filename="group-library-{day}.json"'
    assert response.headers["Cache-Control"] == "private, no-store" and "Cookie" in response.headers["Vary"]
    envelope = json.loads(response.get_data())
    assert envelope["format"] == "table-companion-library" and len(envelope["sessions"]) == 4
    assert envelope["digest"] == export.digest(envelope["sessions"])


@pytest.mark.parametrize("name, slug", [("Café Crème", "cafe-creme"), ("Ça & là!", "ca-la"), ("ß 🎲", "ss"),
                                        ("🎲", "group")])
def test_the_file_is_named_after_the_group_in_plain_letters(app, name, slug):
    with app.app_context():
        assert export.file_name(groups.start(name)).startswith(f"{slug}-library-")


def test_a_download_during_play_keeps_the_secrets_of_the_table(app, client):
    record_all(app, "jaipur", ["Ana", "Ben"], {"bonus": "draw", "first_player": 0}, JAIPUR[3][:3])
    session = json.loads(download(client))["sessions"][0]
    assert session["entries"][1]["withheld"] == ["bonus"] and "bonus" not in session["entries"][1]["event"]


def test_a_history_brought_into_another_group_is_flashed_and_a_second_time_adds_nothing(app, client, played):
    data = download(client)
    app.config["GROUPS"] = "private"
    with app.app_context():
        home, club = groups.home_group().id, groups.start("Club").id
    member_of(client, home, club)
    response = upload(client, data)
    assert response.status_code == 303 and response.headers["Location"] == "/group"
    page = client.get("/group").text
    assert '<p class="notice" role="status">4 sessions brought in.</p>' in page and "4 sessions" in page
    before = counts(app)
    response = upload(client, data)
    assert response.status_code == 303
    assert "0 sessions brought in. 4 were already here." in client.get("/group").text
    assert counts(app) == before
    with app.app_context():
        assert groups.session_counts([home, club]) == {home: 4, club: 4}


@pytest.mark.parametrize("content, message", [
    (lambda data: data[:-100], "This file is not valid JSON (line 1, column"),
    (lambda data: data.replace(b'"cards": 2', b'"cards": 3', 1),
     "This file was changed or damaged after it was exported: its digest does not match what it holds."),
    (lambda data: b"[]", "This is not a history exported by the table companion."),
])
def test_a_refusal_is_shown_beside_the_field_and_nothing_is_added(app, client, played, content, message):
    data = content(download(client))
    app.config["GROUPS"] = "private"
    with app.app_context():
        club = groups.start("Club").id
    member_of(client, club)
    before = counts(app)
    response = upload(client, data)
    text = response.get_data(as_text=True).replace("&#39;", "'")
    assert response.status_code == 422
    assert '<small class="error" id="library-file-error" role="alert">' in text
    assert message in text and "Nothing was brought in." in text
    assert 'aria-invalid="true" aria-describedby="library-file-error"' in text
    assert counts(app) == before


def test_the_refusal_is_in_the_phones_language(app, client, marked):
    response = upload(client, b"[]")
    assert response.status_code == 422
    assert "«This is not a history exported by the table companion.» «Nothing was brought in.»" in response.text


@pytest.mark.parametrize("language, sentence", [
    ("fr", "Ce n’est pas un historique exporté par le compagnon de table. Rien n’a été importé."),
    ("de", "Das ist kein Verlauf, der vom Tischbegleiter exportiert wurde. Nichts wurde übernommen."),
    ("it", "Questo non è uno storico esportato dal compagno di tavolo. Non è stato importato nulla."),
])
def test_the_refusal_reads_in_each_language_of_the_app(app, client, language, sentence):
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    response = upload(client, b"[]")
    assert response.status_code == 422 and sentence in response.text


def test_no_file_chosen_is_refused(app, client):
    response = client.post("/group/library", data={}, content_type="multipart/form-data")
    assert response.status_code == 422 and "Choose the .json file of a history." in response.text


def test_a_phone_in_no_group_learns_nothing_and_brings_nothing_in(app, client, played):
    data = download(client)
    app.config["GROUPS"] = "private"
    before = counts(app)
    assert client.get("/group/library.json").status_code == 404
    for response in (client.get("/group/library"), upload(client, data)):
        assert response.status_code == 200 and "This phone is in no group yet" in response.text
        assert "Ana" not in response.text and "Download our whole history" not in response.text
    assert counts(app) == before


def test_an_oversized_file_is_refused_without_reading_it_all(app, client):
    response = upload(client, b" " * (21 * 1024 * 1024))
    assert response.status_code == 413
    assert "The file is larger than 20 MB, the most a history file brought in here can be." in response.text


def test_imports_are_limited_per_network(app, client, played):
    data = download(client)
    app.config["IMPORTS_PER_MINUTE"] = 1
    assert upload(client, data).status_code == 303
    response = upload(client, data)
    assert response.status_code == 429 and "Too many imports from your network in the last minute" in response.text


def test_the_upload_checks_its_csrf_token(app, client):
    record_all(app, *JAIPUR)
    data = download(client)
    app.config.update(GROUPS="private", WTF_CSRF_ENABLED=True)  # as a real server: every form's token checked
    with app.app_context():
        club = groups.start("Club").id
    member_of(client, club)
    refused = upload(client, data)
    assert refused.status_code == 422 and "This form has expired" in refused.text
    assert counts(app)[1] == 1
    page = client.get("/group").text
    accepted = upload(client, data, csrf_token=csrf_token(page))
    assert accepted.status_code == 303 and counts(app)[1] == 2
