"""One move entered on two phones is recorded once, in every game (docs/events.md, "Recorded once").

Two phones show the same table (the same entry number in every form's
``seen``) and both send the same move, each with a key of its own: the
first is recorded, the second is refused with what was recorded, the table
unchanged, and the rest of its answer is the new table. A different move
that is still allowed is recorded whatever came in between; a form without
``seen`` (an old page, a script) is taken as before.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

import pytest
import sqlalchemy as sa

from companion.table import log as table_log, recording
from companion.table import state as table_state
from companion.extensions import db
from companion.models import Entry, Table
from helpers import answered, form_key, make_table

HTMX = {"HX-Request": "true"}
ANA, BEN, PIA = 0, 1, 2
PAD = "pad"  # the answer of a phone that keeps the pad for everyone: it plays every player's cards
CARAMBOUILLE = ["Ana", "Ben", "Pia"]
LAYOUT = ["shrimp", "oysters", "mussels", "octopus", "sea_urchins"]

# Scenes, recorded straight through the log: Carambouille with Pia as First Trader.
MARKET_OPEN = [{"type": "market_opened"}]
SALES = MARKET_OPEN + [{"type": "market_closed"}]  # Pia's sales turn
PIA_HOLDS = SALES + [{"type": "sale", "player": PIA, "product": "saffron", "cards": 1},
                     {"type": "buy", "player": PIA, "cards": ["i_lied", "persuasion"]}]
HAND_OVER = SALES + [{"type": "end_sales_turn", "player": seat} for seat in (PIA, ANA, BEN)]
# Hand 2 (Ana deals and rings): the market open, Pia holding “I lied!”, Persuasion and a Basket.
HAND_2_MARKET = SALES + [
    {"type": "sale", "player": PIA, "product": "saffron", "cards": 1},
    {"type": "buy", "player": PIA, "cards": ["i_lied", "persuasion"]},
    {"type": "end_sales_turn", "player": PIA}, {"type": "sale", "player": ANA, "product": "truffles", "cards": 1},
    {"type": "buy", "player": ANA, "cards": ["basket"]}, {"type": "end_sales_turn", "player": ANA},
    {"type": "end_sales_turn", "player": BEN}, {"type": "deal", "cards": [2, 2, 3]}, {"type": "market_opened"}]
# Ana sold saffron and holds a Bargain; Ben's sales turn.
BEN_SELLS = SALES + [{"type": "end_sales_turn", "player": PIA},
                     {"type": "sale", "player": ANA, "product": "saffron", "cards": 1},
                     {"type": "buy", "player": ANA, "cards": ["bargain"]}, {"type": "end_sales_turn", "player": ANA}]


def layout(order=LAYOUT) -> dict:
    return {f"order-{i}": seafood for i, seafood in enumerate(order)}


@dataclass(frozen=True)
class Move:
    """One form sent from two phones: where, what each phone sends, and what the history says of it."""

    game: str
    players: list[str]
    scene: list[dict]
    path: str
    sent: dict
    summary: str
    other: dict | None = None  # what the second phone sends, when it entered the move differently
    options: dict = field(default_factory=dict)
    prefix: str = ""  # the bell's fields are named bell-…
    seats: tuple = (None, None)

    def form(self, data: dict, seen: int | None) -> dict:
        hidden = {"key": form_key()} | ({} if seen is None else {"seen": seen})
        return {f"{self.prefix}{name}": value for name, value in hidden.items()} | data


# Where a refused form sent without htmx sends the phone: the table page at the form (kept_forms.ANCHORS).
ANCHORS = {
    "carambouille/sale": "sale-form", "carambouille/buy": "buy-form", "carambouille/end-turn": "end-turn",
    "carambouille/deal": "deal-form", "carambouille/card": "cards-box", "carambouille/give": "cards-box",
    "carambouille/end": "end-game", "carambouille/on-sale": "on-sale", "bell/open": "bell", "bell/close": "bell", "jaipur/sale": "sale-form",
    "jaipur/end-round": "end-round", "jaipur/camels": "camels-form", "jaipur/next-round": "next-round-form",
    "frutti/dishes": "dishes", "frutti/play": "play-form", "frutti/suspend": "suspend",
    "frutti/next-round": "next-round-form", "frutti/tally": "table-tally",
}
CARAMBOUILLE_OPTIONS = {"first_trader": PIA}
JAIPUR = ["Ana", "Ben"]
FRUTTI = ["Ana", "Ben", "Cy"]
JAIPUR_SELLING = [{"type": "sale", "player": BEN, "good": "cloth", "cards": 1}]
JAIPUR_ENDED = JAIPUR_SELLING + [{"type": "end_round"}]
JAIPUR_SCORED = JAIPUR_ENDED + [{"type": "camels", "counts": [2, 1]}]
FRUTTI_PLAYING = [{"type": "dishes", "order": LAYOUT}]
FRUTTI_ROUND_OVER = [{"type": "tally", "order": LAYOUT, "cards": [{"octopus": 7}, {"mussels": 7}, {"shrimp": 7}]}]


def sale_confirmed(player: int, good: str, cards: int) -> dict:
    """A Jaipur sale as "Record" sends it from its preview."""
    return {"player": player, "good": good, "cards": cards, "previewed": f"{player}:{good}:{cards}", "step": "confirm"}


MOVES = {
    # Carambouille
    "carambouille sale": Move("carambouille", CARAMBOUILLE, SALES, "carambouille/sale",
                              {"player": PIA, "product": "onions", "cards": 2, "step": "confirm"},
                              "Pia sold 2 onions for 25.", options=CARAMBOUILLE_OPTIONS),
    "carambouille sale, the Bargain entered on one phone only": Move(
        "carambouille", CARAMBOUILLE, BEN_SELLS, "carambouille/sale",
        {"player": BEN, "product": "onions", "cards": 2, "step": "confirm"}, "Ben sold 2 onions for 25.",
        other={"player": BEN, "product": "onions", "cards": 2, "step": "confirm", "effects-0": "bargain:0"},
        options=CARAMBOUILLE_OPTIONS, seats=(PAD, PAD)),
    "carambouille sale, the Bargain entered on the first phone only": Move(
        "carambouille", CARAMBOUILLE, BEN_SELLS, "carambouille/sale",
        {"player": BEN, "product": "onions", "cards": 2, "step": "confirm", "effects-0": "bargain:0"},
        "Ben sold 2 onions for 25, Bargain by Ana → 13.",
        other={"player": BEN, "product": "onions", "cards": 2, "step": "confirm"}, options=CARAMBOUILLE_OPTIONS,
        seats=(PAD, PAD)),
    "carambouille a Bargain played on the sale, from Ana's two phones": Move(
        "carambouille", CARAMBOUILLE, BEN_SELLS + [{"type": "sale", "player": BEN, "product": "onions", "cards": 2}],
        "carambouille/on-sale", {"player": ANA, "card": "bargain"},
        "Ana played Bargain on Ben's sale of 2 onions: 25 → 13.", options=CARAMBOUILLE_OPTIONS, seats=(ANA, ANA)),
    "carambouille purchase, another type tapped": Move(
        "carambouille", CARAMBOUILLE, SALES + [{"type": "sale", "player": PIA, "product": "saffron", "cards": 1}],
        "carambouille/buy", {"player": PIA, "cards": 1, "first": "illusion"},
        "Pia bought 1 Carambouille card for 50 points.", other={"player": PIA, "cards": 1, "first": "bargain"},
        options=CARAMBOUILLE_OPTIONS),
    "carambouille turn end": Move("carambouille", CARAMBOUILLE, SALES, "carambouille/end-turn", {"player": PIA},
                                  "Pia ended their sales turn; Ana's turn.", options=CARAMBOUILLE_OPTIONS),
    "carambouille last turn end of the hand": Move(
        "carambouille", CARAMBOUILLE, SALES + [{"type": "end_sales_turn", "player": s} for s in (PIA, ANA)],
        "carambouille/end-turn", {"player": BEN},
        "Ben ended their sales turn: hand 1 is over, the bell passes to Ana.", options=CARAMBOUILLE_OPTIONS),
    "carambouille deal, other hand sizes": Move(
        "carambouille", CARAMBOUILLE, HAND_OVER, "carambouille/deal",
        {"hand_sizes-0": 6, "hand_sizes-1": 6, "hand_sizes-2": 6, "step": "confirm"},
        "Hand 2: Ana dealt 6 cards (Ana 2, Ben 2, Pia 2); 76 left in the stock.",
        other={"hand_sizes-0": 5, "hand_sizes-1": 6, "hand_sizes-2": 6, "step": "confirm"},
        options=CARAMBOUILLE_OPTIONS),
    "carambouille “I lied!”": Move("carambouille", CARAMBOUILLE, HAND_2_MARKET, "carambouille/card",
                                   {"type": "i_lied", "player": PIA}, "Pia played “I lied!”.",
                                   options=CARAMBOUILLE_OPTIONS, seats=(PIA, PIA)),
    "carambouille Persuasion, another target": Move(
        "carambouille", CARAMBOUILLE, HAND_2_MARKET, "carambouille/card",
        {"type": "persuasion", "player": PIA, "target": ANA}, "Pia played Persuasion on Ana.",
        other={"type": "persuasion", "player": PIA, "target": BEN}, options=CARAMBOUILLE_OPTIONS, seats=(PIA, PAD)),
    "carambouille card given": Move("carambouille", CARAMBOUILLE, HAND_2_MARKET, "carambouille/give",
                                    {"player": PIA, "to": BEN, "card": "persuasion"},
                                    "Pia gave a Carambouille card to Ben.", options=CARAMBOUILLE_OPTIONS,
                                    seats=(PAD, PIA)),
    "carambouille Basket": Move("carambouille", CARAMBOUILLE, HAND_2_MARKET, "carambouille/card",
                                {"type": "basket", "player": ANA}, "Ana laid a Basket: hand limit 10.",
                                options=CARAMBOUILLE_OPTIONS, seats=(ANA, PAD)),
    "carambouille end of the game": Move("carambouille", CARAMBOUILLE, SALES, "carambouille/end", {},
                                         "The game is over: Ana, Ben and Pia share the win with 0 points.",
                                         options=CARAMBOUILLE_OPTIONS),
    "carambouille market opened, by the First Trader and in a pinch": Move(
        "carambouille", CARAMBOUILLE, [], "bell/open", {"bell-mode": "hand"},
        "Hand 1: Pia rang the bell: the market is open.", prefix="bell-", seats=(PIA, ANA),
        options=CARAMBOUILLE_OPTIONS),
    "carambouille market closed": Move("carambouille", CARAMBOUILLE, MARKET_OPEN, "bell/close", {},
                                       "Ding-a-Ding! The market closed after", prefix="bell-",
                                       seats=(PIA, BEN), options=CARAMBOUILLE_OPTIONS),
    # Jaipur
    "jaipur sale, the bonus drawn": Move("jaipur", JAIPUR, [], "jaipur/sale", sale_confirmed(ANA, "spice", 3),
                                         "Ana sold 3 spice for 11 (5 + 3 + 3) and a bonus token (1–3)."),
    "jaipur sale, another count entered": Move("jaipur", JAIPUR, [], "jaipur/sale", sale_confirmed(ANA, "spice", 3),
                                               "Ana sold 3 spice for 11 (5 + 3 + 3) and a bonus token (1–3).",
                                               other=sale_confirmed(ANA, "spice", 2)),
    "jaipur end of the round": Move("jaipur", JAIPUR, JAIPUR_SELLING, "jaipur/end-round", {},
                                    "Round 1 ended: the market could not be refilled."),
    "jaipur camels, other counts": Move("jaipur", JAIPUR, JAIPUR_ENDED, "jaipur/camels",
                                        {"camels_0": 4, "camels_1": 2},
                                        "Camels: Ana 4, Ben 2, the camel token to Ana.",
                                        other={"camels_0": 4, "camels_1": 3}),
    "jaipur next round": Move("jaipur", JAIPUR, JAIPUR_SCORED, "jaipur/next-round", {},
                              "Round 2 began; Ana starts."),
    "jaipur table timer started": Move("jaipur", JAIPUR, [], "bell/open", {"bell-mode": "hand"},
                                       "Ana rang the bell: the table timer is running. "
                                       "The timer closes when the bell rings again.",
                                       prefix="bell-", seats=(ANA, BEN)),
    # Frutti di Mare
    "frutti dishes, shuffled and laid out": Move("frutti", FRUTTI, [], "frutti/dishes", {"how": "shuffle"},
                                                 "Round 1 dishes:",
                                                 other={"how": "table"} | layout()),
    "frutti card played": Move("frutti", FRUTTI, FRUTTI_PLAYING, "frutti/play", {"player": 0, "seafood": "octopus"},
                               "Ana played octopus: Octopus 30 → 50, sea urchins 50 → 30."),
    "frutti suspended, another hand counted": Move(
        "frutti", FRUTTI, FRUTTI_PLAYING, "frutti/suspend",
        {"player": 0, "hand-0": 3, "hand-1": 4}, "Ana suspended selling, laying down 3 shrimp, 4 sea urchins.",
        other={"player": 0, "hand-0": 4, "hand-1": 3}),
    "frutti next round": Move("frutti", FRUTTI, FRUTTI_ROUND_OVER, "frutti/next-round", {},
                              "Round 2 starts with Ben."),
    "frutti tallied round": Move("frutti", FRUTTI, [], "frutti/tally",
                                 layout() | {"cards-0-octopus": 7, "cards-1-mussels": 7, "cards-2-shrimp": 7},
                                 "Round 1 entered at once: Ana 210, Ben 140, Cy 0."),
}


# --- helpers ---------------------------------------------------------------------

def table_row(app, token: str) -> Table:
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        db.session.expunge(table)
        return table


def state_of(app, token: str):
    with app.app_context():
        return table_state.state_of(db.session.scalar(sa.select(Table).where(Table.token == token)))


def log(app, token: str) -> list[Entry]:
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        rows = table_log.entries_of(table)
        db.session.expunge_all()
        return rows


def set_scene(app, move: Move) -> str:
    token = make_table(app, move.game, move.players, move.options)
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        for event in move.scene:
            recording.record(table, event)
    return token


def phone(app, token: str, seat: int | str | None):
    """A phone set to its player (or the pad for everyone), as "Who are you?" leaves it (without noting the
    seat in the log)."""
    client = app.test_client()
    if seat is not None:
        with client.session_transaction() as session:
            session["seats"] = {token: seat}
    return client


def words(response) -> str:
    """The answer as a player reads it: tags dropped, entities decoded, spaces squeezed."""
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.text)).split())
    return re.sub(r" ([,.;:!?)])", r"\1", text)


def refusal(summary: str, where: str = "another phone") -> str:
    return f"Already recorded from {where}: “{summary}"


# --- the same move from two phones ---------------------------------------------------

@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize("name", list(MOVES))
def test_the_same_move_from_two_phones_is_recorded_once(app, name, htmx):
    move = MOVES[name]
    token = set_scene(app, move)
    seen = table_row(app, token).last_seq
    first_phone, second_phone = (phone(app, token, seat) for seat in move.seats)
    headers = HTMX if htmx else {}
    url = f"/t/{token}/{move.path}"

    first = first_phone.post(url, data=move.form(move.sent, seen), headers=headers)
    assert first.status_code == (200 if htmx else 303), words(first)[:2000]
    [recorded] = log(app, token)[seen:]
    assert recorded.summary.startswith(move.summary)
    after_first = state_of(app, token)

    sent = second_phone.post(url, data=move.form(move.other or move.sent, seen), headers=headers)
    # Without htmx, the answer is the table page at the form, shown to the second phone.
    second = answered(second_phone, sent, token, ANCHORS[move.path], htmx=htmx)
    assert refusal(recorded.summary) + "” It counts once." in words(second)
    assert words(second).count("Already recorded") == 1
    # Nothing written, nothing changed; the answer is the new table.
    assert len(log(app, token)) == seen + 1 and table_row(app, token).last_seq == seen + 1
    assert state_of(app, token) == after_first
    assert f'data-seen="{seen + 1}"' in second.text
    assert recorded.summary in words(second).replace(refusal(recorded.summary), "")


def test_the_refused_form_comes_back_fresh_so_a_second_tap_records_nothing(app):
    move = MOVES["carambouille sale"]
    token = set_scene(app, move)
    seen = table_row(app, token).last_seq
    sent = move.form(move.sent, seen)
    assert phone(app, token, None).post(f"/t/{token}/{move.path}", data=move.form(move.sent, seen)).status_code == 303
    second = phone(app, token, None)
    refused = second.post(f"/t/{token}/{move.path}", data=sent, headers=HTMX)
    form = refused.text[refused.text.index('id="sale-form"'):]
    form = form[:form.index("</form>")]
    assert refusal("Pia sold 2 onions for 25.") in words(refused)
    # The sale form as the new table has it: blank, a new key, the new entry number.
    assert "selected" not in form and sent["key"] not in form and f'name="seen" value="{seen + 1}"' in form
    # The same form sent again (a second tap before the answer came) is refused again.
    assert refusal("Pia sold 2 onions for 25.") in words(second.post(f"/t/{token}/{move.path}", data=sent | {
        "key": form_key()}, headers=HTMX))
    assert len(log(app, token)) == seen + 1


def test_two_forms_of_one_phone_say_this_phone(app):
    move = MOVES["carambouille turn end"]
    token = set_scene(app, move)
    seen = table_row(app, token).last_seq
    client = phone(app, token, PIA)
    assert client.post(f"/t/{token}/{move.path}", data=move.form(move.sent, seen)).status_code == 303
    again = client.post(f"/t/{token}/{move.path}", data=move.form(move.sent, seen), headers=HTMX)
    assert refusal("Pia ended their sales turn; Ana's turn.", "this phone") in words(again)
    assert len(log(app, token)) == seen + 1


def test_the_house_memo_changed_on_two_phones_at_once_keeps_the_first(app):
    token = make_table(app, "carambouille", CARAMBOUILLE)
    url = f"/t/{token}/memo/edit"
    first_phone, second_phone = phone(app, token, None), phone(app, token, None)
    cells = {name: value for name, value in re.findall(r'name="(m\d+_\d)"[^>]*value="(\d+)"', first_phone.get(url).text)}
    assert len(cells) == 50
    first = first_phone.post(url, data=cells | {"m40_5": "500", "key": form_key(), "seen": 0})
    assert first.status_code == 303
    second = second_phone.post(url, data=cells | {"m40_5": "600", "key": form_key(), "seen": 0})
    assert second.status_code == 422
    assert refusal("House memo changed: 5 cards of 40 now 500 (was 480); sales from now on use it.") in words(second)
    # The memo page shows the memo as it now is, not the one sent.
    assert re.search(r'name="m40_5"[^>]*value="500"', second.text)
    assert [row.type for row in log(app, token)] == ["house_memo"]


def test_the_same_entry_undone_on_two_phones_is_undone_once(app):
    move = MOVES["carambouille sale"]
    token = set_scene(app, move)
    with app.app_context():
        recording.record(db.session.scalar(sa.select(Table).where(Table.token == token)), move.scene[0] | {
            "type": "sale", "player": PIA, "product": "onions", "cards": 2})
    seen = table_row(app, token).last_seq
    undo = {"entry": seen, "seen": seen}
    first = phone(app, token, None).post(f"/t/{token}/undo", data=undo | {"key": form_key()}, headers=HTMX)
    assert first.status_code == 200
    second = phone(app, token, None).post(f"/t/{token}/undo", data=undo | {"key": form_key()}, headers=HTMX)
    assert refusal("Undid entry 3: Pia sold 2 onions for 25.") in words(second)
    assert [row.type for row in log(app, token)][-2:] == ["sale", "void"]
    assert state_of(app, token).points == (0, 0, 0)


def test_the_table_timer_stopped_on_two_phones_is_stopped_once(app):
    token = make_table(app, "frutti", FRUTTI)
    assert phone(app, token, ANA).post(f"/t/{token}/bell/open", data={"bell-key": form_key(),
                                                                      "bell-mode": "hand"}).status_code == 303
    seen = table_row(app, token).last_seq
    close = {"bell-seen": seen}
    assert phone(app, token, ANA).post(f"/t/{token}/bell/close", data=close | {"bell-key": form_key()}).status_code == 303
    second = phone(app, token, BEN).post(f"/t/{token}/bell/close", data=close | {"bell-key": form_key()}, headers=HTMX)
    assert refusal("Ding-a-Ding! The table timer stopped after") in words(second)
    assert [row.type for row in log(app, token)] == ["timer_started", "timer_stopped"]


# --- other moves in between are still recorded ------------------------------------------

@pytest.mark.parametrize("game, players, options, scene, first, second", [
    ("carambouille", CARAMBOUILLE, CARAMBOUILLE_OPTIONS, SALES,
     ("carambouille/sale", {"player": PIA, "product": "onions", "cards": 2, "step": "confirm"}),
     ("carambouille/sale", {"player": PIA, "product": "garlic", "cards": 2, "step": "confirm"})),
    ("carambouille", CARAMBOUILLE, CARAMBOUILLE_OPTIONS, SALES,
     ("carambouille/sale", {"player": PIA, "product": "onions", "cards": 2, "step": "confirm"}),
     ("carambouille/end-turn", {"player": PIA})),
    ("carambouille", CARAMBOUILLE, CARAMBOUILLE_OPTIONS, HAND_2_MARKET,
     ("carambouille/card", {"type": "i_lied", "player": PIA}),
     ("carambouille/card", {"type": "basket", "player": ANA})),
    ("jaipur", JAIPUR, {}, JAIPUR_SELLING,
     ("jaipur/sale", sale_confirmed(ANA, "spice", 2)), ("jaipur/end-round", {})),
    ("frutti", FRUTTI, {}, FRUTTI_PLAYING,
     ("frutti/play", {"player": 0, "seafood": "octopus"}), ("frutti/play", {"player": 1, "seafood": "octopus"})),
], ids=["carambouille another sale", "carambouille the turn ended after a sale", "carambouille a Basket",
        "jaipur the round ended after a sale", "frutti the next player's card"])
def test_a_different_move_sent_on_an_older_table_is_still_recorded(app, game, players, options, scene, first, second):
    move = Move(game, players, scene, "", {}, "", options=options)
    token = set_scene(app, move)
    seen = table_row(app, token).last_seq
    for path, data in (first, second):
        answer = phone(app, token, PAD).post(f"/t/{token}/{path}", data=move.form(data, seen))
        assert answer.status_code == 303, words(answer)[:2000]
    assert len(log(app, token)) == seen + 2


def test_another_entry_undone_on_an_older_table_is_still_undone(app):
    move = MOVES["carambouille sale"]
    token = set_scene(app, move)
    with app.app_context():
        table = db.session.scalar(sa.select(Table).where(Table.token == token))
        recording.record(table, {"type": "sale", "player": PIA, "product": "onions", "cards": 2})
        recording.record(table, {"type": "sale", "player": PIA, "product": "garlic", "cards": 1})
    seen = table_row(app, token).last_seq
    for target in (seen, seen - 1):
        answer = phone(app, token, None).post(f"/t/{token}/undo", data={"entry": target, "seen": seen,
                                                                         "key": form_key()})
        assert answer.status_code == 303
    assert state_of(app, token).points == (0, 0, 0) and [row.type for row in log(app, token)][-2:] == ["void", "void"]


def test_a_move_taken_back_can_be_entered_again_from_the_older_table(app):
    move = MOVES["carambouille sale"]
    token = set_scene(app, move)
    seen = table_row(app, token).last_seq
    url = f"/t/{token}/{move.path}"
    assert phone(app, token, None).post(url, data=move.form(move.sent, seen)).status_code == 303
    assert phone(app, token, None).post(f"/t/{token}/undo", data={"entry": seen + 1, "seen": seen + 1,
                                                                  "key": form_key()}).status_code == 303
    assert phone(app, token, None).post(url, data=move.form(move.sent, seen)).status_code == 303
    assert state_of(app, token).points == (0, 0, 25)


def test_a_move_repeated_on_the_table_it_left_is_recorded(app):
    # Pia may sell onions twice in a turn: the phone that saw the first sale records the second.
    move = MOVES["carambouille sale"]
    token = set_scene(app, move)
    seen = table_row(app, token).last_seq
    url = f"/t/{token}/{move.path}"
    for version in (seen, seen + 1):
        assert phone(app, token, None).post(url, data=move.form(move.sent, version)).status_code == 303
    assert state_of(app, token).points == (0, 0, 50)


@pytest.mark.parametrize("name", ["carambouille sale", "frutti card played"])
def test_forms_without_seen_are_taken_as_before(app, name):
    move = MOVES[name]
    token = set_scene(app, move)
    seen = table_row(app, token).last_seq
    url = f"/t/{token}/{move.path}"
    first = phone(app, token, None).post(url, data=move.form(move.sent, None))
    second = phone(app, token, None).post(url, data=move.form(move.sent, None) | {"seen": ""})
    assert first.status_code == 303
    if move.game == "carambouille":
        # Nothing tells the two apart: two sales of 2 onions, as a phone without `seen` always got.
        assert second.status_code == 303 and len(log(app, token)) == seen + 2
    else:
        # Ana's turn is over: the rules refuse the second card, as they always did (the table page at the form).
        assert second.status_code == 303 and second.headers["Location"] == f"/t/{token}#play-form"
        assert len(log(app, token)) == seen + 1


# --- Jaipur's preview is checked under the table's lock ---------------------------------

def test_a_jaipur_sale_confirmed_on_a_preview_made_stale_is_shown_again(app):
    token = make_table(app, "jaipur", JAIPUR)
    move = Move("jaipur", JAIPUR, [], "jaipur/sale", {}, "")
    url = f"/t/{token}/jaipur/sale"
    assert phone(app, token, None).post(url, data=move.form(sale_confirmed(BEN, "diamonds", 2), 0)).status_code == 303
    again = phone(app, token, None).post(url, data=move.form(sale_confirmed(ANA, "diamonds", 2), 0), headers=HTMX)
    assert "The table changed since this preview: check the tokens again" in words(again)
    assert "Takes 5 5 = 10" in words(again) and len(log(app, token)) == 1
    assert 'name="seen" type="hidden" value="1"' in again.text


def test_a_jaipur_htmx_preview_keeps_the_entry_number_of_the_table_around_it(app):
    token = make_table(app, "jaipur", JAIPUR)
    with app.app_context():
        recording.record(db.session.scalar(sa.select(Table).where(Table.token == token)), JAIPUR_SELLING[0])
    query = {"player": ANA, "good": "spice", "cards": 2, "key": form_key()}
    kept = phone(app, token, None).get(f"/t/{token}/jaipur/sale/preview", query_string=query | {"seen": 0},
                                       headers=HTMX)
    assert 'name="seen" type="hidden" value="0"' in kept.text
    whole = phone(app, token, None).get(f"/t/{token}/jaipur/sale/preview", query_string=query | {"seen": 0})
    assert 'name="seen" type="hidden" value="1"' in whole.text


def test_a_carambouille_htmx_preview_keeps_the_entry_number_of_the_table_around_it(app):
    move = MOVES["carambouille sale"]
    token = set_scene(app, move)
    seen = table_row(app, token).last_seq
    url = f"/t/{token}/carambouille/sale"
    sale = {"player": PIA, "product": "onions", "cards": 2}
    assert phone(app, token, None).post(url, data=move.form(sale | {"step": "confirm"}, seen)).status_code == 303
    # The second phone, held on its form, chooses the same sale after the first was recorded.
    preview = phone(app, token, None).get(url, query_string=sale | {"key": form_key(), "seen": seen}, headers=HTMX)
    assert f'name="seen" value="{seen}"' in preview.text
    refused = phone(app, token, None).post(url, data=move.form(sale | {"step": "confirm"}, seen), headers=HTMX)
    assert refusal("Pia sold 2 onions for 25.") in words(refused) and len(log(app, token)) == seen + 1
