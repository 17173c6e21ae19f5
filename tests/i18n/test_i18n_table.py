"""The shared table speaks each phone's language: its page, the bell, the entries, the refusals, the errors.

The real catalogs are filled later, so a stub catalog stands in for them (the ``marked`` fixture, by language):
it marks every message with the language it was asked in ("[fr]Who are you?"), and leaves English alone. A marked text
on a page proves the text went through gettext in that phone's language, at the moment it was shown.
"""

from __future__ import annotations

import pytest

import tinygame
from companion.table import kinds, log
from companion.table.state import cache as state_cache
from companion.rules.words import _
from companion.views import errors
from helpers import answered, form_key, make_table


# Every message a phone reads is marked with its language ("[fr]…"); English stays English.
pytestmark = pytest.mark.marked_by_language


@pytest.fixture(autouse=True)
def tiny_words(monkeypatch):
    """The tiny game words its entries as a real game does."""
    monkeypatch.setattr(tinygame, "describe", lambda state, event: _(
        "%(name)s scored %(points)d", name=state.players[event["player"]], points=event["points"]))


def phone(app, language: str):
    client = app.test_client()
    client.set_cookie("lang", language, domain="companion.test")
    return client


def score(client, token, player, points, seen=None):
    data = {"player": player, "points": points, "key": form_key()}
    if seen is not None:
        data["seen"] = seen
    return client.post(f"/t/{token}/tiny/score", data=data)


def test_two_phones_read_one_table_each_in_its_own_language(app, marked):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    french, german = phone(app, "fr"), phone(app, "de")
    assert score(french, token, 0, 5).status_code == 303
    fr, de = french.get(f"/t/{token}").text, german.get(f"/t/{token}").text
    for mark, page in (("[fr]", fr), ("[de]", de)):
        assert f"{mark}Who are you?" in page and f"{mark}Latest entries" in page
        # The entry is worded for the reader, not in the language of the phone that recorded it.
        assert f"{mark}Ana scored 5" in page
        # The bell: its panel, its form's class-level labels (lazy), the script's words.
        assert f"{mark}Table timer" in page and f"{mark}When the bell rings again" in page
        assert f'data-word-on="{mark}on"' in page and f"{mark}Keep the screen on" in page
        assert f'data-notice-changed="{mark}The table changed — check before you record."' in page
        assert f"{mark}Just recorded: {{entry}} — check before you record." in page
    assert "[de]" not in fr and "[fr]" not in de
    # The summary kept with the entry is the English one, whoever recorded it.
    with app.app_context():
        assert log.entries_of(_table(token))[0].summary == "Ana scored 5"


def test_undo_and_history_word_every_entry_for_the_reader_even_after_a_restart(app, marked):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    english = app.test_client()
    score(english, token, 0, 5)
    score(english, token, 1, 7)
    assert english.post(f"/t/{token}/undo", data={"entry": 2, "key": form_key()}).status_code == 303
    # A restart forgets every worded entry: the first French phone words the log again, as recorded.
    state_cache.clear()
    french = phone(app, "fr")
    history = french.get(f"/t/{token}/history").text
    assert "<del>[fr]Ben scored 7</del> <small>[fr](undone)</small>" in history
    assert "[fr]Undid entry 2: [fr]Ben scored 7" in history and "[fr]Ana scored 5" in history
    confirm = french.get(f"/t/{token}/undo?entry=1").text
    assert "[fr]Undo entry 1?" in confirm and "[fr]Ana scored 5" in confirm and "[fr]Yes, undo it" in confirm
    assert "Ana scored 5" in english.get(f"/t/{token}/history").text
    assert "[fr]" not in english.get(f"/t/{token}/history").text


def test_already_recorded_is_said_in_the_language_of_the_phone_that_sent_it_again(app, marked):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    score(phone(app, "de"), token, 0, 5, seen=0)
    italian = phone(app, "it")
    # Refused: the table page (303 to it), where the Italian phone reads it in Italian.
    again = answered(italian, score(italian, token, 0, 5, seen=0), token, "live")
    assert "[it]Already recorded from another phone: “[it]Ana scored 5” It counts once." in again.text


def test_refusals_and_error_pages_are_worded_when_shown(app, marked):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    french = phone(app, "fr")
    ring = {"bell-mode": "fixed", "bell-minutes": 3, "bell-low": 1, "bell-high": 3}
    assert french.post(f"/t/{token}/bell/open", data=ring | {"bell-key": form_key()}).status_code == 303
    again = answered(french, french.post(f"/t/{token}/bell/open", data=ring | {"bell-key": form_key()}), token,
                     "bell")
    assert "[fr]The table timer is already running: ring again to stop it." in again.text
    assert "[fr]The timer closes by itself after [fr]3 min." in french.get(f"/t/{token}").text
    missing = french.get("/t/nope")
    assert missing.status_code == 404 and "[fr]Nothing here" in missing.text and "[fr]Error 404" in missing.text
    assert "[de]No open table has that code." in phone(app, "de").post("/join", data={"code": "ZZZZZZ"}).text


def test_nothing_is_worded_at_import_time():
    # Tables of messages hold their English source; each is worded where it is shown.
    assert errors.MESSAGES[404] == ("Nothing here", "There is no page at this address. A table link may have "
                                    "been mistyped.")
    assert kinds.REOPENED == "The session was reopened to correct it."
    from companion.forms.bell import BellOpenForm
    from companion.forms import NewTableForm

    # Class-level labels are lazy: worded when a form renders, in the language of that request.
    assert type(BellOpenForm.mode.args[0]).__name__ == "LazyString"
    assert type(NewTableForm.bonus.kwargs["choices"][0][1]).__name__ == "LazyString"


def _table(token):
    import sqlalchemy as sa

    from companion.extensions import db
    from companion.models import Table

    return db.session.scalar(sa.select(Table).where(Table.token == token))


def test_the_bell_is_announced_to_a_screen_reader_in_the_phones_language(app, client):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Chloé"], {"first_trader": 0})
    french = client.get(f"/t/{token}", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert 'data-word-ding="Ding-a-Ding\u00a0!"' in french
    assert 'data-word-ding="Ding-a-Ding!"' in client.get(f"/t/{token}").get_data(as_text=True)
