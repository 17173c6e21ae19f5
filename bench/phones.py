"""Four phones at one Carambouille table in one headless Chromium: how soon each entry shows on the others.

Each phone notes, by its own clock, when it first showed each table version (its live region's
``data-seen``), and when it was last tapped (the click as the page gets it, not the driver's time to
find the button). The phones of one browser share the machine's clock, so the tap on one phone and
the moment another showed the entry compare directly. A hand: the First Trader opens and closes the
market on their phone, sells, every player ends their sales turn on their own phone, and the deal is
recorded; the figure is every entry's delay on each of the other three phones.

Used by ``make bench`` (several hands, the figure of docs/performance.md) and by
``tests/browser/test_table_night.py`` (one hand: every entry reaches every phone, pushed).
"""

from __future__ import annotations

import math
import re
import statistics
from dataclasses import dataclass
from urllib.parse import urlsplit

PLAYERS = ["Ana", "Ben", "Chloé", "Dan"]
# How long a phone may take to show an entry before the hand stops (ms).
WITHIN_MS = 5000

WATCH_VERSIONS = """() => {
  window.seenAt = window.seenAt || {};
  document.addEventListener("click", () => { window.tappedAt = Date.now(); }, {capture: true});
  const note = () => {
    const live = document.getElementById("live");
    if (live && !(live.dataset.seen in window.seenAt)) window.seenAt[live.dataset.seen] = Date.now();
  };
  note();
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ["data-seen"]});
}"""

# Set before a tap: the page notes when the answer to its own form (not a GET the stream or the poll
# asked for) has been swapped in; a page the answer replaced has no note.
EXPECT_ANSWER = """() => {
  window.answerSwapped = false;
  document.addEventListener("htmx:afterSwap", function swapped(event) {
    if (((event.detail.requestConfig || {}).verb || "get") === "get") return;
    window.answerSwapped = true;
    document.removeEventListener("htmx:afterSwap", swapped);
  });
}"""
ANSWERED = "() => window.answerSwapped !== false && document.querySelector('#live') !== null"


@dataclass
class Delays:
    """Each entry's delay on each other phone, from the tap (ms)."""

    ms: list[float]

    @property
    def p50(self) -> float:
        return statistics.median(self.ms)

    @property
    def p95(self) -> float:
        ordered = sorted(self.ms)
        return ordered[math.ceil(0.95 * len(ordered)) - 1]

    @property
    def max(self) -> float:
        return max(self.ms)

    def __str__(self) -> str:
        return f"{len(self.ms)} updates, p50 {self.p50:.0f} ms, p95 {self.p95:.0f} ms, max {self.max:.0f} ms"


def version(phone) -> int:
    return int(phone.locator("#live").get_attribute("data-seen"))


def tap(phone, button) -> None:
    """Tap ``button`` and wait for this phone's own answer to be swapped in."""
    phone.evaluate(EXPECT_ANSWER)
    button.click()
    phone.wait_for_function(ANSWERED, timeout=WITHIN_MS)


def act(actor, button, others) -> list[float]:
    """Tap ``button`` on ``actor``'s phone; how long each other phone took to show the new entry (ms)."""
    tap(actor, button)
    sent = actor.evaluate("window.tappedAt")
    seq = str(version(actor))
    delays = []
    for phone in others:
        phone.wait_for_function("seq => seq in window.seenAt", arg=seq, timeout=WITHIN_MS)
        delays.append(phone.evaluate("seq => window.seenAt[seq]", seq) - sent)
    return delays


def watch(phone) -> None:
    """Start noting when this phone shows each version (after it took its seat)."""
    phone.evaluate(WATCH_VERSIONS)


def _button(phone, pattern: str):
    return phone.get_by_role("button", name=re.compile(pattern))


def hand(phones: dict) -> list[float]:
    """Play a hand of Carambouille, each move on the phone of the player who makes it; every delay (ms)."""
    others = lambda name: [phone for other, phone in phones.items() if other != name]  # noqa: E731
    # The First Trader's own phone opens the market (the others offer to ring "in a pinch").
    trader = next(name for name, phone in phones.items()
                  if _button(phone.locator("#bell"), r"Open the market$").count())
    phone = phones[trader]
    delays = act(phone, _button(phone.locator("#bell"), "Open the market"), others(trader))
    close = _button(phone.locator("#bell"), "Close the market")
    close.wait_for()
    delays += act(phone, close, others(trader))
    # The First Trader sells 1 card of the first product still in stock.
    sale = phone.locator("#sale-form")
    product = sale.get_by_label("Product")
    product.select_option(value=product.locator('option:not([disabled]):not([value=""])').first.get_attribute("value"))
    sale.locator("label.pill", has_text="1").first.click()
    delays += act(phone, _button(phone, r"^Record the sale: \+\d+"), others(trader))
    while True:
        seller = next((name for name, phone in phones.items() if phone.locator(".turn-heading", has_text="Your sales turn").count()), None)
        if seller is None:
            break
        delays += act(phones[seller], _button(phones[seller], "^Done selling"), others(seller))
    # The new First Trader records the deal (prefilled with the app's estimate of each hand).
    dealer = next((name for name in PLAYERS if phones[name].locator("#deal-form h2", has_text=f"{name} deals").count()), None)
    if dealer is not None:
        deal = phones[dealer].locator("#deal-form")
        if not _button(deal, "^Record the deal").count():
            deal.get_by_role("button", name="Work out the deal").click()
        delays += act(phones[dealer], _button(deal, "^Record the deal"), others(dealer))
    return delays


def seat_phones(new_phone, table_url: str, bases: list[str] | None = None) -> dict:
    """A phone for each player at the table, each saying whose it is, each watching the versions it shows.

    ``bases``: app servers on one database, the players' phones dealt to them in turn (Ana's to the
    first, Ben's to the second…), each phone opening the table's own address on its server.
    """
    path = urlsplit(table_url).path
    phones = {}
    for number, name in enumerate(PLAYERS):
        phone = phones[name] = new_phone()
        phone.goto(bases[number % len(bases)] + path if bases else table_url)
        phone.locator("section.who").get_by_role("button", name=re.compile(rf"^{re.escape(name)}(\s|$)")).click()
        phone.locator("summary", has_text=f"This phone is {name}'s").wait_for(state="attached")
        watch(phone)
    return phones


def open_table(phone, base: str) -> str:
    """Open a four-player Carambouille table through the UI, Ana the first First Trader; its URL."""
    phone.goto(f"{base}/new/carambouille")
    for number, name in enumerate(PLAYERS, start=1):
        phone.get_by_label(re.compile(rf"^Player {number}\b")).fill(name)
    phone.locator("select#starter").select_option(label=PLAYERS[0])  # the list names the players typed
    phone.get_by_role("button", name="Open the table").click()
    phone.wait_for_url(re.compile(r"/t/[^/]+$"))
    return phone.url


def table_of_phones(base: str, chromium: str, args: list[str], hands: int, other: str | None = None) -> dict:
    """The bench's figure: ``hands`` hands at a table of four phones in one headless Chromium.

    ``other``: a second app server on the same database (as a club's two machines behind one proxy):
    Ben's and Dan's phones are on it, so two of each entry's three deliveries cross from one server to the other.
    """
    from playwright.sync_api import sync_playwright

    size = {"width": 390, "height": 844}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=args)

        def new_phone():
            context = browser.new_context(viewport=size, screen=size, has_touch=True, is_mobile=True,
                                          device_scale_factor=2)
            context.set_default_timeout(WITHIN_MS * 2)
            return context.new_page()

        opener = new_phone()
        url = open_table(opener, base)
        opener.context.close()
        phones = seat_phones(new_phone, url, [base, other] if other else None)
        # Every phone's stream heard before the first tap, as at a table where the phones lie waiting.
        for phone in phones.values():
            phone.locator("[data-stream][data-up]").wait_for(state="attached")
        delays = []
        for _ in range(hands):
            delays += hand(phones)
        browser.close()
    found = Delays(delays)
    return {"updates": len(found.ms), "hands": hands, "p50_ms": found.p50, "p95_ms": found.p95, "max_ms": found.max}
