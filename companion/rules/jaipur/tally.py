"""Jaipur's end-of-round tally: each player's tokens, the camel token, the round winner."""

from __future__ import annotations

from dataclasses import dataclass

from ..words import _, ngettext
from .components import CAMEL_TOKEN


@dataclass(frozen=True)
class Sale:
    """One recorded sale and the tokens it took."""

    player: int
    good: str
    cards: int
    goods_tokens: tuple[int, ...]
    bonus_pile: int | None = None  # 3, 4 or 5 when a bonus token was taken
    bonus: int | None = None  # that token's value


@dataclass(frozen=True)
class PlayerTally:
    """What one player has in front of them in a round, as a hand count would find it."""

    goods_tokens: tuple[int, ...]
    bonus_tokens: tuple[int, ...]
    camel_token: int  # 0 or 5

    @property
    def goods_sum(self) -> int:
        return sum(self.goods_tokens)

    @property
    def goods_count(self) -> int:
        return len(self.goods_tokens)

    @property
    def bonus_sum(self) -> int:
        return sum(self.bonus_tokens)

    @property
    def bonus_count(self) -> int:
        return len(self.bonus_tokens)

    @property
    def total(self) -> int:
        return self.goods_sum + self.bonus_sum + self.camel_token


@dataclass(frozen=True)
class RoundResult:
    """A round's outcome: camels, tallies, the winner (None: drawn) and why.

    Why is told in words (``explanation``) when it is shown, in the reader's language: the
    state, cached and shared between phones, holds no words.
    """

    camels: tuple[int, int]
    camel_token_to: int | None
    tallies: tuple[PlayerTally, PlayerTally]
    winner: int | None
    decided_by: str  # "points", "bonus_tokens", "goods_tokens" or "drawn"
    players: tuple[str, str]

    @property
    def explanation(self) -> str:
        """How the round was decided, in words: "Ana wins 72 to 58" (no full stop)."""
        winner = self.winner
        if winner is None:
            return _("Drawn round: equal points, bonus tokens and goods tokens; no seal")
        name, other = self.players[winner], 1 - winner
        first, second = self.tallies
        if self.decided_by == "points":
            points = self.points
            return _("%(name)s wins %(points)d to %(other)d", name=name, points=points[winner],
                     other=points[other])
        bonus = (first.bonus_count, second.bonus_count)
        if self.decided_by == "bonus_tokens":
            return ngettext("Equal at %(points)d; %(name)s wins with %(num)d bonus token to %(other)d",
                            "Equal at %(points)d; %(name)s wins with %(num)d bonus tokens to %(other)d",
                            bonus[winner], points=first.total, name=name, other=bonus[other])
        goods = (first.goods_count, second.goods_count)
        # Translators: %(bonus)s is "2 bonus tokens" (each player has that many), %(goods)s "5 goods tokens".
        return _(
            "Equal at %(points)d with %(bonus)s each; %(name)s wins with %(goods)s to %(other)d",
            points=first.total,
            bonus=ngettext("%(num)d bonus token", "%(num)d bonus tokens", bonus[0]),
            name=name,
            goods=ngettext("%(num)d goods token", "%(num)d goods tokens", goods[winner]),
            other=goods[other],
        )

    @property
    def points(self) -> tuple[int, int]:
        return (self.tallies[0].total, self.tallies[1].total)

    @property
    def loser(self) -> int | None:
        return None if self.winner is None else 1 - self.winner


def camel_token_to(camels: tuple[int, int]) -> int | None:
    """The seat with strictly more camels; None when equal (ruling: nobody)."""
    if camels[0] == camels[1]:
        return None
    return 0 if camels[0] > camels[1] else 1


def tally(sales: tuple[Sale, ...], player: int, camel_token: int = 0) -> PlayerTally:
    """One player's tokens from the round's sales, in the order taken."""
    goods: list[int] = []
    bonus: list[int] = []
    for sale in sales:
        if sale.player != player:
            continue
        goods.extend(sale.goods_tokens)
        if sale.bonus is not None:
            bonus.append(sale.bonus)
    return PlayerTally(tuple(goods), tuple(bonus), camel_token)


def round_result(
    players: tuple[str, str], sales: tuple[Sale, ...], camels: tuple[int, int]
) -> RoundResult:
    """Score a finished round and decide it by points, then bonus tokens, then goods tokens."""
    camel_seat = camel_token_to(camels)
    tallies = tuple(
        tally(sales, seat, CAMEL_TOKEN if seat == camel_seat else 0) for seat in (0, 1)
    )
    first, second = tallies
    points = (first.total, second.total)
    bonus = (first.bonus_count, second.bonus_count)
    goods = (first.goods_count, second.goods_count)

    winner: int | None
    if points[0] != points[1]:
        winner, decided_by = _better(points), "points"
    elif bonus[0] != bonus[1]:
        winner, decided_by = _better(bonus), "bonus_tokens"
    elif goods[0] != goods[1]:
        winner, decided_by = _better(goods), "goods_tokens"
    else:
        winner, decided_by = None, "drawn"
    return RoundResult(
        camels=camels,
        camel_token_to=camel_seat,
        tallies=tallies,  # type: ignore[arg-type]
        winner=winner,
        decided_by=decided_by,
        players=(players[0], players[1]),
    )


def _better(pair: tuple[int, int]) -> int:
    return 0 if pair[0] > pair[1] else 1
