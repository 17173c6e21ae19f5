"""Jaipur's entries in words, for the table's history."""

from __future__ import annotations

from .. import RuleError
from ..words import N_, _, ngettext
from .components import (
    BONUS_PILE_LABELS,
    BONUS_RANGES,
    EMPTY_STACKS_TO_END,
    GOODS,
    GOODS_WORDS,
    SEALS_TO_WIN,
    bonus_pile_for,
    goods_sold,
)
from .state import (
    COUNTING_CAMELS,
    SELLING,
    JaipurState,
    bonus_pile_left,
    check_sale,
    event_type,
    is_int,
    next_starter,
    require_phase,
)
from .tally import round_result

# What an entry was, when the match it was made in no longer allows it.
_GENERIC = {
    "sale": N_("A sale."),
    "end_round": N_("The round ended."),
    "camels": N_("The camels were counted."),
    "next_round": N_("The next round began."),
}


def describe(state: JaipurState, event) -> str:
    """One sentence for the history, given the state before ``event``, in the reader's language.

    A bonus token's value is not told: on the table it lies face down.
    """
    try:
        kind = event_type(event)
    except RuleError:
        return _("An entry this app cannot read.")
    try:
        if kind == "sale":
            return _sale(state, event)
        if kind == "end_round":
            require_phase(state, SELLING)
            return _("Round %(round)d ended: the market could not be refilled.", round=state.round.number)
        if kind == "camels":
            return _camels(state, event)
        return _next_round(state)
    except RuleError:
        return _(_GENERIC[kind])


def _sale(state: JaipurState, event) -> str:
    player, good, cards = check_sale(state, event)
    name = state.players[player]
    goods = goods_sold(good, cards)
    index = GOODS.index(good)
    taken = state.round.goods_left[index][:cards]
    untaken = cards - len(taken)
    # The token values, as on the table: "7 + 7 + 5".
    tokens = " + ".join(str(value) for value in taken)
    if not taken:
        # Translators: %(goods)s is "3 cloth", "2 diamonds"; %(good)s the good alone: "cloth", "diamonds".
        sentence = _("%(name)s sold %(goods)s: no %(good)s tokens were left", name=name, goods=goods,
                     good=_(GOODS_WORDS[good]))
    elif untaken:
        # Translators: %(goods)s is "5 leather"; %(tokens)s the tokens taken, "1 + 1 + 1".
        sentence = ngettext(
            "%(name)s sold %(goods)s for %(points)d (%(tokens)s; %(num)d card took no token)",
            "%(name)s sold %(goods)s for %(points)d (%(tokens)s; %(num)d cards took no token)",
            untaken, name=name, goods=goods, points=sum(taken), tokens=tokens,
        )
    elif len(taken) > 1:
        # Translators: %(goods)s is "3 diamonds"; %(tokens)s the tokens taken, "7 + 7 + 5".
        sentence = _("%(name)s sold %(goods)s for %(points)d (%(tokens)s)", name=name, goods=goods,
                     points=sum(taken), tokens=tokens)
    else:
        # Translators: %(goods)s is "1 leather", "1 cloth".
        sentence = _("%(name)s sold %(goods)s for %(points)d", name=name, goods=goods, points=sum(taken))
    size = bonus_pile_for(cards)
    if size is not None:
        if event.get("bonus") is not None:
            # Translators: %(sale)s is "Ana sold 3 cloth for 11 (5 + 3 + 3)"; %(range)s is "1–3", "4–6" or "8–10".
            sentence = _("%(sale)s and a bonus token (%(range)s)", sale=sentence, range=BONUS_RANGES[size])
        elif not bonus_pile_left(state.round, cards):
            # Translators: %(sale)s is "Ana sold 3 cloth for 11 (5 + 3 + 3)"; %(pile)s is "3 cards", "4 cards"…
            sentence = _("%(sale)s; the bonus pile for %(pile)s was empty", sale=sentence,
                         pile=_(BONUS_PILE_LABELS[size]))
    sentences = [sentence + "."]
    empty_after = sum(
        1
        for at, left in enumerate(state.round.goods_left)
        if not (left[cards:] if at == index else left)
    )
    if empty_after >= EMPTY_STACKS_TO_END:
        sentences.append(ngettext("%(num)d goods stack is empty: round %(round)d is over.",
                                  "%(num)d goods stacks are empty: round %(round)d is over.",
                                  EMPTY_STACKS_TO_END, round=state.round.number))
    return " ".join(sentences)


def _camels(state: JaipurState, event) -> str:
    require_phase(state, COUNTING_CAMELS)
    counts = event.get("counts")
    if (
        not isinstance(counts, (list, tuple))
        or len(counts) != 2
        or not all(is_int(n) for n in counts)
    ):
        raise RuleError("unreadable camel counts")
    players = state.players
    result = round_result(players, state.round.sales, (counts[0], counts[1]))
    herds = dict(first=players[0], first_camels=counts[0], second=players[1], second_camels=counts[1])
    if result.camel_token_to is None:
        sentences = [_("Camels: %(first)s %(first_camels)d, %(second)s %(second_camels)d, no camel token.",
                       **herds)]
    else:
        sentences = [_("Camels: %(first)s %(first_camels)d, %(second)s %(second_camels)d, "
                       "the camel token to %(owner)s.", owner=players[result.camel_token_to], **herds)]
    if result.winner is None:
        sentences.append(result.explanation + ".")
    else:
        seals = state.seals[result.winner] + 1
        # Translators: %(result)s is how the round was won, "Ben wins 66 to 64"; its winner takes the seal.
        sentences.append(_(
            "%(result)s and takes a seal (%(seals)d of %(needed)d).",
            result=result.explanation, seals=seals, needed=SEALS_TO_WIN,
        ))
        if seals >= SEALS_TO_WIN:
            sentences.append(_("%(name)s wins the match.", name=players[result.winner]))
    return " ".join(sentences)


def _next_round(state: JaipurState) -> str:
    starter = next_starter(state)
    if starter is None:
        raise RuleError("no next round")
    return _("Round %(round)d began; %(name)s starts.", round=state.round.number + 1, name=state.players[starter])
