"""Every kind of page and htmx fragment passes the Nu Html Checker (vnu), but for htmx's own attributes.

The checker is the npm package vnu-jar at the version the Makefile pins (``make test`` installs it into
``.vnu/<version>/``; ``VNU_JAR`` names another copy), run once over every answer by the machine's Java.
Without Java or the jar the test is skipped with the reason; in CI (CI=true) it fails.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from every_page import every_answer
from helpers import in_ci

ROOT = Path(__file__).resolve().parents[2]
# htmx's attributes (hx-get, hx-swap…) and its SSE extension's (sse-connect, sse-swap): HTML has no place for
# them, and only them.
HTMX_ATTRIBUTE = re.compile(r"Attribute “(hx|sse)-[a-z:-]+” not allowed on element “[a-z]+” at this point\.")
# A fragment is checked inside the smallest document that holds it.
DOCUMENT = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>fragment</title></head><body>{}</body></html>'
# What the filter must still let through: a document with the two errors the checker once found on the pages.
CANARY = DOCUMENT.format('<span aria-label="Rank 1">1</span><time datetime="2026-12-05T20:05:17.793897">8:05</time>'
                         '<div hx-get="/" sse-swap="region"></div>')


def vnu_jar() -> Path:
    if os.environ.get("VNU_JAR"):
        return Path(os.environ["VNU_JAR"])
    version = re.search(r"^VNU_VERSION := (\S+)$", (ROOT / "Makefile").read_text(), re.M).group(1)
    return ROOT / ".vnu" / version / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"


@pytest.fixture(scope="module")
def checker() -> list[str]:
    """The command that runs the checker; skipped (failed in CI) if Java or the jar is missing."""
    java, jar = shutil.which("java"), vnu_jar()
    missing = ("no java on the PATH (apt-get install default-jre-headless)" if java is None else
               f"no {jar} (make test installs it with npm; VNU_JAR names another copy)" if not jar.is_file() else None)
    if missing:
        if in_ci():
            pytest.fail(f"CI=true and the HTML checker cannot run: {missing}")
        pytest.skip(f"the HTML checker is not here: {missing}")
    return [java, "-jar", str(jar), "--errors-only", "--format", "json", "--stdout"]


def check(command: list[str], documents: dict[str, str], folder: Path) -> dict[str, list[str]]:
    """The checker's errors in each document (one run of the checker for all: Java starts slowly)."""
    files = {}
    for number, (what, html) in enumerate(documents.items()):
        files[what] = folder / f"{number:03d}.html"
        files[what].write_text(html, encoding="utf-8")
    run = subprocess.run(command + [str(path) for path in files.values()], capture_output=True, text=True,
                         timeout=300)
    messages = json.loads(run.stdout)["messages"]
    assert all(message["type"] == "error" for message in messages), messages[:3]
    by_name = {path.name: what for what, path in files.items()}
    found = {what: [] for what in documents}
    for message in messages:
        where = by_name[message["url"].rsplit("/", 1)[-1]]
        found[where].append(f"line {message.get('lastLine')}: {message['message']} "
                            f"[{message.get('extract', '').strip()[:80]}]")
    return found


def test_every_page_and_fragment_is_valid_html_but_for_htmx_attributes(app, checker, tmp_path):
    documents = {}
    for what, response in every_answer(app):
        html = response.text
        documents[what] = html if html.lstrip().lower().startswith("<!doctype html") else DOCUMENT.format(html)
    documents["canary"] = CANARY
    found = check(checker, documents, tmp_path)
    # The checker read the pages (htmx's attributes are on every table page) and tells real errors apart.
    assert any(HTMX_ATTRIBUTE.match(error.split(": ", 1)[1]) for error in found["the table page as htmx asks it"])
    canary = [error for error in found.pop("canary") if not HTMX_ATTRIBUTE.match(error.split(": ", 1)[1])]
    assert len(canary) == 2 and "aria-label" in canary[0] and "fraction of a second" in canary[1], canary
    errors = {what: kept for what, errors in found.items()
              if (kept := [error for error in errors if not HTMX_ATTRIBUTE.match(error.split(": ", 1)[1])])}
    assert not errors, "\n".join(f"{what}: {error}" for what, kept in errors.items() for error in kept)
