"""Take the README's screenshot: a Carambouille table's first screen on the phone of the player who sells.

Run from the repository with the test extras installed (``make test`` installs them) and Debian's
Chromium and fonts (``apt-get install chromium fonts-noto-core fonts-noto-color-emoji``: without the
fonts, the card icons show as empty boxes):

    .venv/bin/python docs/screenshots/take.py

It serves the app on loopback from a scratch SQLite file, sets a table up through the entry log as
phones would have, and writes docs/screenshots/table-phone.png.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "browser"), str(ROOT)]

from playwright.sync_api import sync_playwright  # noqa: E402

from browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from browser.server import LiveServer, scratch_database, start_server, stop_server  # noqa: E402
from browser.tables import record_table  # noqa: E402

PLAYERS = ["Alice", "Bernard", "Dieter", "Giulia"]
EVENTS = [
    {"type": "market_opened"},
    {"type": "market_closed", "seconds": 95},
    {"type": "sale", "player": 0, "product": "cheese", "cards": 3},
]


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        database_url, _drop = scratch_database(Path(folder))
        process, url = start_server(database_url, Path(folder) / "gunicorn.log", workers=1)
        try:
            token, _watch = record_table(LiveServer(url, database_url, process, Path(folder) / "gunicorn.log"),
                                         "carambouille", PLAYERS, {"first_trader": 0}, EVENTS)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                           locale="en-GB").new_page()
                page.goto(f"{url}/t/{token}")
                page.get_by_role("button", name="Alice", exact=True).click()
                page.get_by_role("button", name="Everyone is in").click()
                page.get_by_role("button", name="Everyone is in").wait_for(state="detached")
                page.wait_for_load_state("networkidle")
                # The market closed a moment ago: its bell rings (a flash over the page) before the screen settles.
                page.wait_for_timeout(4000)
                page.locator(".bell-flash.is-ringing").wait_for(state="detached")
                target = ROOT / "docs" / "screenshots" / "table-phone.png"
                page.screenshot(path=str(target))
                browser.close()
                print(f"wrote {target.relative_to(ROOT)}")
        finally:
            stop_server(process)


if __name__ == "__main__":
    main()
