"""A finished game told in a few sentences, from its log: who led when, what decided it, the closest moment, the
best move (the game's review declares it: ``best_move``), a comeback.

The scores after each live entry (``moments``) are read once per version of the table and kept; what happened is
found by ``companion.rules.story`` and worded here in the reader's language. Only a finished game is told: a
game in play has no ending to tell, and nothing of it is secret any more once it is over. Each sentence says
where it happened, by the entry it names (``Line.at``: the replay's step).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

from ..models import Table
from ..rules import story
from ..rules.review import Review, names
from ..rules.story import Gap, Moment
from ..rules.words import N_, N_plural, _, ngettext
from ..table import kinds, log
from ..table.state import walk
from .keeping import kept
from .sentences import ENTRY, HAND, ROUND
from .session import period_key, review_module

# How many tables' moments a process keeps (a few numbers per entry each).
STORIES_KEPT = 512

IN = {
    # Translators: where something happened in a game: "Cleo took the lead in hand 7 and kept it".
    HAND: N_("in hand %(number)d"),
    # Translators: where something happened in a game: "Cleo took the lead in round 7 and kept it".
    ROUND: N_("in round %(number)d"),
    # Translators: where something happened in a game without hands or rounds: "at entry 12" of the log.
    ENTRY: N_("at entry %(number)d"),
}
AFTER = {
    # Translators: when the scores stood so: "The closest moment came after hand 6".
    HAND: N_("after hand %(number)d"),
    # Translators: when the scores stood so: "The closest moment came after round 6".
    ROUND: N_("after round %(number)d"),
    # Translators: when the scores stood so, in a game without hands or rounds: "after entry 12" of the log.
    ENTRY: N_("after entry %(number)d"),
}
# A score as a sentence says it, by what the game ranks by (the review's ``score_name``).
AMOUNTS = {
    "Points": N_plural("%(num)d point", "%(num)d points"),
    "Seals": N_plural("%(num)d seal", "%(num)d seals"),
    # Translators: an amount of Frutti di Mare's money in a sentence: "Ana gained 120 money on Ben".
    "Money": N_plural("%(num)d money", "%(num)d money"),
}


@dataclass(frozen=True)
class Line:
    """One sentence of the story, and the entry it happened at (None: the whole game)."""

    text: str
    at: int | None = None


def places_of(review: Review, seats: int) -> list[tuple[int, ...]]:
    """Who ranks together: each side once (its seats), or each seat alone."""
    return [tuple(side) for side in review.sides] or [(seat,) for seat in range(seats)]


def moments(table: Table, game: ModuleType, places: Sequence[tuple[int, ...]]) -> list[Moment]:
    """The scores of each place after each live entry of the table's log, kept per version of the table."""
    # The token beside the id: a table removed for good and another made with its id is another table.
    key = (table.id, table.token, table.last_seq, table.status, tuple(places))
    return kept("story_moments", STORIES_KEPT).get_or_make(key, lambda: _read(table, game, places))


def _read(table: Table, game: ModuleType, places: Sequence[tuple[int, ...]]) -> list[Moment]:
    rows = log.entries_of(table)
    undone = log.voided_seqs(rows)
    module = review_module(table.game)
    found = []
    for entry, _before, after in walk(game, table.players, table.options or {}, rows):
        if after is None or entry.seq in undone or not kinds.is_game_entry(entry):
            continue
        scores = game.scores(after)
        period = module.period_number(after) if module is not None else None
        found.append(Moment(entry.seq, period, tuple(scores[place[0]] for place in places)))
    return found


def told(table: Table, game: ModuleType, review: Review, state) -> list[Line]:
    """The story of a finished game, in the reader's language; [] for a game in play or with nothing scored."""
    if not table.finished:
        return []
    places = places_of(review, len(table.players))
    found = moments(table, game, places)
    if not found or len(places) < 2:
        return []
    words = _Words(table, review, places)
    lowest = review.lowest_wins
    final = found[-1].scores
    first = story.order(final, lowest)
    level = [place for place in first if final[place] == final[first[0]]]
    lines = []
    changes = story.lead_changes(found, lowest)
    if changes:
        lines.append(Line(ngettext("The lead changed hands %(num)d time.", "The lead changed hands %(num)d times.",
                                   len(changes)), changes[-1].seq))
    if len(level) > 1:
        lines.append(Line(_("%(names)s finished level at the top.", names=words.together(level))))
    else:
        winner, runner_up = first[0], first[1]
        if (taken := story.took_for_good(found, winner, lowest)) is not None:
            lines.append(Line(_("%(name)s took the lead %(when)s and kept it.", name=words.name(winner),
                                when=words.when(IN, taken)), taken.seq))
        if (swing := story.decider(found, winner, runner_up, lowest)) is not None:
            lines.append(Line(_("It was decided %(when)s: %(name)s gained %(amount)s on %(other)s.",
                                when=words.when(IN, swing.moment), name=words.name(winner),
                                amount=words.amount(swing.by), other=words.name(runner_up)), swing.moment.seq))
    if (near := story.closest(found, lowest)) is not None:
        lines.append(words.closest(near))
    if (best := _best_move(table, state)) is not None:
        # Translators: the game's best move in its story: "Biggest sale — Ana sold 4 saffron for 750 in hand 11."
        lines.append(Line(_("%(title)s — %(text)s", title=best.title, text=best.text)))
    if len(level) == 1 and (back := story.comeback(found, first[0], lowest)) is not None:
        lines.append(Line(_("%(name)s was %(amount)s behind %(when)s and still won.", name=words.name(first[0]),
                            amount=words.amount(back.by), when=words.when(AFTER, back.moment)), back.moment.seq))
    return lines


def _best_move(table: Table, state):
    module = review_module(table.game)
    best_move = getattr(module, "best_move", None)
    return best_move(state) if best_move is not None else None


class _Words:
    """The names, places in the game and amounts of one table's story, in the reader's language."""

    def __init__(self, table: Table, review: Review, places: Sequence[tuple[int, ...]]) -> None:
        self.players = table.players
        self.places = places
        self.period = period_key(table.game, review)
        self.score_name = review.score_name

    def name(self, place: int) -> str:
        return names(self.players, self.places[place])

    def together(self, places: Sequence[int]) -> str:
        return names([self.name(place) for place in places], range(len(places)))

    def when(self, phrases: dict[str, str], moment: Moment) -> str:
        if moment.period is None or self.period not in (HAND, ROUND):
            return _(phrases[ENTRY], number=moment.seq)
        return _(phrases[self.period], number=moment.period)

    def amount(self, number: int) -> str:
        if self.score_name in AMOUNTS:
            return ngettext(*AMOUNTS[self.score_name], number)
        return ngettext(*AMOUNTS["Points"], number)

    def closest(self, near: Gap) -> Line:
        scores = near.moment.scores
        if near.by == 0:
            level = [place for place in range(len(scores)) if scores[place] == scores[near.ahead]]
            text = _("The closest moment came %(when)s: %(names)s were level on %(amount)s.",
                     when=self.when(AFTER, near.moment), names=self.together(level),
                     amount=self.amount(scores[near.ahead]))
        else:
            text = _("The closest moment came %(when)s: %(name)s led %(other)s by %(amount)s.",
                     when=self.when(AFTER, near.moment), name=self.name(near.ahead), other=self.name(near.behind),
                     amount=self.amount(near.by))
        return Line(text, near.moment.seq)
