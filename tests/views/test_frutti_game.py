"""A whole four-player game of Frutti di Mare played through the table page's forms, money checked by hand."""

from __future__ import annotations

import html
import re

import sqlalchemy as sa

from companion.extensions import db
from companion.models import Table
from companion.rules import frutti
from helpers import make_table

HTMX = {"HX-Request": "true"}
PLAYERS = ["Ana", "Ben", "Cy", "Dan"]


class Reversing:
    """A stand-in for the app's shuffle whose result the hand calculation can know: the seafood reversed."""

    def shuffle(self, items):
        items.reverse()


def page_of(client, token) -> str:
    return html.unescape(client.get(f"/t/{token}").text)


def fresh(text: str, action: str) -> dict:
    """The hidden fields of the form posting to ``action`` on the page, as a phone would send them."""
    form = re.search(rf'<form[^>]*action="[^"]*/frutti/{action}"(.*?)</form>', text, re.S).group(1)
    return dict(re.findall(r'<input type="hidden" name="(key|seen|player)" value="([^"]*)"', form))


def tap(client, token, player, seafood, htmx=False):
    """``player``'s turn is shown on the shared phone; tap the seafood button."""
    text = page_of(client, token)
    assert f"Waiting for {player}" in text
    response = client.post(f"/t/{token}/frutti/play", data={**fresh(text, "play"), "seafood": seafood},
                           headers=HTMX if htmx else {})
    assert response.status_code == (200 if htmx else 303)


def suspend(client, token, player, **hand):
    text = page_of(client, token)
    assert f"Waiting for {player}" in text and f"{player}&#39;s remaining hand" not in text
    data = {**fresh(text, "suspend")} | {f"hand-{i}": hand.get(s, "") for i, s in enumerate(frutti.SEAFOOD)}
    assert client.post(f"/t/{token}/frutti/suspend", data=data).status_code == 303


def dishes(client, token, **data):
    text = page_of(client, token)
    return client.post(f"/t/{token}/frutti/dishes", data={**fresh(text, "dishes"), **data})


def track_words(text: str) -> list[str]:
    """The dishes under the stalls, left to right, as the board shows them."""
    return re.findall(r'<span class="dish-name">([^<]+)</span>', text)


def test_four_players_play_three_rounds_through_the_forms_and_the_money_matches_the_hand_count(app, client, monkeypatch):
    token = make_table(app, "frutti", PLAYERS, {"first_player": 0})

    # Round 1, Ana starts. The dishes as laid out: shrimp 0, oysters 10, mussels 20, octopus 30, sea urchins 50.
    response = dishes(client, token, how="table", **{f"order-{i}": s for i, s in enumerate(
        ["shrimp", "oysters", "mussels", "octopus", "sea_urchins"])})
    assert response.status_code == 303
    tap(client, token, "Ana", "octopus")           # octopus 30 → 50, sea urchins 50 → 30
    assert "Octopus 30 → 50, sea urchins 50 → 30" in page_of(client, token)
    tap(client, token, "Ben", "octopus", htmx=True)  # under 50: octopus to 0, everyone else one right
    assert track_words(page_of(client, token)) == ["octopus", "shrimp", "oysters", "mussels", "sea urchins"]
    tap(client, token, "Cy", "mussels")            # mussels 30 → 50, sea urchins 50 → 30
    suspend(client, token, "Dan", shrimp=3, sea_urchins=2, oysters=2)
    tap(client, token, "Ana", "shrimp")            # shrimp 10 → 20, oysters 20 → 10
    suspend(client, token, "Ben", mussels=3, oysters=3)
    suspend(client, token, "Cy", octopus=4, sea_urchins=2)
    tap(client, token, "Ana", "mussels")           # Ben, Cy and Dan are skipped; mussels 50 → 0
    suspend(client, token, "Ana", sea_urchins=2, shrimp=2)
    # Final prices: mussels 0, octopus 10, oysters 20, shrimp 30, sea urchins 50.
    #   Ana: 1 octopus × 10 + 3 shrimp × 30 + 1 mussel × 0 + 2 sea urchins × 50 = 200
    #   Ben: 1 octopus × 10 + 3 oysters × 20 + 3 mussels × 0 = 70
    #   Cy:  1 mussel × 0 + 2 sea urchins × 50 + 4 octopuses × 10 = 140
    #   Dan: 3 shrimp × 30 + 2 sea urchins × 50 + 2 oysters × 20 = 230
    text = page_of(client, token)
    assert "Round 1 is over" in text and "Start round 2" in text
    for words in ["1 octopus × 10 + 3 shrimp × 30 + 1 mussel × 0 + 2 sea urchins × 50 = 200",
                  "1 octopus × 10 + 3 oysters × 20 + 3 mussels × 0 = 70",
                  "1 mussel × 0 + 2 sea urchins × 50 + 4 octopuses × 10 = 140",
                  "3 shrimp × 30 + 2 sea urchins × 50 + 2 oysters × 20 = 230"]:
        assert words in text
    assert scoreboard(text) == [200, 70, 140, 230]

    # Round 2, Ben starts; the dishes stay as they are. Everyone always plays the dish under 50,
    # so the track turns one stall right with each of the 28 cards: sea urchins, shrimp, oysters,
    # octopus, mussels, sea urchins, … and ends 3 turns on: oysters 0, shrimp 10, sea urchins 20,
    # mussels 30, octopus 50.
    text = page_of(client, token)
    assert "Ben starts round 2." in text
    assert client.post(f"/t/{token}/frutti/next-round", data=fresh(text, "next-round")).status_code == 303
    text = page_of(client, token)
    assert "Dishes for round 2" in text and "Keep the current order" in text
    assert dishes(client, token, how="keep").status_code == 303
    cycle = ["sea_urchins", "shrimp", "oysters", "octopus", "mussels"]
    for k in range(28):
        tap(client, token, ["Ben", "Cy", "Dan", "Ana"][k % 4], cycle[k % 5], htmx=k % 2 == 1)
    #   Ben: 2 sea urchins × 20 + 2 mussels × 30 + 1 octopus × 50 + 1 oyster × 0 + 1 shrimp × 10 = 160
    #   Cy:  2 shrimp × 10 + 2 sea urchins × 20 + 1 mussel × 30 + 1 octopus × 50 + 1 oyster × 0 = 140
    #   Dan: 2 oysters × 0 + 2 shrimp × 10 + 1 sea urchin × 20 + 1 mussel × 30 + 1 octopus × 50 = 120
    #   Ana: 2 octopuses × 50 + 2 oysters × 0 + 1 shrimp × 10 + 1 sea urchin × 20 + 1 mussel × 30 = 160
    text = page_of(client, token)
    assert track_words(text) == ["oysters", "shrimp", "sea urchins", "mussels", "octopus"]
    assert "Round 2 is over" in text
    assert "2 sea urchins × 20 + 2 mussels × 30 + 1 octopus × 50 + 1 oyster × 0 + 1 shrimp × 10 = 160" in text
    assert "2 octopuses × 50 + 2 oysters × 0 + 1 shrimp × 10 + 1 sea urchin × 20 + 1 mussel × 30 = 160" in text
    assert scoreboard(text) == [200 + 160, 70 + 160, 140 + 140, 230 + 120]

    # Round 3, Cy starts; the app shuffles (here: the seafood reversed):
    # mussels 0, octopus 10, oysters 20, sea urchins 30, shrimp 50.
    assert client.post(f"/t/{token}/frutti/next-round", data=fresh(text, "next-round"), headers=HTMX).status_code == 200
    monkeypatch.setattr(frutti.secrets, "SystemRandom", Reversing)
    assert dishes(client, token, how="shuffle").status_code == 303
    assert track_words(page_of(client, token)) == ["mussels", "octopus", "oysters", "sea urchins", "shrimp"]
    tap(client, token, "Cy", "shrimp")    # 50 → 0: shrimp, mussels, octopus, oysters, sea urchins
    tap(client, token, "Dan", "shrimp")   # 0 → 10
    tap(client, token, "Ana", "shrimp")   # 10 → 20
    tap(client, token, "Ben", "shrimp")   # 20 → 30: mussels, octopus, oysters, shrimp, sea urchins
    suspend(client, token, "Cy", octopus=6)
    tap(client, token, "Dan", "sea_urchins")  # 50 → 0: sea urchins, mussels, octopus, oysters, shrimp
    tap(client, token, "Ana", "sea_urchins")  # 0 → 10: mussels, sea urchins, octopus, oysters, shrimp
    suspend(client, token, "Ben", mussels=3, oysters=3)
    suspend(client, token, "Dan", oysters=5)
    suspend(client, token, "Ana", mussels=5)
    # Final prices: mussels 0, sea urchins 10, octopus 20, oysters 30, shrimp 50.
    #   Cy:  1 shrimp × 50 + 6 octopuses × 20 = 170
    #   Dan: 1 shrimp × 50 + 1 sea urchin × 10 + 5 oysters × 30 = 210
    #   Ana: 1 shrimp × 50 + 1 sea urchin × 10 + 5 mussels × 0 = 60
    #   Ben: 1 shrimp × 50 + 3 oysters × 30 + 3 mussels × 0 = 140
    text = page_of(client, token)
    for words in ["1 shrimp × 50 + 6 octopuses × 20 = 170", "1 shrimp × 50 + 1 sea urchin × 10 + 5 oysters × 30 = 210",
                  "1 shrimp × 50 + 1 sea urchin × 10 + 5 mussels × 0 = 60",
                  "1 shrimp × 50 + 3 oysters × 30 + 3 mussels × 0 = 140"]:
        assert words in text

    # Totals: Ana 200 + 160 + 60 = 420, Ben 70 + 160 + 140 = 370, Cy 140 + 140 + 170 = 450, Dan 230 + 120 + 210 = 560.
    assert scoreboard(text) == [420, 370, 450, 560]
    assert "Dan wins with 560!" in text and "The game is over" in text
    assert re.findall(r'<span class="rank">(\d)\.</span>\s*<span class="name">(\w+)</span>', text) == [
        ("1", "Dan"), ("2", "Cy"), ("3", "Ana"), ("4", "Ben")]
    assert 'name="seafood"' not in text and "Start round" not in text
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        assert table.finished and table.finished_at is not None


def scoreboard(text: str) -> list[int]:
    return [int(n) for n in re.findall(r'<span class="points">(-?\d+)</span>', text)]
