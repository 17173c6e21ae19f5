"""The app the browser tests serve: the real app, plus the tests' tiny game.

The tiny game lets the tests of the shared table view (two phones, undo, a
refused form, no JavaScript) run whatever state the three real games' pages
are in. Everything else is exactly what ``make run`` serves.
"""

from __future__ import annotations

import sys
from pathlib import Path

from jinja2 import ChoiceLoader, FileSystemLoader

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tinygame.py and tinyviews.py live in tests/

from companion import create_app  # noqa: E402
from companion.rules import GAMES  # noqa: E402

# Registered before the app is made, the tiny game's views (tinyviews, its VIEWS) are registered as a real game's.
GAMES.register("tiny", "tinygame")
app = create_app()
app.jinja_loader = ChoiceLoader([app.jinja_loader, FileSystemLoader(HERE / "templates")])
