"""The review's words around what a game counts: its periods (hands, rounds) and its figures (points, money).

Each game's review names these with English source words (``PERIOD_NAME`` "Hand" or "Round",
``score_name`` "Points", ``session_name`` "Matches", …). The pages need whole sentences around them
("Points hand by hand", "Matches won"), and no language builds those from the bare nouns alike
(German capitalises its nouns, French and Italian decline nothing the English way), so each sentence
is a message of its own, chosen by the English word. A word this module does not know (a new game)
is shown as the game gave it, in the plainest sentence that holds it.
"""

from __future__ import annotations

from ..rules.words import N_, N_plural, _, ngettext

HAND, ROUND, ENTRY = N_("Hand"), N_("Round"), N_("Entry")
# A score sheet by categories: a period is a row of the sheet ("Military", "Science"), in any order.
CATEGORY = N_("Category")
# The periods a game names itself (each Period.label is the row's name as typed), not by a number.
NAMED = frozenset({CATEGORY})

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


# Each sentence below, per period: worded where shown. A period this module does not know (a new game)
# takes the Entry sentence, except in ``label``, which names it as the game gave it.

LABELS = {HAND: N_("Hand %(number)d"), ROUND: N_("Round %(number)d"), ENTRY: N_("Entry %(number)d"),
          CATEGORY: N_("Category %(number)d")}  # a category's own Period.label is its name as typed

COUNTS = {
    HAND: N_plural("%(num)d hand", "%(num)d hands"),
    ROUND: N_plural("%(num)d round", "%(num)d rounds"),
    ENTRY: N_plural("%(num)d entry", "%(num)d entries"),
    CATEGORY: N_plural("%(num)d category", "%(num)d categories"),
}

BY_PERIOD = {
    # Translators: %(what)s is what the chart adds up: "Points" or "Money".
    HAND: N_("%(what)s hand by hand"),
    # Translators: %(what)s is what the chart adds up: "Points" or "Money".
    ROUND: N_("%(what)s round by round"),
    # Translators: %(what)s is what the chart adds up: "Points" or "Money".
    ENTRY: N_("%(what)s entry by entry"),
    # Translators: %(what)s is what the chart adds up: "Points".
    CATEGORY: N_("%(what)s category by category"),
}

PER_PERIOD = {
    # Translators: %(what)s is what the table adds up: "Points" or "Money".
    HAND: N_("%(what)s per hand, running total below each"),
    # Translators: %(what)s is what the table adds up: "Points" or "Money".
    ROUND: N_("%(what)s per round, running total below each"),
    # Translators: %(what)s is what the table adds up: "Points" or "Money".
    ENTRY: N_("%(what)s per entry, running total below each"),
    # Translators: %(what)s is what the table adds up: "Points".
    CATEGORY: N_("%(what)s per category, running total below each"),
}

AFTER_EACH = {
    # Translators: the chart's title; %(what)s is "Points" or "Money".
    HAND: N_("%(what)s after each hand"),
    # Translators: the chart's title; %(what)s is "Points" or "Money".
    ROUND: N_("%(what)s after each round"),
    # Translators: the chart's title; %(what)s is "Points" or "Money".
    ENTRY: N_("%(what)s after each entry"),
    # Translators: the chart's title; %(what)s is "Points".
    CATEGORY: N_("%(what)s after each category"),
}

NOTHING_YET = {
    HAND: N_("Nothing has been scored yet: the chart appears after the first hand."),
    ROUND: N_("Nothing has been scored yet: the chart appears after the first round."),
    ENTRY: N_("Nothing has been scored yet: the chart appears after the first entry."),
    CATEGORY: N_("Nothing has been scored yet: the chart appears after the first category."),
}

CSV_LINKS = {
    HAND: N_("Standings and hands (CSV)"),
    ROUND: N_("Standings and rounds (CSV)"),
    ENTRY: N_("Standings and entries (CSV)"),
    CATEGORY: N_("Standings and categories (CSV)"),
}

# The word after a score in the standings, by the review's score_name: a plural pair where it counts.
UNITS = {
    # Translators: after a score in the standings ("120 points"); the number is shown before it.
    "Points": N_plural("point", "points"),
    # Translators: after a number of seals of excellence in the standings ("2 seals").
    "Seals": N_plural("seal", "seals"),
}
UNIT_WORDS = {
    # Translators: after an amount in the standings ("330 money"): what a Frutti di Mare player earned.
    "Money": N_("money"),
}


def _for(table: dict[str, str], name: str) -> str:
    return table.get(name, table[ENTRY])


def label(name: str, number: int) -> str:
    """ "Hand 3", "Round 2"."""
    if name in LABELS:
        return _(LABELS[name], number=number)
    return _("%(period)s %(number)d", period=name, number=number)


def count(name: str, number: int) -> str:
    """ "5 hands", "1 round"."""
    return ngettext(*COUNTS.get(name, COUNTS[ENTRY]), number)


def by_period(name: str, what: str) -> str:
    """The breakdown's heading: "Points hand by hand"."""
    return _(_for(BY_PERIOD, name), what=quantity(what))


def per_period(name: str, what: str) -> str:
    """The breakdown table's caption."""
    return _(_for(PER_PERIOD, name), what=quantity(what))


def after_each(name: str, what: str) -> str:
    """The chart's title: "Points after each hand"."""
    return _(_for(AFTER_EACH, name), what=quantity(what))


def nothing_yet(name: str) -> str:
    """Said instead of the chart before the first period is scored."""
    return _(_for(NOTHING_YET, name))


def csv_link(name: str) -> str:
    """The link to the results CSV."""
    return _(_for(CSV_LINKS, name))


def unit(name: str, number: int) -> str:
    """The word after a score in the standings: "120 points", "1 seal"."""
    if name in UNITS:
        return ngettext(*UNITS[name], number)
    return _(UNIT_WORDS.get(name, name))


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
