"""Jaipur's session review: per-round points, seals, biggest sale, bonus tokens, from the match state.

The match is won on seals of excellence, so the standings rank by seals; the
points behind them (goods + bonus + camel tokens, summed over the scored
rounds, and the goods tokens of a round being played) are the chart's line. The player statistics count matches, rounds and
seals won, never points summed over rounds. A bonus token lies face down until its round is scored: a round still
being played counts its goods tokens only, and its bonus values are never
shown.
"""

from __future__ import annotations

from dataclasses import replace

from .. import jaipur as game
from ..words import N_, _, ngettext
from ..review import (
    Highlight,
    Period,
    Review,
    Stat,
    first_placed,
    ranked,
    running,
)

# What a period of the match is called; worded where shown: _(PERIOD_NAME).
PERIOD_NAME = N_("Round")
# What the players' pages say of this game's figures (``Review.stats``), worded where shown.
FIGURES_NOTE = N_("Jaipur: rounds won, and seals won and lost (a match is won on seals).")


def period_number(state: game.JaipurState) -> int:
    """The round the match is in (an entry belongs to the round of the state after it)."""
    return state.round.number


def _rounds_list(numbers: list[int]) -> str:
    """ "round 2", "rounds 1 and 3", "rounds 1, 2 and 4", in the reader's language."""
    words = [str(n) for n in numbers]
    if len(words) > 1:
        # Translators: the end of a list of round numbers: "1, 2 and 4" (%(first)s is "1, 2").
        words = [_("%(first)s and %(last)s", first=", ".join(words[:-1]), last=words[-1])]
    # Translators: %(rounds)s is one round number, or a list of them ("1 and 3").
    return ngettext("round %(rounds)s", "rounds %(rounds)s", len(numbers), rounds=words[0])


def _round_gains(current: game.Round) -> tuple[int, int]:
    """Points of each seat in a round: the full tally once scored, goods tokens only before."""
    if current.result is not None:
        return current.result.points
    goods = [0, 0]
    for sale in current.sales:
        goods[sale.player] += sum(sale.goods_tokens)
    return (goods[0], goods[1])


def periods(state: game.JaipurState) -> tuple[Period, ...]:
    """One row per round (the round being played last, goods tokens only)."""
    played = [r for r in state.rounds if r.result is not None or r.sales]
    gains = [_round_gains(r) for r in played]
    rows = []
    for current, gain, totals in zip(played, gains, running(gains)):
        if current.result is not None:
            note = current.result.explanation
        else:
            note = _("Still being played: goods tokens only, bonus tokens count when the round is scored")
        rows.append(Period(current.number, _("Round %(round)d", round=current.number), gain, totals, note,
                           current.result is None))
    return tuple(rows)


def best_move(state: game.JaipurState) -> Highlight | None:
    """The best single move of the match, for its story: the biggest token haul (None before any)."""
    found = _haul(state)
    return None if found is None else Highlight(_("Biggest sale"), _sale_words(state, *found))


def _haul(state: game.JaipurState) -> tuple[game.Round, game.Sale, int] | None:
    """The sale that took the most tokens, its bonus counted once its round is scored (face down until then)."""
    best, best_value = None, 0
    for current in state.rounds:
        scored = current.result is not None
        for sale in current.sales:
            value = sum(sale.goods_tokens) + ((sale.bonus or 0) if scored else 0)
            if value > best_value:
                best, best_value = (current, sale), value
    return None if best is None else (*best, best_value)


def _sale_words(state: game.JaipurState, current: game.Round, sale: game.Sale, value: int) -> str:
    said = dict(name=state.players[sale.player], goods=game.goods_sold(sale.good, sale.cards),
                points=sum(sale.goods_tokens), round=current.number)
    if sale.bonus is not None and current.result is not None:
        # Translators: %(goods)s is "5 spice", "3 diamonds"; %(total)d the sale's tokens with the bonus.
        return _("%(name)s sold %(goods)s for %(points)d and a bonus token of %(bonus)d: %(total)d, "
                 "in round %(round)d.", bonus=sale.bonus, total=value, **said)
    if sale.bonus is not None:
        return _("%(name)s sold %(goods)s for %(points)d and a bonus token (face down until the round is "
                 "scored), in round %(round)d.", **said)
    return _("%(name)s sold %(goods)s for %(points)d, in round %(round)d.", **said)


def _biggest_sale(state: game.JaipurState) -> Highlight:
    found = best_move(state)
    return found if found is not None else Highlight(_("Biggest sale"), _("No tokens have been taken yet."))


def _bonus_tokens(state: game.JaipurState) -> Highlight:
    scored = game.results(state)
    title = _("Bonus tokens")
    if not scored:
        return Highlight(title, _("Shown once a round is scored: they lie face down until then."))
    parts = []
    for seat, name in enumerate(state.players):
        tokens = [value for r in scored for value in r.result.tallies[seat].bonus_tokens]
        parts.append(ngettext("%(name)s %(num)d token worth %(points)d", "%(name)s %(num)d tokens worth %(points)d",
                              len(tokens), name=name, points=sum(tokens)))
    return Highlight(title, "; ".join(parts) + ".")


def _seals(state: game.JaipurState) -> Highlight:
    scored = game.results(state)
    title = _("Seals of excellence")
    if not scored:
        return Highlight(title, _("No round has been scored yet."))
    parts = []
    for seat, name in enumerate(state.players):
        won = [r.number for r in scored if r.result.winner == seat]
        # Each player's seals, with the rounds they were won in (no words but those): "Ben 2 (rounds 1 and 3)".
        parts.append(f"{name} {len(won)} ({_rounds_list(won)})" if won else f"{name} {len(won)}")
    drawn = [r.number for r in scored if r.result.winner is None]
    text = "; ".join(parts) + "."
    if drawn:
        # Translators: %(rounds)s is "round 3" or "rounds 1 and 3".
        text += " " + _("Drawn: %(rounds)s, no seal.", rounds=_rounds_list(drawn))
    return Highlight(title, text)


def _camel_token(state: game.JaipurState) -> Highlight | None:
    scored = game.results(state)
    if not scored:
        return None
    parts = []
    for seat, name in enumerate(state.players):
        took = [r.number for r in scored if r.result.camel_token_to == seat]
        if took:
            # Translators: who took the camel token, and when: "Ben in rounds 1 and 3".
            parts.append(_("%(name)s in %(rounds)s", name=name, rounds=_rounds_list(took)))
    text = "; ".join(parts) + "." if parts else _("Nobody: the herds were equal every time.")
    return Highlight(_("Camel token"), text)


def highlights(state: game.JaipurState) -> tuple[Highlight, ...]:
    """Biggest sale, bonus tokens, seals, the camel token."""
    lines = [_biggest_sale(state), _bonus_tokens(state), _seals(state)]
    camel = _camel_token(state)
    return tuple(lines + ([camel] if camel else []))


# A match is won on seals: points summed over rounds say little (the loser can have more), so a
# player's record counts the matches, the rounds and the seals won.
# Their labels are worded where shown: _(stat.label) (review() does it for the Review it gives).
STATS = (
    Stat(N_("Rounds won"), "rounds_won", "out_of", "rounds"),
    Stat(N_("Seals won–lost"), "seals", "won_lost", "seals_lost"),
)


def record(state: game.JaipurState) -> tuple[dict[str, int], ...]:
    """What the match adds to each player's record: rounds won of the rounds scored, seals won and lost."""
    scored = game.results(state)
    seals = state.seals
    return tuple(
        {"rounds_won": sum(r.result.winner == seat for r in scored), "rounds": len(scored),
         "seals": seals[seat], "seals_lost": seals[1 - seat]}
        for seat in (0, 1)
    )


def review(state: game.JaipurState) -> Review:
    """The whole review, in the reader's language: standings by seals, one row per round, highlights."""
    standings = ranked(game.scores(state))
    rows = periods(state)
    # The points beside the seals are the chart's last point: what a page says and draws, from one place.
    points = (rows[-1].totals[0], rows[-1].totals[1]) if rows else (0, 0)
    return Review(
        period_name=PERIOD_NAME,
        score_name=N_("Seals"),
        chart_name=N_("Points"),
        standings=standings,
        winners=first_placed(standings),
        periods=rows,
        highlights=highlights(state),
        record=record(state),
        stats=tuple(replace(stat, label=_(stat.label)) for stat in STATS),
        session_name=N_("Matches"),
        extra_name=N_("Points"),
        extra=points,
    )
