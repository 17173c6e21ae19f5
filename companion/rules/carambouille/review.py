"""Carambouille's session review: per-hand rows, standings and highlights, from the game's state.

Everything is read from the state the engine builds (``score_rows``,
``standings``, ``highlights``, ``state.sales``, ``state.played``), so the
review shows exactly what the table page counted.
"""

from __future__ import annotations

from companion.rules import carambouille as game
from companion.rules.review import Highlight, Period, Review, Standing, first_placed, names, score_stats
from companion.rules.words import plural

PERIOD_NAME = "Hand"


def period_number(state: game.State) -> int:
    """The hand the game is in (an entry belongs to the hand of the state after it)."""
    return state.hand


def _duration(seconds: int) -> str:
    minutes, rest = divmod(seconds, 60)
    return f"{minutes} min {rest:02d} s" if minutes else f"{rest} s"


def sale_words(state: game.State, sale: game.Sale) -> str:
    """ "Ana sold 4 saffron for 750 in hand 11, with Illusion by Ana"."""
    product = game.PRODUCT_BY_SLUG[sale.product]
    text = f"{state.players[sale.seller]} sold {product.cards(sale.cards)} for {sale.value} in hand {sale.hand}"
    if sale.effects:
        played = ", ".join(f"{game.CARD_NAMES[card]} by {state.players[seat]}" for card, seat in sale.effects)
        text += f", with {played}"
    return text + "."


def _best_hand(state: game.State, rows: list[game.HandRow]) -> Highlight | None:
    best = max((gain for row in rows for gain in row.gains), default=0)
    if best <= 0:
        return None
    where = [(row.hand, seat) for row in rows for seat, gain in enumerate(row.gains) if gain == best]
    text = "; ".join(f"{state.players[seat]} in hand {hand}" for hand, seat in where)
    return Highlight("Best hand", f"{best} points: {text}.")


def highlights(state: game.State) -> tuple[Highlight, ...]:
    """Biggest sale, most Carambouille cards played, longest market, best hand."""
    found = game.highlights(state)
    lines = []
    if found.biggest_sale is not None:
        lines.append(Highlight("Biggest sale", sale_words(state, found.biggest_sale)))
    else:
        lines.append(Highlight("Biggest sale", "Nothing has been sold yet."))
    seats, count = found.most_cards_played
    if count:
        each = " each" if len(seats) > 1 else ""
        lines.append(Highlight("Most Carambouille cards played",
                               f"{names(state.players, seats)}: {plural(count, 'card', 'cards')}{each}."))
    else:
        lines.append(Highlight("Most Carambouille cards played", "Nobody has played a Carambouille card."))
    if found.longest_market is not None:
        hand, seconds = found.longest_market
        lines.append(Highlight("Longest market", f"Hand {hand}: {_duration(seconds)} of trading."))
    else:
        lines.append(Highlight("Longest market", "No market was timed by the bell."))
    best = _best_hand(state, game.score_rows(state))
    if best is not None:
        lines.append(best)
    return tuple(lines)


def review(state: game.State) -> Review:
    """The whole review: standings, one row per hand, highlights."""
    standings = tuple(Standing(rank, seat, points) for rank, seat, points in game.standings(state))
    periods = tuple(
        Period(row.hand, f"Hand {row.hand}", row.gains, row.totals,
               f"{state.players[row.first_trader]} was First Trader", row.in_progress)
        for row in game.score_rows(state)
    )
    return Review(
        period_name=PERIOD_NAME,
        score_name="Points",
        chart_name="Points",
        standings=standings,
        winners=first_placed(standings),
        periods=periods,
        highlights=highlights(state),
        record=tuple({"score": points} for points in game.scores(state)),
        stats=score_stats("points"),
    )
