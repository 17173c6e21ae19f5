"""Frutti di Mare's state: round phases, piles, finished rounds, and what the pages read from them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from companion.rules.frutti.track import (
    CARDS_PER_SEAFOOD,
    HAND_SIZE,
    NO_CARDS,
    SEAFOOD,
    STALLS,
    Counts,
    DishMove,
    Earnings,
    Track,
    earnings,
    moves_words,
    prices_of,
)

ROUNDS = 3

# Phases of a round, in order; the game ends in FINISHED after round 3.
DISHES, PLAYING, ROUND_OVER, FINISHED = "dishes", "playing", "round_over", "finished"


@dataclass(frozen=True)
class Pile:
    """A player's cards of the current round."""

    plays: tuple[str, ...] = ()  # cards played, in order: the last is on top
    laid_down: Counts = NO_CARDS  # the hand laid down on suspending selling
    tallied: Counts = NO_CARDS  # cards entered at once by a tally (no order)
    suspended: bool = False

    @property
    def played(self) -> dict[str, int]:
        """Cards played by seafood."""
        counts = Counter(self.plays)
        return {s: counts[s] + n for s, n in zip(SEAFOOD, self.tallied)}

    @property
    def laid_down_cards(self) -> dict[str, int]:
        return dict(zip(SEAFOOD, self.laid_down))

    @property
    def sold(self) -> dict[str, int]:
        """Every card this pile sells at round end (played and laid down)."""
        played = self.played
        return {s: played[s] + n for s, n in zip(SEAFOOD, self.laid_down)}

    @property
    def top(self) -> str | None:
        """The seafood on top of the pile."""
        return self.plays[-1] if self.plays else None

    @property
    def cards(self) -> int:
        """Cards of this round, played or laid down."""
        return sum(self.sold.values())

    @property
    def done(self) -> bool:
        """No more turns this round: suspended, or all 7 cards played."""
        return self.suspended or len(self.plays) >= HAND_SIZE

    def earnings(self, prices: Mapping[str, int]) -> Earnings:
        """The pile's money at ``prices``, seafood in the order first played."""
        return earnings(prices, self.sold, self.plays)


@dataclass(frozen=True)
class RoundResult:
    """A finished round: the final track and every pile."""

    number: int
    starter: int
    track: Track
    piles: tuple[Pile, ...]
    tallied: bool = False

    @property
    def prices(self) -> dict[str, int]:
        return prices_of(self.track)

    @property
    def earnings(self) -> tuple[Earnings, ...]:
        prices = self.prices
        return tuple(pile.earnings(prices) for pile in self.piles)


@dataclass(frozen=True)
class LastPlay:
    """The last card played and the dishes it moved."""

    player: int
    seafood: str
    moves: tuple[DishMove, ...]

    @property
    def words(self) -> str:
        return moves_words(self.moves)


@dataclass(frozen=True)
class FruttiState:
    """The whole game: who sits where, the round, the track, the piles and the finished rounds."""

    players: tuple[str, ...]
    first_player: int  # seat of the round-1 starter
    round: int = 1
    phase: str = DISHES
    track: Track | None = None  # None until the first dishes are laid out
    piles: tuple[Pile, ...] = ()
    turn: int | None = None
    last_play: LastPlay | None = None
    rounds: tuple[RoundResult, ...] = ()

    @property
    def starter(self) -> int:
        """Who starts this round: each round starts left of the previous starter."""
        return (self.first_player + self.round - 1) % len(self.players)


@dataclass(frozen=True)
class Standing:
    """A player's place: equal money shares a rank."""

    rank: int
    seat: int
    player: str
    money: int


def scores(state: FruttiState) -> list[int]:
    """Money per seat over the finished rounds."""
    money = [0] * len(state.players)
    for result in state.rounds:
        for seat, earned in enumerate(result.earnings):
            money[seat] += earned.total
    return money


def finished(state: FruttiState) -> bool:
    return state.phase == FINISHED


def round_number(state: FruttiState) -> int:
    return state.round


def whose_turn(state: FruttiState) -> int | None:
    """The seat to play or suspend now (None between rounds)."""
    return state.turn


def price_track(state: FruttiState) -> list[tuple[int, str]]:
    """(stall price, seafood) left to right, as the dishes lie now ([] before the first layout)."""
    return list(zip(STALLS, state.track)) if state.track else []


def prices(state: FruttiState) -> dict[str, int]:
    """Each seafood's current price ({} before the first layout)."""
    return prices_of(state.track) if state.track else {}


def last_move_words(state: FruttiState) -> str | None:
    """ "Octopus 30 → 50, sea urchins 50 → 30" for the last card of this round."""
    return state.last_play.words if state.last_play else None


def round_results(state: FruttiState) -> tuple[RoundResult, ...]:
    """The finished rounds, with each player's earnings."""
    return state.rounds


def current_earnings(state: FruttiState) -> list[Earnings]:
    """What each pile would sell for if the round ended now."""
    current = prices(state)
    return [pile.earnings(current) for pile in state.piles] if current else []


def cards_out(state: FruttiState) -> Counts:
    """Cards of each seafood played or laid down this round, all players together."""
    sold = [pile.sold for pile in state.piles]
    return tuple(sum(cards[seafood] for cards in sold) for seafood in SEAFOOD)


def cards_left(state: FruttiState) -> dict[str, int]:
    """Cards of each seafood not yet played or laid down this round."""
    return {s: CARDS_PER_SEAFOOD - n for s, n in zip(SEAFOOD, cards_out(state))}


def ranked(names, money) -> list[Standing]:
    """Players by money, most first; equal money shares a rank (1, 1, 3)."""
    money = list(money)
    order = sorted(range(len(money)), key=lambda seat: (-money[seat], seat))
    return [Standing(1 + sum(m > money[seat] for m in money), seat, names[seat], money[seat]) for seat in order]


def standings(state: FruttiState) -> list[Standing]:
    """Players by money, most first; equal money shares a rank."""
    return ranked(state.players, scores(state))


def winners(state: FruttiState) -> list[str]:
    """The names sharing first place (everyone with the most money)."""
    return [standing.player for standing in standings(state) if standing.rank == 1]


def hand_left(state: FruttiState, seat: int) -> int:
    """Cards still in the player's hand this round (7 − played; 0 once they suspended)."""
    pile = state.piles[seat]
    return 0 if pile.suspended or any(pile.tallied) else HAND_SIZE - len(pile.plays)


def most_in_hand(state: FruttiState, seat: int) -> dict[str, int]:
    """The most cards of each seafood the player can still hold: bounded by their hand and the cards unplayed."""
    left = hand_left(state, seat)
    return {seafood: min(left, n) for seafood, n in cards_left(state).items()}


def moved_seafood(state: FruttiState) -> frozenset[str]:
    """The dishes the last card moved (none before the first card of a round)."""
    return frozenset(move.seafood for move in state.last_play.moves) if state.last_play else frozenset()


def round_started(state: FruttiState) -> bool:
    """Whether a card has been played or laid down this round (a tally is then too late)."""
    return any(pile.plays or pile.suspended or any(pile.tallied) for pile in state.piles)


def next_round_number(state: FruttiState) -> int:
    """The number of the round after this one."""
    return state.round + 1


def next_starter(state: FruttiState) -> int:
    """The seat that starts the next round: left of this round's starter."""
    return (state.starter + 1) % len(state.players)
