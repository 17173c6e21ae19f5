"""A library file brought into a group: checked whole, then every session not already there written in one transaction.

The file's digest is checked before any session is read; then every session is rebuilt as a session
file's import rebuilds it (``companion.review.exchange``: each entry replayed through the rules). One
refusal refuses the whole file, naming the session and why, and nothing is written. A session already
in the group is not written again (the same game, started at the same moment, by the same players:
``companion.review.storing``, which also keeps the same file brought in at the same instant from being
stored twice): with the same entries it is counted as already here; with other entries (an export made
earlier or later in its game) the one here is kept as it is, and counted apart. A session exported during
play (what was still secret left out) cannot be rebuilt: it is left out, and counted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .. import groups as groups_
from ..extensions import db
from ..inputs.names import CONTROL, clean
from ..models import GROUP_NAME_LENGTH, Entry, Group, Table
from ..review import exchange, history, storing
from ..review.exchange import ImportRefused
from ..review.export import FORMAT as SESSION_FORMAT, made_during_play
from ..rules import GAMES, title_of
from ..rules.words import _, ngettext
from . import seasons as own_seasons
from .export import FORMAT, VERSION, digest

MEGABYTE = 1024 * 1024
# A file sent from the group's page: a few thousand sessions, rebuilt within a minute or so of one thread.
MAX_BYTES = 20 * MEGABYTE
# A file given to the command line by whoever runs the server: a whole server's years of game nights.
FILE_MAX_BYTES = 500 * MEGABYTE


@dataclass
class Tally:
    """What bringing a library in did: sessions written, already here, here in another version, left out."""

    brought: list[Table] = field(default_factory=list)
    already: int = 0
    other_versions: list[tuple[str, int, int]] = field(default_factory=list)  # (session, entries here, in the file)
    withheld: int = 0
    seasons: int = 0  # the groups' own seasons added


def too_large(megabytes: int) -> str:
    """The refusal of a library file over the size limit."""
    return _("The file is larger than %(size)d MB, the most a history file brought in here can be.", size=megabytes)


def not_a_group_name(name: object) -> str:
    """The refusal of a group's name (in the file, or an operator's) that no group can have."""
    return ngettext("%(name)s cannot be a group's name: it has at most %(num)d character, none of them a control "
                    "character.",
                    "%(name)s cannot be a group's name: it has at most %(num)d characters, none of them a control "
                    "character.", GROUP_NAME_LENGTH, name=CONTROL.sub("\ufffd", repr(name)[:GROUP_NAME_LENGTH + 2]))


def _envelope(data: object) -> list:
    """A group's envelope checked (format, version, group name, digest); its sessions."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        if isinstance(data, dict) and data.get("format") == SESSION_FORMAT:
            raise ImportRefused(_("This is the file of one session, not a group's whole history: bring it in with "
                                  "Import a session, from the history."))
        raise ImportRefused(_("This is not a history exported by the table companion."))
    if data.get("version") != VERSION:
        raise ImportRefused(_("This file has format version %(version)s; this app reads version %(ours)d.",
                              version=repr(data.get("version"))[:20], ours=VERSION))
    key = "groups" if "groups" in data and data.get("group") is None else "sessions"
    part = data.get(key)
    if not isinstance(part, list):
        raise ImportRefused(_("This file's list of sessions is missing or damaged."))
    if data.get("digest") != digest(part):
        raise ImportRefused(_("This file was changed or damaged after it was exported: its digest does not match "
                              "what it holds."))
    if key == "sessions":
        name = data.get("group")
        if not isinstance(name, str) or len(name) > GROUP_NAME_LENGTH or CONTROL.search(name):
            raise ImportRefused(not_a_group_name(name))
        own_seasons.read(data)
    return part


def load(raw: bytes, limit: int = MAX_BYTES) -> dict[str, Any]:
    """The library file's envelope, its digest and every group in it checked; ImportRefused saying what is wrong."""
    if len(raw) > limit:
        raise ImportRefused(too_large(limit // MEGABYTE))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused(_("This is not a text file: choose the .json file of a group's whole history.")) from None
    data = exchange.parse(text)
    part = _envelope(data)
    if data.get("group") is None:
        for inner in part:
            _envelope(inner)
            if "groups" in inner:
                raise ImportRefused(_("This is not a history exported by the table companion."))
    if not any(sessions for _name, sessions in parts(data)):
        raise ImportRefused(_("This file holds no sessions: there is nothing to bring in."))
    return data


def parts(envelope: Mapping[str, Any]) -> list[tuple[str, list]]:
    """Each group of a loaded file with its sessions: one for a group's library, one per group for a server's."""
    return [(inner["group"], inner["sessions"]) for inner in envelope.get("groups", [envelope])]


def group_named(name: str) -> Group:
    """The group an operator (or the file) names, the oldest of that name; else a new one, written only with the
    first session brought into it."""
    cleaned = clean(name)
    if len(cleaned) > GROUP_NAME_LENGTH or CONTROL.search(cleaned):
        raise ImportRefused(not_a_group_name(cleaned))
    return groups_.by_name(cleaned) or Group(name=cleaned)


def seasons_of(placed: list[tuple[Group, list]], envelope: Mapping[str, Any]) -> list[tuple[Group, list]]:
    """Each group of the file's own seasons (checked by ``load``), with the group its part goes into."""
    return [(group, own_seasons.read(inner)) for (group, _sessions), inner in zip(placed, envelope.get("groups",
                                                                                                     [envelope]))]


def into_groups(envelope: Mapping[str, Any], into: str | None) -> list[tuple[Group, list]]:
    """Each part of the file with the group it goes into: the group named ``into`` for all of them; else, on a home
    server (groups open), the household's group, the one every phone shows; else the group of each part's own
    name (one group per name: two groups of one name become one)."""
    if into is None and not groups_.private():
        home = groups_.home_group()
        return [(home, sessions) for _name, sessions in parts(envelope)]
    found: dict[str, Group] = {}
    placed = []
    for name, sessions in parts(envelope):
        wanted = clean(into if into is not None else name)
        if wanted not in found:
            found[wanted] = group_named(wanted)
        placed.append((found[wanted], sessions))
    return placed


def _title(game, options) -> str:
    """The name the file's session is shown by (``rules.title_of``), or the game's own name if its options
    cannot give one: the file is not checked yet when its sessions are listed."""
    try:
        return str(title_of(game, options))[:40] if isinstance(options, Mapping) else game.NAME
    except (KeyError, TypeError, ValueError):
        return game.NAME


def label(data: Mapping[str, Any]) -> str:
    """A session of the file as a person finds it in the history: its game, when it began, its players."""
    slug = data.get("game")
    game = _title(GAMES[slug], data.get("options")) if isinstance(slug, str) and slug in GAMES else repr(str(slug)[:40])
    started = data.get("created_at")
    try:
        when = history.local(datetime.fromisoformat(started)).strftime("%Y-%m-%d %H:%M")
    except (TypeError, ValueError, OverflowError):
        when = repr(str(started)[:40])
    players = data.get("players")
    who = ", ".join(str(name)[:40] for name in players[:10]) if isinstance(players, list) else "?"
    # Translators: %(game)s is "Jaipur", %(date)s "2025-03-14 20:15", %(players)s "Ana, Ben".
    return CONTROL.sub("\ufffd", _("The session of %(game)s on %(date)s (%(players)s)", game=game, date=when,
                                   players=who))


def _rebuilt(data: object, number: int, group: Group) -> tuple[Table, list[Entry]] | None:
    """The session checked and rebuilt as the import of its own file would, or None if made during play."""
    if not isinstance(data, dict):
        raise ImportRefused(_("Session %(number)d of the file is not a session.", number=number))
    try:
        exchange.check(data)
        if made_during_play(data):
            return None
        return exchange.build(data, group.id)
    except ImportRefused as error:
        # Translators: %(session)s is "The session of Jaipur on 2025-03-14 20:15 (Ana, Ben)".
        raise ImportRefused(_("%(session)s is refused: %(reason)s", session=label(data), reason=str(error))) from None


# How many times an import looks again after another import stored some of its sessions first.
ATTEMPTS = 3


def bring_in(placed: list[tuple[Group, list]], seasons: list[tuple[Group, list]] = ()) -> Tally:
    """Rebuild every session of the file and write the ones the groups lack, all in one transaction.

    ``seasons``: each group's own seasons of the file (``seasons.read``), added with the sessions where the group
    has none of their first day. Any session refused: ImportRefused naming it, and nothing written (no new group
    either). Another import that
    stores some of the same sessions meanwhile (the file sent from two phones at once) stops this one's writing
    (``storing``): it looks again, and counts them as already here.
    """
    new_groups = [group for group, _sessions in [*placed, *seasons] if group.id is None]
    for _attempt in range(ATTEMPTS):
        tally, ready = _sorted(placed)
        try:
            for group, table, logged in ready:
                storing.stage(table, logged, group)
            tally.seasons = sum(own_seasons.stage(group, listed) for group, listed in seasons)
            storing.commit()
        except storing.StoredMeanwhile:
            for group in new_groups:
                group.id = None  # rolled back with the rest: made again with the sessions, if still needed
            continue
        except BaseException:
            db.session.rollback()
            raise
        tally.brought = [table for _group, table, _logged in ready]
        return tally
    raise ImportRefused(_(storing.UNFINISHED))


def _sorted(placed: list[tuple[Group, list]]) -> tuple[Tally, list[tuple[Group, Table, list[Entry]]]]:
    """Every session of the file rebuilt, and sorted: what is already here or left out (counted), what to write."""
    tally, seen, ready = Tally(), {}, []
    for group, sessions in placed:
        # Oldest first: the sessions are numbered in the order they were played, as where they come from.
        for number, data in reversed(list(enumerate(sessions, start=1))):
            rebuilt = _rebuilt(data, number, group)
            if rebuilt is None:
                tally.withheld += 1
                continue
            table, logged = rebuilt
            entries = storing.comparable(logged)
            same_key = (id(group), table.import_digest)
            if same_key in seen:  # twice in the file itself: the first one counts
                same, here = seen[same_key] == entries, len(seen[same_key])
            else:
                seen[same_key] = entries
                found, same = storing.already_here(table, logged)
                if found is None:
                    ready.append((group, table, logged))
                    continue
                here = found.last_seq
            if same:
                tally.already += 1
            else:
                tally.other_versions.append((label(data), here, len(logged)))
    return tally, ready


def said(tally: Tally) -> str:
    """What the import did, in a few sentences: brought in, already here, here in another version, left out."""
    sentences = [ngettext("%(num)d session brought in.", "%(num)d sessions brought in.", len(tally.brought))]
    if tally.already:
        sentences.append(ngettext("%(num)d was already here.", "%(num)d were already here.", tally.already))
    if tally.other_versions:
        sentences.append(ngettext(
            "%(num)d is already here with other entries (the file was made at another moment of its game): the one "
            "here is kept.",
            "%(num)d are already here with other entries (the file was made at another moment of their games): the "
            "ones here are kept.", len(tally.other_versions)))
    if tally.seasons:
        sentences.append(ngettext("%(num)d season of the group's own added.", "%(num)d seasons of the group's own added.",
                                  tally.seasons))
    if tally.withheld:
        sentences.append(ngettext(
            "%(num)d was left out: exported during play, without what was still secret at the table.",
            "%(num)d were left out: exported during play, without what was still secret at the table.",
            tally.withheld))
    return " ".join(sentences)
