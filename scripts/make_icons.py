"""Draw the home-screen icons (static/icons/*.png) from their SVG sources, in headless Chromium.

    .venv/bin/python scripts/make_icons.py

The "any" icons are static/icon.svg (rounded corners, the rest transparent); the maskable one is
static/icons/maskable.svg, full bleed, its bell inside the central circle every launcher's mask keeps.
Run again after changing either source, and commit the PNGs.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "static"
ICONS = [("icon.svg", "icons/icon-192.png", 192), ("icon.svg", "icons/icon-512.png", 512),
         ("icons/maskable.svg", "icons/maskable-512.png", 512)]


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"),
                                             args=["--no-sandbox", "--disable-gpu"])
        for source, target, size in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = base64.b64encode((STATIC / source).read_bytes()).decode()
            page.set_content(f'<body style="margin:0"><img src="data:image/svg+xml;base64,{svg}" '
                             f'width="{size}" height="{size}" style="display:block"></body>')
            page.wait_for_function("() => document.images[0].complete")
            (STATIC / target).write_bytes(page.screenshot(omit_background=True))
            print(f"{target}: {size}×{size}")
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
