"""Jaipur's session review: per-round points, seals, biggest sale, bonus tokens, from the match state.

The match is won on seals of excellence, so the standings rank by seals; the
points behind them (goods + bonus + camel tokens, summed over the scored
rounds) are the chart's line. The player statistics count matches, rounds and
seals won, never points summed over rounds. A bonus token lies face down until its round is scored: a round still
being played counts its goods tokens only, and its bonus values are never
shown.
"""

from __future__ import annotations

from .. import jaipur as game
from ..words import pick, plural
from ..review import (
    Highlight,
    Period,
    Review,
    Stat,
    first_placed,
    ranked,
    running,
)

PERIOD_NAME = "Round"


def period_number(state: game.JaipurState) -> int:
    """The round the match is in (an entry belongs to the round of the state after it)."""
    return state.round.number


def _rounds_list(numbers: list[int]) -> str:
    words = [str(n) for n in numbers]
    if len(words) > 1:
        words = [", ".join(words[:-1]) + " and " + words[-1]]
    return f"{pick(len(numbers), 'round', 'rounds')} {words[0]}"


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
            note = "Still being played: goods tokens only, bonus tokens count when the round is scored"
        rows.append(Period(current.number, f"Round {current.number}", gain, totals, note, current.result is None))
    return tuple(rows)


def match_points(state: game.JaipurState) -> tuple[int, int]:
    """Points over the scored rounds (goods, bonus and camel tokens)."""
    totals = [0, 0]
    for current in game.results(state):
        for seat, points in enumerate(current.result.points):
            totals[seat] += points
    return (totals[0], totals[1])


def _biggest_sale(state: game.JaipurState) -> Highlight:
    best, best_value = None, 0
    for current in state.rounds:
        scored = current.result is not None
        for sale in current.sales:
            value = sum(sale.goods_tokens) + ((sale.bonus or 0) if scored else 0)
            if value > best_value:
                best, best_value = (current, sale), value
    if best is None:
        return Highlight("Biggest sale", "No tokens have been taken yet.")
    current, sale = best
    goods = game.GOODS_LABELS[sale.good].lower()
    text = f"{state.players[sale.player]} sold {sale.cards} {goods} for {sum(sale.goods_tokens)}"
    if sale.bonus is not None and current.result is not None:
        text += f" and a bonus token of {sale.bonus}: {best_value}"
    elif sale.bonus is not None:
        text += " and a bonus token (face down until the round is scored)"
    return Highlight("Biggest sale", f"{text}, in round {current.number}.")


def _bonus_tokens(state: game.JaipurState) -> Highlight:
    scored = game.results(state)
    if not scored:
        return Highlight("Bonus tokens", "Shown once a round is scored: they lie face down until then.")
    parts = []
    for seat, name in enumerate(state.players):
        tokens = [value for r in scored for value in r.result.tallies[seat].bonus_tokens]
        parts.append(f"{name} {plural(len(tokens), 'token', 'tokens')} worth {sum(tokens)}")
    return Highlight("Bonus tokens", "; ".join(parts) + ".")


def _seals(state: game.JaipurState) -> Highlight:
    scored = game.results(state)
    if not scored:
        return Highlight("Seals of excellence", "No round has been scored yet.")
    parts = []
    for seat, name in enumerate(state.players):
        won = [r.number for r in scored if r.result.winner == seat]
        parts.append(f"{name} {len(won)}" + (f" ({_rounds_list(won)})" if won else ""))
    drawn = [r.number for r in scored if r.result.winner is None]
    text = "; ".join(parts) + "."
    if drawn:
        text += f" Drawn: {_rounds_list(drawn)}, no seal."
    return Highlight("Seals of excellence", text)


def _camel_token(state: game.JaipurState) -> Highlight | None:
    scored = game.results(state)
    if not scored:
        return None
    parts = []
    for seat, name in enumerate(state.players):
        took = [r.number for r in scored if r.result.camel_token_to == seat]
        if took:
            parts.append(f"{name} in {_rounds_list(took)}")
    return Highlight("Camel token", ("; ".join(parts) or "Nobody: the herds were equal every time") + ".")


def highlights(state: game.JaipurState) -> tuple[Highlight, ...]:
    """Biggest sale, bonus tokens, seals, the camel token."""
    lines = [_biggest_sale(state), _bonus_tokens(state), _seals(state)]
    camel = _camel_token(state)
    return tuple(lines + ([camel] if camel else []))


# A match is won on seals: points summed over rounds say little (the loser can have more), so a
# player's record counts the matches, the rounds and the seals won.
STATS = (
    Stat("Rounds won", "rounds_won", "out_of", "rounds"),
    Stat("Seals won–lost", "seals", "won_lost", "seals_lost"),
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
    """The whole review: standings by seals, one row per round, highlights."""
    standings = ranked(game.scores(state))
    points = match_points(state)
    return Review(
        period_name=PERIOD_NAME,
        score_name="Seals",
        chart_name="Points",
        standings=standings,
        winners=first_placed(standings),
        periods=periods(state),
        highlights=highlights(state),
        record=record(state),
        stats=STATS,
        session_name="Matches",
        extra_name="Points",
        extra=points,
    )
