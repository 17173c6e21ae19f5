"""The review's words around what a game counts: its periods (hands, rounds) and its figures (points, money).

Each game's review names these with English source words (``PERIOD_NAME`` "Hand" or "Round",
``score_name`` "Points", ``session_name`` "Matches", …). The pages need whole sentences around them
("Points hand by hand", "Matches won"), and no language builds those from the bare nouns alike
(German capitalises its nouns, French and Italian decline nothing the English way), so each sentence
is a message of its own, chosen by the English word. A word this module does not know (a new game)
is shown as the game gave it, in the plainest sentence that holds it.
"""

from __future__ import annotations

from collections.abc import Callable

from ..rules.words import N_, _, ngettext

HAND, ROUND, ENTRY = N_("Hand"), N_("Round"), N_("Entry")

# The quantities the reviews name (score_name, chart_name, extra_name): worded where shown.
QUANTITIES = (N_("Points"), N_("Seals"), N_("Money"))
# What the Players page counts a game's sessions as (session_name).
SESSIONS = (N_("Games"), N_("Matches"))


def quantity(name: str) -> str:
    """ "Points", "Seals", "Money" in the reader's language: a heading, a column."""
    return _(name)


def period(name: str) -> str:
    """ "Hand", "Round": the breakdown's first column."""
    return _(name)


_LABEL: dict[str, Callable[[int], str]] = {
    HAND: lambda number: _("Hand %(number)d", number=number),
    ROUND: lambda number: _("Round %(number)d", number=number),
    ENTRY: lambda number: _("Entry %(number)d", number=number),
}


def label(name: str, number: int) -> str:
    """ "Hand 3", "Round 2"."""
    if name in _LABEL:
        return _LABEL[name](number)
    return _("%(period)s %(number)d", period=name, number=number)


def count(name: str, number: int) -> str:
    """ "5 hands", "1 round"."""
    if name == HAND:
        return ngettext("%(num)d hand", "%(num)d hands", number)
    if name == ROUND:
        return ngettext("%(num)d round", "%(num)d rounds", number)
    return ngettext("%(num)d entry", "%(num)d entries", number)


def by_period(name: str, what: str) -> str:
    """The breakdown's heading: "Points hand by hand"."""
    what = quantity(what)
    if name == HAND:
        # Translators: %(what)s is what the chart adds up: "Points" or "Money".
        return _("%(what)s hand by hand", what=what)
    if name == ROUND:
        # Translators: %(what)s is what the chart adds up: "Points" or "Money".
        return _("%(what)s round by round", what=what)
    # Translators: %(what)s is what the chart adds up: "Points" or "Money".
    return _("%(what)s entry by entry", what=what)


def per_period(name: str, what: str) -> str:
    """The breakdown table's caption."""
    what = quantity(what)
    if name == HAND:
        # Translators: %(what)s is what the table adds up: "Points" or "Money".
        return _("%(what)s per hand, running total below each", what=what)
    if name == ROUND:
        # Translators: %(what)s is what the table adds up: "Points" or "Money".
        return _("%(what)s per round, running total below each", what=what)
    # Translators: %(what)s is what the table adds up: "Points" or "Money".
    return _("%(what)s per entry, running total below each", what=what)


def after_each(name: str, what: str) -> str:
    """The chart's title: "Points after each hand"."""
    what = quantity(what)
    if name == HAND:
        # Translators: the chart's title; %(what)s is "Points" or "Money".
        return _("%(what)s after each hand", what=what)
    if name == ROUND:
        # Translators: the chart's title; %(what)s is "Points" or "Money".
        return _("%(what)s after each round", what=what)
    # Translators: the chart's title; %(what)s is "Points" or "Money".
    return _("%(what)s after each entry", what=what)


def nothing_yet(name: str) -> str:
    """Said instead of the chart before the first period is scored."""
    if name == HAND:
        return _("Nothing has been scored yet: the chart appears after the first hand.")
    if name == ROUND:
        return _("Nothing has been scored yet: the chart appears after the first round.")
    return _("Nothing has been scored yet: the chart appears after the first entry.")


def csv_link(name: str) -> str:
    """The link to the results CSV."""
    if name == HAND:
        return _("Standings and hands (CSV)")
    if name == ROUND:
        return _("Standings and rounds (CSV)")
    return _("Standings and entries (CSV)")


def unit(name: str, number: int) -> str:
    """The word after a score in the standings: "120 points", "1 seal"."""
    if name == "Points":
        # Translators: after a score in the standings ("120 points"); the number is shown before it.
        return ngettext("point", "points", number)
    if name == "Seals":
        # Translators: after a number of seals of excellence in the standings ("2 seals").
        return ngettext("seal", "seals", number)
    if name == "Money":
        # Translators: after an amount in the standings ("330 money"): what a Frutti di Mare player earned.
        return _("money")
    return _(name)


def played(session_name: str) -> str:
    """ "Games played", "Matches played": a column of the Players page."""
    if session_name == "Matches":
        return _("Matches played")
    return _("Games played")


def won(session_name: str) -> str:
    """ "Games won", "Matches won"."""
    if session_name == "Matches":
        return _("Matches won")
    return _("Games won")


def status(slug: str) -> str:
    """A session's status as the history shows it: "finished", "playing", "abandoned"."""
    if slug == "finished":
        # Translators: a session's status in the history (a small badge, and the CSV's Status column).
        return _("finished")
    if slug == "abandoned":
        # Translators: a session's status: nothing recorded at it for hours, and not finished.
        return _("abandoned")
    # Translators: a session's status: still being played.
    return _("playing")
