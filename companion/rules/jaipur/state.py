"""Jaipur's state (frozen), its phases, and the checks every entry goes through."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from .. import RuleError
from ..words import _, ngettext
from .components import (
    BONUS_PILE_LABELS,
    BONUS_PILE_SIZES,
    BONUS_RANGES,
    BONUS_TOKENS,
    GOODS,
    GOODS_CARDS,
    GOODS_LABELS,
    GOODS_TOKENS,
    HAND_LIMIT,
    PRECIOUS_GOODS,
    PRECIOUS_MINIMUM,
    SEALS_TO_WIN,
    bonus_pile_for,
)
from .tally import RoundResult, Sale

# Phases of a round.
SELLING = "selling"  # sales are recorded
COUNTING_CAMELS = "counting_camels"  # the round has ended; both camel counts wanted
ROUND_OVER = "round_over"  # the round is scored; next_round starts the next one
FINISHED = "finished"  # a player has 2 seals

# Why a round ended.
END_THREE_STACKS = "three_stacks"
END_MARKET = "market"

EVENT_TYPES = ("sale", "end_round", "camels", "next_round")


@dataclass(frozen=True)
class Round:
    """One round: who started it, the token bank, its sales and, once scored, its result."""

    number: int
    starter: int
    goods_left: tuple[tuple[int, ...], ...]  # per good, in GOODS order, top first
    bonus_left: tuple[tuple[int, ...], ...]  # per pile, in BONUS_PILE_SIZES order, sorted
    cards_sold: tuple[int, ...]  # per good, in GOODS order
    sales: tuple[Sale, ...] = ()
    end_reason: str | None = None  # None while selling
    result: RoundResult | None = None


@dataclass(frozen=True)
class JaipurState:
    """The whole match: players, settings, and every round so far (the last is current)."""

    players: tuple[str, str]
    bonus_mode: str  # "draw" or "enter"
    first_player: int
    rounds: tuple[Round, ...]

    @property
    def round(self) -> Round:
        return self.rounds[-1]

    @property
    def seals(self) -> tuple[int, int]:
        won = [r.result.winner for r in self.rounds if r.result is not None]
        return (won.count(0), won.count(1))


def fresh_round(number: int, starter: int) -> Round:
    """A round with the full token bank."""
    return Round(
        number=number,
        starter=starter,
        goods_left=tuple(GOODS_TOKENS[good] for good in GOODS),
        bonus_left=tuple(tuple(sorted(BONUS_TOKENS[size])) for size in BONUS_PILE_SIZES),
        cards_sold=(0,) * len(GOODS),
    )


def with_round(state: JaipurState, current: Round) -> JaipurState:
    """The state with its current round replaced."""
    return replace(state, rounds=state.rounds[:-1] + (current,))


def finished(state: JaipurState) -> bool:
    """Whether a player has won 2 seals."""
    return max(state.seals) >= SEALS_TO_WIN


def winner(state: JaipurState) -> int | None:
    """The seat that won the match, or None while it goes on."""
    seals = state.seals
    for seat in (0, 1):
        if seals[seat] >= SEALS_TO_WIN:
            return seat
    return None


def phase(state: JaipurState) -> str:
    """SELLING, COUNTING_CAMELS, ROUND_OVER or FINISHED."""
    current = state.round
    if current.result is not None:
        return FINISHED if finished(state) else ROUND_OVER
    return SELLING if current.end_reason is None else COUNTING_CAMELS


def next_starter(state: JaipurState) -> int | None:
    """Who starts the next round: the loser; after a drawn round, who did not start it."""
    current = state.round
    if current.result is None or finished(state):
        return None
    if current.result.winner is None:
        return 1 - current.starter
    return current.result.loser


def bonus_pile_left(current: Round, cards: int) -> tuple[int, ...]:
    """The tokens left in the pile a sale of ``cards`` takes from (none under 3 cards)."""
    size = bonus_pile_for(cards)
    if size is None:
        return ()
    return current.bonus_left[BONUS_PILE_SIZES.index(size)]


# --- checks -------------------------------------------------------------------


def is_int(value) -> bool:
    """An int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def event_type(event) -> str:
    """The event's type, checked."""
    if not isinstance(event, Mapping):
        raise RuleError(_("This entry could not be read."), "type")
    kind = event.get("type")
    if kind not in EVENT_TYPES:
        raise RuleError(_("Jaipur has no entry of type %(kind)s.", kind=repr(kind)), "type")
    return kind


def require_phase(state: JaipurState, wanted: str) -> None:
    """Refuse, saying what comes next, unless the match is in phase ``wanted``."""
    now = phase(state)
    if now == wanted:
        return
    number = state.round.number
    if now == FINISHED:
        message = match_over_message(state)
    elif now == SELLING:
        message = _(
            "Round %(round)d is still going: it ends when three goods stacks are "
            "empty or the market cannot be refilled.",
            round=number,
        )
    elif now == COUNTING_CAMELS:
        message = _("Round %(round)d has ended: enter both camel counts to score it.", round=number)
    else:
        message = _("Round %(round)d is scored: start the next round first.", round=number)
    raise RuleError(message)


def match_over_message(state: JaipurState) -> str:
    """The refusal of any entry once the match is won."""
    return _("The match is over: %(name)s has won it.", name=state.players[winner(state)])


def check_seat(value, field: str = "player") -> int:
    """A seat index, 0 or 1."""
    if not is_int(value) or value not in (0, 1):
        raise RuleError(_("Choose one of the two players."), field)
    return value


def check_good(value) -> str:
    """One of the six goods."""
    if value not in GOODS:
        raise RuleError(_("Choose one of the six goods."), "good")
    return value


def check_card_count(value) -> int:
    """1 to 7 cards (a hand holds 7)."""
    if not is_int(value) or value < 1:
        raise RuleError(_("Sell at least 1 card."), "cards")
    if value > HAND_LIMIT:
        raise RuleError(
            ngettext("At most %(num)d card can be sold at once: a hand holds %(num)d.",
                     "At most %(num)d cards can be sold at once: a hand holds %(num)d.", HAND_LIMIT),
            "cards",
        )
    return value


def check_sale(state: JaipurState, event) -> tuple[int, str, int]:
    """Who sells which good, and how many cards; the bonus token is checked apart."""
    require_phase(state, SELLING)
    player = check_seat(event.get("player"))
    good = check_good(event.get("good"))
    cards = check_card_count(event.get("cards"))
    if good in PRECIOUS_GOODS and cards < PRECIOUS_MINIMUM:
        # Translators: %(good)s is Diamonds, Gold or Silver.
        raise RuleError(
            _("%(good)s must be sold at least %(least)d at a time.", good=_(GOODS_LABELS[good]),
              least=PRECIOUS_MINIMUM),
            "cards",
        )
    sold = state.round.cards_sold[GOODS.index(good)]
    if sold + cards > GOODS_CARDS[good]:
        # Translators: %(good)s is one of the six goods (Diamonds, …, Leather).
        raise RuleError(
            # Translators: %(sold)s is "1 sold this round" or "4 sold this round".
            ngettext("%(good)s: at most %(num)d more card can be sold (%(exist)d in the game, %(sold)s).",
                     "%(good)s: at most %(num)d more cards can be sold (%(exist)d in the game, %(sold)s).",
                     GOODS_CARDS[good] - sold, good=_(GOODS_LABELS[good]), exist=GOODS_CARDS[good],
                     sold=ngettext("%(num)d sold this round", "%(num)d sold this round", sold)),
            "cards",
        )
    return player, good, cards


def check_bonus(state: JaipurState, cards: int, bonus) -> int | None:
    """The bonus token a sale takes: required while its pile has tokens, and from that pile."""
    size = bonus_pile_for(cards)
    pile = bonus_pile_left(state.round, cards)
    if bonus is None:
        if pile:
            raise RuleError(missing_bonus_message(state, cards), "bonus")
        return None
    if size is None:
        raise RuleError(_("A sale of fewer than 3 cards takes no bonus token."), "bonus")
    if not pile:
        # Translators: %(pile)s is "3 cards", "4 cards" or "5 or more cards".
        raise RuleError(
            _("The bonus pile for %(pile)s is empty: this sale takes no bonus token.",
              pile=_(BONUS_PILE_LABELS[size])),
            "bonus",
        )
    if not is_int(bonus) or bonus not in pile:
        # Translators: %(value)s is the value sent; %(pile)s is "3 cards", …; %(range)s is "1–3", …
        raise RuleError(
            _("There is no bonus token of %(value)s left in the pile for %(pile)s (%(range)s).",
              value=bonus, pile=_(BONUS_PILE_LABELS[size]), range=BONUS_RANGES[size]),
            "bonus",
        )
    return bonus


def missing_bonus_message(state: JaipurState, cards: int) -> str:
    """What to say when a 3+ card sale comes without its bonus token."""
    size = bonus_pile_for(cards)
    if state.bonus_mode == "enter":
        # Translators: %(pile)s is "3 cards", "4 cards" or "5 or more cards"; %(range)s is "1–3", "4–6" or "8–10".
        return _("Enter the value of the bonus token taken from the pile for %(pile)s (%(range)s).",
                 pile=_(BONUS_PILE_LABELS[size]), range=BONUS_RANGES[size])
    return ngettext("The bonus token for this sale of %(num)d card has not been drawn.",
                    "The bonus token for this sale of %(num)d cards has not been drawn.", cards)
