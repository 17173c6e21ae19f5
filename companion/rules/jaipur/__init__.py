"""Jaipur (2 players): the token bank, bonus draws, camel token, rounds and seals.

RULES.md §2 is the spec; ``docs/events.md (Jaipur)`` lists the entries. A round
goes: sales… → the round ends (by itself when the third goods stack empties,
or by ``end_round`` when the market cannot be refilled) → ``camels`` (both
herds counted: the round is scored and its seal given) → ``next_round``. The
match ends at 2 seals. Taking and exchanging cards is not recorded, so whose
turn it is cannot be known and is not enforced.

The components are in ``components``, the state and its checks in ``state``,
the end-of-round tally in ``tally``, what the table page shows in
``page_helpers``, the history sentences in ``history``; the public names are
re-exported here.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import replace

from .. import RuleError
from ..words import N_, N_plural, _, ngettext
from .components import (  # noqa: F401  (the game's data, for the pages)
    BONUS_PILE_LABELS,
    BONUS_PILE_SIZES,
    BONUS_RANGES,
    BONUS_TOKENS,
    CAMEL_CARDS,
    CAMEL_TOKEN,
    EMPTY_STACKS_TO_END,
    GOODS,
    GOODS_CARDS,
    GOODS_COLOURS,
    GOODS_LABELS,
    GOODS_TOKENS,
    GOODS_WORDS,
    HAND_LIMIT,
    PRECIOUS_GOODS,
    SEALS_OF_EXCELLENCE,
    SEALS_TO_WIN,
    bonus_pile_for,
    goods_sold,
)
from .history import describe  # noqa: F401
from .state import (  # noqa: F401
    COUNTING_CAMELS,
    END_MARKET,
    END_THREE_STACKS,
    FINISHED,
    ROUND_OVER,
    SELLING,
    JaipurState,
    Round,
    bonus_pile_left,
    check_bonus,
    check_sale,
    event_type,
    finished,
    fresh_round,
    is_int,
    match_over_message,
    missing_bonus_message,
    next_starter,
    phase,
    require_phase,
    winner,
    with_round,
)
from .page_helpers import (  # noqa: F401
    BonusPile,
    SalePreview,
    bonus_choices,
    bonus_piles,
    breakdown,
    card_choices,
    next_round_number,
    results,
    round_points,
    sale_preview,
    seals_left,
    token_bank,
)
from .tally import PlayerTally, RoundResult, Sale, round_result  # noqa: F401

NAME = "Jaipur"
# What the house asks of a game (companion/rules/__init__.py, "Optional declarations"). Its board is not shared: a
# seller sees bonus tokens only that seat may see. The new-table form's bonus field becomes the option; a session
# is a match of rounds, one play for BG Stats; BoardGameGeek's id was checked there (2009: boardgame/54043).
SETTINGS = ("bonus",)
MATCH = True
BGG_ID = 54043
# One move entered on two phones is recorded once (docs/events.md, "Recorded once"): the keys that
# name a move, never the bonus token; () for a step of the round taken once.
MOVE_KEYS = {"sale": ("player", "good"), "end_round": (), "camels": (), "next_round": ()}
MIN_PLAYERS = 2
MAX_PLAYERS = 2

# The option naming who starts, and how the new-table form asks for it.
STARTER_OPTION = "first_player"
STARTER_LABEL = N_("Starts the first round")
# Refused by the rules and by the camels form alike: ngettext(*HERD_SIZE, CAMEL_CARDS).
HERD_SIZE = N_plural("A herd holds 0 to %(num)d camel.", "A herd holds 0 to %(num)d camels.")

BONUS_MODES = ("draw", "enter")
DEFAULT_OPTIONS = {"bonus": "draw", "first_player": 0}


def new_game(players, options=None, rng=None) -> JaipurState:
    """The match before the first sale; options ``bonus`` ("draw"/"enter") and ``first_player``."""
    if not isinstance(players, (list, tuple)) or len(players) != 2:
        raise RuleError(_("Jaipur is played by exactly 2 players."), "players")
    if not all(isinstance(name, str) and name.strip() for name in players):
        raise RuleError(_("Each player needs a name."), "players")
    settings = dict(DEFAULT_OPTIONS)
    if options is not None:
        if not isinstance(options, Mapping):
            raise RuleError(_("The table's settings could not be read."), "options")
        unknown = sorted(str(key) for key in set(options) - set(DEFAULT_OPTIONS))
        if unknown:
            raise RuleError(_("Jaipur has no setting called %(name)s.", name=repr(unknown[0])), unknown[0])
        settings.update(options)
    if settings["bonus"] not in BONUS_MODES:
        # Translators: 'draw' and 'enter' are the setting's values as sent: keep them as they are.
        message = _("The bonus token is either drawn by the app ('draw') or entered by the players ('enter').")
        raise RuleError(message, "bonus")
    first = settings["first_player"]
    if not is_int(first) or first not in (0, 1):
        raise RuleError(_("The first player is seat 0 or seat 1."), "first_player")
    return JaipurState(
        players=(players[0], players[1]),
        bonus_mode=settings["bonus"],
        first_player=first,
        rounds=(fresh_round(1, first),),
    )


def complete(state: JaipurState, event, rng=None) -> dict:
    """A copy of ``event``, with the bonus token drawn for a 3+ card sale (setting "draw")."""
    kind = event_type(event)
    completed = dict(event)
    if kind != "sale" or finished(state):
        return completed
    _, _, cards = check_sale(state, event)
    pile = bonus_pile_left(state.round, cards)
    if pile and completed.get("bonus") is None:
        if state.bonus_mode == "enter":
            raise RuleError(missing_bonus_message(state, cards), "bonus")
        # Every token left in the pile is equally likely, as when drawing face down.
        rng = rng if rng is not None else secrets.SystemRandom()
        completed["bonus"] = rng.choice(pile)
    return completed


def apply(state: JaipurState, event) -> JaipurState:
    """The state after ``event``; RuleError with the reason when it is not allowed."""
    kind = event_type(event)
    if finished(state):
        raise RuleError(match_over_message(state))
    return _APPLY[kind](state, event)


def scores(state: JaipurState) -> list[int]:
    """Seals of excellence per seat: the match is won on seals (round points: round_points)."""
    return list(state.seals)


def score_unit(count: int) -> str:
    """What the scoreboard counts, in the reader's language: "seal" for 1, "seals" otherwise."""
    return ngettext("seal", "seals", count)


def withheld(before: JaipurState, event, now: JaipurState) -> tuple[str, ...]:
    """The keys of a recorded sale still secret from the table: its bonus token lies face down until its
    round is scored (``before``: the state the sale was applied to; ``now``: the newest state)."""
    if not isinstance(event, Mapping) or event.get("type") != "sale" or event.get("bonus") is None:
        return ()
    number = before.round.number
    if finished(now) or any(r.number == number and r.result is not None for r in now.rounds):
        return ()
    return ("bonus",)


def _sale(state: JaipurState, event) -> JaipurState:
    player, good, cards = check_sale(state, event)
    bonus = check_bonus(state, cards, event.get("bonus"))
    current = state.round
    index = GOODS.index(good)
    stack = current.goods_left[index]
    goods_left = _replace_at(current.goods_left, index, stack[cards:])
    bonus_left = current.bonus_left
    size = bonus_pile_for(cards) if bonus is not None else None
    if size is not None:
        at = BONUS_PILE_SIZES.index(size)
        pile = list(bonus_left[at])
        pile.remove(bonus)
        bonus_left = _replace_at(bonus_left, at, tuple(pile))
    sale = Sale(player, good, cards, stack[:cards], size, bonus)
    # The round ends at once when the third goods stack is emptied.
    empty_stacks = sum(1 for left in goods_left if not left)
    current = replace(
        current,
        goods_left=goods_left,
        bonus_left=bonus_left,
        cards_sold=_replace_at(current.cards_sold, index, current.cards_sold[index] + cards),
        sales=current.sales + (sale,),
        end_reason=END_THREE_STACKS if empty_stacks >= EMPTY_STACKS_TO_END else None,
    )
    return with_round(state, current)


def _end_round(state: JaipurState, event) -> JaipurState:
    require_phase(state, SELLING)
    return with_round(state, replace(state.round, end_reason=END_MARKET))


def _camels(state: JaipurState, event) -> JaipurState:
    require_phase(state, COUNTING_CAMELS)
    counts = event.get("counts")
    if not isinstance(counts, (list, tuple)) or len(counts) != 2:
        raise RuleError(_("Enter the camels in both herds."), "counts")
    if not all(is_int(n) and 0 <= n <= CAMEL_CARDS for n in counts):
        raise RuleError(ngettext(*HERD_SIZE, CAMEL_CARDS), "counts")
    if counts[0] + counts[1] > CAMEL_CARDS:
        raise RuleError(
            ngettext("There is only %(num)d camel, not %(counted)d.", "There are only %(num)d camels, not %(counted)d.",
                     CAMEL_CARDS, counted=counts[0] + counts[1]),
            "counts",
        )
    result = round_result(state.players, state.round.sales, (counts[0], counts[1]))
    return with_round(state, replace(state.round, result=result))


def _next_round(state: JaipurState, event) -> JaipurState:
    require_phase(state, ROUND_OVER)
    starter = next_starter(state)
    return replace(state, rounds=state.rounds + (fresh_round(state.round.number + 1, starter),))


_APPLY = {
    "sale": _sale,
    "end_round": _end_round,
    "camels": _camels,
    "next_round": _next_round,
}


def _replace_at(items: tuple, index: int, value) -> tuple:
    return items[:index] + (value,) + items[index + 1 :]
