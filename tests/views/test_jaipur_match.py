"""A whole Jaipur match played through the page, each round total checked against a hand count."""

from __future__ import annotations

import random
import re

import sqlalchemy as sa

from companion.extensions import db
from companion.models import Table
from companion.views import jaipur as jaipur_views
from helpers import answered, make_table
from views.test_jaipur_views import HTMX, confirm_data, post, preview, sit, text_of

ANA, BEN = 0, 1
NAMES = ("Ana", "Ben")

# The published token stacks, top first, and the bonus piles' sizes: what a hand count starts from.
STACKS = {
    "diamonds": [7, 7, 5, 5, 5], "gold": [6, 6, 5, 5, 5], "silver": [5, 5, 5, 5, 5],
    "cloth": [5, 3, 3, 2, 2, 1, 1], "spice": [5, 3, 3, 2, 2, 1, 1], "leather": [4, 3, 2, 1, 1, 1, 1, 1, 1],
}
PILES = {3: 7, 4: 6, 5: 5}

# Three kinds of round: the first ends by itself at the third empty stack, the others are declared
# over. Ana takes the first, Ben the second: the third decides the match.
ROUNDS = [
    ([(ANA, "diamonds", 3), (BEN, "cloth", 4), (ANA, "leather", 5), (BEN, "diamonds", 2),
      (ANA, "spice", 2), (BEN, "cloth", 3), (ANA, "leather", 5)], None, (4, 2)),
    ([(BEN, "gold", 3), (ANA, "silver", 2), (BEN, "spice", 3), (ANA, "cloth", 1),
      (BEN, "leather", 3), (BEN, "diamonds", 2)], "end-round", (3, 5)),
    ([(ANA, "cloth", 5), (BEN, "silver", 2), (ANA, "diamonds", 4), (BEN, "leather", 2),
      (BEN, "spice", 6)], "end-round", (0, 0)),
]


class HandCount:
    """The tokens in front of each player, counted the way players would at the table."""

    def __init__(self) -> None:
        self.stacks = {good: list(values) for good, values in STACKS.items()}
        self.piles = dict(PILES)
        self.goods = ([], [])
        self.bonus = ([], [])

    def sale(self, player: int, good: str, cards: int) -> bool:
        """Take the tokens; whether a bonus token comes with them."""
        stack = self.stacks[good]
        self.goods[player].extend(stack[:cards])
        del stack[:cards]
        pile = min(cards, 5)
        if cards >= 3 and self.piles[pile]:
            self.piles[pile] -= 1
            return True
        return False

    def totals(self, camels: tuple[int, int]) -> tuple[int, int]:
        camel = [5 if camels[seat] > camels[1 - seat] else 0 for seat in (ANA, BEN)]
        return tuple(sum(self.goods[seat]) + sum(self.bonus[seat]) + camel[seat] for seat in (ANA, BEN))

    def empty_stacks(self) -> int:
        return sum(1 for stack in self.stacks.values() if not stack)


def result_section(html: str) -> str:
    start = html.index('id="result-heading"')
    return html[start:html.index("</section>", start)]


def test_a_full_match_with_the_app_as_the_only_token_bank(app, monkeypatch):
    rng = random.Random(20240607)
    monkeypatch.setattr(jaipur_views, "bonus_rng", lambda: rng)
    token = make_table(app, "jaipur", list(NAMES), {"bonus": "draw", "first_player": ANA})
    phones = (app.test_client(), app.test_client())
    sit(phones[ANA], token, ANA)
    sit(phones[BEN], token, BEN)
    # Ana's phone uses htmx, Ben's has no JavaScript: both must work.
    headers = (HTMX, {})
    with app.app_context():
        watch_token = db.session.scalar(sa.select(Table.watch_token).where(Table.token == token))

    seals = [0, 0]
    starter = ANA
    number = 0
    while max(seals) < 2:
        sales, ending, camels = ROUNDS[number % len(ROUNDS)]
        number += 1
        hand = HandCount()
        page = phones[ANA].get(f"/t/{token}").text
        assert f"Round {number} · {NAMES[starter]} started it" in text_of(page)
        for player, good, cards in sales:
            phone = phones[player]
            shown = preview(phone, token, player, good, cards)
            words = text_of(shown.text)
            expected = hand.stacks[good][:cards]
            assert "Takes " + " ".join(map(str, expected)) + f" = {sum(expected)}" in words
            recorded = phone.post(f"/t/{token}/jaipur/sale", data=confirm_data(shown.text), headers=headers[player])
            assert recorded.status_code == (200 if player == ANA else 303)
            seller_view = recorded.text if player == ANA else phone.get(f"/t/{token}").text
            with_bonus = hand.sale(player, good, cards)
            revealed = re.findall(r'class="bonus-value">(\d+)<', seller_view)
            if with_bonus:
                # The seller alone learns the value; the other phone and the watch view do not.
                assert len(revealed) == 1
                hand.bonus[player].append(int(revealed[0]))
                assert "bonus-value" not in phones[1 - player].get(f"/t/{token}").text
                assert "bonus-value" not in phone.get(f"/w/{watch_token}").text
            else:
                assert revealed == []

        if ending is None:
            assert hand.empty_stacks() == 3
            assert "three goods stacks are empty" in text_of(phones[BEN].get(f"/t/{token}").text)
        else:
            assert post(phones[BEN], token, ending).status_code == 303
        scored = post(phones[ANA], token, "camels", headers=HTMX,
                      camels_0=str(camels[ANA]), camels_1=str(camels[BEN]))
        assert scored.status_code == 200

        section = result_section(phones[BEN].get(f"/t/{token}").text)
        shown_totals = tuple(int(t) for t in re.findall(r"Round total</dt>\s*<dd><strong>(\d+)</strong>", section))
        counted = hand.totals(camels)
        assert shown_totals == counted, (number, hand.goods, hand.bonus)
        if counted[ANA] != counted[BEN]:
            winner = ANA if counted[ANA] > counted[BEN] else BEN
            assert f"{NAMES[winner]} wins {counted[winner]} to {counted[1 - winner]}." in text_of(section)
        else:
            # Equal points: the page says which count decided it.
            assert f"Equal at {counted[ANA]}" in text_of(section)
            winner = None if "Drawn round" in section else (ANA if "Ana wins" in section else BEN)
        if winner is not None:
            seals[winner] += 1
            assert f"{NAMES[winner]} takes a seal." in text_of(section)
            starter = 1 - winner
        else:
            starter = 1 - starter
        scoreboard = re.findall(r'<span class="points">(\d+) <small class="unit">seals?</small></span>', phones[ANA].get(f"/t/{token}").text)
        assert [int(s) for s in scoreboard] == seals
        if max(seals) < 2:
            assert f"{NAMES[starter]} starts round {number + 1}" in text_of(section)
            assert post(phones[starter], token, "next-round").status_code == 303
        assert number < 8

    assert number == 3
    champion = seals.index(2)
    final = phones[1 - champion].get(f"/t/{token}").text
    assert f"{NAMES[champion]} wins the match!" in final
    assert "<mark>finished</mark>" in final and 'id="sale-form"' not in final
    assert "The match is over." in text_of(final)
    assert f"{NAMES[champion]} wins the match!" in phones[ANA].get(f"/w/{watch_token}").text
    with app.app_context():
        assert db.session.scalar(sa.select(Table.status).where(Table.token == token)) == "finished"
    # Every round is listed with its result.
    assert len(re.findall(r"<summary><strong>Round \d+</strong>", final)) == number
    refused = answered(phones[ANA], post(phones[ANA], token, "next-round"), token, "next-round-form")
    assert "This game is finished" in refused.text
