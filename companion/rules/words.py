"""Singular and plural in one place: every "1 seal" / "2 seals" of the app goes through here.

Each call names both forms, as ``ngettext(singular, plural, n)`` will when the app is translated: then
these two functions become its ngettext calls, and no other code changes. Standard library only, like
the rules; templates reach them as the ``plural`` and ``pick`` filters (``companion/templating.py``).
"""

from __future__ import annotations


def pick(count: int, one: str, many: str) -> str:
    """The form for ``count``: ``pick(1, "seal", "seals")`` is "seal"; 0 and 2 or more take ``many``."""
    return one if count == 1 else many


def plural(count: int, one: str, many: str) -> str:
    """The count and its form: "1 seal", "2 seals", "0 cards"."""
    return f"{count} {pick(count, one, many)}"
