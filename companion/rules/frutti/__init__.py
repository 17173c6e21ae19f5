"""Frutti di Mare (2–6 players): the rounds, turns, piles and money (RULES.md §3).

The price track itself and the selling arithmetic are in ``track``, the
state and what the pages read from it in ``state``, the quick tally in
``tally``; the public names are re-exported here. Events are documented in
``docs/events.md (Frutti di Mare)``. Seats go clockwise in seating order, so a
player's left-hand neighbour is the next seat.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import replace

from companion.rules import RuleError
from companion.rules.words import N_, _, ngettext

# Re-exported so views and tests need only this module.
from companion.rules.frutti.state import (  # noqa: F401
    DISHES,
    FINISHED,
    PLAYING,
    ROUND_OVER,
    ROUNDS,
    FruttiState,
    LastPlay,
    Pile,
    RoundResult,
    Standing,
    cards_left,
    cards_out,
    current_earnings,
    finished,
    hand_left,
    last_move_words,
    most_in_hand,
    moved_seafood,
    next_round_number,
    next_starter,
    price_track,
    prices,
    ranked,
    round_number,
    round_results,
    round_started,
    scores,
    standings,
    whose_turn,
    winners,
)
from companion.rules.frutti.tally import check_tally, tally_earnings  # noqa: F401
from companion.rules.frutti.track import (  # noqa: F401
    CARDS,
    CARDS_PER_SEAFOOD,
    HAND_SIZE,
    PLURAL,
    SEAFOOD,
    STALLS,
    Earnings,
    capital,
    cards_name,
    cards_words,
    check_cards,
    check_order,
    check_seafood,
    earnings,
    play_on_track,
    joined,
    round_earnings,
    seafood_cards,
    seafood_name,
)

NAME = "Frutti di Mare"
# What the house asks of a game (companion/rules/__init__.py, "Optional declarations"): the board reads the same
# for every seat but the reader's own marks.
SHARED_BOARD = True
# One move entered on two phones is recorded once (docs/events.md, "Recorded once"): the keys that
# name a move; () for a step of the round taken once. A card played: every key sent.
MOVE_KEYS = {"dishes": (), "suspend": ("player",), "next_round": (), "tally": ()}
MIN_PLAYERS = 2
MAX_PLAYERS = 6

# The option naming who starts, and how the new-table form asks for it.
STARTER_OPTION = "first_player"
STARTER_LABEL = N_("Starts the first round")


def new_game(players, options=None, rng=None) -> FruttiState:
    """Round 1, waiting for the dishes to be laid out."""
    names = tuple(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError(
            ngettext("Frutti di Mare is for %(least)d to %(num)d player.", "Frutti di Mare is for %(least)d to %(num)d players.",
                     MAX_PLAYERS, least=MIN_PLAYERS), "players"
        )
    options = {} if options is None else options
    if not isinstance(options, Mapping):
        raise RuleError(_("The table's settings are not readable."), "options")
    for key in options:
        if key != "first_player":
            raise RuleError(_("Frutti di Mare has no setting %(setting)s.", setting=repr(key)), "options")
    first = options.get("first_player", 0)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(names):
        raise RuleError(_("The first player must be one of the players at the table."), "first_player")
    return FruttiState(players=names, first_player=first, piles=(Pile(),) * len(names))


def complete(state: FruttiState, event, rng=None):
    """A copy of ``event``; a dishes event asking to shuffle or keep gets its order filled in."""
    if not isinstance(event, Mapping):
        return event
    event = dict(event)
    if event.get("type") == "dishes" and "order" not in event:
        if event.get("keep") is True and state.track is not None and event.get("shuffle") is not True:
            event["order"] = list(state.track)
        elif event.get("shuffle") is True and event.get("keep") is not True:
            order = list(SEAFOOD)
            (rng or secrets.SystemRandom()).shuffle(order)
            event["order"] = order
    return event


def apply(state: FruttiState, event) -> FruttiState:
    """The state after ``event``; RuleError if the rules do not allow it."""
    if not isinstance(event, Mapping):
        raise RuleError(_("This entry is not readable."), "type")
    handler = _EVENTS.get(event.get("type")) if isinstance(event.get("type"), str) else None
    if handler is None:
        raise RuleError(_("Frutti di Mare has no such entry."), "type")
    if state.phase == FINISHED:
        raise RuleError(ngettext("The game is over: its %(num)d round has been played.",
                                 "The game is over: all %(num)d rounds have been played.", ROUNDS), "type")
    return handler(state, event)


def _seat(state: FruttiState, event: Mapping) -> int:
    seat = event.get("player")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise RuleError(_("Choose one of the players at the table."), "player")
    return seat


def _require_playing(state: FruttiState, seat: int) -> None:
    if state.phase == DISHES:
        raise RuleError(_("Lay out the dishes for round %(round)d first.", round=state.round), "type")
    if state.phase == ROUND_OVER:
        raise RuleError(_round_over(state), "type")
    if seat != state.turn:
        raise RuleError(
            _("It is %(name)s's turn, not %(other)s's.", name=state.players[state.turn], other=state.players[seat]),
            "player",
        )


def _round_over(state: FruttiState) -> str:
    return _("Round %(round)d is over: start round %(next)d first.", round=state.round, next=state.round + 1)


def _dishes(state: FruttiState, event: Mapping) -> FruttiState:
    if state.phase == PLAYING:
        raise RuleError(_("The dishes of round %(round)d are already laid out.", round=state.round), "type")
    if state.phase == ROUND_OVER:
        raise RuleError(_round_over(state), "type")
    keep, shuffle = event.get("keep", False), event.get("shuffle", False)
    if not isinstance(keep, bool) or not isinstance(shuffle, bool):
        raise RuleError(_("Say whether the dishes are kept or shuffled: yes or no."), "order")
    if keep and shuffle:
        raise RuleError(_("Either keep the dishes as they lie or shuffle them, not both."), "order")
    if keep and state.track is None:
        raise RuleError(_("In round 1 there is no earlier dish order to keep."), "order")
    if "order" not in event:
        if not keep:
            raise RuleError(_("Give the dish under each stall, from 0 to 50."), "order")
        order = state.track
    else:
        order = check_order(event["order"])
        if keep and order != state.track:
            raise RuleError(_("Kept dishes must lie as they did at the end of the last round."), "order")
    return replace(state, phase=PLAYING, track=order, turn=state.starter, last_play=None)


def _play(state: FruttiState, event: Mapping) -> FruttiState:
    seat = _seat(state, event)
    _require_playing(state, seat)
    seafood = check_seafood(event.get("seafood"))
    if cards_out(state)[SEAFOOD.index(seafood)] >= CARDS_PER_SEAFOOD:
        raise RuleError(
            # Translators: %(cards)s is every card of one seafood, counted: "9 sea urchins".
            _("All %(cards)s are already out this round.", cards=seafood_cards(seafood, CARDS_PER_SEAFOOD)),
            "seafood",
        )
    track, moves = play_on_track(state.track, seafood)
    pile = replace(state.piles[seat], plays=state.piles[seat].plays + (seafood,))
    state = _with_pile(state, seat, pile)
    return _next_turn(replace(state, track=track, last_play=LastPlay(seat, seafood, moves)), seat)


def _suspend(state: FruttiState, event: Mapping) -> FruttiState:
    seat = _seat(state, event)
    _require_playing(state, seat)
    if "hand" not in event:
        raise RuleError(_("Enter the cards left in hand, by seafood."), "hand")
    hand = check_cards(event["hand"], "hand")
    pile, name = state.piles[seat], state.players[seat]
    left = HAND_SIZE - len(pile.plays)
    if sum(hand) != left:
        # Every hand holds 7 cards: suspending lays down all that are left, so none vanishes from the scoring.
        raise RuleError(
            # Translators: %(played)s is a number of cards ("6 cards"); %(given)d the cards entered.
            ngettext(
                "%(name)s has played %(played)s, so %(num)d card is left in hand: lay it down, not %(given)d.",
                "%(name)s has played %(played)s, so %(num)d cards are left in hand: lay all %(num)d down, "
                "not %(given)d.",
                left, name=name, played=ngettext("%(num)d card", "%(num)d cards", len(pile.plays)), given=sum(hand),
            ),
            "hand",
        )
    for seafood, out, n in zip(SEAFOOD, cards_out(state), hand):
        if out + n > CARDS_PER_SEAFOOD:
            raise RuleError(
                ngettext("Only %(num)d of the %(most)d %(cards)s is still unplayed this round, not %(given)d.",
                         "Only %(num)d of the %(most)d %(cards)s are still unplayed this round, not %(given)d.",
                         CARDS_PER_SEAFOOD - out, most=CARDS_PER_SEAFOOD, cards=cards_name(seafood), given=n),
                "hand",
            )
    state = _with_pile(state, seat, replace(pile, laid_down=hand, suspended=True))
    return _next_turn(state, seat)


def _next_round(state: FruttiState, event: Mapping) -> FruttiState:
    if state.phase != ROUND_OVER:
        raise RuleError(_("Round %(round)d is not over yet.", round=state.round), "type")
    return replace(
        state,
        round=state.round + 1,
        phase=DISHES,
        piles=(Pile(),) * len(state.players),
        turn=None,
        last_play=None,
    )


def _tally(state: FruttiState, event: Mapping) -> FruttiState:
    if state.phase not in (DISHES, PLAYING) or round_started(state):
        raise RuleError(_("A whole round can be entered only at its start, before any card is played."), "type")
    order, hands = check_tally(event.get("order"), event.get("cards"), state.players)
    piles = tuple(Pile(tallied=hand) for hand in hands)
    return _end_round(replace(state, track=order, piles=piles, last_play=None), tallied=True)


def _with_pile(state: FruttiState, seat: int, pile: Pile) -> FruttiState:
    return replace(state, piles=state.piles[:seat] + (pile,) + state.piles[seat + 1 :])


def _next_turn(state: FruttiState, seat: int) -> FruttiState:
    """Clockwise from ``seat`` to the next player still selling; the round ends when there is none."""
    n = len(state.players)
    for step in range(1, n + 1):
        following = (seat + step) % n
        if not state.piles[following].done:
            return replace(state, turn=following)
    return _end_round(state)


def _end_round(state: FruttiState, tallied: bool = False) -> FruttiState:
    result = RoundResult(state.round, state.starter, state.track, state.piles, tallied)
    return replace(
        state,
        phase=FINISHED if state.round == ROUNDS else ROUND_OVER,
        turn=None,
        rounds=state.rounds + (result,),
    )


_EVENTS = {
    "dishes": _dishes,
    "play": _play,
    "suspend": _suspend,
    "next_round": _next_round,
    "tally": _tally,
}


def describe(state: FruttiState, event) -> str:
    """The entry in words, for the history (``state`` is the state before it)."""
    try:
        after = apply(state, event)
    except RuleError as error:
        return _("Refused entry: %(reason)s", reason=error.message)
    kind = event["type"]
    if kind == "dishes":
        # Translators: a dish and its price on the track: "octopus 30".
        layout = ", ".join(_("%(seafood)s %(price)d", seafood=seafood_name(s), price=p) for p, s in price_track(after))
        return _("Round %(round)d dishes: %(layout)s.", round=after.round, layout=layout)
    if kind == "play":
        # Translators: %(moves)s is every dish the card moved: "Octopus 30 → 50, sea urchins 50 → 30".
        return _("%(name)s played %(seafood)s: %(moves)s.", name=state.players[event["player"]],
                 seafood=seafood_name(event["seafood"]), moves=after.last_play.words)
    if kind == "suspend":
        laid_down = after.piles[event["player"]].laid_down
        return _("%(name)s suspended selling, laying down %(cards)s.", name=state.players[event["player"]],
                 cards=cards_words(laid_down))
    if kind == "next_round":
        return _("Round %(round)d starts with %(name)s.", round=after.round, name=after.players[after.starter])
    # Translators: a player's name and their money for the round: "Ana 190".
    money = ", ".join(_("%(name)s %(money)d", name=name, money=e.total)
                      for name, e in zip(after.players, after.rounds[-1].earnings))
    return _("Round %(round)d entered at once: %(money)s.", round=after.round, money=money)
