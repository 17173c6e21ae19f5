"""A point entry as a player types it ("12+7-3"): checked, computed and worded, never evaluated by Python.

A small recursive-descent parser over digits, ``+ - − × * x X`` and brackets, with the usual precedence (× before
+ and −) and a sign in front of a number or a bracket ("-5", "-(3+2)", "2*-3"). Every number, every step and the
result stay within ±``LIMIT``, and two signs in a row ("--5", "+-5") are refused, so a slip of the thumb never
turns a sheet into nonsense. Each refusal says why, in words a player reads next to the field (``RuleError.field``).

An entry read back from the log (``recorded``) is read as it was when it was entered: one typed before doubled signs
were refused ("--5") still makes what it made then (5), so every session recorded replays.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules import RuleError
from companion.rules.words import _, fill, ngettext

LIMIT = 1_000_000  # the most an entry, any step of it, or a total may be, either way
LONGEST = 40  # characters an entry may hold
DIGITS = 7  # digits a number may have, leading zeros aside
# Each sign as typed, and what it does: the minus a phone offers (U+2212) is a minus; ×, * and x (3x4) a times.
SIGNS = {"+": "+", "-": "-", "\u2212": "-", "*": "*", "\u00d7": "*", "x": "*", "X": "*"}
BRACKETS = "()"


@dataclass(frozen=True)
class Entry:
    """What a player typed, as typed (outer spaces left out), and what it makes."""

    text: str
    value: int

    @property
    def plain(self) -> bool:
        """Whether the text is only the number ("16", "-5", "007"), nothing to show beside it."""
        bare = "".join(self.text.split()).replace("\u2212", "-")
        bare = bare[1:] if bare[:1] in ("+", "-") else bare
        return bare == "" or bare.isdecimal()


EMPTY = Entry("", 0)


def entry_words(entry: Entry | None) -> str:
    """The entry for a page or a sentence: "12+7-3 = 16" when it was a sum, "16" when a number, "" when none."""
    if entry is None:
        return ""
    if entry.plain:
        return fill("%(num)d", {"num": entry.value})  # the reader's digits ("1,080", "1 080")
    # Translators: a score as a player typed it, then what it makes: "12+7-3 = 16".
    return _("%(entry)s = %(value)d", entry=entry.text, value=entry.value)


def parse(text: object, field: str | None = None, *, recorded: bool = False) -> Entry:
    """The entry ``text`` makes; an empty one (or only spaces) is 0. RuleError (on ``field``) says what is wrong.

    ``recorded``: the entry is read back from the log, where two signs in a row typed before they were refused
    make what they made then ("--5" is 5, "+-5" is −5).
    """
    if not isinstance(text, str):
        raise RuleError(_("Enter a number, or a sum such as 12+7-3."), field)
    if len(text) > LONGEST:
        raise RuleError(ngettext("An entry holds at most %(num)d character, not %(given)d.",
                                 "An entry holds at most %(num)d characters, not %(given)d.",
                                 LONGEST, given=len(text)), field)
    kept = text.strip()
    if not kept:
        return EMPTY
    return Entry(kept, _Parser(kept, field, doubled=recorded).whole())


class _Parser:
    """One entry's tokens, read left to right: expression := term ((+|−) term)*, term := signed ((×) signed)*."""

    def __init__(self, text: str, field: str | None, doubled: bool = False) -> None:
        self.text, self.field = text, field
        self.doubled = doubled  # two signs in a row are read (an entry recorded before they were refused)
        self.tokens = _tokens(text, field)
        self.at = 0

    def whole(self) -> int:
        value = self.expression()
        if self.at < len(self.tokens):
            token = self.tokens[self.at]
            if token == ")":
                raise self.refuse(_("A bracket is closed that was never opened."))
            raise self.missing_sign(token)
        return value

    def expression(self) -> int:
        value = self.term()
        while self.peek() is not None and SIGNS.get(self.peek()) in ("+", "-"):
            sign = self.take()
            right = self.term()
            value = self.within(value + right if SIGNS[sign] == "+" else value - right)
        return value

    def term(self) -> int:
        value = self.signed()
        while self.peek() is not None and SIGNS.get(self.peek()) == "*":
            self.take()
            value = self.within(value * self.signed())
        return value

    def signed(self) -> int:
        """A number or a bracket, with a sign in front of it ("-5", "+(3)"); a second sign is a slip ("--5")."""
        token = self.peek()
        if token is not None and SIGNS.get(token) in ("+", "-"):
            before = self.tokens[self.at - 1] if self.at else None
            if not self.doubled and before is not None and SIGNS.get(before) in ("+", "-"):
                # Translators: two signs typed one after the other: "--5", "12+-3".
                raise self.refuse(_("Two signs in a row, “%(signs)s”: keep the one you mean.", signs=before + token))
            self.take()
            value = self.signed()
            return self.within(value if SIGNS[token] == "+" else -value)
        return self.operand()

    def operand(self) -> int:
        before = self.tokens[self.at - 1] if self.at else None
        token = self.take()
        if token is None:
            raise self.refuse(_("The entry ends with “%(sign)s”: a number must follow it.", sign=before))
        if token[0].isdecimal():
            if len(token.lstrip("0")) > DIGITS:
                raise self.too_large(1)
            return self.within(int(token))
        if token == "(":
            if self.peek() == ")":
                raise self.refuse(_("Empty brackets: put a number between them."))
            value = self.expression()
            closing = self.take()
            if closing is None:
                raise self.refuse(_("A bracket is opened and never closed."))
            if closing != ")":
                raise self.missing_sign(closing, back=2)
            return value
        if token == ")" and before is None:
            raise self.refuse(_("A bracket is closed that was never opened."))
        if before is None or before == "(":
            raise self.refuse(_("A number must come before “%(sign)s”.", sign=token))
        raise self.refuse(_("A number must follow “%(sign)s”.", sign=before))

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> str | None:
        token = self.peek()
        self.at += 1
        return token

    def within(self, value: int) -> int:
        if abs(value) > LIMIT:
            raise self.too_large(value)
        return value

    def too_large(self, value: int) -> RuleError:
        if value < 0:
            return self.refuse(_("%(entry)s makes less than −%(most)d.", entry=self.text, most=LIMIT))
        return self.refuse(_("%(entry)s makes more than %(most)d.", entry=self.text, most=LIMIT))

    def missing_sign(self, token: str, back: int = 1) -> RuleError:
        left = self.tokens[self.at - back] if self.at >= back else ""
        # Translators: two numbers (or a number and a bracket) typed side by side: "12 3", "2(3)".
        return self.refuse(_("A sign is missing between “%(left)s” and “%(right)s”.", left=left, right=token))

    def refuse(self, message: str) -> RuleError:
        return RuleError(message, self.field)


def _tokens(text: str, field: str | None) -> list[str]:
    """Numbers (runs of digits, in any script's digits), signs and brackets; spaces only part them."""
    tokens: list[str] = []
    number = ""
    for char in text + " ":
        if char.isdecimal():
            number += char
            continue
        if number:
            tokens.append(number)
            number = ""
        if char in SIGNS or char in BRACKETS:
            tokens.append(char)
        elif not char.isspace():
            shown = char if char.isprintable() else repr(char)
            # Translators: every sign an entry may hold; "- * x X" are other ways to type − and ×.
            raise RuleError(_("Only digits, brackets and the signs + − × (also typed - * x X): not “%(char)s”.",
                              char=shown), field)
    return tokens
