"""A whole game of Carambouille for three players on three phones, through the forms only.

The totals are worked out by hand beside each step, as on a paper pad.
"""

from __future__ import annotations

import re

from helpers import answered, form_key, make_table
from views.test_carambouille_views import ANA, BEN, CY, state, text, text_of


class Phone:
    """One player's phone at the table: a client of its own that says whose phone it is."""

    def __init__(self, app, token: str, seat: int) -> None:
        self.client, self.token = app.test_client(), token
        assert self.client.post(f"/t/{token}/seat", data={"seat": seat}).status_code == 303

    def post(self, path: str, data: dict, htmx: bool = True) -> str:
        response = self.client.post(f"/t/{self.token}/{path}", data={"key": form_key(), **data},
                                    headers={"HX-Request": "true"} if htmx else {})
        assert response.status_code == (200 if htmx else 303), response.text
        assert 'role="alert"' not in response.text, text(response)
        return response.text

    def page(self) -> str:
        return text(self.client.get(f"/t/{self.token}"))

    def ring(self) -> None:
        self.client.post(f"/t/{self.token}/bell/open", data={"bell-key": form_key(), "bell-mode": "hand"})
        self.client.post(f"/t/{self.token}/bell/close", data={"bell-key": form_key()})

    def sell(self, seat: int, product: str, cards: int, *effects, value: int) -> None:
        data = {"player": seat, "product": product, "cards": cards}
        data |= {f"effects-{i}": f"{card}:{by}" for i, (card, by) in enumerate(effects)}
        # The value is shown before confirming (on the table page the preview sends the phone to), then the sale
        # is recorded.
        sent = self.client.post(f"/t/{self.token}/carambouille/sale", data={"key": form_key(), **data,
                                                                            "step": "preview"})
        preview = text(answered(self.client, sent, self.token, "sale-form"))
        shown = "Cancelled: 0 points" if value == 0 else f"earns {value:,}"
        assert shown in preview, preview
        self.post("carambouille/sale", data | {"step": "confirm"})

    def play_on_sale(self, seat: int, card: str, sentence: str) -> None:
        """A sale card played on the sale on the table, from this phone, as the button it shows sends it."""
        assert f'name="card" value="{card}"' in self.client.get(f"/t/{self.token}").text
        assert sentence in text_of(self.post("carambouille/on-sale", {"player": seat, "card": card}))

    def buy(self, seat: int, *drawn: str) -> None:
        data = {"player": seat, "cards": len(drawn), "first": drawn[0]}
        self.post("carambouille/buy", data | ({"second": drawn[1]} if len(drawn) == 2 else {}))

    def done(self, seat: int) -> None:
        self.post("carambouille/end-turn", {"player": seat}, htmx=False)

    def deal(self, sizes: list[int]) -> None:
        self.post("carambouille/deal", {f"hand_sizes-{i}": n for i, n in enumerate(sizes)} | {"step": "confirm"})


def test_a_whole_game_of_three_on_three_phones_matches_the_paper_pad(app):
    token = make_table(app, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": ANA})
    ana, ben, cy = (Phone(app, token, seat) for seat in (ANA, BEN, CY))
    phones = {ANA: ana, BEN: ben, CY: cy}

    # Hand 1, Ana rings. Ana: 3 cheeses 180, buys Illusion + Bargain (-100) = 80.
    ana.ring()
    assert "Your sales turn, Ana" in ana.page() and "Ana's sales turn" in ben.page()
    ana.sell(ANA, "cheese", 3, value=180)
    ana.buy(ANA, "illusion", "bargain")
    ana.done(ANA)
    # Ben: 2 onions 25. Cy: saffron 100, buys an Overstock (-50) = 50.
    ben.sell(BEN, "onions", 2, value=25)
    ben.done(BEN)
    cy.sell(CY, "saffron", 1, value=100)
    cy.buy(CY, "overstock")
    cy.done(CY)
    assert state(app, token).points == (80, 25, 50)

    # Ben is the First Trader now and deals to hands of 3, 4, 5: 3 cards each.
    assert "Ben deals the next hand" in ben.page()
    ben.deal([3, 4, 5])
    assert state(app, token).stock == 82 - 9

    # Hand 2, Ben rings. Ben: 2 tomatoes 50 (75).
    ben.ring()
    ben.sell(BEN, "tomatoes", 2, value=50)
    ben.done(BEN)
    # Cy: 2 hens 150, halved by the Bargain Ana plays on it from her phone: 75 (125).
    cy.sell(CY, "hens", 2, value=150)
    ana.play_on_sale(ANA, "bargain", "Ana played Bargain on Cy's sale of 2 hens: 150 → 75.")
    cy.done(CY)
    # Ana: 2 sausages 100, her Illusion (valued as 3: 180), then Cy's Overstock from his phone: 0, the sausage
    # back in hand, to wait for the next hand; then 2 cheeses plainly: 100 (180).
    ana.sell(ANA, "sausage", 2, value=100)
    ana.play_on_sale(ANA, "illusion", "Ana played Illusion on their sale of 2 sausages: 100 → 180.")
    cy.play_on_sale(CY, "overstock", "Cy played Overstock on Ana's sale of 2 sausages: cancelled (180 → 0), "
                                     "the cards go back to Ana's hand.")
    again = text(ana.client.get(f"/t/{token}/carambouille/sale", query_string={
        "player": ANA, "product": "sausage", "cards": 2}))
    assert "Ana was overstocked on sausages this hand: those cards wait for another sales phase" in again
    assert re.search(r'<option value="sausage"\s+disabled>sausages \(40\) — overstocked: next hand</option>',
                     ana.client.get(f"/t/{token}").text)
    ana.sell(ANA, "cheese", 2, value=100)
    ana.done(ANA)
    assert state(app, token).points == (180, 75, 125)

    # Quiet hands: nobody sells; every hand the new First Trader deals 3 cards to empty hands,
    # 9 a deal, until the 73 cards of the stock are gone: 8 deals of 9, then 1 card.
    deals = 0
    while True:
        dealer = phones[state(app, token).first_trader]
        last = state(app, token).stock <= 9
        page = text(dealer.client.get(f"/t/{token}/carambouille/deal",
                                      query_string={"hand_sizes-0": 0, "hand_sizes-1": 0, "hand_sizes-2": 0}))
        assert ("this will be the last hand" in page) == last
        dealer.deal([0, 0, 0])
        deals += 1
        if state(app, token).last_hand:
            break
        now = state(app, token)
        phones[now.first_trader].ring()
        for k in range(3):
            seat = (now.first_trader + k) % 3
            phones[seat].done(seat)
    assert deals == 9 and state(app, token).stock == 0 and state(app, token).hand == 11

    # The last hand (11): Ben is its First Trader (hands 2, 5, 8, 11). Ben: 5 truffles 1080 (1155).
    # Then Cy, then Ana, who buys a Basket (-50: 130) and lays it.
    assert "last hand" in ben.page()
    ben.ring()
    ben.sell(BEN, "truffles", 5, value=1080)
    ben.done(BEN)
    cy.done(CY)
    ana.buy(ANA, "basket")
    ana.post("carambouille/card", {"type": "basket", "player": ANA})
    ana.done(ANA)
    assert "The last hand is over" in cy.page()
    cy.post("carambouille/end", {})

    # The paper pad: Ana 80, 180, then 180 through the quiet hands, 130 at the end; Ben 25, 75 … 1155; Cy 50, 125.
    final = ana.page()
    assert "Ben wins with 1,155 points!" in final
    assert "1. place Ben 1,155 2. place Ana 130 3. place Cy 125" in final
    pad = ana.client.get(f"/t/{token}/pad").text
    rows = re.findall(r'<tr class="[^"]*">(.*?)</tr>', pad, re.S)
    totals = [re.findall(r'<span class="total">([\d,]+)</span>', row) for row in rows]
    assert len(totals) == 11
    assert totals[0] == ["80", "25", "50"] and totals[1] == ["180", "75", "125"]
    assert all(row == ["180", "75", "125"] for row in totals[2:10])
    assert totals[10] == ["130", "1,155", "125"]
    assert "Biggest sale: Ben, 5 truffles for 1,080 (hand 11)." in final
    finished = ana.client.get(f"/t/{token}").text
    assert "finished" in finished and "/carambouille/sale" not in finished and "/carambouille/buy" not in finished
    # The table page carries the newest hands of the pad; the rest is one tap away.
    live_rows = re.findall(r'<span class="total">([\d,]+)</span>', finished.split('class="pad-box"')[1].split("</details>")[0])
    assert len(live_rows) == 4 * 3 and live_rows[-3:] == ["130", "1,155", "125"]
    assert "Earlier hands are on the full score pad." in finished
