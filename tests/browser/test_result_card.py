"""The result as a picture: a PNG 1080 px wide, drawn on the phone, shared to a chat app or downloaded."""

from __future__ import annotations

import base64
import io

import pytest
import sqlalchemy as sa
from PIL import Image
from playwright.sync_api import expect

from browser.phone import seated_at_a_new_table
from browser.test_jaipur_play import play_a_short_match

pytestmark = pytest.mark.browser

# The phone can share files: navigator.share is a stand-in that keeps what it was handed.
SHARING = """
window.shared = [];
navigator.canShare = (data) => !!(data && data.files && data.files.length);
navigator.share = async (data) => { window.shared.push(data); };
"""
# The phone cannot share files (a desktop browser, an older phone).
NOT_SHARING = "navigator.canShare = undefined; navigator.share = undefined;"
# The file handed to navigator.share, as base64, with its name, type and how many files there were.
SHARED_FILE = """async () => {
  const files = window.shared[0].files;
  const bytes = new Uint8Array(await files[0].arrayBuffer());
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return {count: files.length, name: files[0].name, type: files[0].type, data: btoa(text)};
}"""


@pytest.fixture
def finished(live_server):
    """A finished three-player Carambouille session (its known events), recorded straight into the server's
    database, with a way to correct it: reopened, its last sale undone, finished again."""
    from companion import create_app
    from companion.extensions import db
    from companion.models import Entry
    from companion.table import recording
    from review.test_review_sessions import CARAMBOUILLE, record_all, table_of

    app = create_app({"SQLALCHEMY_DATABASE_URI": live_server.database_url, "SECRET_KEY": "browser-tests"})
    token = record_all(app, *CARAMBOUILLE)

    def correct() -> None:
        with app.app_context():
            table = table_of(token)
            recording.reopen(table)
            last_sale = db.session.scalar(sa.select(sa.func.max(Entry.seq)).where(
                Entry.table_id == table.id, Entry.type == "sale"))
            recording.void(table, last_sale)
            recording.close(table)

    yield token, correct
    with app.app_context():
        db.engine.dispose()


def share_picture(browser, live_server, token: str, *, color_scheme: str = "light", locale: str = "en") -> tuple:
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, color_scheme=color_scheme, locale=locale)
    context.add_init_script(SHARING)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/t/{token}/results")
    button = page.locator("[data-share-card]")
    expect(button).to_be_visible()
    label = button.inner_text()
    button.tap()
    page.wait_for_function("() => window.shared.length > 0")
    shared = page.evaluate(SHARED_FILE)
    made = page.locator("[data-card]")
    timing = (int(made.get_attribute("data-made-ms")), int(made.get_attribute("data-bytes")))
    context.close()
    assert errors == []
    return shared, label, timing


def test_the_share_button_hands_one_png_1080_px_wide_to_the_chat_app_and_it_follows_the_scores(
        browser, live_server, finished):
    token, correct = finished
    shared, label, (made_ms, size) = share_picture(browser, live_server, token)
    assert label == "Share the result as a picture"
    assert shared["count"] == 1 and shared["type"] == "image/png"
    assert shared["name"].startswith("carambouille-") and shared["name"].endswith(".png")
    picture = Image.open(io.BytesIO(base64.b64decode(shared["data"])))
    picture.load()  # decodes whole, or raises
    assert picture.format == "PNG" and picture.width == 1080 and picture.height > 1000
    print(f"\nresult picture: {picture.width}x{picture.height}, {size / 1024:.0f} KB, made in {made_ms} ms")
    # Light: dark words on a light ground.
    assert sum(picture.convert("RGB").getpixel((5, 5))) > 700

    correct()  # Ana's last sale undone: her score changes, and so does the picture
    again, _, _ = share_picture(browser, live_server, token)
    corrected = Image.open(io.BytesIO(base64.b64decode(again["data"]))).convert("RGB")
    assert corrected.width == 1080
    assert corrected.size == picture.size and corrected.tobytes() != picture.convert("RGB").tobytes()


def test_on_a_dark_phone_the_picture_is_light_on_dark_and_worded_in_its_language(browser, live_server, finished):
    token, _correct = finished
    shared, label, _ = share_picture(browser, live_server, token, color_scheme="dark", locale="fr")
    assert label == "Partager le résultat en image"
    picture = Image.open(io.BytesIO(base64.b64decode(shared["data"]))).convert("RGB")
    assert sum(picture.getpixel((5, 5))) < 120
    # Light words somewhere on the dark ground (the title, the standings).
    title = picture.crop((60, 60, 700, 140))
    assert max(sum(title.getpixel((x, y))) for x in range(0, title.width, 2) for y in range(0, title.height, 2)) > 600


def test_where_files_cannot_be_shared_the_button_downloads_the_picture(browser, live_server, finished, tmp_path):
    token, _correct = finished
    context = browser.new_context(base_url=live_server.url, accept_downloads=True)
    context.add_init_script(NOT_SHARING)
    page = context.new_page()
    page.goto(f"/t/{token}/results")
    button = page.locator("[data-share-card]")
    expect(button).to_have_text("Download the result as a picture")
    with page.expect_download() as download:
        button.click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name.startswith("carambouille-") and saved.suffix == ".png"
    with Image.open(saved) as picture:
        picture.load()
        assert picture.width == 1080
    context.close()


def test_a_whole_match_its_results_and_its_picture_break_no_content_security_policy(new_phone, tmp_path):
    ana, ben = seated_at_a_new_table(new_phone, "jaipur", ["Ana", "Ben"])
    play_a_short_match(ana, ben)
    ana.context.add_init_script(SHARING)
    ana.goto(ana.url.split("#")[0] + "/results")
    expect(ana.locator(".standings")).to_contain_text("Ana")
    ana.locator("[data-share-card]").tap()
    ana.wait_for_function("() => window.shared.length > 0")
    shared = ana.evaluate(SHARED_FILE)
    saved = tmp_path / shared["name"]
    saved.write_bytes(base64.b64decode(shared["data"]))
    print(f"\nthe picture: {saved}")
    with Image.open(saved) as picture:
        chart = picture.convert("RGB")
    assert chart.width == 1080
    # The chart came out in the players' colours: pixels of colour, not only black, white and greys.
    colours = {chart.getpixel((x, y)) for x in range(0, chart.width, 4) for y in range(chart.height // 2, chart.height, 4)}
    assert any(max(colour) - min(colour) > 80 for colour in colours)
    assert ana.violations == [] and ben.violations == []
    assert ana.errors == [] and ben.errors == []


def test_without_javascript_there_is_no_button_that_does_nothing(browser, live_server, finished):
    token, _correct = finished
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"/t/{token}/results")
    expect(page.locator("[data-share-card]")).to_be_hidden()
    context.close()
