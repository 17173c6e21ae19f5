"""A worker's memory settled after it starts (``companion.server.memory``): what the app loaded for good is
left out of Python's full collections, and the app answers in every language as before."""

from __future__ import annotations

import gc
import time

import pytest

from companion.server import memory
from helpers import make_table


@pytest.fixture
def settled():
    """Settle as a worker does, and give the interpreter back as it was (the test process goes on)."""
    threshold = gc.get_threshold()
    yield memory.settle
    gc.unfreeze()
    gc.set_threshold(*threshold)


def full_collection_ms() -> float:
    started = time.process_time()
    gc.collect()
    return (time.process_time() - started) * 1000


def test_a_settled_worker_walks_only_what_came_after_it_started(app, client, settled):
    settled(app)
    # Everything the app had loaded (and all the test process holds) is out of the collections' walk:
    # a full collection has next to nothing to do.
    assert gc.get_freeze_count() > 50_000
    assert len(gc.get_objects()) < 1_000
    assert gc.get_threshold()[0] == memory.YOUNGEST_THRESHOLD
    assert full_collection_ms() < 10


@pytest.mark.parametrize("language, words", [("en", "Who are you?"), ("fr", "Qui es-tu\u00a0?"),
                                             ("de", "Wer bist du?"), ("it", "Chi sei?")])
def test_a_settled_worker_answers_in_every_language(app, client, settled, language, words):
    settled(app)
    token = make_table(app, "tiny", ["Ana", "Ben"])
    page = client.get(f"/t/{token}", headers={"Accept-Language": language})
    assert page.status_code == 200 and words in page.text
