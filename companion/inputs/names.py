"""Player names: written one way (NFC, no invisible characters), and matched whatever their case and accents.

"Ann" and "Ann" followed by a zero-width space, or a name with a right-to-left override hidden
in it, look the same on a phone and must not be two players. Format characters (Unicode
category Cf: bidi controls, zero-width spaces, the byte order mark, soft hyphens) are dropped,
except the zero-width joiner and non-joiner, which some scripts and emoji need to be spelled
right; the match leaves those out too. Control characters (Cc) are refused by the forms.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache

# The longest name a player can have: it must fit the score row and the pad's columns.
NAME_LENGTH = 40
# Control characters would break the pad's columns and the CSV export: refused wherever a name comes in.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# Zero-width non-joiner and joiner: part of the spelling in Persian, Indic scripts and emoji sequences.
JOINERS = {"\u200c", "\u200d"}


# A group's review matches its few dozen names tens of thousands of times a page: each worked out once.
NAMES_KEPT = 4096


@lru_cache(maxsize=NAMES_KEPT)
def clean(raw: str | None) -> str:
    """A name as it is kept: NFC, format characters dropped, spaces trimmed and single."""
    text = unicodedata.normalize("NFC", raw or "")
    text = "".join(ch for ch in text if ch in JOINERS or unicodedata.category(ch) != "Cf")
    return " ".join(text.split())


@lru_cache(maxsize=NAMES_KEPT)
def key(name: str) -> str:
    """A name as matched: "  ANA ", "ana", "Àna" and "Ana" with a zero-width space are one player."""
    decomposed = unicodedata.normalize("NFKD", clean(name))
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch) and ch not in JOINERS)
    return " ".join(unicodedata.normalize("NFC", bare).casefold().split())


def starting_with(start: str) -> Callable[[str], bool]:
    """A test of names: whether a name or one of its words begins with ``start``, as names are matched
    (``key``): "an" finds "Ana" and "Marie Anne", "e" finds "Éloïse"; "na" finds neither."""
    start = key(start)

    def test(name: str) -> bool:
        matched = key(name)
        return bool(start) and (matched.startswith(start) or any(word.startswith(start) for word in matched.split()))

    return test


# The name a forgotten person's seat takes (its place at the table), with the stars that tell two apart.
_FORGOTTEN = re.compile(r"Player \d+\**")


def forgotten(seat: int) -> str:
    """The name a forgotten person's seat takes: its place at the table ("Player 3")."""
    return f"Player {seat + 1}"


def is_forgotten(name: str) -> bool:
    """Whether ``name`` is a forgotten person's seat ("Player 3", "Player 3*"): no one, in any tally or rating."""
    return _FORGOTTEN.fullmatch(name) is not None
