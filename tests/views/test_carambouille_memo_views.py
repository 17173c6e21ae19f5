"""The memo card page, its quick calculator, and a table's house memo."""

from __future__ import annotations

import html
import json
import re

import pytest
import sqlalchemy as sa

from companion.table import recording
from companion.extensions import db
from companion.models import Entry, Table
from helpers import answered, form_key, make_table
from views.test_carambouille_views import HTMX, text


def memo_row(page_html: str, value: int) -> list[str]:
    """The five values of a memo row as shown."""
    row = re.search(rf'<span class="face">{value}</span>.*?</tr>', page_html, re.S).group(0)
    return re.findall(r"<td[^>]*>([\d,]+)", row)


def test_memo_card_names_the_products_and_marks_the_unconfirmed_column(client):
    page = client.get("/memo/carambouille")
    assert page.status_code == 200
    assert memo_row(page.text, 10) == ["10", "25", "45", "75", "120"]
    assert memo_row(page.text, 40) == ["40", "100", "180", "300", "480"]
    assert memo_row(page.text, 100) == ["100", "250", "450", "750", "1,200"]
    words = text(page)
    assert "10 onions, garlic, herbs" in words and "100 saffron" in words
    assert "The 5-card column is not confirmed by the rule text" in words
    assert page.text.count('class="unconfirmed ') == 10 and "5<sup>*</sup>" in page.text


@pytest.mark.parametrize("query, lines, value", [
    ({"product": "cheese", "cards": 3}, ["3 × cheeses = 180"], 180),
    ({"product": "cheese", "cards": 3, "effects-0": "illusion"}, ["3 × cheeses = 180", "Illusion → 300"], 300),
    ({"product": "cheese", "cards": 3, "effects-0": "illusion", "effects-1": "bargain"},
     ["3 × cheeses = 180", "Illusion → 300", "Bargain → 150"], 150),
    ({"product": "cheese", "cards": 3, "effects-0": "illusion", "effects-1": "bargain", "effects-2": "overstock"},
     ["3 × cheeses = 180", "Illusion → 300", "Bargain → 150", "Overstock → cancelled, 0"], 0),
    ({"product": "onions", "cards": 2}, ["2 × onions = 25"], 25),
    ({"product": "lemons", "cards": 1, "effects-0": "bargain", "effects-1": "bargain"},
     ["1 × lemon = 30", "Bargain → 15", "Bargain → 8"], 8),
])
def test_calculator_without_javascript_shows_the_arithmetic(client, query, lines, value):
    page = client.get("/memo/carambouille", query_string=query)
    assert page.status_code == 200
    assert re.findall(r"<li>([^<]+)</li>", page.text.split('class="calc-result"')[1])[:len(lines)] == lines
    assert f"= {value} points" in text(page)
    assert "<html" in page.text


def test_calculator_with_htmx_answers_only_its_section(client):
    response = client.get("/memo/carambouille", headers=HTMX, query_string={"product": "saffron", "cards": 4})
    assert response.status_code == 200 and "HX-Request" in response.headers["Vary"]
    assert response.text.lstrip().startswith('<section id="calculator"') and "<html" not in response.text
    assert "4 × saffron = 750" in response.text
    # The cards' buttons show the memo values of the product chosen; the 5-card one is marked as not confirmed.
    assert '<small class="v">750</small>' in response.text
    assert ('<small class="v unconfirmed">1,200<sup class="ruling-mark" aria-hidden="true">*</sup>'
            '<span class="vh"> (not confirmed by the rule text)</span></small>') in response.text


def test_the_calculator_flags_a_value_on_the_5_card_column(client):
    response = client.get("/memo/carambouille", headers=HTMX,
                          query_string={"product": "cheese", "cards": 4, "effects-0": "illusion"})
    assert '<li>4 × cheeses = 300</li><li class="unconfirmed">Illusion → 480<sup class="ruling-mark"' in response.text
    assert "= 480 * (not confirmed by the rule text) points" in text(response)
    assert "5 cards: not confirmed by the rule text" in text(response)


@pytest.mark.parametrize("query, message", [
    ({"product": "cheese", "cards": 5, "effects-0": "illusion"}, "Illusion cannot value a sale past 5 cards."),
    ({"product": "cheese", "cards": 4, "effects-0": "illusion", "effects-1": "illusion"},
     "Illusion cannot value a sale past 5 cards."),
    ({"product": "caviar", "cards": 2}, "Not a valid choice."),
    ({"product": "cheese", "cards": 9}, "Not a valid choice."),
    ({"product": "cheese", "cards": "x"}, "Invalid Choice: could not coerce."),
    ({"product": "cheese", "cards": 2, "effects-0": "joker"}, "Not a valid choice."),
    ({"product": "cheese"}, "How many cards are sold together?"),
])
def test_calculator_bad_input_is_explained_never_a_crash(client, query, message):
    page = client.get("/memo/carambouille", query_string=query)
    assert page.status_code == 422
    assert message in text(page)
    swap = client.get("/memo/carambouille", headers=HTMX, query_string=query)
    assert swap.status_code == 200 and message in text(swap)


@pytest.mark.parametrize("query, result", [
    ({"product": "lemons", "cards": 5, "effects-0": "illusion"}, "No value: Illusion cannot value a sale past 5 cards."),
    ({"product": "cheese", "cards": 2, "effects-0": "joker"}, "No value: Not a valid choice."),
    ({"product": "cheese"}, "Choose a product and the number of cards: the value shows here."),
    ({"product": "caviar", "cards": 2}, "Choose a product and the number of cards: the value shows here."),
])
def test_the_result_says_why_a_sale_asked_whole_has_no_value(client, query, result):
    for headers in ({}, HTMX):
        page = client.get("/memo/carambouille", headers=headers, query_string=query)
        box = re.search(r'<div class="calc-result"[^>]*>(.*?)</div>', page.text, re.S).group(1)
        assert " ".join(re.sub(r"<[^>]+>", " ", box).split()) == result


def test_calculator_offers_no_illusion_on_five_cards(client):
    page = client.get("/memo/carambouille", query_string={"product": "wine", "cards": 5, "effects-0": "bargain"})
    then = re.search(r'id="calc-effect-1".*?</select>', page.text, re.S).group(0)
    assert "Illusion" in then  # the form lists every card; the rules explain a wrong one
    assert "5 × wines = 600" in page.text and "Bargain → 300" in page.text


# --- a table's house memo ------------------------------------------------------------------

def new_table(app) -> str:
    return make_table(app, "carambouille", ["Ana", "Ben", "Cy"], {"first_trader": 0})


def entry_count(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Entry))


def memo_form(overrides: dict | None = None, **extra) -> dict:
    from companion.rules import carambouille as game

    data = {f"m{v}_{n + 1}": cell for v, row in game.DEFAULT_MEMO.items() for n, cell in enumerate(row)}
    return data | (overrides or {}) | {"key": form_key()} | extra


def test_table_memo_is_the_printed_one_until_the_table_changes_it(app, client):
    token = new_table(app)
    page = client.get(f"/t/{token}/memo")
    assert page.status_code == 200 and 'class="unconfirmed house"' not in page.text
    assert "Change this table's house memo" in page.text
    form = client.get(f"/t/{token}/memo/edit")
    assert form.status_code == 200 and form.text.count('type="number"') == 50
    response = client.post(f"/t/{token}/memo/edit", data=memo_form({"m40_5": 500, "m10_5": 100}))
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{token}/memo")
    page = client.get(f"/t/{token}/memo")
    assert memo_row(page.text, 40) == ["40", "100", "180", "300", "500"]
    assert page.text.count("(house memo)") == 2 and "underlined" in page.text
    history = text(client.get(f"/t/{token}/history"))
    assert "House memo changed: 5 cards of 10 now 100 (was 120), 5 cards of 40 now 500 (was 480)" in history
    # The calculator on the table's memo uses the house values.
    calc = client.get(f"/t/{token}/memo", headers=HTMX, query_string={"product": "sausage", "cards": 5})
    assert "5 × sausages = 500" in calc.text


def test_a_house_memo_sent_reads_nothing_back_once_it_is_committed(app, client):
    # At a city's 50 entries a second, every read after the commit (the table and the entry, expired by
    # it) was one more connection, transaction and two queries for what the request had just written.
    token = new_table(app)
    client.get(f"/t/{token}/memo/edit")
    with app.app_context():
        engine = db.engine
    statements: list[str] = []
    listen = lambda conn, cursor, statement, *rest: statements.append(statement)  # noqa: E731
    committed = lambda conn: statements.append("COMMIT")  # noqa: E731
    sa.event.listen(engine, "before_cursor_execute", listen)
    sa.event.listen(engine, "commit", committed)
    try:
        response = client.post(f"/t/{token}/memo/edit", data=memo_form({"m40_5": 500}))
    finally:
        sa.event.remove(engine, "before_cursor_execute", listen)
        sa.event.remove(engine, "commit", committed)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{token}/memo")
    assert statements.count("COMMIT") == 1 and statements[-1] == "COMMIT"
    assert memo_row(client.get(f"/t/{token}/memo").text, 40)[-1] == "500"


def test_house_memo_values_are_used_by_later_sales_and_undo_takes_the_change_back(app, client):
    token = new_table(app)
    client.post(f"/t/{token}/memo/edit", data=memo_form({"m40_3": 200}))
    with app.app_context():
        table = db.session.scalar(sa.select(Table).filter_by(token=token))
        for event in ({"type": "market_opened"}, {"type": "market_closed"}):
            recording.record(table, event)
    preview = client.post(f"/t/{token}/carambouille/sale",
                          data={"key": form_key(), "player": 0, "product": "cheese", "cards": 3, "step": "preview"})
    assert "3 × cheeses = 200" in text(answered(client, preview, token, "sale-form"))
    assert client.post(f"/t/{token}/undo", data={"key": form_key(), "entry": 1}).status_code == 303
    preview = client.post(f"/t/{token}/carambouille/sale",
                          data={"key": form_key(), "player": 0, "product": "cheese", "cards": 3, "step": "preview"})
    assert "3 × cheeses = 180" in text(answered(client, preview, token, "sale-form"))


@pytest.mark.parametrize("overrides, field, message", [
    ({"m40_5": -1}, "m40_5", "A selling value is 0 to 100,000 points."),
    ({"m40_5": ""}, "m40_5", "Give the value of 5 cards of 40."),
    ({"m70_2": "lots"}, "m70_2", "Not a valid integer value."),
])
def test_house_memo_refusals_are_next_to_the_cell_and_record_nothing(app, client, overrides, field, message):
    token = new_table(app)
    response = client.post(f"/t/{token}/memo/edit", data=memo_form(overrides))
    assert response.status_code == 422
    assert re.search(rf'id="{field}-error">[^<]*{re.escape(message)}', response.text), response.text
    assert entry_count(app) == 0


def test_saving_the_same_memo_says_nothing_changed_and_reset_goes_back_to_the_print(app, client):
    token = new_table(app)
    response = client.post(f"/t/{token}/memo/edit", data=memo_form())
    assert response.status_code == 422 and "That is the memo the table already uses" in text(response)
    client.post(f"/t/{token}/memo/edit", data=memo_form({"m90_1": 95}))
    assert client.post(f"/t/{token}/memo/edit", data={"key": form_key(), "reset": "yes"}).status_code == 303
    assert "(house memo)" not in client.get(f"/t/{token}/memo").text
    assert entry_count(app) == 2


HTMX = {"HX-Request": "true"}


def test_the_house_memo_sent_by_htmx_is_refused_in_its_form_and_recorded_as_the_page_would(app, client):
    # Sent by htmx (its page's form), a refusal comes back as the form alone, what was wrong next to the cell,
    # as 200 (htmx swaps only 2xx answers); recorded, the phone is sent to the table's memo.
    token = new_table(app)
    client.get(f"/t/{token}/memo/edit")
    refused = client.post(f"/t/{token}/memo/edit", data=memo_form({"m40_5": -1}), headers=HTMX)
    assert refused.status_code == 200
    assert "<html" not in refused.text and 'class="memo-edit"' in refused.text
    assert re.search(r'id="m40_5-error">[^<]*A selling value is 0 to 100,000 points\.', refused.text)
    assert entry_count(app) == 0
    saved = client.post(f"/t/{token}/memo/edit", data=memo_form({"m40_5": 500}), headers=HTMX)
    assert saved.status_code == 200 and saved.headers["HX-Redirect"] == f"/t/{token}/memo"
    assert entry_count(app) == 1 and "(house memo)" in client.get(f"/t/{token}/memo").text


def test_memo_pages_of_a_table_of_another_game_are_not_found(app, client, tiny):
    token = make_table(app, "tiny", ["Ana", "Ben"])
    assert client.get(f"/t/{token}/memo").status_code == 404
    assert client.get(f"/t/{token}/memo/edit").status_code == 404


def test_watch_view_memo_has_no_edit_link(app, client):
    token = new_table(app)
    with app.app_context():
        watch = db.session.scalar(sa.select(Table.watch_token).filter_by(token=token))
    page = client.get(f"/w/{watch}/memo")
    assert page.status_code == 200 and "/memo/edit" not in page.text


def test_home_page_links_the_memo_card(client):
    assert 'href="/memo/carambouille"' in client.get("/").text


def test_the_offline_calculator_words_each_total_in_the_form_of_its_number(client):
    page = client.get("/memo/carambouille", headers={"Accept-Language": "fr"})
    data = json.loads(html.unescape(re.search(r"id=\"calculator-data\" data-offline='([^']*)'", page.text).group(1)))
    # French counts 0 in the singular: a sale cancelled by Overstock is "= 0 point".
    assert data["totals"]["0"] == "= {points} point" and data["totals"]["180"] == "= {points} points"
    assert set(data["totals"]) == set(data["numbers"])
