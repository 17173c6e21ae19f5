"""The catalogs stay whole: every message of the source, translated, in every language, placeholders kept.

``python -m companion.i18n.catalogs check`` prints what is missing (``make translations`` runs it after
updating the catalogs; ``tests/i18n/test_catalogs.py`` fails on the same list). ``english`` fills the
English catalog from the source, whose message ids are its English sentences.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"
# ``N_plural("%(num)d seal", "%(num)d seals")`` marks a plural pair kept in a table (``rules.words``).
KEYWORDS = {**DEFAULT_KEYWORDS, "_l": None, "N_plural": (1, 2)}
# A named placeholder and its conversion: "%(num)d", "%(name)s". "%%" is a percent sign.
PLACEHOLDER = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?([diouxXeEfFgGcrsa])")


def languages() -> list[str]:
    """The languages with a catalog, e.g. ``["de", "en", "fr", "it"]``."""
    return sorted(path.parent.parent.name for path in TRANSLATIONS.glob("*/LC_MESSAGES/messages.po"))


def source() -> Catalog:
    """Every message the source asks for, read from the code and templates as ``make translations`` does."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config, str(ROOT / "babel.cfg"))
    catalog = Catalog()
    for filename, lineno, message, comments, context in extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS, comment_tags=("Translators:",),
        strip_comment_tags=True,
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def read(language: str) -> Catalog:
    """The catalog of ``language`` as its ``.po`` file says."""
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po, locale=language)


def placeholders(text: str) -> set[tuple[str, str]]:
    """The named placeholders of ``text`` with their conversions ("d" and "i" are one)."""
    return {(name, "d" if kind == "i" else kind) for name, kind in PLACEHOLDER.findall(text)}


def _translation_problems(wanted: Message, found: Message) -> list[str]:
    ids = wanted.id if isinstance(wanted.id, tuple) else (wanted.id,)
    strings = found.string if isinstance(found.string, tuple) else (found.string,)
    if found.fuzzy:
        return ["fuzzy"]
    if not all(strings):
        return ["not translated"]
    allowed = set().union(*(placeholders(text) for text in ids))
    problems = [f"placeholder {'%(' + name + ')' + kind} is not in the source"
                for text in strings for name, kind in sorted(placeholders(text) - allowed)]
    # A translation says everything its source says; only the count may go unsaid ("un sceau").
    needed = {held for held in placeholders(ids[0]) if held[0] != "num"} if len(ids) > 1 else placeholders(ids[0])
    problems += [f"placeholder {'%(' + name + ')' + kind} is missing"
                 for text in strings for name, kind in sorted(needed - placeholders(text))]
    return sorted(set(problems))


def problems(language: str, wanted: Catalog | None = None) -> list[str]:
    """What is wrong with the catalog of ``language``: one line per message missing, fuzzy or broken."""
    wanted = source() if wanted is None else wanted
    catalog = read(language)
    found: list[str] = []
    for message in wanted:
        if not message.id:
            continue
        have = catalog.get(message.id, context=message.context)
        label = message.id[0] if isinstance(message.id, tuple) else message.id
        if have is None:
            found.append(f"{language}: missing: {label!r}")
        elif isinstance(have.id, tuple) != isinstance(message.id, tuple):
            found.append(f"{language}: singular/plural differs: {label!r}")
        else:
            found += [f"{language}: {problem}: {label!r}" for problem in _translation_problems(message, have)]
    return found


def fill_english() -> None:
    """The English catalog says each source message as it is written (a source changed, its English changes too)."""
    catalog = read("en")
    for message in catalog:
        if message.id:
            # Plural forms: English has two, the source's singular and plural.
            message.string = message.id if isinstance(message.id, str) else tuple(message.id)
            message.flags.discard("fuzzy")
    with open(TRANSLATIONS / "en" / "LC_MESSAGES" / "messages.po", "wb") as po:
        write_po(po, catalog, width=76, include_previous=False)


def main(argv: list[str]) -> int:
    """``check``: print each catalog's problems, exit 1 if any. ``english``: fill the English catalog."""
    if argv[1:] == ["english"]:
        fill_english()
        return 0
    wanted = source()
    found = [line for language in languages() for line in problems(language, wanted)]
    print("\n".join(found) or f"Catalogs whole: {len(wanted) - 1} messages in {', '.join(languages())}.")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
