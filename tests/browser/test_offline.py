"""On the home screen, and the memo card in a pocket with no Wi-Fi (issue #24): the app installed and offline.

Each phone that goes offline reaches the server through a small TCP proxy of its own (``tcp_proxy``):
``down()`` cuts it for real, the phone's page and its service worker alike (Chromium's offline
emulation, set too so that the page hears "offline", does not reliably cut a worker's own requests).
Another phone at the same table talks to the server directly and keeps playing meanwhile.
"""

from __future__ import annotations

import json
import re
import struct
import time

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from browser.phone import choose_seat, newest_entry, scores, sit_on_table, submit_and_wait
from browser.tables import record_entry, record_table
from browser.tcp_proxy import Proxy
from companion.rules import carambouille as game
from companion.server.serving import BUSY as BUSY_ANSWER

pytestmark = pytest.mark.browser
PLAYERS = ["Ana", "Ben", "Pia"]
OFFLINE_NOTICE = re.compile(r"^Offline — last update \d\d:\d\d( [AP]M)?\. Nothing can be recorded until the connection is back\.$")
BUSY = "The server is busy: sending it again in 2 s. It will count once."
UNSENT = "Not recorded: the connection dropped. Send it again once it is back; it will count once."


@pytest.fixture
def proxies(live_server):
    made = []

    def make() -> Proxy:
        proxy = Proxy(int(live_server.url.rsplit(":", 1)[1]))
        made.append(proxy)
        return proxy

    yield make
    for proxy in made:
        proxy.close()


@pytest.fixture
def phone_behind(browser, proxies):
    """A phone that reaches the server through a proxy of its own: (page, proxy)."""
    contexts = []

    def make(locale: str = "en-GB"):
        proxy = proxies()
        context = browser.new_context(base_url=proxy.url, viewport=PHONE, screen=PHONE, has_touch=True, is_mobile=True,
                                      locale=locale)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        return page, proxy

    yield make
    for context in contexts:
        context.close()


def installed(page) -> None:
    """Wait until the service worker has kept its files and this page, and looks after the page."""
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                           timeout=15_000)
    # (wait_for_function takes a promise for a truthy value: the cache is asked from here instead.)
    deadline = time.monotonic() + 15
    while not page.evaluate("""async () => {
      for (const name of await caches.keys())
        if (name.startsWith("companion-pages-") && await (await caches.open(name)).match(location.href, {ignoreVary: true})) return true;
      return false;
    }"""):
        assert time.monotonic() < deadline, "the service worker did not keep the page"
        page.wait_for_timeout(100)


def offline(page, proxy) -> None:
    proxy.down()
    page.context.set_offline(True)


def online(page, proxy) -> None:
    proxy.up()
    page.context.set_offline(False)


# The controls of forms that record something that a player could still tap.
ENABLED_RECORDING_CONTROLS = """() => [...document.querySelectorAll("form")]
  .filter(form => (form.getAttribute("method") || "").toLowerCase() === "post" || form.hasAttribute("hx-post"))
  .flatMap(form => [...form.elements]).filter(control => control.type !== "hidden" && !control.disabled).length"""


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


# --- installable ---------------------------------------------------------------------------------

def test_the_manifest_is_linked_from_every_page_valid_and_its_icons_load(new_phone, live_server):
    phone = new_phone()
    for path in ("/", "/memo/carambouille", "/history"):
        phone.goto(path)
        assert phone.locator('link[rel="manifest"]').get_attribute("href") == "/manifest.webmanifest"
    answer = phone.request.get("/manifest.webmanifest")
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["name"] == "Table companion" and manifest["short_name"] == "Companion"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/" and manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"]) and re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        # Drawn by the browser at the size the manifest says, and painted (not an empty square).
        drawn = phone.evaluate("""async (src) => {
          const image = new Image(); image.src = src; await image.decode();
          const canvas = new OffscreenCanvas(image.naturalWidth, image.naturalHeight);
          const context = canvas.getContext("2d"); context.drawImage(image, 0, 0);
          const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
          let painted = 0; for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) painted++;
          return [image.naturalWidth, image.naturalHeight, painted / (pixels.length / 4)];
        }""", icon["src"])
        width, height = (int(n) for n in icon["sizes"].split("x"))
        assert drawn[:2] == [width, height]
        assert drawn[2] > (0.99 if icon["purpose"] == "maskable" else 0.8), "a maskable icon fills its square"
        assert png_size(phone.request.get(icon["src"]).body()) == (width, height)
    # Light and dark: the bar's colour follows the phone.
    assert phone.locator('meta[name="theme-color"]').count() == 2


def test_a_french_phone_gets_the_manifest_in_french(new_phone):
    phone = new_phone(locale="fr-FR", extra_http_headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    phone.goto("/")
    manifest = phone.request.get("/manifest.webmanifest").json()
    assert manifest["name"] == "Compagnon de table" and manifest["lang"] == "fr"


def test_chromium_finds_nothing_to_object_to_before_installing_it(playwright_instance, live_server, tmp_path):
    # A persistent profile: a fresh Playwright context counts as incognito, where nothing installs.
    context = playwright_instance.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
        base_url=live_server.url, viewport=PHONE)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto("/")
        installed(page)
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [], manifest["errors"]
    finally:
        context.close()


# --- the service worker ----------------------------------------------------------------------------

def test_the_service_worker_looks_after_the_page_from_its_first_visit(new_phone):
    phone = new_phone()
    phone.goto("/")
    installed(phone)
    kept = phone.evaluate("""async () => {
      const names = await caches.keys();
      const urls = [];
      for (const name of names) for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      return {names, urls};
    }""")
    release = phone.locator('meta[name="companion-worker"]').get_attribute("content").split("release=")[1]
    # Its caches are named by the release, so the next one replaces them whole.
    assert sorted(kept["names"]) == [f"companion-files-{release}", f"companion-pages-{release}"]
    for path in ("/static/app.js", "/static/vendor/htmx-2.0.11/htmx.min.js", "/static/calculator.js",
                 "/memo/carambouille", "/offline/en", "/offline/fr", "/offline/de", "/offline/it"):
        assert path in kept["urls"], path
    # The page it registered from is looked after now, and so is the next.
    phone.reload()
    assert phone.evaluate("navigator.serviceWorker.controller.scriptURL").endswith(f"/sw.js?release={release}")


def test_the_memo_card_and_its_calculator_work_without_a_network(phone_behind):
    phone, proxy = phone_behind()
    phone.goto("/")
    installed(phone)
    offline(phone, proxy)

    phone.goto("/memo/carambouille")
    expect(phone.get_by_role("heading", name="Carambouille memo card", level=1)).to_be_visible()
    expect(phone.locator("[data-offline-notice]")).to_have_text(
        "Offline — the memo card and its calculator work without a connection.")
    calculator = phone.locator("#calculator")
    calculator.get_by_label("Product").select_option(value="cheese")
    calculator.locator("label.pill", has_text="3").first.click()
    # Each value shown is what the rules compute, on the phone with no server to ask.
    expect(calculator.locator(".sale-value")).to_have_text(f"= {game.sale_value(40, 3)} points")
    calculator.get_by_label("First card").select_option(value="illusion")
    assert game.sale_value(40, 3, ["illusion"]) == 300
    expect(calculator.locator(".sale-value")).to_have_text("= 300 points")
    calculator.get_by_label("Then").select_option(value="bargain")
    assert game.sale_value(40, 3, ["illusion", "bargain"]) == 150
    expect(calculator.locator(".sale-value")).to_have_text("= 150 points")
    expect(calculator.locator(".steps li")).to_have_text(["3 × cheeses = 180", "Illusion → 300", "Bargain → 150"])
    # The pills show the memo's values for cheese, and the address keeps the question.
    expect(calculator.locator("label.pill small.v").first).to_have_text(str(game.sale_value(40, 1)))
    assert "product=cheese" in phone.url and "effects-1=bargain" in phone.url

    # Every value the page holds for the calculator is the rules' own.
    data = json.loads(phone.locator("#calculator-data").get_attribute("data-offline"))
    checked = 0
    for face, sales in data["values"].items():
        for cards, node in enumerate(sales, start=1):
            stack = [(node, [])]
            while stack:
                (value, marks, *following), effects = stack.pop()
                assert value == game.sale_value(int(face), cards, effects), (face, cards, effects)
                checked += 1
                for card, child in (following[0].items() if following else ()):
                    stack.append((child, [*effects, card]))
    assert checked > 5000

    # Opened again at the address with the question in it, still offline: the same answer.
    phone.reload()
    expect(phone.locator("#calculator .sale-value")).to_have_text("= 150 points")
    assert phone.errors == []


def test_a_tables_house_memo_works_offline_once_its_page_was_opened(phone_behind, live_server):
    house = {"40": [None, None, 200, None, None]}
    token, _ = record_table(live_server, "carambouille", PLAYERS, {"first_trader": 0},
                            [{"type": "house_memo", "memo": house}])
    phone, proxy = phone_behind()
    phone.goto("/")
    installed(phone)
    phone.goto(f"/t/{token}/memo")
    offline(phone, proxy)
    phone.reload()
    expect(phone.locator("html")).to_have_attribute("data-offline-copy", re.compile(r"^\d+$"))
    calculator = phone.locator("#calculator")
    calculator.get_by_label("Product").select_option(value="cheese")
    calculator.locator("label.pill", has_text="3").first.click()
    memo = {**game.DEFAULT_MEMO, 40: (40, 100, 200, 300, 480)}
    # The table's own 200 for 3 cheeses, halved by a Bargain: 100, as the rules say on this memo.
    expect(calculator.locator(".sale-value")).to_have_text("= 200 points")
    calculator.get_by_label("First card").select_option(value="bargain")
    expect(calculator.locator(".sale-value")).to_have_text(f"= {game.sale_value(40, 3, ['bargain'], memo)} points")
    assert game.sale_value(40, 3, ["bargain"], memo) == 100
    assert phone.errors == []


def test_a_page_never_opened_shows_the_offline_page_in_the_phones_language(phone_behind, live_server):
    token, _ = record_table(live_server, "carambouille", PLAYERS, {"first_trader": 2}, [])
    phone, proxy = phone_behind(locale="fr-FR")
    phone.set_extra_http_headers({"Accept-Language": "fr-FR,fr;q=0.9"})
    phone.goto(f"/t/{token}")
    installed(phone)
    offline(phone, proxy)
    phone.goto("/history")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Pas de connexion")
    links = phone.locator("[data-kept-tables] a")
    expect(links.first).to_have_text("Carte Mémo de Carambouille")
    # The table this phone opened, kept as last seen, is one tap away.
    expect(phone.locator(f'[data-kept-tables] a[href$="/t/{token}"]')).to_have_count(1)
    for link in links.all():
        assert link.bounding_box()["height"] >= 44
    # The page says it all: no notice above it.
    expect(phone.locator("[data-offline-notice]")).to_have_count(0)

    # The connection back, the page asked for comes by itself.
    online(phone, proxy)
    expect(phone.get_by_role("heading", level=1)).not_to_have_text("Pas de connexion", timeout=7_000)
    assert phone.url.endswith("/history")
    assert phone.errors == []


# --- a table without a network ---------------------------------------------------------------------

def test_a_table_page_offline_says_so_disables_recording_and_catches_up_when_back(phone_behind, new_phone, live_server):
    # Ben is the First Trader: his phone opens and closes the market; Pia's follows, then loses the network.
    token, _ = record_table(live_server, "carambouille", PLAYERS, {"first_trader": 1}, [])
    pia, proxy = phone_behind()
    pia.goto(f"/t/{token}")
    choose_seat(pia, "Pia")
    installed(pia)
    ben = new_phone()
    ben.goto(f"/t/{token}")
    choose_seat(ben, "Ben")
    pia_buttons = pia.locator("#live form button:visible")
    expect(pia_buttons.first).to_be_enabled()

    # Ben opens the market: Pia's phone shows it as it sits on the table.
    submit_and_wait(ben, ben.locator("#bell").get_by_role("button", name=re.compile("Open the market")))
    opened = newest_entry(ben).inner_text()
    expect(newest_entry(pia)).to_have_text(opened)
    pia.wait_for_timeout(1_500)  # a phone on the table, as a real one is between moves

    offline(pia, proxy)
    notice = pia.locator("[data-offline-notice]")
    expect(notice).to_be_visible()
    expect(notice).to_have_text(OFFLINE_NOTICE)
    expect(pia_buttons.first).to_be_disabled()
    assert pia.evaluate(ENABLED_RECORDING_CONTROLS) == 0

    # The phone is put away and opened again, still without a network: the table as it last saw it
    # (the market open, which it heard after the page was loaded), said so, nothing to tap.
    pia.reload()
    expect(pia.locator("html")).to_have_attribute("data-offline-copy", re.compile(r"^\d+$"))
    expect(notice).to_have_text(OFFLINE_NOTICE)
    expect(newest_entry(pia)).to_have_text(opened)
    expect(pia.locator("summary", has_text="This phone is Pia's")).to_have_count(1)
    expect(pia_buttons.first).to_be_disabled()
    assert pia.evaluate(ENABLED_RECORDING_CONTROLS) == 0

    # Meanwhile Ben's phone closes the market.
    submit_and_wait(ben, ben.locator("#bell").get_by_role("button", name=re.compile("Close the market")))
    expect(newest_entry(ben)).not_to_have_text(opened)
    closed = newest_entry(ben).inner_text()
    seen = ben.locator("#live").get_attribute("data-seen")

    online(pia, proxy)
    # Back: the entry recorded meanwhile, within the live update's delay, and the notice gone.
    expect(newest_entry(pia)).to_have_text(closed, timeout=3_000)
    expect(pia.locator("#live")).to_have_attribute("data-seen", seen)
    expect(notice).to_be_hidden()
    expect(pia.locator("html")).not_to_have_attribute("data-offline-copy", re.compile("."))
    expect(pia_buttons.first).to_be_enabled()
    assert pia.errors == []


def test_a_table_page_whose_server_is_out_of_reach_says_so_and_catches_up(phone_behind, new_phone, live_server):
    # The phone's Wi-Fi is fine; the laptop serving the table is not reachable (asleep, restarted).
    token, _ = record_table(live_server, "carambouille", PLAYERS, {"first_trader": 2}, [])
    pia, proxy = phone_behind()
    pia.goto(f"/t/{token}")
    choose_seat(pia, "Pia")
    proxy.down()
    expect(pia.locator("[data-offline-notice]")).to_have_text(OFFLINE_NOTICE, timeout=5_000)
    record_entry(live_server.database_url, token, {"type": "house_memo", "memo": {"40": [None, None, None, None, 520]}})
    proxy.up()
    expect(pia.locator("[data-offline-notice]")).to_be_hidden(timeout=5_000)
    expect(newest_entry(pia)).to_have_text(re.compile("memo"), timeout=3_000)
    assert pia.errors == []


def _entry_count(live_server, token: str, kind: str = "sale") -> int:
    """How many entries of ``kind`` the table's log holds."""
    engine = sa.create_engine(live_server.database_url)
    with engine.connect() as connection:
        count = connection.execute(sa.text(
            "SELECT count(*) FROM entries e JOIN tables t ON t.id = e.table_id WHERE t.token = :token "
            "AND e.type = :kind"), {"token": token, "kind": kind}).scalar()
    engine.dispose()
    return count


def _a_sale_ready(phone_behind, new_phone, live_server):
    """Carambouille's sales: Pia's phone (behind its proxy) with 2 onions chosen to sell, Ben's beside it.
    (token, Pia's page, her proxy, Ben's page)."""
    token, _ = record_table(live_server, "carambouille", PLAYERS, {"first_trader": 2},
                            [{"type": "market_opened"}, {"type": "market_closed"}])
    pia, proxy = phone_behind()
    pia.goto(f"/t/{token}")
    choose_seat(pia, "Pia")
    ben = new_phone()
    ben.goto(f"/t/{token}")
    choose_seat(ben, "Ben")
    sale = pia.locator("#sale-form")
    sale.get_by_label("Product").select_option(value="onions")
    sale.locator("label.pill", has_text="2").first.click()
    return token, pia, proxy, ben


@pytest.mark.parametrize("lost", ["the form", "its answer"])
def test_a_form_sent_as_the_network_drops_says_so_and_counts_once_when_sent_again(phone_behind, new_phone, live_server, lost):
    token, pia, proxy, ben = _a_sale_ready(phone_behind, new_phone, live_server)
    sale = pia.locator("#sale-form")
    record = pia.get_by_role("button", name="Record the sale: +25")
    expect(record).to_be_visible()
    sit_on_table(pia, seconds=3)

    # The Wi-Fi drops just as Record is tapped: before the form reaches the server, or after, its answer lost.
    if lost == "the form":
        proxy.down()
    else:
        proxy.answers = False
    record.click()
    expect(sale.locator("[data-unsent-notice]")).to_have_text(UNSENT)
    # What the player chose is still there, to send again.
    expect(sale.get_by_label("Product")).to_have_value("onions")
    expect(pia.locator("[data-offline-notice]")).to_be_visible()
    assert _entry_count(live_server, token) == (0 if lost == "the form" else 1)

    proxy.up()
    proxy.answers = True
    expect(pia.locator("[data-offline-notice]")).to_be_hidden(timeout=5_000)
    expect(record).to_be_enabled()
    record.click()
    # Recorded once, whether the first one arrived or not: the sentence and the score on both phones.
    for phone in (pia, ben):
        expect(phone.locator(".recent-entries li", has_text="Pia sold 2 onions for 25.")).to_have_count(1)
        expect(scores(phone)).to_have_text(["0", "0", "25"])
    assert _entry_count(live_server, token) == 1
    assert pia.errors == []


def test_an_entry_a_server_behind_refused_says_so_and_is_sent_again_by_itself_once(phone_behind, new_phone, live_server):
    # A city night's server behind answers an htmx entry 503 with Retry-After: 2 (companion/server/serving.py).
    token, pia, proxy, ben = _a_sale_ready(phone_behind, new_phone, live_server)
    sale = pia.locator("#sale-form")
    sit_on_table(pia, seconds=3)

    proxy.refuse(1, BUSY_ANSWER)
    tapped = time.monotonic()
    pia.get_by_role("button", name="Record the sale: +25").click()
    # Said on the form, in words; nothing recorded yet; the player is asked to do nothing.
    expect(sale.locator("[data-unsent-notice]")).to_have_text(BUSY)
    assert _entry_count(live_server, token) == 0 and proxy.refused == 1
    # Sent again by the page after the 2 s it was told, once: the sentence and the score on both phones.
    for phone in (pia, ben):
        expect(phone.locator(".recent-entries li", has_text="Pia sold 2 onions for 25.")).to_have_count(1, timeout=6_000)
        expect(scores(phone)).to_have_text(["0", "0", "25"])
    assert time.monotonic() - tapped >= 2, "sent again before the server said to"
    expect(pia.locator("[data-unsent-notice]")).to_have_count(0)
    sit_on_table(pia, seconds=3)
    assert _entry_count(live_server, token) == 1 and proxy.refused == 1
    expect(scores(ben)).to_have_text(["0", "0", "25"])
    assert pia.errors == []


def test_the_house_memo_refused_where_wrong_then_by_a_server_behind_is_saved_once(phone_behind, live_server):
    token, _ = record_table(live_server, "carambouille", PLAYERS, {"first_trader": 2}, [])
    pia, proxy = phone_behind()
    pia.goto(f"/t/{token}/memo/edit")
    form = pia.locator("form.memo-edit")
    cell = form.locator("#m40_5")
    cell.fill("-1")
    form.get_by_role("button", name="Save the house memo").click()
    # Refused next to the cell, in place: the page and what was typed stay.
    expect(form.locator("#m40_5-error")).to_have_text("A selling value is 0 to 100,000 points.")
    expect(form.locator("#m40_5")).to_have_value("-1")
    assert _entry_count(live_server, token, "house_memo") == 0
    form.locator("#m40_5").fill("500")
    proxy.refuse(1, BUSY_ANSWER)
    form.get_by_role("button", name="Save the house memo").click()
    expect(form.locator("[data-unsent-notice]")).to_have_text(BUSY)
    # Where the player tapped, just above the buttons (the top of this long form is out of sight), and calm: a
    # status, nothing to do, not the red of an entry lost.
    notice = form.locator("[data-unsent-notice]")
    assert notice.evaluate("line => line.nextElementSibling.classList.contains('form-buttons')")
    assert notice.get_attribute("role") == "status" and "unsent" not in notice.get_attribute("class")
    expect(notice).to_be_in_viewport()
    # Sent again by itself: the table's memo, its changed cell marked, one entry.
    pia.wait_for_url(f"**/t/{token}/memo", timeout=6_000)
    expect(pia.locator("body")).to_contain_text("(house memo)")
    assert _entry_count(live_server, token, "house_memo") == 1 and proxy.refused == 1
    # Back to the printed memo, by its own button (the button's value sent as htmx sends it).
    pia.goto(f"/t/{token}/memo/edit")
    pia.get_by_role("button", name="Back to the printed memo").click()
    pia.wait_for_url(f"**/t/{token}/memo")
    expect(pia.locator("body")).not_to_contain_text("(house memo)")
    assert _entry_count(live_server, token, "house_memo") == 2
    assert pia.errors == []

