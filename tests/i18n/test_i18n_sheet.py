"""The score sheet's refusals and words in each language, from the real catalogs, as a phone reads them beside
the field they are about."""

from __future__ import annotations

import html
import re

import pytest

from helpers import form_key, make_table

HTMX = {"HX-Request": "true"}
FOUR = ["Ana", "Ben", "Eli", "Dan"]


def post_round(client, token, language, *points):
    data = {"key": form_key(), "round": "1", "seen": "0", **{f"points-{i}": p for i, p in enumerate(points)}}
    headers = {**HTMX, "Accept-Language": language}
    return html.unescape(client.post(f"/t/{token}/sheet/round", data=data, headers=headers).get_data(as_text=True))


REFUSALS = [
    # Every box left empty: said under the boxes.
    ("en", ("", "", "", ""), "points-error", "Type each player's points, 0 included."),
    ("fr", ("", "", "", ""), "points-error", "Saisis les points de chaque joueur, même si c'est 0."),
    ("de", ("", "", "", ""), "points-error", "Trag die Punkte jedes Spielers ein, auch wenn es 0 sind."),
    ("it", ("", "", "", ""), "points-error", "Scrivi i punti di ogni giocatore, anche se sono 0."),
    # Some left empty: beside the first, naming each player forgotten (French elides "de" before a vowel).
    ("en", ("5", "3", "", ""), "points-2-error", "Type the points of Eli and Dan too, 0 included."),
    ("fr", ("5", "3", "", ""), "points-2-error",
     "Il manque les points d'Eli et Dan\u00a0: saisis-les, même si c'est 0."),
    ("de", ("5", "3", "", ""), "points-2-error",
     "Es fehlen noch die Punkte von Eli und Dan: Trag sie ein, auch wenn es 0 sind."),
    ("it", ("5", "3", "", ""), "points-2-error", "Mancano i punti di Eli e Dan: scrivili, anche se sono 0."),
    # Two signs in a row, and a sign no entry takes.
    ("fr", ("--5", "0", "0", "0"), "points-0-error",
     "Deux signes d'affilée, «\u00a0--\u00a0»\u00a0: ne garde que celui que tu voulais."),
    ("de", ("0", "+-5", "0", "0"), "points-1-error",
     "Zwei Rechenzeichen hintereinander, „+-“: lass nur das stehen, das du meinst."),
    ("it", ("0", "0", "1/2", "0"), "points-2-error",
     "Solo cifre, parentesi e i segni + − × (si possono scrivere anche - * x X): non «/»."),
]


@pytest.mark.parametrize("language, points, field, said", REFUSALS)
def test_a_refused_round_says_why_in_the_phones_language(app, client, language, points, field, said):
    token = make_table(app, "sheet", FOUR, {"first_player": 0, "name": "Hearts"})
    text = post_round(client, token, language, *points)
    found = re.search(rf'id="{field}"[^>]*>([^<]*)<', text)
    assert found and found.group(1) == said


@pytest.mark.parametrize("language, team, your_team, each, csv_head", [
    ("en", "Ana and Eli", "(your team)", "Each player's total", "Rank,Team,"),
    ("fr", "Ana et Eli", "(ton équipe)", "Total de chaque joueur", "Rang,Équipe,"),
    ("de", "Ana und Eli", "(dein Team)", "Summe jedes Spielers", "Platz,Team,"),
    ("it", "Ana e Eli", "(la tua squadra)", "Totale di ogni giocatore", "Posizione,Squadra,"),
])
def test_a_teams_total_is_said_as_the_teams_in_each_language(app, client, language, team, your_team, each, csv_head):
    token = make_table(app, "sheet", FOUR, {"first_player": 0, "name": "Belote", "teams": [0, 1, 0, 1]})
    post_round(client, token, "en", "80", "20", "82", "0")
    client.post(f"/t/{token}/seat", data={"seat": "0"})
    page = html.unescape(client.get(f"/t/{token}", headers={"Accept-Language": language}).get_data(as_text=True))
    row = re.search(r'<ol class="score-row".*?</ol>', page, re.S).group(0)
    assert f'<span class="name">{team}<span class="vh"> {your_team}</span></span>' in row
    assert f'<th scope="row">{each}</th>' in page
    csv_text = client.get(f"/t/{token}/results.csv", headers={"Accept-Language": language}).get_data(as_text=True)
    assert csv_text.lstrip("\ufeff").startswith(csv_head)
    assert f"1,{team},162" in csv_text
