"""A session file read and checked by replaying it through the rules, into a session ready to be written.

The file (format ``table-companion-session``, version 1; see docs/review.md)
holds the game, players, options, times and every entry in order — game
events in the vocabulary of ``docs/events.md`` and the entries about
the table (``void``, ``reopen``, ``close``, the bell's timer). An import
checks every entry as ``companion.table.recording`` would have when it was
recorded, and writes nothing unless every one passes: one transaction
(``companion.review.storing``, which also stores a session brought in twice at once only once).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from ..inputs import bounds
from ..inputs.names import CONTROL, NAME_LENGTH, clean as clean_name, key as name_key
from ..i18n import number
from ..models import Entry, Seat, Table, now
from ..rules import GAMES, RuleError
from ..rules.words import N_, _, ngettext
from .export import FORMAT, VERSION, iso_time, made_during_play
from .replay import Replay

MAX_BYTES = 1024 * 1024  # 1 MB: years of game nights fit in far less
MAX_ENTRIES = 20_000


class ImportRefused(ValueError):
    """The file cannot become a session; ``str(error)`` says why, for the person importing it."""

    def __init__(self, message: str, already: Table | None = None) -> None:
        super().__init__(message)
        self.already = already  # the session of the history this file already is, if any


# Worded when the import refuses a file exported during play.
WITHHELD_REFUSED = N_("This file was exported during play: it leaves out what was still secret at the table, so the "
                    "session cannot be rebuilt from it. Export it again once the game is over.")


def _parse_time(value: object, what: str) -> datetime:
    if not isinstance(value, str):
        # Translators: %(what)s is "The session", "The finish" or "Entry 3 (sale)".
        raise ImportRefused(_("%(what)s has no time (an ISO date and time, like 2025-03-14T20:15:00+00:00).",
                              what=what))
    try:
        moment = datetime.fromisoformat(value)
        moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except ValueError:
        raise ImportRefused(_("%(what)s: %(value)s is not a date and time.", what=what, value=repr(value[:40]))) from None
    except OverflowError:  # 9999-12-31T23:59:59-05:00 is past the last moment Python can hold in UTC
        moment = None
    if moment is None or not bounds.moment_in_range(moment, now()):
        # A year is written as digits alone in every language ("2000", never "2,000"): a string, not a number.
        raise ImportRefused(_("%(what)s: %(value)s is not a date between %(year)s and today.",
                              what=what, value=repr(value[:40]), year=str(bounds.EARLIEST.year)))
    return moment


def _number(text: str) -> int:
    if not bounds.number_text_in_range(text):
        raise ImportRefused(ngettext("This file holds a number of %(num)d digit: the numbers of a session have at "
                                     "most %(most)d.",
                                     "This file holds a number of %(num)d digits: the numbers of a session have at "
                                     "most %(most)d.", len(text.lstrip("+-")), most=bounds.MAX_DIGITS))
    return int(text)


def _decimal(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ImportRefused(_("This file holds a number too large to use (%(number)s).", number=text[:20]))
    return value


def _constant(text: str) -> None:
    # NaN and Infinity are not JSON (Python reads them anyway); PostgreSQL would refuse to store them.
    raise ImportRefused(_("This file holds %(text)s, which is not a number a session can hold.", text=text))


def _refuse_control_characters(data: object) -> None:
    """Refuse a NUL or any other control character in any text of the file (keys too)."""
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str) and CONTROL.search(item):
            shown = CONTROL.sub("\ufffd", item[:40])
            raise ImportRefused(_("This file holds text with a control character (%(text)s): no session ever has one.",
                                  text=repr(shown)))


def too_large(megabytes: int) -> str:
    """The refusal of a file over the size limit."""
    return _("The file is larger than %(size)d MB: it cannot be a session export.", size=megabytes)


def parse(text: str) -> Any:
    """The JSON a file holds, its numbers held to what a session can hold; ImportRefused saying what is wrong."""
    try:
        return json.loads(text, parse_int=_number, parse_float=_decimal, parse_constant=_constant)
    except json.JSONDecodeError as error:
        # Translators: %(error)s is the JSON reader's own English words ("Expecting value").
        raise ImportRefused(_("This file is not valid JSON (line %(line)d, column %(column)d: %(error)s).",
                              line=error.lineno, column=error.colno, error=error.msg)) from None
    except RecursionError:
        raise ImportRefused(_("This file is not valid JSON: it is nested too deeply.")) from None


def check(data: object) -> dict[str, Any]:
    """A parsed session file, once its format, version and text are those of a session file; ImportRefused otherwise."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused(_("This is not a session exported by the table companion."))
    if data.get("version") != VERSION:
        raise ImportRefused(_("This file has format version %(version)s; this app reads version %(ours)d.",
                              version=repr(data.get("version"))[:20], ours=VERSION))
    _refuse_control_characters(data)
    return data


def load(raw: bytes) -> dict[str, Any]:
    """The file's JSON object, or ImportRefused saying what is wrong with it."""
    if len(raw) > MAX_BYTES:
        raise ImportRefused(too_large(MAX_BYTES // (1024 * 1024)))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused(_("This is not a text file: choose the .json file exported from a session.")) from None
    return check(parse(text))


def _players(game, value: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise ImportRefused(_("The players must be a list of names."))
    names = [clean_name(name) for name in value]
    if not game.MIN_PLAYERS <= len(names) <= game.MAX_PLAYERS:
        if game.MIN_PLAYERS == game.MAX_PLAYERS:
            raise ImportRefused(ngettext("%(game)s is played by %(num)d player; this file has %(count)d.",
                                         "%(game)s is played by %(num)d players; this file has %(count)d.",
                                         game.MIN_PLAYERS, game=game.NAME, count=len(names)))
        raise ImportRefused(ngettext("%(game)s is played by %(least)d to %(num)d player; this file has %(count)d.",
                                     "%(game)s is played by %(least)d to %(num)d players; this file has %(count)d.",
                                     game.MAX_PLAYERS, game=game.NAME, least=game.MIN_PLAYERS, count=len(names)))
    for name in names:
        if not name or len(name) > NAME_LENGTH or CONTROL.search(name):
            raise ImportRefused(ngettext("Each player needs a name of 1 to %(num)d character, without control "
                                         "characters: %(name)s is not one.",
                                         "Each player needs a name of 1 to %(num)d characters, without control "
                                         "characters: %(name)s is not one.", NAME_LENGTH, name=repr(name[:NAME_LENGTH])))
    folded = [name_key(name) for name in names]
    if len(set(folded)) != len(folded):
        raise ImportRefused(_("Two players have the same name."))
    return names


def identity(game: str, created_at: datetime, players: list[str]) -> str:
    """What makes two files the same session, as a SHA-256 in hex: the same game, started at the same moment (to
    the microsecond, as exported), by the same players in the same order (``tables.import_digest``)."""
    canonical = json.dumps([game, iso_time(created_at), players], ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def build(data: Mapping[str, Any], group_id: int) -> tuple[Table, list[Entry]]:
    """The session a loaded file describes, as one of the group's, checked entry by entry; nothing is written here."""
    slug = data.get("game")
    if not isinstance(slug, str) or slug not in GAMES:
        known = ", ".join(GAMES[s].NAME for s in GAMES)
        # Translators: %(known)s lists the games' names: "Carambouille, Jaipur, Frutti di Mare".
        raise ImportRefused(_("Unknown game %(game)s: this app knows %(known)s.", game=repr(str(slug)[:40]),
                              known=known))
    game = GAMES[slug]
    players = _players(game, data.get("players"))
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ImportRefused(_("The table settings (options) must be an object."))
    try:
        game.new_game(players, options)
    except RuleError as error:
        raise ImportRefused(_("The table settings cannot be used: %(reason)s", reason=error.message)) from None
    created = _parse_time(data["created_at"], _("The session")) if "created_at" in data else now()
    table = Table(game=slug, options=options, created_at=created, group_id=group_id,
                  seats=[Seat(position=i, name=name) for i, name in enumerate(players)],
                  import_digest=identity(slug, created, players))
    items = data.get("entries", [])
    if not isinstance(items, list):
        raise ImportRefused(_("The entries must be a list."))
    if made_during_play(data):
        raise ImportRefused(_(WITHHELD_REFUSED))
    if len(items) > MAX_ENTRIES:
        raise ImportRefused(ngettext("The file has %(num)d entry; at most %(most)s can be imported.",
                                     "The file has %(num)d entries; at most %(most)s can be imported.",
                                     len(items), most=number(MAX_ENTRIES)))
    replay = Replay(table)
    for seq, item in enumerate(items, start=1):
        kind = item.get("type") if isinstance(item, dict) else None
        # Translators: %(type)s is the entry's type as the file names it ("sale", "void"): data, left as it is.
        where = (_("Entry %(number)d (%(type)s)", number=seq, type=kind) if isinstance(kind, str) and len(kind) <= 40
                 else _("Entry %(number)d", number=seq))
        if not isinstance(item, dict) or not isinstance(kind, str):
            raise ImportRefused(_("Entry %(number)d: it needs a type and an event.", number=seq))
        event = item.get("event")
        if not isinstance(event, dict) or event.get("type") != kind:
            # Translators: %(entry)s is "Entry 3 (sale)".
            raise ImportRefused(_("%(entry)s: its event must be an object with the same type.", entry=where))
        if item.get("seq") != seq:
            raise ImportRefused(_("%(entry)s: it is numbered %(seq)s; entries are numbered 1, 2, 3… in order.",
                                  entry=where, seq=repr(item.get("seq"))))
        moment = _parse_time(item["time"], where) if "time" in item else created
        try:
            replay.add(seq, kind, event, moment)
        except RuleError as error:
            # Translators: %(entry)s is "Entry 3 (sale)"; %(reason)s the rules' refusal.
            raise ImportRefused(_("%(entry)s is refused: %(reason)s", entry=where, reason=error.message)) from None
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            # A rules module meeting a shape it never expected: refused all the same.
            raise ImportRefused(_("%(entry)s is refused: it could not be read.", entry=where)) from None
    table.last_seq = len(items)
    if replay.finished:
        table.status = "finished"
        finish = data.get("finished_at")
        table.finished_at = (_parse_time(finish, _("The finish")) if isinstance(finish, str)
                             else replay.logged[-1].created_at)
    else:
        table.status, table.finished_at = "playing", None
    return table, replay.logged
