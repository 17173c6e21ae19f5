"""Frutti di Mare's session review: money per round, standings, best round, most-played seafood."""

from __future__ import annotations

from collections import Counter

from companion.rules import frutti as game
from companion.rules.review import Highlight, Period, Review, Standing, first_placed, running, score_stats
from companion.rules.words import N_, _, ngettext

# Worded where it is shown: ``_(PERIOD_NAME)``.
PERIOD_NAME = N_("Round")
# What the players' pages say of this game's figures (``Review.stats``), worded where shown.
FIGURES_NOTE = N_("Frutti di Mare: the best and average money of finished games.")


def period_number(state: game.FruttiState) -> int:
    """The round the game is in (an entry belongs to the round of the state after it)."""
    return state.round


def periods(state: game.FruttiState) -> tuple[Period, ...]:
    """One row per finished round: each player's money and the running totals."""
    results = game.round_results(state)
    gains = [tuple(e.total for e in result.earnings) for result in results]
    rows = []
    for result, gain, totals in zip(results, gains, running(gains)):
        name = state.players[result.starter]
        note = (_("%(name)s started, entered at once", name=name) if result.tallied
                else _("%(name)s started", name=name))
        rows.append(Period(result.number, _("Round %(round)d", round=result.number), gain, totals, note))
    return tuple(rows)


def best_move(state: game.FruttiState) -> Highlight | None:
    """The best single move of the game, for its story: the best round a player made (None before one ends)."""
    return _best_round(state) if game.round_results(state) else None


def _best_round(state: game.FruttiState) -> Highlight:
    results = game.round_results(state)
    best = max((e.total for r in results for e in r.earnings), default=0)
    title = _("Best round")
    if not results:
        return Highlight(title, _("No round has ended yet."))
    where = [(r.number, seat, e) for r in results for seat, e in enumerate(r.earnings) if e.total == best]
    # Translators: %(sum)s is the arithmetic: "3 mussels × 50 + 4 oysters × 20 = 230".
    text = "; ".join(_("%(name)s in round %(round)d (%(sum)s)", name=state.players[seat], round=number, sum=e.words)
                     for number, seat, e in where)
    # Translators: the best money of a round, then who made it: "230: Cy in round 1 (…)."
    return Highlight(title, _("%(money)d: %(who)s.", money=best, who=text))


def seafood_played(state: game.FruttiState) -> Counter:
    """Cards played of each seafood over the game (laid-down hands are sold, not played)."""
    piles = [pile for result in game.round_results(state) for pile in result.piles]
    if not state.rounds or state.rounds[-1].number != state.round:
        piles += list(state.piles)  # the round being played
    counts: Counter = Counter()
    for pile in piles:
        counts.update(pile.played)
    return counts


def _most_played(state: game.FruttiState) -> Highlight:
    counts = seafood_played(state)
    top = max(counts.values(), default=0)
    title = _("Most-played seafood")
    if not top:
        return Highlight(title, _("No card has been played yet."))
    kinds = [s for s in game.SEAFOOD if counts[s] == top]
    words = game.capital(game.joined([game.seafood_name(s) for s in kinds]))
    if len(kinds) > 1:
        text = ngettext("%(seafood)s: %(num)d card played each.", "%(seafood)s: %(num)d cards played each.",
                        top, seafood=words)
    else:
        text = ngettext("%(seafood)s: %(num)d card played.", "%(seafood)s: %(num)d cards played.", top, seafood=words)
    return Highlight(title, text)


def _suspensions(state: game.FruttiState) -> Highlight | None:
    counts = [0] * len(state.players)
    for result in game.round_results(state):
        for seat, pile in enumerate(result.piles):
            counts[seat] += pile.suspended
    if not any(counts):
        return None
    parts = [ngettext("%(name)s %(num)d time", "%(name)s %(num)d times", n, name=name)
             for name, n in zip(state.players, counts) if n]
    return Highlight(_("Suspended selling"), "; ".join(parts) + ".")


def highlights(state: game.FruttiState) -> tuple[Highlight, ...]:
    """Best round, most-played seafood, who suspended selling."""
    lines = [_best_round(state), _most_played(state)]
    suspended = _suspensions(state)
    return tuple(lines + ([suspended] if suspended else []))


def review(state: game.FruttiState) -> Review:
    """The whole review: standings by money, one row per round, highlights."""
    standings = tuple(Standing(s.rank, s.seat, s.money) for s in game.standings(state))
    return Review(
        period_name=PERIOD_NAME,
        score_name=N_("Money"),
        chart_name=N_("Money"),
        standings=standings,
        winners=first_placed(standings),
        periods=periods(state),
        highlights=highlights(state),
        record=tuple({"score": money} for money in game.scores(state)),
        stats=score_stats("money"),
    )
