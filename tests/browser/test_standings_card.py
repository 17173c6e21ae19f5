"""The standings as a picture: a PNG 1080 px wide drawn on the phone from the page's words, shared or downloaded."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image
from playwright.sync_api import expect

from browser.tables import record_table
from browser.test_result_card import NOT_SHARING, SHARED_FILE, SHARING
from review.test_review_sessions import JAIPUR

pytestmark = pytest.mark.browser


def test_the_standings_are_shared_as_a_picture(new_phone, live_server):
    record_table(live_server, *JAIPUR)
    phone = new_phone()
    phone.add_init_script(SHARING)
    phone.goto("/standings?game=jaipur")
    button = phone.get_by_role("button", name="Share the standings as a picture")
    expect(button).to_be_visible()
    button.click()
    phone.wait_for_function("window.shared.length === 1")
    shared = phone.evaluate(SHARED_FILE)
    assert shared["count"] == 1 and shared["type"] == "image/png"
    assert shared["name"].startswith("standings-") and shared["name"].endswith("-jaipur.png")
    picture = Image.open(io.BytesIO(base64.b64decode(shared["data"])))
    assert picture.width == 1080 and picture.height > 400
    assert phone.errors == [] and phone.violations == []


def test_a_phone_that_cannot_share_downloads_it(new_phone, live_server):
    record_table(live_server, *JAIPUR)
    phone = new_phone()
    phone.add_init_script(NOT_SHARING)
    phone.goto("/standings")
    with phone.expect_download() as download:
        phone.get_by_role("button", name="Download the standings as a picture").click()
    name = download.value.suggested_filename
    assert name.startswith("standings-") and name.endswith(".png")
    assert phone.errors == [] and phone.violations == []
