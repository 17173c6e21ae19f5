"""Carambouille's session review: per-hand rows, standings and highlights, from the game's state.

Everything is read from the state the engine builds (``score_rows``,
``standings``, ``highlights``, ``state.sales``, ``state.played``), so the
review shows exactly what the table page counted.
"""

from __future__ import annotations

from companion.rules import carambouille as game
from companion.rules.review import Highlight, Period, Review, Standing, first_placed, names, score_stats
from companion.rules.words import N_, _, ngettext

PERIOD_NAME = N_("Hand")  # worded where shown; ``period_label`` words a whole label
# What the players' pages say of this game's figures (``Review.stats``), worded where shown.
FIGURES_NOTE = N_("Carambouille: the best and average points of finished games.")


def period_number(state: game.State) -> int:
    """The hand the game is in (an entry belongs to the hand of the state after it)."""
    return state.hand


def period_label(number: int) -> str:
    """ "Hand 3", in the reader's language."""
    # Translators: a hand of Carambouille, a row of the score pad: "Hand 3".
    return _("Hand %(hand)d", hand=number)


def sale_words(state: game.State, sale: game.Sale) -> str:
    """ "Ana sold 4 saffron for 750 in hand 11, with Illusion by Ana"."""
    product = game.PRODUCT_BY_SLUG[sale.product]
    said = {"player": state.players[sale.seller], "cards": product.cards(sale.cards), "value": sale.value,
            "hand": sale.hand}
    if sale.effects:
        played = ", ".join(game.sale_card_label(state, card, seat) for card, seat in sale.effects)
        # Translators: %(played)s lists the sale cards played on it: "Illusion by Ana, Bargain by Ben".
        return _("%(player)s sold %(cards)s for %(value)d in hand %(hand)d, with %(played)s.", played=played, **said)
    return _("%(player)s sold %(cards)s for %(value)d in hand %(hand)d.", **said)


def _best_hand(state: game.State, rows: list[game.HandRow]) -> Highlight | None:
    best = max((gain for row in rows for gain in row.gains), default=0)
    if best <= 0:
        return None
    where = [(row.hand, seat) for row in rows for seat, gain in enumerate(row.gains) if gain == best]
    # Translators: who made the best hand, and which: "Ana in hand 3" (several are joined with "; ").
    text = "; ".join(_("%(player)s in hand %(hand)d", player=state.players[seat], hand=hand) for hand, seat in where)
    # Translators: %(where)s is "Ana in hand 3; Ben in hand 5".
    return Highlight(_("Best hand"), ngettext("%(num)d point: %(where)s.", "%(num)d points: %(where)s.", best,
                                             where=text))


def highlights(state: game.State) -> tuple[Highlight, ...]:
    """Biggest sale, most Carambouille cards played, longest market, best hand."""
    found = game.highlights(state)
    lines = []
    if found.biggest_sale is not None:
        lines.append(Highlight(_("Biggest sale"), sale_words(state, found.biggest_sale)))
    else:
        lines.append(Highlight(_("Biggest sale"), _("Nothing has been sold yet.")))
    seats, count = found.most_cards_played
    if count:
        who = names(state.players, seats)
        if len(seats) > 1:
            # Translators: %(names)s are the players who played the most Carambouille cards: "Ana and Ben".
            text = ngettext("%(names)s: %(num)d card each.", "%(names)s: %(num)d cards each.", count, names=who)
        else:
            text = ngettext("%(names)s: %(num)d card.", "%(names)s: %(num)d cards.", count, names=who)
        lines.append(Highlight(_("Most Carambouille cards played"), text))
    else:
        lines.append(Highlight(_("Most Carambouille cards played"), _("Nobody has played a Carambouille card.")))
    if found.longest_market is not None:
        hand, seconds = found.longest_market
        # Translators: %(duration)s is "4 min 05 s".
        lines.append(Highlight(_("Longest market"), _("Hand %(hand)d: %(duration)s of trading.", hand=hand,
                                                      duration=game.duration_words(seconds))))
    else:
        lines.append(Highlight(_("Longest market"), _("No market was timed by the bell.")))
    best = _best_hand(state, game.score_rows(state))
    if best is not None:
        lines.append(best)
    return tuple(lines)


def best_move(state: game.State) -> Highlight | None:
    """The best single move of the game, for its story: the biggest sale (None before any)."""
    found = game.highlights(state).biggest_sale
    return None if found is None else Highlight(_("Biggest sale"), sale_words(state, found))


def review(state: game.State) -> Review:
    """The whole review: standings, one row per hand, highlights, in the reader's language."""
    standings = tuple(Standing(rank, seat, points) for rank, seat, points in game.standings(state))
    periods = tuple(
        Period(row.hand, period_label(row.hand), row.gains, row.totals,
               _("%(player)s was First Trader", player=state.players[row.first_trader]), row.in_progress)
        for row in game.score_rows(state)
    )
    return Review(
        period_name=PERIOD_NAME,
        score_name=N_("Points"),
        chart_name=N_("Points"),
        standings=standings,
        winners=first_placed(standings),
        periods=periods,
        highlights=highlights(state),
        record=tuple({"score": points} for points in game.scores(state)),
        stats=score_stats("points"),
    )
